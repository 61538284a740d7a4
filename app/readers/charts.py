"""Two charts of accounts that disagree (``merge``): lists exports of two company files, or of
one company on two days. An account both name with another type or another balance says so;
the book would mix them, so one of them is to be removed (an error on the later file)."""

from __future__ import annotations

from collections.abc import Sequence

from app.model import Account, Ledger, Problem, money
from app.quickbooks import type_name
from app.readers.private import quoted


def disagreements(charts: Sequence[Ledger]) -> list[Problem]:
    """One error per later chart that disagrees with the first: how many accounts, the first
    of them (type or balance, each file's), and what to do."""
    if len(charts) < 2:
        return []
    first = charts[0]
    name = first.files[0].filename if first.files else "the first lists export"
    known = {a.full_name: a for a in first.accounts}
    out = []
    for other in charts[1:]:
        differ = [
            (known[a.full_name], a)
            for a in other.accounts
            if a.full_name in known and _said(known[a.full_name]) != _said(a)
        ]
        if not differ:
            continue
        was, now = differ[0]
        other_name = other.files[0].filename if other.files else "another lists export"
        more = f" and {len(differ) - 1:,} more" if len(differ) > 1 else ""
        out.append(
            Problem(
                now.source,
                f"this chart of accounts disagrees with {name}'s: account "
                f"{quoted(now.full_name)} is {_words(was)} there, {_words(now)} here{more}. These "
                "are lists exports of two company files, or of one company on two days: keep the "
                f"one that goes with the transactions (remove {other_name} or {name} on the Files "
                "step)",
            )
        )
    return out


def _said(a: Account) -> tuple[object, object]:
    return (a.type, a.balance)


def _words(a: Account) -> str:
    kind = type_name(a.kind_label) if a.kind_label else (a.type.value if a.type else "untyped")
    balance = money(a.balance) if a.balance is not None else "no balance"
    return f"{kind}, {balance}"


def tax_rates(parts: Sequence[Ledger]) -> list[Problem]:
    """A Sales Tax Liability report whose rate for a sales tax item is not the item list's: one
    of them is from another day (the rate changed in QuickBooks between the two exports); the
    item list's rate makes GnuCash's tax tables, so it is said where the report says otherwise."""
    rates = {
        i.name: (i.rate, i.source)
        for part in parts
        for i in part.items
        if i.kind == "COMPTAX" and i.rate is not None
    }
    out = []
    for r in (r for part in parts for r in part.tax_liability):
        if r.item and r.rate is not None and r.item in rates and r.rate != rates[r.item][0]:
            listed, where = rates[r.item]
            out.append(
                Problem(
                    r.source,
                    f"the report gives sales tax item {quoted(r.item)} a rate of {r.rate}%, "
                    f"the item list ({where}) {listed}%: one of them is from another day (the "
                    "rate changed in QuickBooks between the two exports?); GnuCash's tax tables "
                    "take the item list's rate. Export both again the same day if it is not the "
                    "rate now",
                    "warning",
                )
            )
    return out
