"""The Find export's grouping: no Trans #, so the running sum of the amounts returning to 0.00
ends a transaction, unless the next row has the same type, date and num and continues it; the
Split column decides there (``split_says``), else the same name keeps it, with a warning."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from app.quickbooks import non_posting_kind
from app.readers.private import quoted
from app.readers.qbcsv.build import Group
from app.readers.values import parse_amount

ZERO = Decimal(0)
SEVERAL = "-SPLIT-"  # the Split cell of a transaction's first row when it has 3 or more lines
Warn = Callable[[int | None, str], None]


def group_by_balance(rows: list[tuple], has_split: bool, warn: Warn) -> list[Group]:
    """The Find export's rows (line, kind, date, num, name, split, balance, Split cell) as
    transactions: the running sum returning to 0.00 ends one, unless the Split column (or,
    without it, the same name) says the next row continues it."""
    groups: list[Group] = []
    total = ZERO
    g: Group | None = None
    start = 0  # the open group's first row
    checked = False
    for i, (line, kind, date, num, name, split, bal, _other) in enumerate(rows):
        if g is None:
            g = Group(line, "", kind, date, num, name)
            groups.append(g)
            total = ZERO
            start = i
        g.splits.append(split)
        if split.memo[:4].upper() == "VOID":
            g.void = True
        if name and name != g.name:
            g.own(split, name)
        total += split.value
        if not checked and bal:
            checked = _check_balance(line, bal, total, warn)
        if i + 1 == len(rows):
            break
        nxt = rows[i + 1]
        if nxt[1:4] != (kind, date, num):  # type, date or num change: another transaction
            if total and not non_posting_kind(kind):  # (an estimate is not read anyway)
                warn(
                    line,
                    f"the running balance is {total:,.2f}, not 0.00, at line {line}, but "
                    f"line {nxt[0]} starts another transaction (type, date or num change); "
                    f"the transaction of line {g.line} ends here unbalanced",
                )
            g = None
        elif total == 0:
            says = split_says(rows, start, i) if has_split else None
            if says is None and nxt[4] == name:
                _ambiguous(rows, start, i, has_split, warn)
            elif not says:
                g = None
    return groups


AMBIGUOUS = "ambiguous grouping"  # a warning about how the file's rows group (app.readers)


def _ambiguous(rows: list[tuple], start: int, i: int, has_split: bool, warn: Warn) -> None:
    line, nxt = rows[i][0], rows[i + 1][0]
    how = (
        "its Split cell does not tell whether it starts another transaction"
        if has_split
        else "the file has no Split column to tell (add it to the Find export's columns)"
    )
    warn(
        line,
        f"{AMBIGUOUS}: the running balance is 0.00 at line {line}, but line {nxt} has "
        f"the same type, date, num and name and {how}; kept in one transaction: check lines "
        f"{rows[start][0]}-{nxt}",
    )


def _check_balance(line: int, bal: str, total: Decimal, warn: Warn) -> bool:
    """Cross-check the file's Balance column once; a mismatch is a warning, not fatal."""
    try:
        value = parse_amount(bal)
    except ValueError:
        warn(line, f"the Balance column is unreadable (got {quoted(bal)}); amounts are used")
        return True
    if value != total:
        warn(
            line,
            f"the Balance column ({bal}) is not the running sum of the amounts "
            f"({total:,.2f}); grouping uses the amounts",
        )
        return True
    return False


def split_says(rows: list[tuple], start: int, i: int) -> bool | None:
    """The running balance is 0.00 after row ``i`` of the group that began at row ``start`` and
    the next row has the same type, date and num: does the Split column say that it continues
    the transaction (True) or starts another (False)? None when it cannot tell (a Split cell
    empty, as on zero-amount rows, or both or neither reading fits the cells).

    QuickBooks' rule: a transaction's first row names the other side's account (2 lines) or
    ``-SPLIT-`` (3 or more); each later row names the first row's account."""
    first_split = rows[start][7].strip()
    first_account = rows[start][5].account
    j = i + 1
    if not first_split or not rows[j][7].strip():
        return None
    size = i - start + 1
    if first_split == SEVERAL:
        complete, may_grow = size >= 3, True
    else:  # two lines: the second is the account the first names
        complete = size == 2 and rows[start + 1][5].account == first_split
        may_grow = size == 1 and rows[j][5].account == first_split
    ends = complete and _starts(rows, j)
    goes_on = may_grow and _continues(rows, j, first_account)
    return goes_on if ends != goes_on else None


def _starts(rows: list[tuple], j: int) -> bool:
    """Can row ``j`` be a transaction's first row? Its next row (same type, date, num) names its
    account, and is the account it names unless it names ``-SPLIT-``."""
    if j + 1 == len(rows) or rows[j + 1][1:4] != rows[j][1:4]:
        return False  # QuickBooks has no transaction of one line
    row, nxt = rows[j], rows[j + 1]
    named = nxt[7].strip()
    if named and named != row[5].account:
        return False
    other = row[7].strip()
    return other == SEVERAL or nxt[5].account == other


def _continues(rows: list[tuple], j: int, first_account: str) -> bool:
    """Can the rows from ``j`` on, up to the running sum's next 0.00, be later lines of the
    transaction whose first row is on ``first_account``? Each names that account (an empty
    Split cell says nothing)."""
    key = rows[j][1:4]
    total = ZERO
    for row in rows[j:]:
        if row[1:4] != key:
            break
        named = row[7].strip()
        if named and named != first_account:
            return False
        total += row[5].value
        if total == 0:
            break
    return True
