"""What the wizard keeps of an upload it refuses (issue 22, items 1 and 2): the stored copy is
blanked whatever the file's fate, and where the reader cannot tell which cells are sensitive no
copy is kept at all (only the name, size and SHA-256, said on the file's card). Every refused
file of this corpus is made from the generator's lists export, whose employees have SSNs and
whose bank accounts have numbers; none of them may be found in any file of the migration
(uploads, meta.json, plan, job) nor on any page."""

from __future__ import annotations

import gzip
import hashlib
import tempfile
from pathlib import Path

import pytest

from app.store import UnknownUpload
from tests.support.companygen import make_company
from tests.support.companygen_data import BANK_NUMBERS, EMPLOYEES
from tests.support.web import new_migration, soup, upload

SECRETS = [ssn for _, ssn in EMPLOYEES] + list(BANK_NUMBERS.values())
PAGES = ("/files", "/preview", "/map", "/import", "/download")


def _lists() -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = make_company(60, seed=11).write_lists_iif(Path(folder) / "lists.iif")
        return path.read_text(encoding="utf-8")


LISTS = _lists()


def _row(keyword: str, name: str) -> str:
    return next(r for r in LISTS.splitlines() if r.startswith(f"{keyword}\t{name}\t"))


def _edited(keyword: str, name: str, edit) -> str:
    row = _row(keyword, name)
    cells = row.split("\t")
    edit(cells)
    return LISTS.replace(row + "\n", "\t".join(cells) + "\n")


def _before(text: str, marker: str, insert: str) -> str:
    at = text.index(marker)
    return text[:at] + insert + text[at:]


EMPLOYEE = EMPLOYEES[0][0]
CSV_LIST = "Employee,SS No.,Phone\r\n" + "".join(
    f"{n},{ssn},415-555-01{i:02d}\r\n" for i, (n, ssn) in enumerate(EMPLOYEES)
)
# name → (content, whether a copy is kept, a phrase of the card's problem)
CORPUS: dict[str, tuple[bytes, bool, str]] = {
    "stray_quote.iif": (
        _before(LISTS, "!EMP\t", 'CUST\t"unterminated quote\tx\n').encode(),
        False,
        "runs over line",
    ),
    "emp_cell_missing.iif": (
        _edited("EMP", EMPLOYEE, lambda c: c.pop(6)).encode(),  # ADDR2
        False,
        "if one is missing before SSNO",
    ),
    "emp_cell_added.iif": (
        _edited("EMP", EMPLOYEE, lambda c: c.insert(2, "x")).encode(),
        False,
        "if one was added before SSNO",
    ),
    "accnt_cell_missing.iif": (
        _edited("ACCNT", "Checking", lambda c: c.pop(6)).encode(),  # DESC
        False,
        "if one is missing before BANKNUM",
    ),
    "never_closed.iif": (
        (LISTS + f'EMP\t"{EMPLOYEE}\t\t\t\t{EMPLOYEES[1][1]}\n').encode(),
        False,
        "never closed",
    ),
    "spaced.iif": (LISTS.replace("\t", " ").encode(), False, "has no tabs"),
    "binary.iif": (gzip.compress(LISTS.encode(), mtime=0), False, "binary file"),
    "employees.csv": (CSV_LIST.encode(), True, ""),
    "vendors.csv": (
        (
            "Vendor,Bank Account No.,Terms\r\n"
            f"Sloan Roofing,{BANK_NUMBERS['Checking']},Net 30\r\n"
            f"State Fund,x,{BANK_NUMBERS['Savings']},Net 30\r\n"
        ).encode(),
        False,
        "if one was added before Bank Account No.",
    ),
    "employees_unnamed.csv": (CSV_LIST.replace("SS No.", "Number").encode(), True, ""),
    "no_emp_header.iif": (
        "".join(r for r in LISTS.splitlines(keepends=True) if not r.startswith("!EMP")).encode(),
        True,
        "",
    ),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_refused_uploads_stored_copy_keeps_no_ssn_or_bank_number(app, client, name):
    data, kept, said = CORPUS[name]
    assert any(s.encode() in data for s in SECRETS) or name == "binary.iif"
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, name, data=data)
    assert r.status_code == 200, r.text
    folder = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1]
    card = soup(client.get(f"{prefix}/files")).select_one(f"article[data-filename='{name}']")
    assert card is not None
    text = " ".join(card.text.split())
    if kept:
        assert (folder / "uploads" / name).is_file()
        assert "No copy kept" not in text
    elif name == "binary.iif":  # plainly no export (app.readers.looks): said so, no copy kept
        assert not (folder / "uploads" / name).exists()
        assert "Not a QuickBooks export" in text and hashlib.sha256(data).hexdigest() in text
        assert said in text and "Lists to IIF Files" in text, text
        assert "it could not tell which of its cells" not in text
    else:
        assert not (folder / "uploads" / name).exists()
        assert "No copy kept" in text and hashlib.sha256(data).hexdigest() in text
        assert said in text, text
        assert "it could not tell which of its cells hold Social Security or bank" in text
    assert "has-errors" in card["class"] or kept
    for page in PAGES:
        shown = client.get(prefix + page).get_data(as_text=True)
        assert not [s for s in SECRETS if s in shown], page
    written = [p for p in folder.rglob("*") if p.is_file()]
    for p in written:
        found = [s for s in SECRETS if s.encode() in p.read_bytes()]
        assert not found, (p.relative_to(folder), found)


def test_a_file_kept_without_a_copy_blocks_the_import_until_removed(app, client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    data = CORPUS["emp_cell_missing.iif"][0]
    upload(client, prefix, csrf, "broken.iif", data=data)
    r = client.post(f"{prefix}/import", headers=csrf)
    assert r.status_code == 422
    assert "broken.iif:" in soup(r).text and "missing before SSNO" in soup(r).text
    m = app.extensions["store"].open(prefix.rsplit("/", 1)[1])
    with pytest.raises(UnknownUpload):  # no copy to read
        m.file("broken.iif")
    r = upload(client, prefix, csrf, "broken.iif", data=data)
    assert r.status_code == 409  # already there (as a card without a copy): remove it first
    r = client.post(f"{prefix}/files/broken.iif/delete", headers=csrf)
    assert r.status_code == 303
    assert "broken.iif" not in client.get(f"{prefix}/files").get_data(as_text=True)
    assert "broken.iif" not in m.meta_path.read_text(encoding="utf-8")
