"""Proof: the written book, read back through GnuCash, compared with what QuickBooks says.

``verify`` is pure: the final ledger (what was meant to be written, opening transaction
included), the ``BookSnapshot`` read back from the book, and the cutover settings.

Per account (a ``Row`` of ``app.verify_report``):
- ``quickbooks_balance``: QuickBooks' trial-balance figure (``Account.balance``); for an account
  without one (no chart, or an account made by the mapping or the cutover) the sum of its lines.
  Balances-only with ``ytd_to_retained``: income and expense are expected at 0 and Retained
  Earnings at its figure plus this year's result, which is what the user asked the book to hold.
- ``gnucash_balance``: the same figure computed from the book (``as_of.figures``): balance-sheet
  accounts all time, income and expense fiscal year to date as of the export date (cutover date
  in balances-only mode, else the last transaction date), Retained Earnings plus every earlier
  fiscal year's net income; accounts without a QuickBooks figure all time.
- ``difference`` = gnucash_balance − quickbooks_balance.
- ``lines`` / ``book_total``: the ledger's lines vs the book's own splits, all time.
Book accounts the input does not have (Imbalance-*, Orphan-*) are rows expected at 0.
Checks compare counts and dates, input vs book; each that differs says its probable cause and
what to do (``app.check_causes``: a first conversion's book is checked before it is saved, an
update's has been worked on in GnuCash, and its counts leave out what was made there alone:
``apart``, ``app.made_here``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace
from decimal import Decimal

from app import as_of as cut
from app import likely, repeated
from app.as_of import ZERO, as_counted, figures, ledger_daily, over_explained, role_account
from app.book import BookAccount, BookDocuments, BookSnapshot, engine_made, family_of
from app.check_causes import book_only, explain, retyped
from app.coverage import Gap, gaps, no_opening, seam_warning, seams
from app.documents import selection
from app.documents.open_proof import with_open_items
from app.documents.proof import prove as prove_documents
from app.extras_proof import prove
from app.made_here import MadeHere
from app.mapping_owed import put_onto
from app.model import Account, AccountType, AsOf, Fix, Ledger, Role, money
from app.openings import OPENING_KIND, opened
from app.plan import Cutover
from app.readers import one_sided
from app.validate import shared_codes
from app.verify_report import Check, Report, Row, trial_balance_note
from app.words import plural
from app.year_proof import book_differs

STARTED_LATE = "after the company did: what came before, or a transaction of the files, is missing"


def _type(book: BookAccount) -> AccountType | None:
    try:
        return AccountType(book.type)
    except ValueError:
        return None


def _types(a: Account, b: BookAccount | None) -> tuple[str, str] | None:
    """(QuickBooks', the book's) GnuCash type where GnuCash files them under other headings
    (asset, liability, equity, income, expense): QuickBooks changed it after the book was
    written (hunt 22). Within one (Bank and Cash, Bank and Stock) it is the user's to choose in
    GnuCash (hunt 25: an update said "differs", and crashed on Stock)."""
    if b is None or a.type is None or family_of(b.type) == a.type.family:
        return None  # (a type of no family, Trading, is a difference too: hunt 26)
    return a.type.value, b.type


def verify(
    ledger: Ledger,
    snapshot: BookSnapshot,
    cutover: Cutover,
    *,
    update: bool = False,
    apart: MadeHere | None = None,
) -> Report:
    """Compare the final ``ledger`` with the book read back; see the module docstring.
    ``update``: the book was in the user's hands since qb2gnucash wrote it (the causes of the
    checks that differ say so); ``apart``: what the user made there alone, which the counts
    leave out (an update's proof: ``app.made_here``)."""
    asof = ledger.as_of if ledger.as_of is not None else cut.as_of(ledger, cutover)[0]
    as_of, year_start = (asof.date, asof.year_start) if asof else (None, None)
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    re_name = retained.full_name if retained else None
    book = {b.full_name: b for b in snapshot.accounts}
    book_types = ((b.full_name, _type(b), b.daily) for b in snapshot.accounts)
    from_book = figures(as_counted(ledger, book_types), re_name, as_of, year_start)
    daily = ledger_daily(ledger)
    opened_on, opening = opened(ledger)
    folded = cutover.mode == "balances_only" and cutover.ytd_to_retained
    ytd = sum(
        (a.balance for a in ledger.accounts if a.balance is not None and _pnl(a.counted)), ZERO
    )
    holes = gaps(ledger.files) if cutover.mode != "balances_only" else []
    from_files, more = _from_files(ledger, daily, cutover, re_name, asof)
    seamed = seams(ledger.files) if opened_on and not holes and cutover.mode == "full" else []
    notes = [*_notes(ytd if folded else ZERO, re_name, holes, seamed), trial_balance_note(asof)]
    differing = [a for a in ledger.accounts if a.balance not in (None, from_book.get(a.full_name))]
    suspect = likely.date_suspect(asof, differing, re_name, first := _first(ledger))
    differ = {a.full_name for a in differing}
    rows: list[Row] = []
    for a in ledger.accounts:
        lines = sum(daily.get(a.full_name, {}).values(), ZERO)
        b = book.get(a.full_name)
        total = b.balance if b else ZERO
        if a.balance is None and not (folded and a.full_name == re_name):
            expected, got, basis = lines, total, "history"
        else:
            expected = a.balance if a.balance is not None else ZERO
            got = from_book.get(a.full_name, ZERO)
            basis = "all time"
            if _pnl(a.counted):
                basis = "year to date"
                expected = ZERO if folded else expected
            elif a.full_name == re_name:
                basis = "retained earnings"
                expected += ytd if folded else ZERO
        row = Row(
            a.full_name,
            " + ".join(a.origin),
            expected,
            got,
            basis,
            lines,
            opening.get(a.full_name, ZERO),
            total,
            b is not None,
            a.type.family if a.type else "",
            created="parent" if a.placeholder and not a.origin else "",
            counted=a.counted_as.family if a.counted_as else "",
            types=_types(a, b),
        )
        if not row.ok:  # (``meant``: the files make QuickBooks' figure, the book does not)
            row = _cause(
                row, a, ledger, cutover, asof=asof, re_name=re_name, holes=holes, more=more,
                suspect=suspect, meant=not folded and from_files.get(a.full_name) == expected,
                update=update, first=first, differ=differ,
                started=likely.opened_there(ledger, daily, first, a.full_name),
            )  # fmt: skip
        rows.append(row)
    known = {a.full_name for a in ledger.accounts}
    for b in snapshot.accounts:
        if b.full_name not in known:
            type_ = _type(b)
            rows.append(
                Row(
                    b.full_name,
                    "",
                    ZERO,
                    b.balance,
                    "not in the input",
                    book_total=b.balance,
                    family=type_.family if type_ else "",
                    created="book",
                    cause=book_only(b.full_name, update=update) if b.balance else "",
                )
            )
    plug = (opened_on, opening) if cutover.opening_balances and cutover.mode == "full" else None
    extras = replace(prove(ledger, snapshot, asof, folded, plug), update=update)  # year ends…
    counted = apart.counted(snapshot) if apart is not None else snapshot
    checks = explain(_checks(ledger, counted), ledger, counted, update=update, apart=apart)
    unmade = ""  # the opening balance asked for, not made: why (said once, app.coverage)
    if cutover.opening_balances and holes and first and any(r.fix == "history_gap" for r in rows):
        unmade = no_opening(holes, first)
    return Report(
        likely.paired(rows, ledger), checks, asof, tuple(notes), extras=extras, no_opening=unmade
    )


def _notes(folded: Decimal, re_name: str | None, holes: list[Gap], seamed: list[Gap]) -> list[str]:
    """What the reader of the proof must know beside the rows: this year's result folded into
    Retained Earnings, the stretches no file covers, those an opening balance was posted across
    (``coverage.seams``: what it may hide)."""
    notes: list[str] = []
    if folded:
        notes.append(
            f"This year's income and expense to date ({money(folded)}) went into "
            f"{re_name or 'Retained Earnings'}: income and expense accounts are expected at "
            "0.00 and Retained Earnings at QuickBooks' figure plus that result."
        )
    notes.extend(f"{gap.describe()}." for gap in holes)
    if seamed:
        said = seam_warning(seamed)
        notes.append(f"{said[0].upper()}{said[1:]}.")
    return notes


def _from_files(
    ledger: Ledger,
    daily: cut.DailyByAccount,
    cutover: Cutover,
    re_name: str | None,
    asof: AsOf | None,
) -> tuple[dict[str, Decimal], tuple[str, Fix] | None]:
    """The files' (the final ledger's) figure of each account (QuickBooks' but not the book's:
    the book differs, e.g. Retained Earnings by earlier years' income), and whether they explain
    more than QuickBooks wherever they differ (``as_of.over_explained``: counted twice)."""
    files = [(a.full_name, a.counted, daily.get(a.full_name, {}).items()) for a in ledger.accounts]
    made = figures(files, re_name, asof.date if asof else None, asof.year_start if asof else None)
    more = cutover.mode != "balances_only" and over_explained(
        (a.balance, made.get(a.full_name, ZERO)) for a in ledger.accounts if a.balance is not None
    )
    return made, repeated.cause(ledger) if more else None


def _cause(
    row: Row,
    account: Account,
    ledger: Ledger,
    cutover: Cutover,
    *,
    asof: AsOf | None,
    re_name: str | None,
    holes: list[Gap],
    more: tuple[str, Fix] | None,
    suspect: bool,
    meant: bool = False,
    update: bool = False,
    first: dt.date | None = None,
    started: bool = False,
    differ: Collection[str] = (),
) -> Row:
    """The probable cause of a row's difference, and the setting that fixes it: counted twice
    (``more``: the history explains more than QuickBooks wherever it differs), a history with
    gaps, else the likeliest setting (``suspect``: the export date typed, ``likely``);
    ``meant``: the files make QuickBooks' figure, the book does not; ``first``: the history's
    first day."""
    if row.types is not None:  # (before all: the figures may even match)
        return replace(row, cause=retyped(row.types, update))
    if not row.in_book or row.history_difference or row.basis == "history" or meant:
        return replace(row, cause=book_differs(update))
    if across := likely.merged_across(ledger, account, re_name, asof, first, differ):
        return replace(row, cause=across, fix="merge_crossed")
    if short := likely.short_totals(ledger, account):  # (the General Ledger's own Total rows)
        return replace(row, cause=f"the General Ledger is short there: {short}", fix="same_day")
    if more:  # (``app.repeated``: in the files twice, or counted otherwise by QuickBooks)
        return replace(row, cause=f"{repeated.HEAD}: {more[0]}", fix=more[1])
    if holes and not cut.other_year(asof):
        cause = f"the history is incomplete: {holes[0].short()}"
        return replace(row, cause=cause, fix="history_gap")
    if cutover.mode == "balances_only" or asof is None:
        return replace(row, cause="QuickBooks' trial balance and the book disagree", fix="files")
    # (the history starts with the company; a working book opens with the archive's closing)
    opening = cutover.opening_balances or started or bool(cutover.split_at)
    fix = likely.likely_fix(account, re_name, asof, first, opening=opening, suspect=suspect)
    causes = {
        "fiscal_year_start": "the fiscal year start: QuickBooks' figures fit a fiscal year "
        f"starting {cut.fits_words(asof.fits)}",
        "export_date": "QuickBooks' figures are from the day of the export, which the files do "
        "not say"
        if asof.basis != "given"
        else f"the export date given, {asof.date}, is probably not the day of the export: "
        f"{plural(asof.after, 'transaction')} are dated after it, and income or expense differs "
        "over a fiscal year the history covers whole",
        "opening_balances": f"the history starts on {first}, {STARTED_LATE}",
        "files": "the history does not explain it: a transaction is missing from the files, or "
        "QuickBooks counts one of theirs otherwise (changed after they were exported)"
        + (f"; {days}: {one_sided.CAUSE}" if (days := one_sided.shared(ledger.problems)) else ""),
        "balances_only": "no transaction file was given, so the book holds no history to reach "
        "QuickBooks' balances",
    }
    return replace(row, cause=causes[fix], fix=fix)


def _first(ledger: Ledger) -> dt.date | None:
    """The history's first day (the opening transaction made here left out)."""
    return min((t.date for t in ledger.transactions if t.kind_label != OPENING_KIND), default=None)


def _pnl(type_: AccountType | None) -> bool:
    return type_ is not None and not type_.balance_sheet


def _flag_check(ledger: Ledger, snap: BookSnapshot) -> list[Check]:
    """GnuCash's opening-balance flag sits on the account with that role (if any)."""
    want = role_account(ledger, Role.OPENING_BALANCE)
    flagged = ", ".join(b.full_name for b in snap.accounts if b.opening_balance)
    if want is None and not flagged:
        return []
    return [Check("opening-balance account", want.full_name if want else "", flagged, False)]


def _shared_codes(ledger: Ledger, snap: BookSnapshot) -> list[Check]:
    """One account number is one account: two book accounts with one code means one account
    was split in two (each balance wrong, their sum right), unless QuickBooks' own list has
    the number on the same two (a warning on Preview: ``validate``). Listed when either has
    one."""
    ours = shared_codes((a.code, a.full_name) for a in ledger.accounts)
    theirs = shared_codes((b.code, b.full_name) for b in snap.accounts)
    if not ours and not theirs:
        return []
    detail = "; ".join(f"{code}: {', '.join(names)}" for code, names in theirs.items())
    return [Check("account numbers used twice", len(ours), len(theirs), ours == theirs, detail)]


def _checks(ledger: Ledger, snap: BookSnapshot) -> tuple[Check, ...]:
    states: Counter[str] = Counter()
    for t in ledger.transactions:  # counted per transaction: no list of 300k pairs
        if t.voided:
            states["v"] += len(t.splits)
        else:
            states.update(s.reconcile.value for s in t.splits)
    splits = states.total()
    booked = dict(snap.reconcile)
    dates = [t.date for t in ledger.transactions]
    strays = sorted(
        b.full_name
        for b in snap.accounts
        if engine_made(b.full_name) and ledger.account(b.full_name) is None
    )
    labels = {"n": "not reconciled", "c": "cleared", "y": "reconciled", "v": "voided"}
    out = [
        Check("accounts", len(ledger.accounts), len(snap.accounts), False),
        Check("transactions", len(ledger.transactions), snap.transactions, False),
        Check("splits", splits, snap.splits, False),
        *(
            Check(f"splits {labels.get(k, k)}", states.get(k, 0), booked.get(k, 0), False)
            for k in sorted(set(states) | set(booked))
        ),
        Check("customers", len(ledger.customers), len(snap.customers), False),
        Check(
            "jobs",
            sum(len(c.jobs) for c in ledger.customers),
            sum(len(c.jobs) for c in snap.customers),
            False,
        ),
        Check("vendors", len(ledger.vendors), len(snap.vendors), False),
        Check("employees", len(ledger.employees), len(snap.employees), False),
        Check("terms", len(ledger.terms), len(snap.terms), False),
        Check("Imbalance/Orphan accounts", 0, len(strays), False, ", ".join(strays)),
        *_shared_codes(ledger, snap),
        *_flag_check(ledger, snap),
        Check("first transaction date", min(dates, default=None), snap.first_date, False),
        Check("last transaction date", max(dates, default=None), snap.last_date, False),
    ]
    made = sum(1 for a in ledger.accounts if a.placeholder and not a.origin)
    parents = ((made, plural(made, "parent account", "parent accounts") + " for the tree"),)
    out[0] = _with_added(out[0], parents)
    return tuple(Check(c.name, c.input, c.book, c.input == c.book, c.detail) for c in out)


def with_documents(
    report: Report,
    docs: selection.Selection,
    book: BookDocuments,
    accounts: Sequence[Account] = (),
) -> Report:
    """The documents part of the proof (``docs`` as selected, ``book`` as read back; the book's
    ``accounts``: what the plan merged onto A/R or A/P), and a note on what the documents pass
    added."""
    meant = docs.counts()
    held = dict(Counter(d.kind for d in book.documents))
    held["payment"] = book.payments
    proof = prove_documents(
        docs.derived, meant, book.owner_open, held, mode=docs.mode, unowned_lots=book.unowned_lots
    )
    balances = {r.account: r.quickbooks_balance for r in report.rows}
    as_of = report.as_of.date if report.as_of else None
    proof = with_open_items(proof, as_of, balances, docs, book, onto=put_onto(accounts))
    pieces = docs.pieces().values()
    cut, links = sum(max(0, len(p) - 1) for p in pieces), meant["link"]
    linked = (
        plural(links, "lot-link transaction", "lot-link transactions") + " (credit notes applied)"
    )
    added = [linked] if links else []
    if cut:
        added.append(f"{cut:,} A/R and A/P lines cut out of the payments (one per document paid)")
    note = (
        f"The invoices and bills added {' and '.join(added)}: zero-sum, no balance changed; "
        "the counts above include them."
    )
    notes = (*report.notes, note) if added else report.notes
    more = {  # what the documents pass added to the counts, said beside them
        "transactions": ((links, linked),),
        "splits": (
            (2 * links, plural(2 * links, "line") + " of the lot-link transactions"),
            (cut, plural(cut, "A/R or A/P line", "A/R and A/P lines") + " cut out of the payments"),
        ),
    }
    checks = tuple(_with_added(c, more.get(c.name, ())) for c in report.checks)
    return replace(report, documents=proof, notes=notes, checks=checks)


def _with_added(c: Check, added: tuple[tuple[int, str], ...]) -> Check:
    """``c`` with what qb2gnucash added to its expected count said, each (count, its words with
    the count): "150 from QuickBooks' files + 2 lot-link transactions (credit notes applied)"."""
    parts = [said for n, said in added if n]
    if not parts or not isinstance(c.input, int):
        return c
    files = c.input - sum(n for n, _ in added)
    said = f"{files:,} from QuickBooks' files + {' + '.join(parts)} added by qb2gnucash"
    return replace(c, detail=f"{said}; {c.detail}" if c.detail else said)
