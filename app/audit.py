"""The audit pack: one zip with what an accountant keeps to show what QuickBooks said and what the
GnuCash book holds: the book, the verification report (CSV and a printable page), the settings
the book was written from, the files read (with their SHA-256 and line counts) and every record
that was not imported, with why and where.

The worker leaves the records beside the book in ``out/`` (``write_records``: files.csv,
not_imported.csv, plan.json), so a pack is assembled from one book's folder only and a kept
earlier book (``out/previous/``) gets its own. ``write_pack`` writes the zip; the printable page
is rendered by the caller (the web layer, from ``templates/jobs/audit_report.html``). No Flask
here. Nothing written holds an SSN or bank number: the stored uploads are blanked already
(app/store.py), and every record comes from them.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import shutil
import zipfile
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

from app import csvsafe
from app.fileio import write_text
from app.items import CATALOGUE_HEADER, Item, catalogue
from app.model import NotImported
from app.plan import Plan, save_plan
from app.readers.values import decode

REPORT_CSV = "report.csv"
REPORT_HTML = "report.html"
NEXT_STEPS_HTML = "next-steps.html"
NEXT_STEPS_JSON = "next_steps.json"  # its figures, beside the book (not in the pack)
DOCUMENTS_CSV = "documents.csv"  # the documents part of the proof, per owner
TAX_CSV = "tax.csv"  # the sales tax part of the proof: per document, per agency
ITEMS_CSV = "items.csv"  # the item catalogue (GnuCash has no item list)
YEARS_CSV = "years.csv"  # every account at every year end (issue 26), when reports were given
CLASSES_CSV = "classes.csv"  # the P&L by class per fiscal year (docs/CLASSES.md)
CLASSES_HTML = "classes.html"  # the same, as a printable page
PLAN_JSON = "plan.json"
ARCHIVE_CSV = "archive-report.csv"  # the archive book's proof (a split history, app.archive)
CARRIED_CSV = "carried.csv"  # the archive's closing balances beside the working book's opening
FILES_CSV = "files.csv"
NOT_IMPORTED_CSV = "not_imported.csv"
README = "README.txt"

BLANKED = (
    "SHA-256 and lines of the stored copy, in which social security and bank account numbers "
    "were blanked: it differs from your original export"
)
AS_UPLOADED = "SHA-256 and lines of the file as uploaded (nothing blanked): your original's"
AS_READ = "SHA-256 and lines of each file as it was read, unchanged"
FILES_HEADER = ("name", "stored_name", "bytes", "lines", "sha256", "note")
NOT_IMPORTED_HEADER = ("what", "name", "reason", "where")

DESCRIPTIONS = {  # member → what it is, in the README's order
    REPORT_HTML: "the verification report as a printable page (open it in a browser, print it "
    "or save it as PDF): does every account's balance match QuickBooks', the other checks, "
    "the notes",
    NEXT_STEPS_HTML: "what to do in GnuCash next, as a printable page: open the book, set the "
    "company name, check the accounting period, run the Trial Balance and aging reports with "
    "the figures to expect, the first bank reconciliation, the next invoice and payment",
    REPORT_CSV: "the verification report, one row per account: QuickBooks' balance, the "
    "book's, the difference, what was compared and as of when",
    DOCUMENTS_CSV: "the open balance of every customer and vendor, in QuickBooks and in the "
    "book (the invoices, bills and payments)",
    TAX_CSV: "the sales tax proof: every invoice's and bill's subtotal, tax and total in "
    "QuickBooks and in the book (and why an invoice keeps QuickBooks' tax as plain lines), then "
    "the tax owed to each agency in QuickBooks and in the book",
    ITEMS_CSV: "QuickBooks' item list, which GnuCash has no place for: each item's type, "
    "prices, accounts, tax code, agency, preferred vendor and, for inventory, the quantity on "
    "hand (its value is in the asset account of the book)",
    YEARS_CSV: "every account at every year end given (QuickBooks' Trial Balance reports): "
    "QuickBooks' figure, the book's and the difference per date",
    CLASSES_CSV: "the P&L by class for every fiscal year: each income and expense account "
    "per QuickBooks class, its lines without a class, the total and the book's figure (they "
    "add up to the P&L)",
    CLASSES_HTML: "the P&L by class as a printable page",
    ARCHIVE_CSV: "the archive book's verification report, one row per account: the figures "
    "of its own history on its last day and the book's",
    CARRIED_CSV: "the archive's closing balance of every account beside the working book's "
    "opening balance, and the difference (zero to the cent)",
    PLAN_JSON: "the settings the book was written from (the Map step's choices: accounts, "
    "rules, currency, opening balances)",
    FILES_CSV: "the QuickBooks files read: the name you gave each, the name it is stored "
    "under, its size, lines and SHA-256",
    NOT_IMPORTED_CSV: "every record GnuCash has no place for, with why and where it is in the "
    "files (file:line)",
}


def line_count(data: bytes) -> int:
    """Lines as the readers number them (a last line without its line end counts)."""
    return len(decode(data)[0].splitlines()) if data else 0


def file_rows(
    paths: Sequence[Path],
    names: Mapping[str, str],
    note: str = AS_UPLOADED,
    blanked: Collection[str] = (),
) -> list[tuple[str, ...]]:
    """One row per stored upload (FILES_HEADER): ``names`` maps a stored name to the name the user
    gave it, where they differ (``Migration.display_names``). ``note``: what the hash is of
    (``AS_READ`` for the command line, which reads the user's own files); ``BLANKED`` for the
    stored names in ``blanked`` (``Migration.blanked``)."""
    rows: list[tuple[str, ...]] = []
    for path in paths:
        data = path.read_bytes()
        rows.append(
            (
                names.get(path.name, path.name),
                path.name,
                str(len(data)),
                str(line_count(data)),
                hashlib.sha256(data).hexdigest(),
                BLANKED if path.name in blanked else note,
            )
        )
    return rows


def not_imported_rows(items: Iterable[NotImported]) -> list[tuple[str, ...]]:
    return [(n.what, n.name, n.reason, str(n.source)) for n in items]


def write_records(
    out_dir: Path,
    files: Sequence[tuple[str, ...]],
    not_imported: Iterable[NotImported],
    plan: Plan,
    items: tuple[Item, ...] = (),
) -> None:
    """The import's records beside its book: files.csv (``files``: ``file_rows`` of the files
    read), not_imported.csv, plan.json (the plan the book was written from), items.csv (the
    item catalogue, when the lists have items; an earlier import's is removed otherwise)."""
    write_text(out_dir / FILES_CSV, csvsafe.text([FILES_HEADER, *files]))
    rows = not_imported_rows(not_imported)
    write_text(out_dir / NOT_IMPORTED_CSV, csvsafe.text([NOT_IMPORTED_HEADER, *rows]))
    save_plan(plan, out_dir / PLAN_JSON)
    if items:
        write_text(out_dir / ITEMS_CSV, csvsafe.text([CATALOGUE_HEADER, *catalogue(items)]))
    else:
        (out_dir / ITEMS_CSV).unlink(missing_ok=True)


def read_files(folder: Path) -> list[dict[str, str]]:
    """files.csv back as rows (for the printable page); [] when the book predates it."""
    try:
        text = (folder / FILES_CSV).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return list(csv.DictReader(text.splitlines()))


def pack_name(book: str) -> str:
    """Green-Valley.gnucash → Green-Valley-audit.zip"""
    return Path(book).stem + "-audit.zip"


def archive_name(book: str) -> str:
    """lists.gnucash → lists-archive.gnucash: the archive book beside its working book."""
    path = Path(book)
    return f"{path.stem}-archive{path.suffix}"


def readme(
    book: str,
    present: Sequence[str],
    missing: Sequence[str],
    written: str,
    *,
    note: str = BLANKED,
    database: str = "",
    archive: str = "",
) -> str:
    lines = [
        f"Audit pack of the GnuCash book {database or book}, written by qb2gnucash{written} "
        "from QuickBooks Desktop exports.",
        "",
        f"{book}: the GnuCash book (open it in GnuCash with File > Open).",
    ]
    if database:  # the book is in a database, not in the pack
        lines[-1] = (
            f"The GnuCash book is in the PostgreSQL database {database} (open it in GnuCash "
            "with File > Open, Data Format postgres); it is not in this pack."
        )
    if archive:
        lines.append(
            f"{archive}: the archive book, the history before the working book's first day "
            "(open it in GnuCash with File > Open)."
        )
    lines += [f"{name}: {DESCRIPTIONS[name]}." for name in present]
    lines.append(f"{README}: this file.")
    if missing:
        lines += [
            "",
            "Not in this pack: "
            + ", ".join(missing)
            + ". The book was written by an earlier version of qb2gnucash; write it again "
            "(Import step) for a complete pack.",
        ]
    lines += ["", note[0].upper() + note[1:] + " (files.csv)."]
    return "\n".join(lines) + "\n"


def _stored(data: bytes) -> int:
    """A gzip-compressed book (GnuCash's XML) is stored as it is; everything else deflated."""
    return zipfile.ZIP_STORED if data.startswith(b"\x1f\x8b") else zipfile.ZIP_DEFLATED


def write_pack(
    target: BinaryIO,
    folder: Path,
    book: str,
    report_html: str,
    finished: float = 0.0,
    *,
    database: str = "",
    named: str = "",
    next_steps: str = "",
) -> None:
    """The zip of the book ``folder/book`` and its records, every member under one folder
    (``Company-audit/``), dated when the book was written (``finished``, a timestamp). A book in
    PostgreSQL (``database``: its address; ``book`` then only names the pack) is named in the
    README instead. ``named``: the book's name in the pack (the company's, renamed after the
    import too; default ``book``); ``next_steps``: the printable "What to do in GnuCash next"."""
    stored, book = book, named or book
    root = Path(book).stem + "-audit/"
    when = dt.datetime.fromtimestamp(finished) if finished else dt.datetime.now()
    date_time = (max(when.year, 1980), when.month, when.day, when.hour, when.minute, when.second)
    optional = (
        REPORT_CSV, DOCUMENTS_CSV, TAX_CSV, ITEMS_CSV, YEARS_CSV, CLASSES_CSV, CLASSES_HTML,
        ARCHIVE_CSV, CARRIED_CSV,
        PLAN_JSON, FILES_CSV, NOT_IMPORTED_CSV,
    )  # fmt: skip
    present = [REPORT_HTML, *(n for n in optional if (folder / n).is_file())]
    if next_steps:
        present.insert(1, NEXT_STEPS_HTML)
    missing = [n for n in (REPORT_CSV, PLAN_JSON, FILES_CSV, NOT_IMPORTED_CSV) if n not in present]
    written = f" on {when:%Y-%m-%d %H:%M}" if finished else ""
    rows = read_files(folder)
    note = (rows[0].get("note") or BLANKED) if rows else BLANKED

    def info(name: str, compress: int = zipfile.ZIP_DEFLATED) -> zipfile.ZipInfo:
        member = zipfile.ZipInfo(root + name, date_time)
        member.compress_type = compress
        member.external_attr = 0o644 << 16
        return member

    archive = archive_name(stored) if (folder / archive_name(stored)).is_file() else ""
    members = [] if database else [(stored, book)]
    members += [(archive, archive_name(book))] if archive and not database else []
    with zipfile.ZipFile(target, "w") as zf:
        for on_disk, name in members:
            with (folder / on_disk).open("rb") as f:
                head = f.read(2)
                f.seek(0)
                with zf.open(info(name, _stored(head)), "w", force_zip64=True) as out:
                    shutil.copyfileobj(f, out, 1024 * 1024)
        zf.writestr(info(REPORT_HTML), report_html)
        if next_steps:
            zf.writestr(info(NEXT_STEPS_HTML), next_steps)
        for name in present[1:]:
            if name != NEXT_STEPS_HTML:
                zf.writestr(info(name), (folder / name).read_bytes())
        text = readme(
            book,
            present,
            missing,
            written,
            note=note,
            database=database,
            archive=archive_name(book) if archive else "",
        )
        zf.writestr(info(README), text)
