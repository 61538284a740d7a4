"""``run.py convert-many``: which companies a batch holds, where each one's book goes, and which
ones are unchanged since their book was written (skipped on a re-run).

A batch is a folder with one sub-folder per company (its exports, in its own sub-folders too,
and optionally its ``plan.json``) or a manifest CSV: ``company,files,plan,options,output`` (only
the first two needed; ``files`` separated by ``;``, each a file or a folder of exports, relative
to the manifest; ``options``: ``run.py convert``'s plan options; ``output``: the company's
folder under OUTDIR, or a PostgreSQL address for its book). A company that cannot be converted
as described (a folder without files, a plan that cannot be read, two companies writing one
output) carries its ``problem`` and is never started; the others go on. No GnuCash here.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import os
import shlex
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from app import audit, cli, postgres
from app.cli_checks import input_error
from app.currency import is_known, unknown
from app.errors import MappingError
from app.fileio import read_json, sha256_of
from app.naming import slug
from app.plan import Plan
from app.postgres import Address
from app.words import quoted

PLAN = "plan.json"
RESULT = "result.json"  # the company's outcome, beside its book
JUNK = frozenset({"thumbs.db", "desktop.ini", PLAN})
COLUMNS = ("company", "files", "plan", "options", "output")
# the plan options of ``run.py convert`` a batch or a manifest row may give (its own options,
# -o, --strict and --force, are the batch's)
PLAN_OPTIONS = frozenset(
    "--format --reparent --currency --date-order --opening-balances --balances-only "
    "--fiscal-year-start --export-date --ytd-to-retained --type --accept-truncated "
    "--documents --sales-tax --classes --foreign-as-home".split()  # (hunt 22: those 3 refused)
)


@dataclass(frozen=True, slots=True)
class Company:
    """One company of the batch: its exports, plan file and options, the folder under OUTDIR
    for its results (``output``), its book's database (``database``, else a file in that
    folder), where it was described (``where``) and, once known, ``plan`` (the plan its book is
    written with) or ``problem`` (why it is not converted)."""

    name: str
    where: str
    files: tuple[Path, ...] = ()
    plan_file: Path | None = None
    options: tuple[str, ...] = ()
    output: str = ""
    database: Address | None = None
    plan: Plan | None = None
    problem: str = ""
    shared_output: bool = False  # its output is another company's too (neither touches it)

    @property
    def book(self) -> str:
        """The book's file name in its folder ("" when it goes to a database)."""
        return "" if self.database else f"{self.output}.gnucash"

    @property
    def target(self) -> str:
        """Where its book goes, as the summary says it."""
        return self.database.url if self.database else f"{self.output}/{self.book}"


def discover(source: Path, outdir: Path) -> list[Company]:
    """The companies of ``source`` (a folder of company folders, or a manifest CSV);
    MappingError when ``source`` itself cannot be read as either."""
    if source.is_dir():
        companies = _from_folder(source, outdir)
    elif source.is_file():
        companies = _from_manifest(source)
    else:
        raise MappingError(f"{source}: no such folder or manifest")
    if not companies:
        raise MappingError(
            f"{source}: no companies in it (expected one sub-folder per company, or a manifest "
            f"CSV with the columns {', '.join(COLUMNS)})"
        )
    return _one_output_each(companies)


def _exports(folder: Path, outdir: Path | None = None) -> tuple[Path, ...]:
    """The files of a company folder that may be exports, its sub-folders' included (a year's
    exports kept in a folder of their own): not hidden, not a plan, not the batch's results
    (``outdir``)."""
    out = []
    for at, folders, names in os.walk(folder):
        here = Path(at)
        folders[:] = sorted(
            f
            for f in folders
            if not f.startswith(".") and (outdir is None or (here / f).resolve() != outdir)
        )
        out += [here / n for n in names if not n.startswith(".") and n.lower() not in JUNK]
    return tuple(sorted(p for p in out if p.is_file()))


def _from_folder(root: Path, outdir: Path) -> list[Company]:
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.resolve() == outdir.resolve():
            continue  # the batch's own results, kept inside the batch folder
        files = _exports(folder, outdir.resolve())
        plan = folder / PLAN
        company = Company(
            folder.name,
            f"{folder.name}/",
            files,
            plan if plan.is_file() else None,
            output=slug(folder.name) or "company",
        )
        if not files:
            company = replace(company, problem=f"no files in {folder}")
        out.append(company)
    return out


def _from_manifest(path: Path) -> list[Company]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise MappingError(f"{path}: cannot read the manifest ({exc})") from None
    rows = list(csv.reader(io.StringIO(text)))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if "company" not in header or "files" not in header:
        raise MappingError(
            f"{path}:1: a manifest's first row names its columns: {', '.join(COLUMNS)}"
        )
    if unknown_columns := [c for c in header if c and c not in COLUMNS]:
        said = f"unknown column {quoted(unknown_columns[0])}; expected {', '.join(COLUMNS)}"
        raise MappingError(f"{path}:1: {said}")
    out = []
    for line, row in enumerate(rows[1:], start=2):
        cells = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}
        if not any(cells.values()):
            continue
        out.append(_row(path, line, cells))
    return out


def _row(manifest: Path, line: int, cells: dict[str, str]) -> Company:
    base, where = manifest.parent, f"{manifest.name}:{line}"
    name = " ".join(cells["company"].split())  # (a line break in a quoted cell: hunt 20)
    company = Company(name or f"line {line}", where, output=slug(name) or f"line-{line}")
    files: list[Path] = []
    for given in filter(None, (f.strip() for f in cells["files"].split(";"))):
        path = base / given
        if path.is_dir():
            files += _exports(path)
        elif path.is_file():
            files.append(path)
        else:
            return replace(company, problem=f"{where}: {given}: no such file or folder")
    company = replace(company, files=tuple(files))
    if not name:
        return replace(company, problem=f"{where}: the company column is empty")
    if not files and cells["files"].strip():  # (folders named, none holding an export)
        return replace(company, problem=f"{where}: {cells['files'].strip()}: no export in it")
    if not files:
        return replace(company, problem=f"{where}: no files given (the files column)")
    if plan := cells.get("plan"):
        company = replace(company, plan_file=base / plan)
    try:
        company = replace(company, options=tuple(shlex.split(cells.get("options", ""))))
    except ValueError as exc:
        return replace(company, problem=f"{where}: options: {exc}")
    return _output(company, cells.get("output", ""))


def _output(company: Company, given: str) -> Company:
    """The manifest's output: a PostgreSQL address, else a plain folder name under OUTDIR."""
    if not given:
        return company
    if postgres.is_address(given):
        try:
            return replace(company, database=postgres.parse_address(given))
        except MappingError as exc:
            return replace(company, problem=f"{company.where}: output: {exc.message}")
    if given in (".", "..") or "/" in given or "\\" in given or given.startswith("."):
        return replace(
            company, problem=f"{company.where}: output {quoted(given)}: a folder name under OUTDIR"
        )
    return replace(company, output=given)


def _one_output_each(companies: list[Company]) -> list[Company]:
    """Two companies writing one folder or one database: neither is converted, each said so
    (file systems that ignore case count "Acme" and "acme" as one)."""
    users: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(companies):
        users["folder " + c.output.casefold()].append(i)
        if c.database:
            users[c.database.url].append(i)
    out = list(companies)
    for key, indexes in users.items():
        if len(indexes) < 2:
            continue
        for i in indexes:
            others = ", ".join(companies[j].name for j in indexes if j != i)
            what = key if not key.startswith("folder ") else f"the folder {companies[i].output}"
            out[i] = replace(
                out[i],
                problem=f"{companies[i].where}: writes to {what}, as {others} does: give each "
                "company its own output (the manifest's output column)",
                shared_output=True,
            )
    return out


def with_plan(company: Company, options: Sequence[str], outdir: Path) -> Company:
    """The company with the plan its book is written with: its plan file, the batch's
    ``options``, its own options, in that order; else with the problem they have."""
    if company.problem:
        return company
    for given in (*options, *company.options):
        if given.startswith("-") and given.split("=")[0] not in PLAN_OPTIONS:
            where = company.where if given in company.options else "the command line"
            return replace(company, problem=f"{where}: {given} is not a plan option here")
    out = company.database.url if company.database else str(outdir / company.output / "x")
    argv = [*map(str, company.files), "-o", out, *options, *company.options]
    if company.plan_file is not None:
        argv += ["--plan", str(company.plan_file)]
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            args = cli.parser().parse_args(argv)
        plan = cli.build_plan(args)
        problem = input_error(args) or ("" if is_known(plan.currency) else unknown(plan.currency))
        if not problem and (company.database is None) == (plan.format == "postgres"):
            problem = (
                "a book in PostgreSQL needs its address in the manifest's output column"
                if company.database is None
                else f"its output is a PostgreSQL database, but its format is {plan.format}"
            )
    except SystemExit:
        said = stderr.getvalue().strip().splitlines()
        problem = said[-1].split("error: ", 1)[-1] if said else "options not understood"
    except MappingError as exc:  # the plan file's own message names it
        return replace(company, problem=exc.message)
    if problem:
        return replace(company, problem=f"{company.where}: {problem}")
    return replace(company, plan=plan)


def book_hash(book: Path) -> str:
    """The SHA-256 of a book file as this batch wrote it ("" when there is none)."""
    try:
        return sha256_of(book)
    except OSError:
        return ""


def changed_since(company: Company, folder: Path) -> str:
    """Why the book in ``folder`` is not to be written again: this batch wrote it there, and it
    has changed since (brought up to date, worked in GnuCash, another put in its place): the
    re-run neither replaces it nor calls it proven (hunt 22: "matches QuickBooks", exit 0,
    from the earlier result). "" when it is not so."""
    result = read_json(folder / RESULT)
    if not company.book or result.get("target") != company.target:
        return ""
    if result.get("state") not in ("done", "differs") or not (folder / company.book).is_file():
        return ""
    if "book_sha256" not in result:  # (an earlier version's: nothing tells; hunt 26)
        return (
            f"{company.book} was written by an earlier version of qb2gnucash, which kept no "
            "fingerprint of it: it is neither replaced nor proven again; give --force to "
            "convert the company again over it"
        )
    if result["book_sha256"] == book_hash(folder / company.book):
        return ""
    return (
        f"{company.book} has changed since this batch wrote it (brought up to date, worked in "
        "GnuCash, or only opened there): it is neither replaced nor proven again; give --force "
        "to convert the company again over it"
    )


def file_hashes(files: Sequence[Path]) -> list[tuple[str, str]]:
    """(name, SHA-256) of each file, as files.csv records them."""
    return sorted((f.name, hashlib.sha256(f.read_bytes()).hexdigest()) for f in files)


def same_exports(companies: Sequence[Company]) -> dict[str, str]:
    """Each company whose exports are, file for file, the content of an earlier one's (names
    aside) and whose plan is the same → that one's name: the same company twice in a batch,
    most likely a folder copied or a manifest row repeated; both are converted, and the summary
    says it. Only companies whose files have the same sizes are read (hashed)."""
    by_size: dict[tuple[int, ...], list[Company]] = defaultdict(list)
    for c in companies:
        if not c.problem and c.files:
            with contextlib.suppress(OSError):  # (its own run says the file it cannot read)
                by_size[tuple(sorted(f.stat().st_size for f in c.files))].append(c)
    first: dict[tuple[str, ...], str] = {}
    out = {}
    for c in (c for group in by_size.values() if len(group) > 1 for c in group):
        try:
            planned = c.plan.to_json() if c.plan else ""  # (other options: no twin)
            content = (*sorted(h for _, h in file_hashes(c.files)), planned)
        except OSError:
            continue
        if content in first:
            out[c.name] = first[content]
        else:
            first[content] = c.name
    return out


def unchanged(company: Company, folder: Path) -> dict | None:
    """The earlier result in ``folder`` when its book was written from these very files and
    plan (the audit pack's files.csv and plan.json) to this same place; else None."""
    if company.plan is None:
        return None
    result = read_json(folder / RESULT)
    if result.get("state") not in ("done", "differs"):
        return None
    if result.get("target") != company.target:
        return None
    if company.book and not (folder / company.book).is_file():
        return None
    if company.book and result.get("book_sha256") != book_hash(folder / company.book):
        return None  # (changed since, or an earlier version's: ``changed_since`` says which)
    recorded = sorted((r["name"], r["sha256"]) for r in audit.read_files(folder))
    try:
        same_plan = (folder / audit.PLAN_JSON).read_text(encoding="utf-8") == company.plan.to_json()
        same_files = recorded == file_hashes(company.files)
    except OSError:
        return None
    return result if same_plan and same_files else None
