"""``run.py convert ... -o WORK.gnucash --split-at YYYY-MM-DD --archive ARCHIVE.gnucash``: the
archive and the working book (``app.archive``) from the command line, and the note that
suggests them for a large history on a GnuCash that opens large books slowly."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path

from app import archive, pipeline, split_write, words
from app.cli_checks import too_long, unwritable
from app.errors import BookWriteError, MappingError
from app.fileio import write_text
from app.plan import Plan
from app.postgres import Address
from app.proof_state import verdict
from app.verify_report import Report


def add_options(p: argparse.ArgumentParser, date: object) -> None:
    p.add_argument(
        "--split-at",
        type=date,  # type: ignore[arg-type]
        metavar="YYYY-MM-DD",
        help="keep the history before this day in an archive book (--archive) and start the "
        "book -o on it from the archive's closing balances, with the open invoices and bills",
    )
    p.add_argument("--archive", type=Path, metavar="ARCHIVE.gnucash", help="the archive book")


def usage(args: argparse.Namespace, plan: Plan) -> str | None:
    """What is wrong with the split options, or None."""
    split, where = plan.cutover.split_at, args.archive
    if not split and not where:
        return None
    if not split:
        return "--archive needs --split-at YYYY-MM-DD (the working book's first day)"
    if not where:
        return (
            "--split-at (or the plan's split_at) needs --archive ARCHIVE.gnucash, the book for "
            "the history before that day"
        )
    if isinstance(args.output, Address) or plan.format == "postgres":
        return "an archive and a working book are written as files, not into a database"
    if plan.cutover.mode == "balances_only":
        return "--split-at needs the history: it cannot be used with --balances-only"
    if where.absolute() == Path(args.output).absolute():
        return f"--archive {where} is the book -o itself: give the archive another name"
    if problem := too_long(where, "archive"):
        return problem
    if where.exists() and not args.force:
        return f"{where} already exists; add --force to replace it"
    if where.is_dir():
        return f"{where} is a folder"
    if not where.parent.is_dir():
        return f"folder {where.parent} for the archive does not exist"
    return unwritable(where, "archive")


def suggestion(prepared: pipeline.Prepared, plan: Plan) -> str | None:
    """A note suggesting the split for a large history on a slow-loading GnuCash, or None."""
    n = prepared.transaction_count
    if plan.cutover.split_at or n < archive.SUGGEST_FROM or prepared.errors:
        return None
    from app import gnc  # noqa: PLC0415 - lazily: the core imports without GnuCash

    version = gnc.engine_version()
    if not archive.slow_loader(version):
        return None
    day = archive.suggested_day(prepared.ledger.as_of, prepared.ledger.transactions)
    at = day.isoformat() if day else "YYYY-MM-DD"
    return (
        f"Note: {words.plural(n, 'transaction')} is a large history. "
        + archive.slow_words(version)
        + f". To work in a small book, keep the history in an archive: --split-at {at} "
        "--archive ARCHIVE.gnucash"
    )


def convert(
    args: argparse.Namespace,
    plan: Plan,
    prepared: pipeline.Prepared,
    on_progress: pipeline.Progress | None = None,
    reports: Callable[[Report], bool] = lambda report: True,
) -> int:
    """Both books written and proven; the exit status as ``run.py convert``'s."""
    try:
        done = split_write.write(
            prepared, args.output, args.archive, plan, on_progress, overwrite=args.force
        )
    except (BookWriteError, MappingError) as exc:
        print(f"No book written: {exc.message}", file=sys.stderr)
        return 1
    for what, outcome in (("Archive", done.archive), ("Working book", done.working)):
        print(f"{what} verification:")
        for line in outcome.report.summary_lines():
            print(f"  {line}")
    print(f"Carried over: {done.carried_headline()}")
    for line in done.carried_lines():
        print(f"  {line}")
    if not reports(done.working.report):  # the working book's, as a single book's
        return 1
    if args.report:
        stem = args.report.with_suffix("")
        wanted = (
            (stem.with_name(stem.name + ".archive.csv"), done.archive.report.to_csv()),
            (stem.with_name(stem.name + ".carried.csv"), done.carried_csv()),
        )
        for path, text in wanted:
            try:
                write_text(path, text)
            except OSError as exc:
                print(f"Books written, but not the report {path}: {exc}", file=sys.stderr)
                return 1
            print(f"Report written to {path}")
    last = done.day - dt.timedelta(days=1)
    print(
        f"Archive written to {args.archive} (the history to {last}): "
        f"{verdict(done.archive.report).words()}"
    )
    print(
        f"Working book written to {args.output} (from {done.day}, {plan.format}, {plan.currency}): "
        f"{verdict(done.working.report).words()}"
    )
    if done.ok:
        return 0
    print("Verification found differences (see above).", file=sys.stderr)
    return 3 if args.strict else 0
