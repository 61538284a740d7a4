"""Why the history explains more than QuickBooks' balance on every account that differs
(``as_of.over_explained``): an opening balance cannot be what is missing then. Either a
transaction is in the files twice (two alike: ``twins``; said with both lines), or
none is, and a transaction of the files is one QuickBooks counts otherwise: changed or deleted
there after the transaction report was exported, or the lists and the report exported on
different days (a walk changed one check's amount on both sides: it was said to be "in the
files twice"). Pure; one pass over the transactions, made only when the case arises."""

from __future__ import annotations

from decimal import Decimal

from app.model import Account, Fix, Ledger, Problem, Transaction, money
from app.openings import OPENING_KIND
from app.readers import one_sided

ZERO = Decimal(0)
HEAD = "the history explains more than QuickBooks' balance, as on every account that differs"


def twins(ledger: Ledger) -> tuple[Transaction, Transaction] | None:
    """The first two transactions of the files alike (same day, type, number, name, accounts
    and amounts: a file given twice repeats them all, where a month's invoices of one price to
    several customers, or equal paychecks, differ in name or number), or None; voided ones and
    the opening transaction made here left out."""
    seen: dict[tuple, int] = {}
    txns = ledger.transactions
    for i, t in enumerate(txns):
        if t.voided or t.kind_label == OPENING_KIND:
            continue
        lines: list[tuple[str, Decimal]] = sorted((s.account, s.value) for s in t.splits if s.value)
        if not lines:
            continue
        first = seen.setdefault((t.date, t.kind_label, t.num, t.description, tuple(lines)), i)
        if first != i:
            return txns[first], t
    return None


def cause(ledger: Ledger) -> tuple[str, Fix]:
    """The probable cause, in words that follow ``HEAD`` ("…: transactions are probably in the
    files twice (…)"), and the setting that fixes it."""
    pair = twins(ledger)
    if pair is not None:
        a, b = pair
        said = f"transactions are probably in the files twice (such as {a.source} and {b.source}"
        spans = {f.filename: f for f in ledger.files if f.first_date and f.last_date}
        one, two = spans.get(a.source.filename), spans.get(b.source.filename)
        if one and two and one is not two and one.first_date and two.first_date:
            start = max(one.first_date, two.first_date)
            end = min(one.last_date or start, two.last_date or start)
            if start <= end:  # (two reports of periods that overlap: each given once)
                said += f", alike: {one.filename} and {two.filename} both cover {start} to {end}"
                return f"{said}; give transaction files whose periods do not overlap)", "repeated"
        return f"{said}, alike)", "repeated"
    if days := one_sided.shared(ledger.problems):  # (hunt 13: a check deleted in between)
        return f"no transaction is in the files twice; {days}: {one_sided.CAUSE}", "same_day"
    return (
        "no transaction is in the files twice, so one of theirs is probably counted otherwise "
        "by QuickBooks (changed or deleted there after the transaction report was exported, or "
        "the lists and that report exported on different days)",
        "same_day",
    )


def explains_more(
    figured: list[Account], explained: dict[str, Decimal], why: tuple[str, Fix]
) -> Problem:
    """The cutover's one finding that says why no difference is posted: the history explains
    more (``why``: ``cause``)."""
    differ = [a for a in figured if a.balance != explained.get(a.full_name, ZERO)]
    shown = [
        f"{a.full_name} {money(explained.get(a.full_name, ZERO))} where "
        f"{'QuickBooks' if i == 0 else 'it'} has {money(a.balance)}"
        for i, a in enumerate(differ[:2])
    ]
    more = f" and {len(differ) - 2} more" if len(differ) > 2 else ""
    return Problem(
        None,
        "the imported history explains more than QuickBooks' balance on every account that "
        f"differs ({len(differ)} accounts: {', '.join(shown)}{more}): {why[0]}; nothing is "
        "posted as an opening balance, which would hide the difference",
        "warning",
        why[1],
        topic="difference",
    )


def not_posted(account: Account, what: str, diff: Decimal, why: tuple[str, Fix]) -> Problem:
    """The cutover's warning for one account's difference, not posted: the history explains
    more (``why``: ``cause``)."""
    return Problem(
        account.source,
        f"{account.full_name}: {what}; difference {money(diff)}: not posted, the history explains "
        "more than QuickBooks' balance",
        "warning",
        why[1],
        topic="difference",
    )
