"""GnuCash's own "Tax Invoice" report on one invoice of a book, with ``gnucash-cli --report run``.

An invoice report renders nothing without its invoice chosen, and the command line has no
option for one; but ``gnucash-cli`` loads the user's ``config-user.scm`` (from
``$HOME/.config/gnucash``), where a saved report (a template whose parent is Tax Invoice) can
preset the "Invoice Number" option. The invoice option takes the invoice's GUID as text (4.13:
``gnc:make-invoice-option`` converts a string with ``gncInvoiceLookupFlip``; 5.x: the C++
option takes a GUID string too). So ``render`` finds the invoice's GUID through the engine
(``qof_instance_get_guid`` in ctypes: the bindings wrap no invoice GUID getter), writes such a
file into a throw-away HOME and runs the report there. The user's own HOME is never touched.

``python -m tests.support.tax_invoice BOOK ID`` prints the invoice's GUID (a process of its
own: the book is opened read-only and closed before gnucash-cli opens it).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TAX_INVOICE = "0769e242be474010b4acf264a5512e6e"  # taxinvoice.scm's report-guid (4.13, 5.x)
NAME = "qb2gnucash sample tax invoice"

CONFIG = """(use-modules (gnucash engine) (gnucash app-utils) (gnucash report))
(gnc:define-report
 'version 1
 'name "{name}"
 'report-guid "6b3f0e62c1d94d2a9d1f0c7e3a5b4c21"
 'parent-type "{parent}"
 'menu-path (list gnc:menuname-custom)
 'options-generator
 (lambda ()
   (let* ((template (gnc:find-report-template "{parent}"))
          (options ((gnc:report-template-options-generator template))))
     (gnc:option-set-value (gnc:lookup-option options "General" "Invoice Number") "{guid}")
     options))
 'renderer
 (lambda (report)
   ((gnc:report-template-renderer (gnc:find-report-template "{parent}")) report)))
"""


def invoice_guid(book_path: Path, invoice_id: str) -> str:
    """The GUID (32 hex digits) of the document ``invoice_id`` of the book."""
    from app.gnc import bindings  # first: it sets the environment gnucash needs
    from app.gnc.bindings import C, Query, Session, SessionOpenMode

    lib = bindings.engine().lib
    lib.qof_instance_get_guid.restype = ctypes.c_void_p
    lib.qof_instance_get_guid.argtypes = [ctypes.c_void_p]
    sqlite = book_path.read_bytes()[:16] == b"SQLite format 3\0"
    session = Session()
    session.begin(
        ("sqlite3://" if sqlite else "xml://") + str(book_path.absolute()),
        SessionOpenMode.SESSION_READ_ONLY,
    )
    try:
        session.load()
        query = Query()
        query.search_for("gncInvoice")
        query.set_book(session.book)
        for inv in query.run():
            if C.gncInvoiceGetID(inv) == invoice_id:
                raw = ctypes.string_at(lib.qof_instance_get_guid(int(inv)), 16)
                return raw.hex()
        raise LookupError(f"no document {invoice_id} in {book_path}")
    finally:
        session.end()


def render(book_path: Path, invoice_id: str, timeout: float = 300) -> str:
    """The HTML GnuCash's Tax Invoice report renders for the invoice (CalledProcessError when
    gnucash-cli fails)."""
    guid = subprocess.run(
        [sys.executable, "-m", "tests.support.tax_invoice", str(book_path), invoice_id],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="qb2gnucash-taxinvoice-") as home:
        config = Path(home, ".config", "gnucash")
        config.mkdir(parents=True)
        (config / "config-user.scm").write_text(
            CONFIG.format(name=NAME, parent=TAX_INVOICE, guid=guid), encoding="utf-8"
        )
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": str(Path(home, ".config"))}
        env.pop("GNC_CONFIG_HOME", None)
        return subprocess.run(
            ["gnucash-cli", "--report", "run", "--name", NAME, str(book_path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
            env=env,
            cwd=home,
        ).stdout


if __name__ == "__main__":
    print(invoice_guid(Path(sys.argv[1]), sys.argv[2]))
