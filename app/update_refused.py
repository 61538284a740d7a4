"""Why a book cannot be brought up to date with these exports at all (pure): no run record,
another company's exports, older ones; exports most of whose shared transactions differ."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from operator import attrgetter

from app.coverage import history_span
from app.model import FileInfo, Ledger, Problem
from app.openings import OPENING_KIND
from app.plan import Plan
from app.readers.private import typed_masked
from app.update_record import Record
from app.words import quoted

RENAMED = "company"  # the key that takes QuickBooks' new company name (--take-quickbooks)


def refusal(
    rec: Record | None, ledger: Ledger, book: str, choices: Mapping[str, str] | None = None
) -> str | None:
    """Why the book whose run record is ``rec`` cannot be brought up to date with ``ledger``,
    or None (``choices``: the plan's decisions by key; ``RENAMED`` taken: the company renamed
    in QuickBooks, the other rules still hold: hunt 22, such a book could never be updated)."""
    if rec is None:
        return (
            f"{book} was not written by qb2gnucash (it holds no record of an earlier run): "
            "convert the exports into a new book instead (-o on the command line; in the "
            "wizard, a new migration)"
        )
    # (masked alike: a title's typed numbers are masked as read since hunt 20, not in older
    # records)
    renamed = (choices or {}).get(RENAMED) == "quickbooks"
    if rec.company and ledger.company and _name(rec.company) != _name(ledger.company):
        if not renamed:
            return (
                f"these exports are of {quoted(_name(ledger.company))}, and {book} holds "
                f"{quoted(_name(rec.company))}: choose the exports of the book's own company (or, "
                "when QuickBooks' company was renamed, take its new name: on the command line, "
                f"--take-quickbooks {RENAMED}; the wizard cannot take it yet)"
            )
    known = set(rec.figures)
    if known and len(known & {a.full_name for a in ledger.accounts}) * 2 < len(known):
        return (
            f"these exports share fewer than half of {book}'s accounts: they seem to be of "
            "another company; choose the exports of the book's own company"
        )
    history = any(t.kind_label != OPENING_KIND for t in ledger.transactions)
    if not history and any(n for n, _ in rec.written.values()):
        return (
            f"these exports hold no transactions, and {book} holds QuickBooks' history: an "
            "update compares the book with QuickBooks' transactions, so give the transaction "
            "exports too, as in the first conversion (with the lists alone every transaction "
            "would seem gone)"
        )
    new_as_of = ledger.as_of.date if ledger.as_of else None
    if rec.as_of and new_as_of and new_as_of < rec.as_of:
        return (
            f"these exports are as of {new_as_of}, older than {book}'s last run "
            f"(as of {rec.as_of}): export again from QuickBooks today"
        )
    return None


def _name(company: str) -> str:
    return typed_masked(company.strip())


def mostly_changed(shared: int, changed: int, book: str) -> str | None:
    """Why exports of which most of the transactions ``book`` shares (by Trans # or
    fingerprint) differ there are refused: another company whose numbers run alike, not
    edits made in QuickBooks since; None under 20 shared or at most half changed."""
    if shared < 20 or changed * 2 <= shared:
        return None
    return (
        f"{changed:,} of the {shared:,} transactions {book} and these exports share (by Trans # "
        "or by date, number and name) differ in date, amounts, accounts or memos: these "
        "exports seem to be of another company, or another company file; choose the exports "
        "of the book's own company"
    )


def unknown_keys(asked: Sequence[str], known: Collection[str]) -> str | None:
    """Why decisions on keys no change held has are refused (``asked``: the keys decided now,
    ``known``: those of the changes held, taken or renamed in this update), or None."""
    unknown = [key for key in asked if key not in known]
    if not unknown:
        return None
    listed = ", ".join(quoted(key) for key in unknown[:5])
    return (
        f"no change held in this update has the key {listed}: use a key as the update printed "
        "it, in brackets after “Held” (a change decided in an earlier run, or edited in "
        "GnuCash alone, is not held)"
    )


# the plan's settings that make the book what it is: an update writes in the book's own
_MODES = (
    ("documents", "--documents"),
    ("sales_tax", "--sales-tax"),
    ("classes", "--classes"),
    ("currency", "--currency"),
    ("reparent", "--reparent"),
    # (hunt 22: --opening-balances on a book of the whole history wrote a second opening)
    ("cutover.opening_balances", "--opening-balances"),
    ("cutover.ytd_to_retained", "--ytd-to-retained"),
)


def mode_changed(stored: Plan, plan: Plan, book: str) -> str | None:
    """Why an update asked to write in another mode than the book's is refused, or None: new
    invoices as plain transactions beside the book's documents (its paid ones left open, the
    proof comparing none), plain tax lines beside its tax tables, a class as a memo beside
    its sub-accounts: a book of two kinds, said as one (hunt 10)."""
    for name, flag in _MODES:
        was, now = attrgetter(name)(stored), attrgetter(name)(plan)
        if was == now:
            continue
        if isinstance(was, bool):
            how, asked = (
                (f"with {flag}" if was else f"without {flag}"),
                flag if now else "no " + flag,
            )
        else:
            how, asked = f"with {flag} {was}", f"{flag} {now}"
        return (
            f"{book} was written {how}, and an update writes in the book's own way: {asked}, "
            f"asked by an option or by the plan file given (--plan), is refused; leave it out, "
            "or convert the exports into a new book (-o) to change it"
        )
    mapped = any(plan.account_map.get(k, v) != v for k, v in stored.account_map.items())
    if plan.rules != stored.rules or mapped:  # (a label mapped anew for new exports: fine)
        return (
            f"the plan file given (--plan) changes {book}'s accounts (its renames, moves, merges "
            "and retypes are not the ones the book was written with), and an update writes in "
            "the book's own way: it would add accounts beside the book's and hold its "
            "transactions as changed; leave --plan out, rename the accounts in GnuCash (the "
            "book keeps its names), or convert the exports into a new book (-o)"
        )
    return None


def book_rules(errors: Sequence[Problem]) -> tuple[Problem, ...]:
    """The exports' errors as an update says them: a change of the book's own plan that names
    an account none of the exports lists is not one the user can edit there (a plan file
    changing the accounts is refused), so its fix names what can be done instead."""
    return tuple(
        replace(p, fix="book_rule_gone") if p.fix == "unknown_account" else p for p in errors
    )


def not_done(plan: Plan, book: str) -> str | None:
    """Why ``book`` (written with ``plan``) cannot be brought up to date yet, or None: an archive
    or a working book of a split history; a book of QuickBooks' balances alone (hunt 22: its
    cutover day was applied to the later exports, each refused with advice an update cannot
    follow)."""
    if plan.cutover.split_at:
        return (
            f"{book} is an archive or a working book (split at {plan.cutover.split_at}): "
            "bringing those up to date is not done yet; convert the later exports again with "
            "--split-at instead"
        )
    if plan.documents == "open":  # (hunt 22: a document open then and paid since stayed
        return (  # open, its payment plain, the report blamed: untested, so not done)
            f"{book} was written with only the invoices and bills open on its day as documents: "
            "bringing such a book up to date is not done yet (one paid since would stay open "
            "in it); convert the later exports into a new book"
        )
    if plan.cutover.mode == "balances_only":
        return (
            f"{book} was written from QuickBooks' balances alone (balances only, on "
            f"{plan.cutover.date}): bringing such a book up to date is not done yet; convert "
            "the later exports into a new book, with the balances on their own day"
        )
    return None


def keyed_otherwise(
    stamped: Sequence[tuple[dt.date, str]],
    files: Sequence[FileInfo],
    keys: Sequence[str],
    book: str,
) -> str | None:
    """Why exports whose transactions are keyed otherwise than the book's cannot bring it up to
    date, or None: the book's transactions within the days the exports' history covers
    (``stamped``: each one's date and key) known by QuickBooks' Trans # (a Journal, a
    Transaction Detail) and the exports' without one (a Find export, a report printed without
    its Trans # column), or the other way round, and none of them found: each would be added a
    second time and the book's said "deleted in QuickBooks" (hunt 22: the history twice, 226
    deletions QuickBooks never made). A book of both kinds, or exports of the days since
    alone, are judged by the days they share (hunt 26)."""
    first, last = history_span(files)
    if first is None or last is None:
        return None
    shared = [key for day, key in stamped if first <= day <= last and key != "opening"]
    if len(shared) < 10 or len(keys) < 10 or set(shared) & set(keys):
        return None
    ours = sum(1 for k in shared if k.startswith("ref:")) * 2 > len(shared)
    theirs = sum(1 for k in keys if k.startswith("ref:")) * 2 > len(keys)
    if ours == theirs:
        return None
    how = "with QuickBooks' Trans #" if ours else "without QuickBooks' Trans # (a Find export)"
    now = "have none" if ours else "have it"
    return (
        f"{book}'s transactions were written from exports {how}, and these exports {now}: no "
        "transaction of the book could be found in them, each would be added a second time; "
        "export the same report as the first run (with its Trans # column, or a Find export "
        "again)"
    )


STARTS_LATER = 10  # the book's transactions before the exports' first day: not a few deleted


def starts_later(
    stamped: Sequence[tuple[dt.date, str]], files: Sequence[FileInfo], book: str
) -> str | None:
    """Why exports whose history begins after the book's cannot bring it up to date, or None
    (hunt 22 F2: a Journal of the days since the last run alone. The update added its 77
    transactions right, but the proof compared 36 accounts with the exports' lines and blamed
    edits in GnuCash, and with ``--opening-balances`` it offered to take a new opening that
    counted a year twice). The exports' days run from a report title's first day where it has
    one (``coverage.history_span``): the book's transactions before it were deleted in
    QuickBooks, held as such. Without a title a few are taken so too; ``STARTS_LATER`` of them
    are days not exported, or QuickBooks condensed them away (said, hunt 27)."""
    first, _last = history_span(files)
    if first is None:
        return None
    before = sorted(day for day, key in stamped if key != "opening" and day < first)
    if len(before) < STARTS_LATER:
        return None
    return (
        f"these exports' transactions begin on {first}, and {book} holds {len(before):,} of "
        f"QuickBooks' transactions before that day (from {before[0]}): an update proves the "
        "whole book against QuickBooks' balances, so it needs every day of the history; export "
        f"the transaction report again for all dates (or from {before[0]}), with the lists. If "
        "QuickBooks no longer has them (File › Utilities › Condense Data), convert the exports "
        "into a new book instead"
    )
