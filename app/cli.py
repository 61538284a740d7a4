"""``run.py convert FILE... -o BOOK.gnucash``: the wizard's pipeline without a browser. ``-o
postgres://USER@HOST[:PORT]/DB`` writes the book into a PostgreSQL database instead (app.postgres).

Exit status: 0 written (a difference the verification finds is listed in the last lines); 1 problems
in the input (each on stderr as ``file:line: message``; no book is written), a book GnuCash could
not write, or a report (warnings file, documents report) that could not be written after the book
was (a full disk: one line says which, and why; nothing of them is left); 2 usage errors (options,
plan file, currency, an existing output without ``--force``, an output or report that cannot be
written there: a read-only folder, a name too long; an output on an input, the plan or another
output, or on no plain file; a report already there without ``--force``; a database server that
cannot be reached or refuses the user, a database holding a book); 3 with ``--strict`` when the
verification finds a difference (the book is still written). ``--report R.csv`` writes the
verification report and every warning (R.warnings.txt, most important first) beside the book. A
failed run leaves no new file behind (but for that late report failure); an existing book given with
``--force`` is only replaced on success; what a run killed while saving left beside the book
(``.BOOK.partial-PID``…) is removed by the next run into that folder
(``fileio.remove_stale_partials``: a dead process's only).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from app import cli_split, cli_update, csvsafe, pipeline, postgres, printable, words
from app.cli_checks import usage_error
from app.cli_summary import by_importance, summary, warnings_file, worded
from app.documents.proof import documents_report
from app.documents.tax_proof import tax_report
from app.errors import BookWriteError, MappingError, why_not_written
from app.fileio import remove_stale_partials, write_text
from app.items import CATALOGUE_HEADER, catalogue
from app.model import Problem
from app.plan import (
    CLASSES_MODES,
    DOCUMENTS_MODES,
    FORMATS,
    SALES_TAX_MODES,
    FileOptions,
    Plan,
    Rule,
    load_plan,
    month_day,
    parse_day,
)
from app.postgres import Address
from app.proof_state import verdict
from app.quickbooks import account_type
from app.validate import untyped
from app.verify_report import Report
from app.words import quoted


def _date(text: str) -> str:
    try:
        return parse_day(text).isoformat()
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _month_day(text: str) -> str:
    try:
        return month_day(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


TYPE_HINT = "a GnuCash type such as BANK, ASSET, EXPENSE or a QuickBooks one such as “Bank”"


def _output(text: str) -> Path | Address:
    """``-o``: a book file, or a PostgreSQL database (postgres://USER@HOST[:PORT]/DB)."""
    if not postgres.is_address(text):
        return Path(text)
    try:
        return postgres.parse_address(text)
    except MappingError as exc:  # (never repeats the address: it may hold a password)
        raise argparse.ArgumentTypeError(exc.message) from None


def _retype(text: str) -> tuple[str, str]:
    """``--type "Utilities:Gas=EXPENSE"`` → ("Utilities:Gas", "EXPENSE")."""
    account, eq, word = text.rpartition("=")
    kind = account_type(word)
    if not eq or not account.strip():
        raise argparse.ArgumentTypeError(f"expected ACCOUNT=TYPE (got {quoted(text)})")
    if kind is None:
        raise argparse.ArgumentTypeError(
            f"{quoted(word.strip())} is not an account type; {TYPE_HINT}"
        )
    return account.strip(), kind.value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run.py convert",
        description="Convert QuickBooks Desktop exports (IIF, CSV reports) into a GnuCash book.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="IIF or CSV exports")
    p.add_argument(
        "-o",
        "--output",
        type=_output,
        metavar="BOOK.gnucash",
        help="the book: a file, or a PostgreSQL database postgres://USER@HOST[:PORT]/DB (the "
        "password from PGPASSWORD or ~/.pgpass)",
    )
    cli_update.add_arguments(p)
    p.add_argument("--format", choices=FORMATS, help="book format (default xml)")
    p.add_argument("--reparent", action="store_true", default=None, help="GnuCash's tree")
    p.add_argument("--plan", type=Path, metavar="PLAN.json", help="a plan saved by the wizard")
    p.add_argument("--currency", help="book currency, e.g. USD (default USD)")
    p.add_argument(
        "--foreign-as-home",
        action="store_true",
        default=None,
        help="accounts and names QuickBooks keeps in another currency: convert them at their "
        "home-currency values (else such a company is refused)",
    )
    p.add_argument("--force", action="store_true", help="replace an existing book")
    p.add_argument("--date-order", choices=("mdy", "dmy"), help="how to read 03/04/2024")
    p.add_argument("--opening-balances", action="store_true", default=None)
    p.add_argument("--balances-only", type=_date, metavar="YYYY-MM-DD")
    p.add_argument(
        "--fiscal-year-start",
        type=_month_day,
        metavar="MM-DD",
        help="first day of the fiscal year (default: read from QuickBooks' figures)",
    )
    p.add_argument(
        "--export-date",
        type=_date,
        metavar="YYYY-MM-DD",
        help="the day the lists were exported, when the files do not say (no IIF HDR date)",
    )
    p.add_argument("--ytd-to-retained", action="store_true", default=None)
    p.add_argument(
        "--type",
        type=_retype,
        action="append",
        default=[],
        dest="types",
        metavar='"ACCOUNT=TYPE"',
        help='a GnuCash type for an account (repeatable), e.g. --type "Checking=BANK"',
    )
    p.add_argument(
        "--accept-truncated",
        action="append",
        default=[],
        metavar="FILE",
        help="FILE is cut short on purpose (at QuickBooks' export cap, or a report that stops "
        "early): convert it, the proof naming the missing period (repeatable)",
    )
    p.add_argument("--report", type=Path, metavar="REPORT.csv", help="verification report")
    p.add_argument(
        "--documents",
        choices=DOCUMENTS_MODES,
        help="invoices, bills and payments as GnuCash documents: all (default), open (the open "
        "ones and paid ones sharing their payments; the rest plain transactions) or none",
    )
    p.add_argument(
        "--documents-report",
        type=Path,
        metavar="DOCUMENTS.csv",
        help="per customer and vendor: open balance in QuickBooks and in GnuCash",
    )
    for flag, meta, words_ in (  # items and sales tax (docs/SALES-TAX.md)
        ("--tax-report", "TAX.csv", "each invoice's and agency's tax, QuickBooks and GnuCash"),
        ("--item-catalogue", "ITEMS.csv", "QuickBooks' item list (GnuCash has none)"),
    ):
        p.add_argument(flag, type=Path, metavar=meta, help=words_)
    p.add_argument("--sales-tax", choices=SALES_TAX_MODES, help="tax tables (default) or lines")
    p.add_argument(
        "--classes",
        choices=CLASSES_MODES,
        help="QuickBooks' classes: memo (default: a [Class] memo prefix and a qb-class slot), "
        "accounts (a sub-account per class under each income and expense account) or none",
    )
    p.add_argument("--strict", action="store_true", help="exit 3 on any difference")
    cli_split.add_options(p, _date)
    return p


def build_plan(args: argparse.Namespace, base: Plan | None = None) -> Plan:
    """The plan file (if any; else ``base``: the plan stored in a book being brought up to
    date) with the command line's options on top."""
    plan = load_plan(args.plan, strict=True) if args.plan else base or Plan()
    if args.plan and base is not None:  # (an update: the decisions on held changes kept)
        plan = replace(plan, held={**base.held, **plan.held})
    database = "postgres" if isinstance(args.output, Address) else None
    given = {  # options that set one field of the plan when they are given
        "format": args.format or database,
        "reparent": args.reparent,
        "currency": args.currency.strip().upper() if args.currency else None,
        "foreign_as_home": args.foreign_as_home,
        "documents": args.documents,
    }
    plan = replace(plan, **{k: v for k, v in given.items() if v})
    if args.date_order:
        files = {
            f.name: replace(plan.files.get(f.name, FileOptions()), date_order=args.date_order)
            for f in args.files
        }
        plan = replace(plan, files={**plan.files, **files})
    for given in args.accept_truncated:
        name = Path(given).name
        files = {name: replace(plan.files.get(name, FileOptions()), truncated_ok=True)}
        plan = replace(plan, files={**plan.files, **files})
    for account, kind in args.types:
        plan = plan.with_rule(Rule("retype", account, kind))
    cut = plan.cutover
    if args.balances_only:
        cut = replace(cut, mode="balances_only", date=args.balances_only)
    if args.opening_balances:
        cut = replace(cut, opening_balances=True)
    if args.fiscal_year_start:
        cut = replace(cut, fiscal_year_start=args.fiscal_year_start)
    if args.ytd_to_retained:
        cut = replace(cut, ytd_to_retained=True)
    if args.export_date:
        cut = replace(cut, export_date=args.export_date)
    if args.split_at:
        cut = replace(cut, split_at=args.split_at)
    if args.held:
        plan = replace(plan, held={**plan.held, **dict(args.held)})
    chosen = {"documents": args.documents, "sales_tax": args.sales_tax, "classes": args.classes}
    plan = replace(plan, **{k: v for k, v in chosen.items() if v})
    return replace(plan, cutover=cut)


def main(argv: Sequence[str]) -> int:
    p = parser()
    try:
        args = p.parse_args(list(argv))
    except SystemExit as exc:  # argparse has printed its message
        return int(exc.code or 0)
    if args.update is not None or args.output is None:
        return cli_update.main(args, p, build_plan)
    try:
        plan = build_plan(args)
        problem = cli_split.usage(args, plan) or usage_error(args, plan)
    except MappingError as exc:
        problem = exc.message
    if problem:
        p.print_usage(sys.stderr)
        print(f"run.py convert: error: {problem}", file=sys.stderr)
        return 2
    return _convert(args, plan)


def _convert(args: argparse.Namespace, plan: Plan) -> int:
    """Read, check, write and verify; the exit status says how it went."""
    out: Path | Address = args.output
    parsed = pipeline.read(args.files, plan)
    prepared = pipeline.prepare(parsed, plan)
    summary(prepared, sys.stdout, args.report)
    if prepared.errors:
        for problem in with_type_option(prepared):
            print(worded(problem, str(args.plan or "")), file=sys.stderr)
        n = len(prepared.errors)
        print(f"No book written: {words.plural(n, 'problem')} to resolve.", file=sys.stderr)
        return 1
    if note := cli_split.suggestion(prepared, plan):
        print(note)
    stale = [] if isinstance(out, Address) else remove_stale_partials(out.absolute().parent)
    if stale:
        files = words.plural(len(stale), "temporary file", "temporary files")
        print(
            f"Removed {files} left beside the book by an earlier run that was stopped while saving"
        )
    if plan.cutover.split_at:
        return cli_split.convert(
            args,
            plan,
            prepared,
            _progress if sys.stderr.isatty() else None,
            lambda report: _reports(args, prepared, report),
        )
    try:
        outcome = pipeline.write(
            prepared,
            out,
            plan,
            on_progress=_progress if sys.stderr.isatty() else None,
            overwrite=args.force,
        )
    except BookWriteError as exc:
        print(f"No book written: {exc.message}", file=sys.stderr)
        return 1
    report = outcome.report
    print("Verification:")
    for line in report.summary_lines(differences=False):
        print(f"  {line}")
    if not _reports(args, prepared, report):
        return 1
    return _verdict(args, plan, report)


def _reports(args: argparse.Namespace, prepared: pipeline.Prepared, report: Report) -> bool:
    """The report files asked for, after the book; False (said, one line each) when one cannot
    be written: then nothing of it is left (atomic writes), and the book stays."""
    wanted: list[tuple[Path, str, str, str]] = []  # (path, text, what, said once written)
    if args.report and prepared.warnings:
        lines = [worded(w) for w in by_importance(prepared.warnings)]
        text = "\n".join(lines) + "\n"
        wanted.append((warnings_file(args.report), text, "warnings file", ""))
    if args.report:
        wanted.append((args.report, report.to_csv(), "report", ""))
        if report.extras is not None and report.extras.years:
            years = args.report.with_name(args.report.stem + ".years.csv")
            wanted.append((years, report.extras.years_csv(), "year-end table", ""))
        if report.classes is not None:
            stem = args.report.stem + ".classes"
            by_class = report.classes
            csv_path, page_path = (args.report.with_name(stem + s) for s in (".csv", ".html"))
            wanted.append((csv_path, by_class.to_csv(), "P&L by class", ""))
            book = args.output.name if isinstance(args.output, Path) else str(args.output)
            page = printable.render("classes/pnl_by_class.html", proof=by_class, book=book)
            wanted.append((page_path, page, "printable P&L by class", ""))
    if args.documents_report:
        rows = report.documents.rows if report.documents else ()
        none = "" if report.documents else " (no invoices or bills were written as documents)"
        wanted.append((args.documents_report, documents_report(rows), "documents report", none))
    if args.tax_report:
        wanted.append((args.tax_report, tax_report(report.sales_tax), "tax report", ""))
    if args.item_catalogue:
        items = prepared.ledger.items
        table = csvsafe.text([CATALOGUE_HEADER, *catalogue(items)])
        wanted.append((args.item_catalogue, table, "item catalogue", f" ({len(items):,} items)"))
    failed: list[str] = []
    why = ""
    for path, text, what, said in wanted:
        try:
            write_text(path, text)
        except OSError as exc:  # checked before, so the disk filled up or the folder changed
            why = why or why_not_written(exc, path.parent)
            failed.append(f"the {what} {path}")
            continue
        if what != "warnings file":
            print(f"{what[0].upper()}{what[1:]} written to {path}{said}")
    if failed:
        print(
            f"Book written to {args.output}, but not {' or '.join(failed)}: {why}. Free some "
            "space or choose another folder, and run again with --force.",
            file=sys.stderr,
        )
    return not failed


def _verdict(args: argparse.Namespace, plan: Plan, report: Report) -> int:
    """The last lines: the book written, and what differs (the exit status says it too)."""
    written = f"Book written to {args.output} ({plan.format}, {plan.currency})"
    said = verdict(report)
    if report.ok:
        print(f"{written}: {said.words()}")
        return 0
    if not report.rows:  # an empty book: nothing was compared, which is no proof
        print(f"{written}, but {report.headline()}")
        if args.strict:
            print("Verification compared nothing (--strict).", file=sys.stderr)
            return 3
        return 0
    # the differences are the last thing printed: nothing below them to scroll past
    strict = "" if args.strict else " (exit status 0: --strict makes a difference exit 3)"
    parts = (report.sales_tax, report.classes)  # what their counts leave unsaid (the verdict
    # names every year end's headline itself: it was said twice)
    which = [p.headline() for p in parts if p is not None and not p.ok]
    print(f"{written}. {'; '.join([said.words(), *which])}{strict}:")
    for line in report.difference_lines("cli"):
        print(f"  {line}")
    if args.strict:
        print("Verification found differences (--strict).", file=sys.stderr)
        return 3
    return 0


def with_type_option(prepared: pipeline.Prepared) -> list[Problem]:
    """The errors, an untyped account's saying how to type it from the command line."""
    options = {
        untyped(a): a.origin[0] if a.origin else a.full_name
        for a in prepared.ledger.accounts
        if a.type is None
    }
    return [
        replace(p, message=f'{p.message}: add --type "{options[p.message]}=TYPE" ({TYPE_HINT})')
        if p.message in options
        else p
        for p in prepared.errors
    ]


def _progress(phase: str, done: int, total: int) -> None:
    """A one-line progress display on a terminal (large books take a while)."""
    end = "\n" if done >= total else ""
    print(f"\r{words.progress(phase, done, total)}\033[K", end=end, file=sys.stderr, flush=True)
