"""The plan's choice for QuickBooks' classes, applied to the final ledger (pure), and the proof's
folding of class sub-accounts back into their accounts. docs/CLASSES.md.

- ``memo`` (the default): each classed split keeps its class: its memo starts ``[East Store]``
  and the writer puts the class in the split's ``qb-class`` slot (``app.classes.SLOT``).
- ``accounts``: each income and expense account with classed lines gets a sub-account per class
  (``Expenses:Rent:East Store``; a class ``Parent:Child`` nested ``...:Rent:Parent:Child``, the
  parent class's sub-account made too), each classed line moved there; unclassed lines stay on
  the account. A line of a balance-sheet account (a nonprofit's fund on a bank or net-assets
  line) gets no sub-account: it keeps its class as in ``memo``. Every moved line keeps its slot.
  A sub-account name that the chart already uses for a real account gets `` (class)`` after the
  class's top level.
- ``none``: classes are not carried: every split's class dropped, each class used listed under
  "not imported" with why (never silently).

``folded_ledger`` and ``folded_snapshot`` undo ``accounts`` for the proof: each class
sub-account's lines and figures go back into the account it was made under
(``Account.folds_into``), so the book is still compared per QuickBooks account; each
sub-account's own balance is compared with its lines by ``sub_account_check``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from decimal import Decimal

from app.book import BookAccount, BookSnapshot
from app.classes import SUB_ACCOUNT, memo_with
from app.model import Account, Ledger, NotImported, Split, Transaction
from app.plan import ClassesMode

ZERO = Decimal(0)
TAKEN = " (class)"
NOT_CARRIED = "classes not carried into the book: the plan's choice (--classes none)"


def carried(ledger: Ledger, mode: ClassesMode) -> Ledger:
    """``ledger`` (final names) with its classes as ``mode`` says; unchanged without classes."""
    if not any(s.klass for t in ledger.transactions for s in t.splits):
        return ledger
    if mode == "none":
        return _dropped(ledger)
    if mode == "memo":
        return replace(ledger, transactions=tuple(_memo(t) for t in ledger.transactions))
    return _sub_accounts(ledger)


def _memo(t: Transaction) -> Transaction:
    if not any(s.klass for s in t.splits):
        return t
    return replace(
        t, splits=tuple(replace(s, memo=memo_with(s.klass, s.memo)) if s.klass else s
                        for s in t.splits)
    )  # fmt: skip


def _dropped(ledger: Ledger) -> Ledger:
    first: dict[str, Split] = {}
    txns = []
    for t in ledger.transactions:
        if any(s.klass for s in t.splits):
            for s in t.splits:
                if s.klass:
                    first.setdefault(s.klass, s)
            txns.append(replace(t, splits=tuple(replace(s, klass="") for s in t.splits)))
        else:
            txns.append(t)
    left = tuple(NotImported("Classes", name, NOT_CARRIED, s.source) for name, s in first.items())
    return replace(ledger, transactions=tuple(txns), not_imported=(*ledger.not_imported, *left))


def sub_account_name(account: str, klass: str, chart: set[str]) -> str:
    """``Expenses:Rent`` + ``East:North`` → ``Expenses:Rent:East:North``; where the chart has a
    real account ``Expenses:Rent:East``, ``Expenses:Rent:East (class):North``."""
    top, _, rest = klass.partition(":")
    if f"{account}:{top}" in chart:
        top += TAKEN
    return ":".join(p for p in (account, top, rest) if p)


def _sub_accounts(ledger: Ledger) -> Ledger:
    by_name = {a.full_name: a for a in ledger.accounts}
    chart = set(by_name)
    made: dict[str, Account] = {}
    moved: dict[tuple[str, str], str] = {}  # (account, class) → sub-account

    def target(s: Split) -> str | None:
        key = (s.account, s.klass)
        if key in moved:
            return moved[key]
        account = by_name.get(s.account)
        if account is None or account.type is None or account.type.balance_sheet:
            moved[key] = ""
            return ""
        name = sub_account_name(s.account, s.klass, chart)
        levels = s.klass.split(":")
        for depth in range(1, len(levels) + 1):  # the parent class's sub-account too
            sub = sub_account_name(s.account, ":".join(levels[:depth]), chart)
            made.setdefault(
                sub,
                Account(
                    full_name=sub,
                    type=account.type,
                    source=account.source,
                    description=SUB_ACCOUNT + ":".join(levels[:depth]),
                    folds_into=s.account,
                ),
            )
        moved[key] = name
        return name

    def moved_split(s: Split) -> Split:
        if not s.klass:
            return s
        to = target(s)
        return replace(s, account=to) if to else replace(s, memo=memo_with(s.klass, s.memo))

    txns = [
        replace(t, splits=tuple(map(moved_split, t.splits)))
        if any(s.klass for s in t.splits)
        else t
        for t in ledger.transactions
    ]
    accounts = (*ledger.accounts, *sorted(made.values(), key=lambda a: a.full_name))
    return replace(ledger, accounts=accounts, transactions=tuple(txns))


def folds(ledger: Ledger) -> dict[str, str]:
    """Each class sub-account → the account it was made under."""
    return {a.full_name: a.folds_into for a in ledger.accounts if a.folds_into}


def folded_ledger(ledger: Ledger) -> Ledger:
    """``ledger`` as before ``accounts`` mode: the sub-accounts' lines back on their accounts."""
    into = folds(ledger)
    if not into:
        return ledger
    txns = tuple(
        replace(t, splits=tuple(replace(s, account=into[s.account]) if s.account in into else s
                                for s in t.splits))
        if any(s.account in into for s in t.splits)
        else t
        for t in ledger.transactions
    )  # fmt: skip
    accounts = tuple(a for a in ledger.accounts if not a.folds_into)
    return replace(ledger, accounts=accounts, transactions=txns)


def folded_snapshot(snapshot: BookSnapshot, into: dict[str, str]) -> BookSnapshot:
    """The book read back with each class sub-account's figures added into its account's."""
    if not into:
        return snapshot
    subs: dict[str, list[BookAccount]] = defaultdict(list)
    for b in snapshot.accounts:
        if b.full_name in into:
            subs[into[b.full_name]].append(b)
    out = []
    for b in snapshot.accounts:
        if b.full_name in into:
            continue
        more = subs.get(b.full_name)
        if not more:
            out.append(b)
            continue
        daily: dict = defaultdict(Decimal)
        for part in (b, *more):
            for day, value in part.daily:
                daily[day] += value
        out.append(
            replace(
                b,
                balance=b.balance + sum((m.balance for m in more), ZERO),
                splits=b.splits + sum(m.splits for m in more),
                daily=tuple(sorted(daily.items())),
            )
        )
    return replace(snapshot, accounts=tuple(out))


def sub_account_check(ledger: Ledger, snapshot: BookSnapshot) -> tuple[int, int, str]:
    """(class sub-accounts meant, those the book holds with exactly their lines' balance,
    which differ): the proof's check that no line went to another class."""
    into = folds(ledger)
    if not into:
        return 0, 0, ""
    lines: dict[str, Decimal] = dict.fromkeys(into, ZERO)
    for t in ledger.transactions:
        if not t.voided:
            for s in t.splits:
                if s.account in lines:
                    lines[s.account] += s.value
    book = {b.full_name: b.balance for b in snapshot.accounts}
    wrong = [a for a, v in lines.items() if book.get(a) != v]
    detail = ", ".join(wrong[:5]) + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else "")
    return len(into), len(into) - len(wrong), detail
