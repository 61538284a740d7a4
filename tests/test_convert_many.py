"""``run.py convert-many`` (issue 29) as a firm runs it: a folder of generated companies, three of
them broken in different ways, converted by one command into proven books (each reopened through
GnuCash's engine and compared with the generator's truth) and a summary that says what went wrong
with the three; a re-run converts only what changed; a manifest; isolation of a worker that dies;
the exit statuses; the terminal's progress."""

from __future__ import annotations

import csv
import json
import os
import pty
import re
import shutil
import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.support.cli import convert
from tests.support.cli import convert_many as many

COMPANIES = 20


def _write(folder: Path, seed: int, n: int = 40):
    from tests.support.companygen import make_company

    company = make_company(n, seed=seed)
    folder.mkdir(parents=True, exist_ok=True)
    company.write_lists_iif(folder / "lists.iif")
    company.write_transaction_detail_csv(folder / "transaction_detail.csv")
    return company


def _summary(outdir: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((outdir / "summary.csv").read_text(encoding="utf-8").splitlines()))


def _balances(book_path: Path) -> dict[str, D]:
    from app import gnc

    return {a.full_name: a.balance for a in gnc.read_book(book_path).accounts}


def _truth(company) -> dict[str, D]:
    return company.expected_balances()


def _proven(company, book: Path) -> None:
    got, expected = _balances(book), _truth(company)
    assert {k: got.get(k, D(0)) for k in expected} == expected


def _no_partials(outdir: Path) -> None:
    left = [p for p in outdir.rglob("*") if ".partial" in p.name or ".old-" in p.name]
    assert left == []


@pytest.fixture(scope="module")
def firm(tmp_path_factory):
    """20 company folders: 17 good ones, and three broken in different ways."""
    root = tmp_path_factory.mktemp("firm")
    clients = root / "clients"
    truth = {}
    for i in range(COMPANIES - 3):
        name = f"Client {i:02d}"
        truth[name] = _write(clients / name, seed=300 + i)
    empty = clients / "Scanned Papers Co"  # no QuickBooks export in it
    empty.mkdir()
    (empty / "notes.txt").write_text("call the client about March\n")
    (empty / "receipt.pdf").write_bytes(b"%PDF-1.4\n\x00\x01\x02binary")
    broken = clients / "Broken Books LLC"  # a transaction that does not balance
    _write(broken, seed=901)
    detail = broken / "transaction_detail.csv"
    text = detail.read_text(encoding="utf-8")
    detail.write_text(text.replace('"25,000.00",,"25,000.00"', '"25,000.01",,"25,000.01"', 1))
    odd = clients / "Odd Currency Inc"  # a plan naming a currency GnuCash does not know
    _write(odd, seed=902)
    (odd / "plan.json").write_text('{"currency": "XYZ"}')
    out = root / "out"
    run = many(clients, "-o", out, "--jobs", "2")
    return clients, out, truth, run


def test_twenty_companies_one_command_seventeen_proven_books(firm):
    _clients, out, truth, run = firm
    assert run.returncode == 1, run.stdout + run.stderr  # some could not be converted
    assert "20 companies: 17 match QuickBooks, 3 could not be converted\n" in run.stdout
    for name, company in truth.items():
        folder = out / name.replace(" ", "-")
        book = folder / f"{folder.name}.gnucash"
        _proven(company, book)
        for member in ("report.csv", "report.html", "files.csv", "plan.json", "result.json"):
            assert (folder / member).is_file(), member
        assert (folder / f"{folder.name}-audit.zip").is_file()
        assert f"] {name}: matches QuickBooks (40 transactions, 51 accounts match, " in run.stdout
    rows = _summary(out)
    assert len(rows) == COMPANIES
    first = {r["company"]: r for r in rows[:3]}  # attention first
    assert set(first) == {"Broken Books LLC", "Odd Currency Inc", "Scanned Papers Co"}
    assert {r["status"] for r in rows[:3]} == {"could not be converted"}
    assert {r["status"] for r in rows[3:]} == {"matches QuickBooks"}
    assert first["Scanned Papers Co"]["message"] == (
        "no QuickBooks exports among its 2 files (notes.txt, receipt.pdf)"
    )
    assert first["Broken Books LLC"]["message"].startswith("1 problem to resolve: ")
    assert "transaction_detail.csv:6" in first["Broken Books LLC"]["message"]
    assert "balance" in first["Broken Books LLC"]["message"]
    assert "unknown currency “XYZ”" in first["Odd Currency Inc"]["message"]
    for r in rows[:3]:  # none of the three has a book, each says why in its folder
        folder = out / r["folder"]
        assert not list(folder.glob("*.gnucash"))
        assert (folder / "problems.txt").read_text(encoding="utf-8").strip()
        assert r["message"] in run.stdout
    assert all(r["accounts_match"] == "51" and r["accounts_differ"] == "0" for r in rows[3:])
    assert all(float(r["seconds"]) > 0 for r in rows[3:])  # the books written
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert "20 companies: 17 match QuickBooks, 3 could not be converted" in page
    assert page.index("Scanned Papers Co") < page.index("Client 00")
    assert '<a href="Client-00/report.html">verification report</a>' in page
    _no_partials(out)


def test_a_re_run_converts_only_what_changed(firm, tmp_path):
    """The firm fixes the broken company and changes one file of another: only those two (and
    the two still broken) are converted again; the rest keep their books untouched."""
    clients, out0, truth, _run = firm
    work, out = tmp_path / "clients", tmp_path / "out"
    shutil.copytree(clients, work)
    shutil.copytree(out0, out)
    stamps = {p: p.stat().st_mtime_ns for p in out.glob("*/*.gnucash")}
    fixed = _write(work / "Broken Books LLC", seed=901)  # exported again, correctly
    changed = _write(work / "Client 05", seed=555)  # a later export of that company
    rerun = many(work, "-o", out)
    assert rerun.returncode == 1, rerun.stdout + rerun.stderr  # two are still broken
    rows = {r["company"]: r for r in _summary(out)}
    assert rows["Broken Books LLC"]["status"] == "matches QuickBooks"
    assert rows["Broken Books LLC"]["run"] == "converted"
    assert rows["Client 05"]["run"] == "converted"
    unchanged = {n for n, r in rows.items() if r["run"] == "unchanged"}
    assert unchanged == set(truth) - {"Client 05"}
    assert "; 16 unchanged since their book was written" in rerun.stdout
    _proven(fixed, out / "Broken-Books-LLC" / "Broken-Books-LLC.gnucash")
    _proven(changed, out / "Client-05" / "Client-05.gnucash")
    for path, stamp in stamps.items():
        if path.parent.name != "Client-05":
            assert path.stat().st_mtime_ns == stamp, path  # not written again


def _manifest(path: Path, rows: list[list[str]]) -> Path:
    lines = ["company,files,plan,options,output", *(",".join(r) for r in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_manifest_its_options_and_two_companies_writing_one_output(tmp_path):
    data = tmp_path / "exports"
    north = _write(data / "north", seed=41)
    south = _write(data / "south", seed=42)
    _write(data / "east", seed=43)
    _write(data / "west", seed=44)
    manifest = _manifest(
        data / "batch.csv",
        [
            ["North Ltd", "north", "", "--currency CAD --reparent", ""],
            [
                "South Ltd",
                "south/lists.iif;south/transaction_detail.csv",
                "",
                "--classes memo --sales-tax lines --foreign-as-home",  # (hunt 22: "not a plan
                "southern",  # option here", though plan options of convert)
            ],
            ["East Ltd", "east", "", "", "books"],
            ["West Ltd", "west", "", "", "Books"],
            ["Nowhere Ltd", "missing-folder", "", "", ""],
            ["Mixed Ltd", "east", "", "--format sqlite", "postgres://me@db.example.com/mixed"],
            ["Empty Ltd", "empty", "", "", ""],
        ],
    )
    (data / "empty").mkdir()
    out = tmp_path / "out"
    (out / ".Gone.partial-999999").mkdir(parents=True)  # left by a batch stopped by force
    (out / ".North-Ltd.old-999999").mkdir()
    run = many(manifest, "-o", out)
    assert run.returncode == 1
    rows = {r["company"]: r for r in _summary(out)}
    assert rows["North Ltd"]["status"] == rows["South Ltd"]["status"] == "matches QuickBooks"
    assert "CAD" in (out / "North-Ltd" / "plan.json").read_text()
    north_book = _balances(out / "North-Ltd" / "North-Ltd.gnucash")  # --reparent: GnuCash's tree
    assert north_book["Assets:Current Assets:Checking"] == _truth(north)["Checking"]
    _proven(south, out / "southern" / "southern.gnucash")
    south_plan = json.loads((out / "southern" / "plan.json").read_text())
    assert (south_plan["classes"], south_plan["sales_tax"], south_plan["foreign_as_home"]) == (
        "memo",
        "lines",
        True,
    )
    for name, other in (("East Ltd", "West Ltd"), ("West Ltd", "East Ltd")):
        assert rows[name]["status"] == "could not be converted"
        assert rows[name]["run"] == "not started"
        assert f"as {other} does: give each company its own output" in rows[name]["message"]
    assert not (out / "books").exists() and not (out / "Books").exists()
    assert rows["Nowhere Ltd"]["message"] == "batch.csv:6: missing-folder: no such file or folder"
    assert rows["Mixed Ltd"]["message"] == (
        "batch.csv:7: its output is a PostgreSQL database, but its format is sqlite"
    )
    # a folder named that holds no export (it was "no files given (the files column)")
    assert rows["Empty Ltd"]["message"] == "batch.csv:8: empty: no export in it"
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


def test_a_worker_that_dies_takes_no_other_company_with_it(tmp_path):
    clients = tmp_path / "clients"
    good = {name: _write(clients / name, seed=60 + i) for i, name in enumerate(("Alpha", "Beta"))}
    _write(clients / "Crashing Co", seed=62)
    out = tmp_path / "out"
    run = many(clients, "-o", out, env={"QB2GNUCASH_MANY_KILL": "Crashing Co"})
    assert run.returncode == 1
    rows = {r["company"]: r for r in _summary(out)}
    assert rows["Crashing Co"]["message"].startswith(
        "the conversion process stopped (signal 9) before it finished"
    )
    assert not list((out / "Crashing-Co").glob("*.gnucash"))
    for name, company in good.items():
        _proven(company, out / name / f"{name}.gnucash")
    _no_partials(out)


def test_a_book_that_differs_exits_3_with_strict(tmp_path):
    """QuickBooks' own figures (the lists' opening balances) disagree with the history: the
    book is written, the summary says it differs, --strict makes the exit status 3."""
    clients = tmp_path / "clients"
    _write(clients / "Fine Co", seed=70)
    _write(clients / "Differs Co", seed=71)
    lists = clients / "Differs Co" / "lists.iif"
    lines = lists.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("ACCNT\tChecking\t"))
    cells = lines[at].split("\t")
    header = next(line for line in lines if line.startswith("!ACCNT")).split("\t")
    ob = header.index("OBAMOUNT")
    figure = D(cells[ob].strip('"').replace(",", "")) + D("100.00")
    cells[ob] = f"{figure:.2f}"
    lines[at] = "\t".join(cells)
    lists.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    plain = many(clients, "-o", out)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    rows = _summary(out)
    assert [r["company"] for r in rows] == ["Differs Co", "Fine Co"]
    assert rows[0]["status"] == "differs from QuickBooks"
    assert rows[0]["accounts_differ"] == "1" and rows[0]["book"].endswith(".gnucash")
    assert "differ" in rows[0]["message"]
    strict = many(clients, "-o", out, "--strict")
    assert strict.returncode == 3  # (both unchanged: their results are the earlier ones)
    assert "; 2 unchanged since their book was written" in strict.stdout
    forced = many(clients, "-o", out, "--strict", "--force")  # both converted again
    assert forced.returncode == 3
    assert [r["run"] for r in _summary(out)] == ["converted", "converted"]


def test_a_book_changed_since_the_batch_wrote_it_is_neither_replaced_nor_called_proven(tmp_path):
    """A re-run read "matches QuickBooks; unchanged since its book was written", exit 0 with
    --strict, for a book changed since (brought up to date with a later export, or another
    book put in its place): only the exports and the plan were compared (hunt 22). Now the
    book's own SHA-256 is: such a company is said, its book kept as it is, the batch fails;
    --force converts it again."""
    clients = tmp_path / "clients"
    fine = _write(clients / "Fine Co", seed=73)
    _write(clients / "Other Co", seed=74)
    out = tmp_path / "out"
    assert many(clients, "-o", out).returncode == 0
    books = {p.parent.name.split("-")[0].split(" ")[0]: p for p in out.glob("*/*.gnucash")}
    book, other = books["Fine"], books["Other"]
    book.write_bytes(other.read_bytes())  # (another book in its place)
    placed = book.read_bytes()
    again = many(clients, "-o", out, "--strict")
    assert again.returncode == 3, again.stdout + again.stderr  # (not proven: --strict says so)
    rows = {r["company"]: r for r in _summary(out)}
    assert rows["Fine Co"]["message"].startswith(f"{book.name} has changed since this batch")
    assert rows["Fine Co"]["status"] == "kept as changed since, not proven again"
    assert rows["Other Co"]["run"] == "unchanged"
    # not a failure: without --strict the batch succeeds (a book only opened in GnuCash
    # changes its bytes too, hunt 25: it read "could not be converted", exit 1)
    plain = many(clients, "-o", out)
    assert plain.returncode == 0 and "1 kept as changed since written" in plain.stdout
    assert book.read_bytes() == placed  # (kept: not replaced, not proven)
    forced = many(clients, "-o", out, "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    _proven(fine, book)
    # a result of a version that kept no SHA-256: nothing tells whether the book changed since:
    # kept, never replaced, never called proven (hunt 25: converted again over the user's book;
    # hunt 26: "matches QuickBooks, unchanged" for any book put there)
    result = book.parent / "result.json"
    kept = {k: v for k, v in json.loads(result.read_text()).items() if k != "book_sha256"}
    result.write_text(json.dumps(kept))
    book.write_bytes(other.read_bytes())
    old = many(clients, "-o", out)
    rows = {r["company"]: r for r in _summary(out)}
    assert old.returncode == 0 and rows["Other Co"]["run"] == "unchanged"
    assert rows["Fine Co"]["status"] == "kept as changed since, not proven again"
    assert "written by an earlier version of qb2gnucash" in rows["Fine Co"]["message"]
    assert book.read_bytes() == other.read_bytes()


def test_a_company_s_exports_in_its_sub_folders_are_read(tmp_path):
    """A company folder's sub-folders hold exports too (a year's exports in a folder of their
    own, or all of them one folder down): read, the book proven against the generator's truth;
    a hidden sub-folder is not read (its broken file would stop the company)."""
    clients = tmp_path / "clients"
    nested = _write(clients / "Nested Co", seed=72)
    (clients / "Nested Co" / "2019-2021").mkdir()
    (clients / "Nested Co" / "transaction_detail.csv").rename(
        clients / "Nested Co" / "2019-2021" / "transaction_detail.csv"
    )
    (clients / "Nested Co" / ".old").mkdir()
    (clients / "Nested Co" / ".old" / "broken.csv").write_text("not,an,export\n1,2,3\n")
    deep = _write(clients / "Deep Co" / "exports" / "quickbooks", seed=73)
    out = tmp_path / "out"
    run = many(clients, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {r["company"]: r for r in _summary(out)}
    assert {name: r["status"] for name, r in rows.items()} == {
        "Deep Co": "matches QuickBooks",
        "Nested Co": "matches QuickBooks",
    }
    _proven(nested, out / "Nested-Co" / "Nested-Co.gnucash")
    _proven(deep, out / "Deep-Co" / "Deep-Co.gnucash")
    # a folder per year with QuickBooks' same file name in each: said with both paths and what
    # to do (hunt 22: "two input files are named journal.csv", the README suggesting the layout)
    (clients / "Nested Co" / "2022").mkdir()
    (clients / "Nested Co" / "2022" / "transaction_detail.csv").write_bytes(
        (clients / "Nested Co" / "2019-2021" / "transaction_detail.csv").read_bytes()
    )
    again = many(clients, "-o", out)
    rows = {r["company"]: r for r in _summary(out)}
    said = rows["Nested Co"]["message"]
    assert "two input files are named transaction_detail.csv (" in said, said
    assert "2019-2021/transaction_detail.csv" in said and "2022/transaction_detail.csv" in said
    assert "rename one (journal-2019.csv)" in said and again.returncode == 1


def test_the_same_company_twice_is_said(tmp_path):
    """A company folder copied under another name (its files renamed too): both are converted
    and proven, and the copy's row and the batch's last lines say it holds the same exports as
    the first, file for file, counted as a warning (it passed unsaid)."""
    clients = tmp_path / "clients"
    acme = _write(clients / "Acme", seed=74)
    _write(clients / "Other Co", seed=75)
    shutil.copytree(clients / "Acme", clients / "Acme copy")
    (clients / "Acme copy" / "lists.iif").rename(clients / "Acme copy" / "acme lists.iif")
    out = tmp_path / "out"
    run = many(clients, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-2] == (
        "Warning: Acme copy holds the same exports as Acme, file for file: the same company twice?"
    ), run.stdout
    rows = {r["company"]: r for r in _summary(out)}
    assert {n: r["status"] for n, r in rows.items()} == dict.fromkeys(
        ("Acme", "Acme copy", "Other Co"), "matches QuickBooks"
    )
    said = "the same exports as Acme, file for file: the same company twice?"
    assert rows["Acme copy"]["message"].startswith(said), rows["Acme copy"]
    assert int(rows["Acme copy"]["warnings"]) == int(rows["Acme"]["warnings"]) + 1
    assert "same exports" not in rows["Acme"]["message"] + rows["Other Co"]["message"]
    assert said in (out / "summary.html").read_text(encoding="utf-8")
    _proven(acme, out / "Acme" / "Acme.gnucash")
    _proven(acme, out / "Acme-copy" / "Acme-copy.gnucash")
    # the same files converted on purpose in another way (another plan) are no twins (hunt 11)
    manifest = _manifest(
        tmp_path / "batch.csv",
        [
            ["Acme", "clients/Acme", "", "", "xml"],
            ["Acme", "clients/Acme", "", "--format sqlite", "db"],
        ],
    )
    both = many(manifest, "-o", tmp_path / "out2")
    assert both.returncode == 0 and "same exports" not in both.stdout, both.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "-o", "out"], "nowhere: no such folder or manifest"),
        (["clients", "-o", "afile"], "afile is a file, not a folder"),
        (["clients", "-o", "out", "--plan", "x.json"], "unrecognized argument --plan"),
        (["clients", "-o", "out", "--format", "postgres"], "a book in PostgreSQL per company"),
        (["clients", "-o", "out", "--currency"], "expected one argument"),
        (["clients", "-o", "out", "--jobs", "0"], "--jobs takes a number of companies"),
        (["empty", "-o", "out"], "empty: no companies in it (expected one sub-folder"),
    ],
)
def test_usage_errors_exit_2(tmp_path, args, message):
    (tmp_path / "clients" / "A").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    (tmp_path / "afile").write_text("x")
    run = many(*args, cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_on_a_terminal_a_line_per_company_and_an_overall_bar(tmp_path):
    clients = tmp_path / "clients"
    for i, name in enumerate(("One", "Two", "Three")):
        _write(clients / name, seed=80 + i)
    primary, replica = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), "convert-many", clients, "-o", tmp_path / "out"],
        stdout=replica,
        stderr=replica,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "160"},
    )
    os.close(replica)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the terminal closed: the run ended
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(timeout=300) == 0
    os.close(primary)
    text = seen.decode("utf-8", "replace")
    assert "\r\x1b[K" in text  # the live lines, redrawn in place
    assert re.search(r"\[#*-*\] [0-3]/3 done", text)  # the overall bar
    assert re.search(r"\n  (One|Two|Three): [A-Z]", text)  # a running company's line
    for name in ("One", "Two", "Three"):
        assert f"] {name}: matches QuickBooks (40 transactions" in text
    assert "3 companies: 3 match QuickBooks" in text


def test_a_manifest_company_whose_book_goes_to_postgresql(pg, tmp_path):
    """The manifest's output column may be a PostgreSQL address: the book goes there, the
    reports to OUTDIR; a re-run with the files unchanged skips it, one with a later export
    replaces the book this batch wrote there (a book it did not write needs --force)."""
    data = tmp_path / "exports"
    first = _write(data / "pg", seed=91)
    _write(data / "taken", seed=92)
    taken = convert(*(data / "taken").iterdir(), "-o", pg.url("taken_db"))
    assert taken.returncode == 0  # a book written there by someone else
    manifest = _manifest(
        data / "batch.csv",
        [
            ["Server Co", "pg", "", "", pg.url("server_co")],
            ["Taken Co", "taken", "", "", pg.url("taken_db")],
        ],
    )
    out = tmp_path / "out"
    run = many(manifest, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    rows = {r["company"]: r for r in _summary(out)}
    assert rows["Server Co"]["status"] == "matches QuickBooks"
    assert rows["Server Co"]["book"] == pg.url("server_co")
    assert "already holds a GnuCash book; not overwritten" in rows["Taken Co"]["message"]
    assert not list((out / "Server-Co").glob("*.gnucash"))
    assert (out / "Server-Co" / "report.html").is_file()
    with __import__("zipfile").ZipFile(out / "Server-Co" / "Server-Co-audit.zip") as zf:
        readme = zf.read("Server-Co-audit/README.txt").decode()
    assert f"The GnuCash book is in the PostgreSQL database {pg.url('server_co')}" in readme
    from app.postgres import engine_password, parse_address

    def in_db(company) -> None:
        from app import gnc

        with engine_password():
            got = {
                a.full_name: a.balance
                for a in gnc.read_book(parse_address(pg.url("server_co"))).accounts
            }
        expected = _truth(company)
        assert {k: got.get(k, D(0)) for k in expected} == expected

    in_db(first)
    again = many(manifest, "-o", out)
    assert {r["company"]: r["run"] for r in _summary(out)}["Server Co"] == "unchanged"
    later = _write(data / "pg", seed=93)  # a later export of the company
    again = many(manifest, "-o", out)
    assert again.returncode == 1
    rows = {r["company"]: r for r in _summary(out)}
    assert (rows["Server Co"]["run"], rows["Server Co"]["status"]) == (
        "converted",
        "matches QuickBooks",
    )
    in_db(later)


def test_a_company_s_plan_naming_no_account_is_named_in_its_problem(tmp_path):
    """The fix says which plan file to edit: the company's own plan.json (it said "the plan
    file (--plan)", an option convert-many does not have)."""
    clients = tmp_path / "clients"
    _write(clients / "Acme", seed=76)
    rule = {"kind": "retype", "account": "Chequing", "target": "BANK"}
    (clients / "Acme" / "plan.json").write_text(json.dumps({"rules": [rule]}))
    out = tmp_path / "out"
    run = many(clients, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    problems = (out / "Acme" / "problems.txt").read_text(encoding="utf-8")
    plan = clients / "Acme" / "plan.json"
    assert (
        "to fix: write the account's full name as the files spell it (Parent:Child) in --type or "
        f"the plan file {plan.absolute()}, or give the file that lists it"
    ) in problems, problems
    assert not list((out / "Acme").glob("*.gnucash"))


def test_a_manifest_s_names_and_columns_are_said_in_words(tmp_path):
    """A company name holding a line break (a quoted cell) was printed and summarised as it
    was; a header without its columns was answered with a Python tuple (hunt 20)."""
    manifest = tmp_path / "batch.csv"
    with manifest.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["company", "files"], ["Zeta\nx", "missing-folder"]])
    run = many(manifest, "-o", tmp_path / "out")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Zeta x" in run.stdout and "Zeta\nx" not in run.stdout
    assert [r["company"] for r in _summary(tmp_path / "out")] == ["Zeta x"]
    bad = tmp_path / "bad.csv"
    bad.write_text("name,files\nAcme,acme\n", encoding="utf-8")
    run = many(bad, "-o", tmp_path / "out2")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "names its columns: company, files, plan, options, output" in run.stderr
