"""Which reader takes each file, and one ledger out of several files.

Every file is claimed by exactly one reader (none or two is an error that says so). A file that
cannot be read becomes an error problem naming it; the other files are still read, so the user
sees every problem at once. Merging: accounts from the IIF chart(s), lists concatenated (first of
a duplicate name kept, with a warning), transactions in date order, a transaction found in two
files imported once. A Trial Balance report's figures (``qbcsv.trial_balance``) replace the
chart's OBAMOUNT figures (every chart account it does not list counts zero, with a note);
without a chart its rows are the accounts. With several reports, ``year_ends`` chooses the one
giving the figures; every dated one is a proof of its date (``Ledger.year_ends``), and the budget
lines, reconciliations and memorized transactions are placed in the chart there too. One
history in several files, of any layouts: ``overlap``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

from app.account_labels import canonical
from app.classes import SplitClass
from app.coverage import gaps
from app.errors import AmbiguousFormatError, ParseError, UnknownFormatError
from app.model import Account, FileInfo, Ledger, Problem, ReadOptions
from app.plan import Plan
from app.read_progress import ReadProgress
from app.readers import iif, looks, overlap, qbcsv, year_ends
from app.readers.charts import disagreements, tax_rates
from app.readers.cut import checked
from app.readers.date_orders import date_orders
from app.readers.private import quoted
from app.readers.qbcsv import (
    memorized,
    names,
    open_items,
    reconciliation,
    sales_tax,
    trial_balance,
)
from app.readers.qbcsv.find import AMBIGUOUS
from app.readers.typed import typed
from app.readers.values import BOMS, encoding_fault, is_binary
from app.readers.visible import visible
from app.source import Source

READERS: tuple[ModuleType, ...] = (
    iif,
    qbcsv,
    trial_balance,
    names,
    open_items,
    sales_tax,
    reconciliation,
    memorized,
)
BINARY = "a binary file, not a QuickBooks text export"

KINDS = {  # each reader's kind of export, as the messages name it
    "iif": "an IIF file",
    "qbcsv": "a transaction report",
    "trial_balance": "a Trial Balance",
    "names": "a customer or vendor list",
    "open_items": "an Open Invoices or Unpaid Bills report",
    "sales_tax": "a Sales Tax Liability report",
    "reconciliation": "a Reconciliation report",
    "memorized": "a Memorized Transaction List",
}
UNKNOWN = (  # (not "a CSV with Date and Account columns" to a file that has them: hunt 28)
    "not a QuickBooks export qb2gnucash knows: expected QuickBooks' lists export (an IIF file) "
    "or one of its reports as QuickBooks exports it (a Journal, a Transaction Detail, a General "
    "Ledger or a Find export, with their columns); a CSV of other columns can be mapped by hand "
    "in the wizard"
)


def identify(path: Path, options: ReadOptions, candidates: Sequence[Any] | None = None) -> Any:
    """The one reader (of ``candidates``, default all) that claims ``path``."""
    pool = READERS if candidates is None else candidates
    claims = [r for r in pool if r.identify(path, options)]
    if not claims:
        raise UnknownFormatError(f"{path.name}: {UNKNOWN}")
    if len(claims) > 1:
        kinds = [str(getattr(r, "__name__", r)).rsplit(".", 1)[-1] for r in claims]
        claimed = " and ".join(KINDS.get(k, k) for k in kinds)
        raise AmbiguousFormatError(
            f"{path.name}: it could be read as more than one kind of QuickBooks export "
            f"({claimed}); map its columns by hand in the wizard"
        )
    return claims[0]


def read_one(path: Path, options: ReadOptions, candidates: Sequence[Any] | None = None) -> Ledger:
    """One file as a ledger; a file that cannot be read is a ledger holding that error."""
    try:
        with path.open("rb") as f:  # readers' identify says "no" to a file it cannot open
            head = f.read(4096)
        if not head or (len(head) < 4096 and not head.strip()):  # (spaces and line breaks)
            return _unread(path, Problem(Source(path.name, 1), "the file is empty"))
        if is_binary(head):
            refused = looks.refusal_of(head)
            return _unread(
                path,
                Problem(Source(path.name, 1), refused.message if refused else BINARY),
                refused.kind if refused else "not read",
            )
        if head.startswith(BOMS) and (fault := encoding_fault(path.read_bytes())):
            return _unread(path, Problem(Source(path.name, fault[0]), fault[1]))
        ledger = identify(path, options, candidates).parse(path, options)
        return _said_if_empty(typed(visible(path, checked(ledger, options))))
    except ParseError as exc:
        prefix = f"{exc.source}: "
        text = exc.message[len(prefix) :] if exc.message.startswith(prefix) else exc.message
        problem = Problem(exc.source, text)
    except UnknownFormatError as exc:
        if refused := looks.refusal(path):  # plainly no export, or totals only: said so
            return _unread(path, Problem(Source(path.name, 1), refused.message), refused.kind)
        problem = Problem(Source(path.name, 1), exc.message.removeprefix(f"{path.name}: "))
    except AmbiguousFormatError as exc:
        problem = Problem(Source(path.name, 1), exc.message.removeprefix(f"{path.name}: "))
    except OSError as exc:
        problem = Problem(Source(path.name, 0), f"cannot read the file ({exc.strerror})")
    return _unread(path, problem)


EMPTY = (
    "nothing is imported from this file: it has column headers but no rows under them; export "
    "it again with the lists ticked, or with report dates that cover the transactions"
)


def _said_if_empty(ledger: Ledger) -> Ledger:
    """A file read without error that holds nothing at all gets a warning naming it (an
    export of headers alone must not pass as a successful import)."""
    held = (ledger.accounts, ledger.transactions, ledger.customers, ledger.vendors)
    more: tuple[tuple[object, ...], ...] = (
        ledger.employees,
        ledger.terms,
        ledger.not_imported,
        ledger.open_items,
    )
    more += (ledger.items, ledger.tax_liability)
    more += (ledger.budget_lines, ledger.statements, ledger.memorized, ledger.classes)
    if any(held) or any(more) or any(p.severity == "error" for p in ledger.problems):
        return ledger
    name = ledger.files[0].filename
    return replace(ledger, problems=(Problem(Source(name, 1), EMPTY, "warning"), *ledger.problems))


def _unread(path: Path, problem: Problem, kind: str = "not read") -> Ledger:
    """``kind``: the card's label ("not read"; ``looks.Refusal.kind`` for a file that is plainly
    no export)."""
    return Ledger(problems=(problem,), files=(FileInfo(path.name, kind),))


NOT_KEPT = "No copy kept"  # the kind of a file given but not kept (app.store.Withheld)


def read(
    paths: Sequence[Path],
    plan: Plan,
    candidates: Sequence[Any] | None = None,
    unread: Sequence[tuple[str, Sequence[Problem]]] = (),
    seen: ReadProgress | None = None,
) -> Ledger:
    """Every file read with its own options from the plan, then merged. ``unread``: files given
    but of which no copy was kept (name, why): each a file not read, holding its problems.
    ``seen`` is told which file is read, and its reader how far it is (the upload's bar)."""
    parts = []
    if seen is not None:
        seen.start([Path(p) for p in paths])
    for i, p in enumerate(paths):
        options = plan.file_options(Path(p).name)
        if seen is not None:
            seen.file(i)
            options = replace(options, seen=seen)
        parts.append(read_one(Path(p), options, candidates))
    parts += [
        Ledger(problems=tuple(problems), files=(FileInfo(name, NOT_KEPT),))
        for name, problems in unread
    ]
    return merge(parts)


def merge(parts: Sequence[Ledger]) -> Ledger:
    problems: list[Problem] = [p for part in parts for p in part.problems]
    charts = [part for part in parts if part.chart]
    tbs = [part for part in parts if any(f.layout == "trial balance" for f in part.files)]
    problems.extend(disagreements(charts))
    problems.extend(tax_rates(parts))
    last = max((t.date for part in parts for t in part.transactions), default=None)
    main, proofs = year_ends.split(tbs, charts, problems, last)
    rest = [p for p in parts if p is main or all(p is not t for t in tbs)]  # no chart: these
    accounts = _first_by_name(
        ((a.full_name, a) for part in charts or rest for a in part.accounts), "account", problems
    )
    if charts and main is not None:
        problems.extend(year_ends.same_day(main, charts, accounts))
        accounts = _figures_from([main], accounts, problems)
    accounts = year_ends.extra_accounts(accounts, proofs, bool(charts))
    lists = {
        what: _first_by_name(
            ((r.name, r) for part in parts for r in getattr(part, what)), word, problems
        )
        for what, word in (
            ("customers", "customer"),
            ("vendors", "vendor"),
            ("employees", "employee"),
            ("terms", "terms"),
            ("items", "item"),
        )
    }
    files = year_ends.proof_files((f for part in parts for f in part.files), proofs, main)
    problems.extend(_coverage(files, parts))
    problems.extend(date_orders(files))
    extras = _extras(parts, accounts, proofs, problems, main)
    superseded: set[str] = set()
    transactions = overlap.history(parts, _compared(accounts, bool(charts)), problems, superseded)
    if superseded:
        problems = overlap.quieted(problems, superseded, AMBIGUOUS)
    classes = _classes(parts, problems)
    return Ledger(
        accounts=accounts,
        transactions=transactions,
        customers=lists["customers"],
        vendors=lists["vendors"],
        employees=lists["employees"],
        terms=lists["terms"],
        not_imported=tuple(n for part in parts for n in part.not_imported),
        problems=tuple(problems),
        files=files,
        company=next((part.company for part in parts if part.company), ""),
        chart=any(part.chart for part in parts),
        open_items=tuple(o for part in parts for o in part.open_items),
        items=lists["items"],
        tax_codes=_first_by_name(
            ((c.code, c) for part in parts for c in part.tax_codes), "sales tax code", problems
        ),
        tax_liability=tuple(r for part in parts for r in part.tax_liability),
        classes=classes,
        **extras,  # type: ignore[arg-type]
    )


def _classes(parts: Sequence[Ledger], problems: list[Problem]) -> tuple[SplitClass, ...]:
    """The class lists of every file, each class once (its first row), then the classes the
    transactions use that no list has (at their first line): a CSV report's Class column
    without the lists export. Where a list was given, each of these is warned: renamed or
    added in QuickBooks between the exports, the book would hold both names unseen."""
    found: dict[str, SplitClass] = {}
    for part in parts:
        for c in part.classes:
            found.setdefault(c.name, c)
    listed = list(found.values())
    implied = {":".join(c.name.split(":")[:n]) for c in listed for n in range(1, 9)}
    spelled = {name.casefold(): name for name in implied}  # (QuickBooks: any letter case)
    for part in parts:
        for t in part.transactions:
            for s in t.splits:
                if s.klass and s.klass not in found:
                    found[s.klass] = SplitClass(s.klass, s.source)
                    if listed and s.klass not in implied:
                        as_listed = spelled.get(s.klass.casefold(), "")
                        problems.append(_unlisted(s.klass, s.source, listed, as_listed))
    return tuple(found.values())


def _unlisted(name: str, source: Source, listed: list[SplitClass], as_listed: str) -> Problem:
    if as_listed:  # the same class to QuickBooks, but two to the book
        return Problem(
            source,
            f"class {quoted(name)} is {quoted(as_listed)} in the class list of "
            f"{listed[0].source.filename}, in other letters: the book would carry the two "
            "spellings as two classes; export "
            "the lists and the transactions again on the same day, or spell them alike",
            "warning",
        )
    names = ", ".join(c.name for c in listed[:8]) + (", …" if len(listed) > 8 else "")
    return Problem(
        source,
        f"class {quoted(name)} is on this line but not in the class list of "
        f"{listed[0].source.filename} ({len(listed)}: {names}): renamed or added in QuickBooks "
        "between the two exports? The book carries it as the lines name it; export the lists "
        "and the transactions again on the same day to have them agree",
        "warning",
    )


def _extras(
    parts: Sequence[Ledger],
    accounts: tuple[Account, ...],
    proofs: list[Ledger],
    problems: list[Problem],
    main: Ledger | None,
) -> dict[str, tuple]:
    """Issue 26's records placed in the chart (``year_ends``): the year-end proofs, the budget
    lines, the reconciliations, the memorized transactions."""
    return {
        "year_ends": year_ends.year_ends(proofs, accounts, problems, main),
        "budget_lines": year_ends.placed_budgets(
            (b for part in parts for b in part.budget_lines), accounts, problems
        ),
        "statements": year_ends.placed_statements(
            (s for part in parts for s in part.statements), accounts, problems
        ),
        "memorized": year_ends.placed_memorized(
            (m for part in parts for m in part.memorized), accounts
        ),
    }


def _coverage(files: Sequence[FileInfo], parts: Sequence[Ledger]) -> list[Problem]:
    """A warning for each stretch no transaction file covers (``app.coverage``), placed at the
    first transaction after it (or at the cut file's last one)."""
    ends: dict[str, tuple[Source, Source]] = {}
    for part in parts:
        if part.files and part.transactions:
            order = sorted(part.transactions, key=lambda t: (t.date, t.source.line))
            ends[part.files[0].filename] = (order[0].source, order[-1].source)
    out = []
    for gap in gaps(files):
        near = ends.get(gap.after.filename if gap.after else gap.before.filename)
        at = (near[0] if gap.after else near[1]) if near else None
        todo = "" if gap.cut else "; if transactions happened then, export them and add the file"
        out.append(Problem(at, gap.describe() + todo, "warning", topic="coverage"))
    return out


def _figures_from(
    tbs: Sequence[Ledger], chart: tuple[Account, ...], problems: list[Problem]
) -> tuple[Account, ...]:
    """The chart with the trial balance's figures as its balances (``year_ends.split`` chose
    it): each report row matched to its chart account (app/resolve.py's rules), unlisted
    accounts zero."""
    tb = tbs[0]
    name = tb.files[0].filename
    figures = year_ends.placed_rows(tb, chart, problems, ", or give only the trial balance")
    problems.append(
        Problem(
            Source(name, 1),
            f"QuickBooks' balances are taken from this trial balance ({len(figures)} accounts"
            + (f" as of {tb.files[0].exported_on.isoformat()}" if tb.files[0].exported_on else "")
            + "), not from the chart's opening-balance figures (OBAMOUNT); accounts it does not "
            "list count zero",
            "note",
        )
    )
    return tuple(replace(a, balance=figures.get(a.full_name, Decimal(0))) for a in chart)


def _compared(accounts: tuple[Account, ...], chart: bool) -> Callable[[str], str]:
    """What two files' account labels compare by: the chart name each resolves to; without a
    chart, the name without numbers, leaf only (a Find export prints ``Utilities:Gas`` where a
    report prints ``6910 · Gas``)."""
    return canonical(accounts) if chart else overlap.leaf(canonical(()))


def _first_by_name(items: Iterable[tuple[str, object]], word: str, problems: list[Problem]):
    kept: dict[str, object] = {}
    for name, record in items:
        if name in kept:
            first = kept[name].source  # type: ignore[attr-defined]
            problems.append(
                Problem(
                    record.source,  # type: ignore[attr-defined]
                    f"{word} {quoted(name)} appears again (first at {first}); the first is kept",
                    "warning",
                )
            )
            continue
        kept[name] = record
    return tuple(kept.values())
