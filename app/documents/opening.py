"""Balances only, with an Open Invoices / Unpaid Bills report: the open items become the A/R and
A/P opening balances, owner by owner.

Each open item (an invoice, bill or credit note still open, a payment or credit not yet applied)
gets its own transaction, dated at its own date, for its open amount: the A/R (A/P) account
against the opening-balance account. The opening transaction's A/R (A/P) line keeps what the
items do not explain (the lump, said in a warning) and its opening-balance line takes back what
the items moved, so every account ends with the same balance as before. ``derive`` then finds
those transactions as documents and payments of their owners like any history; the report rows
join them by Trans # (else owner, date and number), so the allocation leaves each one open for
exactly its report amount. Pure: the model, the cutover's opening transaction and its accounts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from app.business import OpenItem
from app.cutover import equity_account
from app.model import AccountType, Ledger, Problem, Role, Split, Transaction, money
from app.openings import OPENING_KIND
from app.words import CONTROL_OF, CONTROLS

ZERO = Decimal(0)
_KINDS = tuple((kind, AccountType(of), CONTROLS[of]) for kind, of in CONTROL_OF.items())


def open_items_opening(ledger: Ledger, items: Sequence[OpenItem] | None = None) -> Ledger:
    """``ledger`` (balances only: its one opening transaction) with the open items split out of
    the opening transaction; unchanged when there is no report or no opening transaction.
    ``items``: the open items to split out instead of the report's (``ledger.open_items``): the
    archive's open documents on its last day, for the working book (``app.archive``)."""
    items_ = ledger.open_items if items is None else tuple(items)
    openings = [i for i, t in enumerate(ledger.transactions) if t.kind_label == OPENING_KIND]
    if len(openings) != 1 or not items_:
        return ledger
    at = openings[0]
    opening = ledger.transactions[at]
    lines = list(opening.splits)
    accounts = ledger.accounts
    made: list[Transaction] = []
    problems: list[Problem] = []
    equity = None
    for kind, type_, word in _KINDS:
        items = [o for o in items_ if o.owner_kind == kind]
        if not items:
            continue
        names = [a.full_name for a in accounts if a.type is type_]
        if len(names) != 1:
            problems.append(
                Problem(
                    items[0].source,
                    f"{len(names)} {word} accounts: the open {kind} items cannot be told apart "
                    f"by account, so the {word} balance stays in the opening transaction "
                    "(no documents)",
                    "warning",
                )
            )
            continue
        account = names[0]
        if equity is None:
            found, accounts = equity_account(
                replace(ledger, accounts=accounts),
                Role.OPENING_BALANCE,
                "Opening Balances",
                opening.source,
            )
            equity = found.full_name
        side = 1 if kind == "customer" else -1  # the report's open: owed to us / by us
        late = [o for o in items if o.date > opening.date]
        for o in items:
            value = side * o.open
            memo = f"Open balance of QuickBooks {o.kind_label} {o.num}".rstrip()
            made.append(
                Transaction(
                    o.date,
                    (
                        Split(account, value, o.source, memo=memo),
                        Split(equity, -value, o.source, memo=memo),
                    ),
                    o.source,
                    num=o.num,
                    description=o.owner,
                    notes=f"Open on the cutover date ({opening.date})",
                    ref=o.ref,
                    kind_label=o.kind_label,
                    due=o.due,
                    terms=o.terms,
                )
            )
        explained = sum((side * o.open for o in items), ZERO)
        lines = _moved(lines, account, -explained, opening)
        lines = _moved(lines, equity, explained, opening)
        had = sum((s.value for s in opening.splits if s.account == account), ZERO)
        problems.append(
            _lump(word, kind, len(items), explained=explained, had=had, late=late, day=opening.date)
        )
    if not made:
        return replace(ledger, problems=(*ledger.problems, *problems))
    txns = list(ledger.transactions)
    txns[at] = replace(opening, splits=tuple(s for s in lines if s.value))
    return replace(
        ledger,
        accounts=accounts,
        transactions=(*txns, *made),
        problems=(*ledger.problems, *problems),
    )


def _moved(lines: list[Split], account: str, delta: Decimal, opening: Transaction) -> list[Split]:
    """The opening transaction's line on ``account`` changed by ``delta`` (added if none)."""
    for i, s in enumerate(lines):
        if s.account == account:
            return [*lines[:i], replace(s, value=s.value + delta), *lines[i + 1 :]]
    return [*lines, Split(account, delta, opening.source, memo="Opening balances")]


def _lump(
    word: str,
    kind: str,
    n: int,
    *,
    explained: Decimal,
    had: Decimal,
    late: list,
    day: object,
) -> Problem:
    rest = had - explained
    said = (
        f"the {n:,} open {kind} items make up the {word} opening balance "
        f"({money(had)}) owner by owner, each dated at its own date"
        if not rest
        else f"the {n:,} open {kind} items explain {money(explained)} of the {word} opening "
        f"balance ({money(had)}), each dated at its own date; {money(rest)} stays in the "
        "opening transaction, not attributed to any "
        f"{kind} (QuickBooks' trial balance and the report disagree)"
    )
    if late:
        said += f"; {len(late):,} of them are dated after the cutover date {day}"
    return Problem(None, said, "warning")


__all__ = ["open_items_opening"]
