"""Checks on a final (resolved and mapped) ledger before anything is written.

Collects every finding instead of stopping at the first (the wizard lists them all). Nothing is
ever fixed here: an unbalanced transaction is reported with its lines, never plugged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from decimal import Decimal

from app.model import Account, AccountType, Ledger, Problem, Source

# GnuCash's own rule (xaccAccountTypesCompatible, checked against the engine in the tests):
# asset- and liability-like types mix freely, income and expense mix, equity stays with equity.
_GROUP = {
    "asset": "balance",
    "liability": "balance",
    "equity": "equity",
    "income": "pnl",
    "expense": "pnl",
}
_SHOWN_LINES = 5


def compatible(parent: AccountType, child: AccountType) -> bool:
    """Whether GnuCash accepts an account of type ``child`` under one of type ``parent``."""
    return _GROUP[parent.family] == _GROUP[child.family]


def check(ledger: Ledger, *, reported: Collection[str] = ()) -> list[Problem]:
    """Every problem that blocks writing ``ledger`` (plus warnings). ``reported``: account
    labels already reported as unresolved by ``resolve``, not reported a second time."""
    return [*check_accounts(ledger), *_check_transactions(ledger, set(reported))]


def check_accounts(ledger: Ledger) -> list[Problem]:
    """The account tree alone: names, types, parents, type families (the Map step's checks)."""
    out: list[Problem] = []
    by_name = {a.full_name: a for a in ledger.accounts}
    seen: dict[str, Source] = {}
    for a in ledger.accounts:
        levels = a.full_name.split(":")
        if any(not level.strip() for level in levels):
            out.append(Problem(a.source, f"account {a.full_name!r} has an empty name level"))
            continue
        if a.full_name in seen:
            out.append(
                Problem(
                    a.source,
                    f"two accounts would be named {a.full_name!r} (the other from "
                    f"{seen[a.full_name]}); rename or merge one of them",
                )
            )
        seen.setdefault(a.full_name, a.source)
        if a.type is None:
            out.append(Problem(a.source, untyped(a)))
        parent = by_name.get(a.parent_name) if a.parent_name else None
        if a.parent_name and parent is None:
            out.append(
                Problem(a.source, f"account {a.full_name!r} has no parent {a.parent_name!r}")
            )
        elif parent and parent.type and a.type and not compatible(parent.type, a.type):
            out.append(
                Problem(
                    a.source,
                    f"account {a.full_name!r} of type {a.type.value} cannot sit under "
                    f"{parent.full_name!r} of type {parent.type.value} in GnuCash; "
                    "move it or change a type",
                )
            )
    return out


def untyped(account: Account) -> str:
    """The message for an account without a GnuCash type (the command line adds its option)."""
    label = f" (QuickBooks type {account.kind_label!r})" if account.kind_label else ""
    return f"choose a GnuCash type for account {account.full_name!r}{label}"


def _check_transactions(ledger: Ledger, reported: set[str]) -> list[Problem]:
    out: list[Problem] = []
    accounts = {a.full_name: a for a in ledger.accounts}
    missing: dict[str, list[Source]] = defaultdict(list)
    placeholder: dict[str, list[Source]] = defaultdict(list)
    for t in ledger.transactions:
        if not t.splits:
            out.append(Problem(t.source, "transaction has no lines"))
            continue
        total = t.total
        if total != 0:
            debits = sum((s.value for s in t.splits if s.value > 0), Decimal(0))
            credits = -sum((s.value for s in t.splits if s.value < 0), Decimal(0))
            out.append(
                Problem(
                    t.source,
                    f"transaction does not balance: debits {debits:.2f}, credits {credits:.2f} "
                    f"(difference {total:.2f}); {line_list(s.source for s in t.splits)}",
                )
            )
        for s in t.splits:
            account = accounts.get(s.account)
            if account is None:
                if s.account not in reported:
                    missing[s.account].append(s.source)
            elif account.placeholder:
                placeholder[s.account].append(s.source)
    for name, sources in missing.items():
        out.append(Problem(sources[0], f"account {name!r} does not exist ({line_list(sources)})"))
    for name, sources in placeholder.items():
        out.append(
            Problem(
                sources[0],
                f"account {name!r} is a placeholder and cannot take postings "
                f"({line_list(sources)}); move them to another account",
            )
        )
    return out


def line_list(sources: Iterable[Source]) -> str:
    """``lines 12-14`` for one file's consecutive lines, else the first few places and a count."""
    places = sorted(set(sources))
    files = {s.filename for s in places}
    lines = [s.line for s in places]
    if len(files) == 1 and len(lines) > 1 and lines == list(range(lines[0], lines[-1] + 1)):
        return f"lines {lines[0]}-{lines[-1]}"
    if len(files) == 1:
        shown = ", ".join(str(n) for n in lines[:_SHOWN_LINES])
        word = "line" if len(lines) == 1 else "lines"
    else:
        shown = ", ".join(str(s) for s in places[:_SHOWN_LINES])
        word = "line" if len(places) == 1 else "lines"
    more = len(places) - _SHOWN_LINES
    return f"{word} {shown}" + (f" and {more} more" if more > 0 else "")
