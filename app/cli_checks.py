"""What ``run.py convert`` checks on its command line before reading anything: the outputs can
be written (a folder that exists and takes a file, a name not too long, a book not already
there without ``--force``, a database that answers and holds no book), the inputs are files,
the currency is GnuCash's. Each check returns the message, or None."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from app import currency, postgres
from app.plan import Plan
from app.postgres import Address

# the reports a flag names (the files named after ``--report`` are replaced with it)
_ASKED = ("report", "documents report", "tax report", "item catalogue")
TEMP_ADDS = 30  # bytes a temporary name adds: ".NAME.partial-PID.LCK", ".NAME.XXXXXXXX.tmp"


def usage_error(args: argparse.Namespace, plan: Plan) -> str | None:
    """What is wrong with the command line itself (nothing has been read yet), or None."""
    out: Path | Address = args.output
    if isinstance(out, Address) or plan.format == "postgres":
        return _database_error(args, plan)
    outputs = ((out, "book"), *(((args.report, "report"),) if args.report else ()))
    if problem := clash(args):  # (first: every output's name, then where each is)
        return problem
    if out.exists() and not args.force:
        return f"{out} already exists; add --force to replace it"
    if out.is_dir():
        return f"{out} is a folder"
    if not out.parent.is_dir():
        return f"folder {out.parent} does not exist"
    for path, what in ((args.report, "report"), *_reports(args)):
        if path and not path.parent.is_dir():
            return f"folder {path.parent} for the {what} does not exist"
    for path, what in outputs:
        if problem := unwritable(path, what):
            return problem
    if problem := input_error(args):
        return problem
    if not currency.is_known(plan.currency):
        return currency.unknown(plan.currency)
    return None


def clash(args: argparse.Namespace) -> str | None:
    """Where the files this run writes would replace what it reads or one another, or a file
    the user did not ask to replace (hunt 20: ``-o journal.csv --force`` wrote the book over
    the export being read, ``--report`` over an export or the book, ``-o /dev/null --force``
    replaced the device): an output on an input or on the plan, two outputs on one path, an
    output that is not a plain file, a report named and already there without ``--force`` (an
    update replaces its report, as each month's run does)."""
    book = args.output if isinstance(args.output, Path) else None
    update = getattr(args, "update", None)  # (a file, or a book in PostgreSQL)
    updated = update if isinstance(update, Path) else None
    archive: Path | None = getattr(args, "archive", None)
    named = [(book, "book"), (archive, "archive"), *_report_files(args)]
    outputs = [(path, what) for path, what in named if path is not None]
    read = [(f, "input file") for f in args.files]
    read += [(f, what) for f, what in ((args.plan, "plan"), (updated, "book to update")) if f]
    seen: dict[Path, str] = {}
    for path, what in outputs:
        if problem := too_long(path, what):  # (first: such a name cannot even be looked for)
            return problem
        at = path.resolve()
        for f, kind in read:
            if f.resolve() == at or _linked(f, path):
                return f"the {what} {path} would replace the {kind} {f}: give it another name"
        if at in seen:
            return f"the {seen[at]} and the {what} are both {path}: give each its own name"
        seen[at] = what
        if path.exists() and not path.is_file():
            thing = "a folder" if path.is_dir() else "not a plain file"
            return f"the {what} {path} is {thing}: give a file name"
        if what in _ASKED and path.exists() and not (args.force or update):
            return f"{path} already exists; add --force to replace it"
    return None


def _linked(read: Path, written: Path) -> bool:
    """Whether two names are one file (a hard link: replacing the output in place, as a report
    is written, would write over the input)."""
    try:
        return written.exists() and os.path.samefile(read, written)
    except OSError:  # (the input missing or unreadable: said by ``input_error``)
        return False


def _report_files(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """Every report file the run may write, with its name in messages: ``--report``'s and the
    files named after it, the other reports."""
    out: list[tuple[Path, str]] = []
    if (report := args.report) and report.name not in ("", ".."):  # (no stat: a name too
        # long is said first, by ``clash``; a folder too, its derived names then harmless)
        stem = report.stem
        out += [(report, "report"), (report.with_name(f"{stem}.warnings.txt"), "warnings file")]
        out += [
            (report.with_name(stem + suffix), what)
            for suffix, what in (
                (".years.csv", "year-end table"),
                (".classes.csv", "P&L by class"),
                (".classes.html", "printable P&L by class"),
                (".delta.csv", "delta table"),
                (".archive.csv", "archive's report"),
                (".carried.csv", "carried-over table"),
            )
        ]
    elif report:  # (a folder: said by ``clash``)
        out.append((report, "report"))
    return out + _reports(args)


def _reports(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """The report files asked for besides ``--report``, with their names in messages."""
    given = (
        (args.documents_report, "documents report"),
        (args.tax_report, "tax report"),
        (args.item_catalogue, "item catalogue"),
    )
    return [(path, what) for path, what in given if path]


def _database_error(args: argparse.Namespace, plan: Plan) -> str | None:
    """``usage_error`` for a book in PostgreSQL: the server is asked last (it may take a
    while to answer), after everything that can be checked here."""
    out = args.output
    if not isinstance(out, Address):
        return f"the postgres format writes to a database: -o {postgres.FORMAT_HINT}"
    if plan.format != "postgres":
        return f"a database holds a postgres book, not {plan.format} (--format postgres)"
    if problem := clash(args):
        return problem
    for path, what in ((args.report, "report"), *_reports(args)):
        if path and not path.parent.is_dir():
            return f"folder {path.parent} for the {what} does not exist"
        if path and (problem := unwritable(path, what)):  # (its name: ``clash``)
            return problem
    if not postgres.driver_present():
        return "GnuCash's PostgreSQL driver is not installed (Debian: apt-get install libdbd-pgsql)"
    if problem := input_error(args):
        return problem
    if not currency.is_known(plan.currency):
        return currency.unknown(plan.currency)
    return postgres.usage_problem(out, args.force)


def input_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the input files named (missing, a folder, two of one name)."""
    names: dict[str, Path] = {}
    for f in args.files:
        if not f.is_file():
            return f"{f}: " + ("a folder, not a file" if f.is_dir() else "no such file")
        if f.name in names:  # messages and plan options name files by their name alone
            return (  # (both named: a folder per year holds the same names, hunt 22)
                f"two input files are named {f.name} ({names[f.name]} and {f}): messages and "
                "settings name a file by its name alone; rename one (journal-2019.csv)"
            )
        names[f.name] = f
    for name in args.accept_truncated:
        if Path(name).name not in names:
            return f"--accept-truncated {name}: not one of the input files"
    return None


def too_long(path: Path, what: str) -> str | None:
    """A file name the file system refuses, with the temporary name's additions."""
    try:
        limit = os.pathconf(path.parent, "PC_NAME_MAX") - TEMP_ADDS
    except (OSError, ValueError):
        limit = 255 - TEMP_ADDS
    size = len(os.fsencode(path.name))
    if size > limit:
        return f"the {what}'s file name is too long ({size} characters; at most {limit})"
    return None


def unwritable(path: Path, what: str) -> str | None:
    """Why the ``what`` cannot be written in ``path``'s folder, else None: tried for real, as
    read-only file systems and ACLs refuse root too."""
    try:
        fd, probe = tempfile.mkstemp(dir=path.parent, prefix=".qb2gnucash-", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write the {what} in folder {path.parent} ({exc.strerror})"
    return None
