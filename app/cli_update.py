"""``run.py convert --update BOOK.gnucash FILE...``: a book this program wrote, brought up to date
with later exports of the same company (docs/UPDATE.md). Exit status: 0 brought up to date (or
nothing new), 1 not updated (the message says why; the book as it was), 2 a usage error, 3 with
``--strict`` when the proof finds a difference. ``--report R.csv`` writes the proof and the
delta table (R.delta.csv) beside it."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path

from app import csvsafe, postgres, update_run, words
from app.cli_checks import clash, input_error, unwritable
from app.cli_summary import worded
from app.errors import BookWriteError, MappingError, MigrationError, ProblemsError
from app.fileio import write_text
from app.plan import Plan
from app.postgres import Address
from app.proof_state import verdict
from app.update_deltas import delta_csv_rows
from app.update_words import own_words
from app.words import quoted

# what --update leaves to the book itself: its own file and format
OWN_FILE = "the book keeps its own file and format"
NOT_MADE = "an update writes the proof (--report) and its delta table only"
_NOT_WITH_UPDATE = (
    ("output", "-o", OWN_FILE),
    ("format", "--format", OWN_FILE),
    ("balances_only", "--balances-only", OWN_FILE),
    ("split_at", "--split-at", OWN_FILE),
    ("archive", "--archive", OWN_FILE),
    ("documents_report", "--documents-report", NOT_MADE),
    ("tax_report", "--tax-report", NOT_MADE),
    ("item_catalogue", "--item-catalogue", NOT_MADE),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--update BOOK`` and the decisions on held changes, on ``run.py convert``'s parser."""
    p.add_argument(
        "--update",
        type=_book,
        metavar="BOOK.gnucash",
        help="bring a book this program wrote up to date with later exports of the same "
        "company: only what is new is added, changes in QuickBooks are listed, not applied "
        "(docs/UPDATE.md); instead of -o",
    )
    for flag, choice, words_ in (
        ("--take-quickbooks", "quickbooks", "apply QuickBooks' version of a held change"),
        ("--keep-book", "book", "keep the book's version of a held change"),
    ):
        p.add_argument(
            flag,
            action="append",
            default=[],
            metavar="KEY",
            type=functools.partial(_held, choice),
            dest="held",
            help=f"with --update: {words_}, by the key the update printed (repeatable)",
        )


def _book(text: str) -> Path | Address:
    if postgres.is_address(text):  # (postgres://USER@HOST[:PORT]/DB: said if malformed)
        try:
            return postgres.parse_address(text)
        except MappingError as exc:
            raise argparse.ArgumentTypeError(exc.message) from None
    return Path(text)


def _held(choice: str, key: str) -> tuple[str, str]:
    """``--take-quickbooks ref:1234`` → ("ref:1234", "quickbooks")."""
    if not key.strip():  # (a class's or a budget's key may hold spaces: "class:East Store")
        raise argparse.ArgumentTypeError(
            f"expected a key as the update printed it (got {quoted(key)})"
        )
    return key.strip(), choice


def usage_error(args: argparse.Namespace) -> str | None:
    book: Path | Address | None = args.update
    if book is None:
        return (
            "the following arguments are required: -o (the book to write; or --update BOOK "
            "to bring a book up to date)"
        )
    for name, flag, why in _NOT_WITH_UPDATE:
        if getattr(args, name, None):
            return f"{flag} does not go with --update: {why}"
    chosen: dict[str, str] = {}
    for key, choice in args.held or ():
        if chosen.setdefault(key, choice) != choice:
            return f"{key} is given both --take-quickbooks and --keep-book: choose one"
    if problem := clash(args):
        return problem
    if isinstance(book, Address):
        return _database_error(book) or input_error(args)
    if book.is_dir():
        return f"{book} is a folder, not a book"
    if not book.is_file():
        return f"no book at {book}; to make one, convert with -o {book}"
    if problem := unwritable(book, "updated book"):
        return problem
    return input_error(args)


def _database_error(book: Address) -> str | None:
    """What stops a book in PostgreSQL being brought up to date, said before anything is read."""
    try:
        found = postgres.state(book)
    except BookWriteError as exc:
        return exc.message
    if found != "book":
        return f"no GnuCash book in the database {book.database} on {book.host}"
    return None


def main(
    args: argparse.Namespace,
    p: argparse.ArgumentParser,
    build_plan: Callable[[argparse.Namespace, Plan | None], Plan],
) -> int:
    if problem := usage_error(args):
        p.print_usage(sys.stderr)
        print(f"run.py convert: error: {problem}", file=sys.stderr)
        return 2
    book: Path | Address = args.update
    try:
        outcome = update_run.bring_up_to_date(
            args.files, book, lambda stored: build_plan(args, stored), _progress
        )
    except ProblemsError as exc:
        for found in exc.problems:
            print(worded(found, str(args.plan or "")), file=sys.stderr)
        n = len(exc.problems)
        print(f"Book not updated: {words.plural(n, 'problem')} to resolve.", file=sys.stderr)
        return 1
    except MigrationError as exc:
        print(f"Book not updated: {exc.message}", file=sys.stderr)
        return 1
    for line in outcome.lines():
        print(line)
    decided = (*outcome.renamed, *outcome.budgets.held)
    if any(not h.kept for h in outcome.work.held) or any(not r.choice for r in decided):
        print(
            "Decide each held change: run again with --take-quickbooks KEY (QuickBooks' version "
            "goes into the book) or --keep-book KEY (the book's stays, listed as kept); "
            "KEY is in brackets above"
        )
    return _verdict(args, outcome)


def _verdict(args: argparse.Namespace, outcome: update_run.UpdateOutcome) -> int:
    """The proof, the report files asked for, and the last line (the exit status says it)."""
    book: Path | Address = args.update
    report = outcome.report
    if not outcome.written or report is None:
        return _unchanged(args, outcome)
    print("Verification:")
    for line in report.summary_lines(differences=False):
        print(f"  {line}")
    if args.report:
        delta = args.report.with_name(args.report.stem + ".delta.csv")
        write_text(args.report, report.to_csv())
        write_text(delta, csvsafe.text(delta_csv_rows(outcome.deltas)))
        print(f"Report written to {args.report}, delta table to {delta}")
    work = outcome.work
    own = own_words(work)  # (what was done in GnuCash: never called matching QuickBooks)
    if report.ok and not own:
        print(f"Book brought up to date: {book}")
        return 0
    if report.ok:
        print(
            f"Book brought up to date: {book}. QuickBooks' transactions are in it to the cent; "
            f"it differs from QuickBooks by the {own}, kept as the book's"
        )
        return _strict(args)
    if outcome.explained:
        parts = [words.plural(len(work.held), "change") + " held"] if work.held else []
        if work.edited_here:
            parts.append(words.plural(len(work.edited_here), "transaction") + " edited in GnuCash")
        if work.deleted_here:
            n = len(work.deleted_here)
            parts.append(words.plural(n, "transaction") + " deleted in GnuCash")
        if work.added_here:
            n = len(work.added_here)
            parts.append(words.plural(n, "transaction") + " made in GnuCash alone")
        undecided = any(not h.kept for h in work.held)
        then = (
            "decide each held change, then update again"
            if undecided
            else "kept as the book has them"
        )
        print(
            f"Book brought up to date: {book}; it differs from QuickBooks by exactly the "
            f"{' and the '.join(parts)} ({then}):"
        )
    else:  # (accounts, counts and dates, open items: the verdict's words say which)
        print(f"Book brought up to date: {book}. {verdict(report).words()}:")
    for line in report.difference_lines("cli"):
        print(f"  {line}")
    return _strict(args)


def _unchanged(args: argparse.Namespace, outcome: update_run.UpdateOutcome) -> int:
    """The last line of an update that wrote nothing: what the book still differs by."""
    book: Path | Address = args.update
    waiting = [h for h in outcome.work.held if not h.kept]
    gone = len(outcome.work.deleted_here)
    parts = [f"{words.plural(len(waiting), 'change')} held above"] if waiting else []
    parts += [f"{words.plural(gone, 'transaction')} deleted in GnuCash"] if gone else []
    if kept := [h for h in outcome.work.held if h.kept]:  # (still differs by them)
        has = "it" if len(kept) == 1 else "them"
        parts.append(f"{words.plural(len(kept), 'change')} kept as the book has {has}")
    parts += [own] if (own := own_words(outcome.work)) else []
    if differ := outcome.budgets.differ:
        parts.append(f"{words.plural(len(differ), 'budget')} the book keeps as its own")
    still = f"; it still differs from QuickBooks by the {' and the '.join(parts)}" if parts else ""
    # a name QuickBooks changed, undecided: held, though no figure differs (the book's name
    # kept is the book's own, as a rename on the Map step is)
    if renamed := [r for r in outcome.renamed if not r.choice]:
        n = len(renamed)
        still += f"; {words.plural(n, 'name')} QuickBooks changed {'is' if n == 1 else 'are'} "
        still += "held above too" if parts else "held above"
    undecided = waiting or renamed or any(not h.choice for h in outcome.budgets.differ)
    still += " (decide each held change, then update again)" if undecided else ""
    report = outcome.report
    if report is not None and outcome.differs:  # (an earlier run's proof differed: still so)
        print("Verification:")
        for line in report.summary_lines(differences=False):
            print(f"  {line}")
        print(f"{book} has nothing to add. {verdict(report).words()}{still}:")
        for line in report.difference_lines("cli"):
            print(f"  {line}")
        return _strict(args)
    print(f"{book} is up to date: nothing added{still}")
    return _strict(args) if parts else 0


def _strict(args: argparse.Namespace) -> int:
    """The exit status once the book differs from QuickBooks: 3 with ``--strict``."""
    if args.strict:
        print("Verification found differences (--strict).", file=sys.stderr)
        return 3
    return 0


def _progress(phase: str, done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done >= total else ""
        print(f"\r{words.progress(phase, done, total)}\033[K", end=end, file=sys.stderr)
