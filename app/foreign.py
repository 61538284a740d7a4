"""Accounts, customers and vendors that QuickBooks keeps in another currency than the book's.

A multicurrency company's lists export gives an account, customer or vendor its currency
(ACCNT CURRENCY, CUST / VEND CURRENCY or NAMECURRENCY: ``Account.currency``,
``Customer.currency``, ``Vendor.currency``, as the export writes it: an ISO code or QuickBooks'
name of the currency). QuickBooks' reports give every amount in the home currency, so the
foreign amounts of such an account or name cannot be rebuilt from the files (docs/CURRENCIES.md):
such a company is refused, naming what is in which currency, unless the plan says
``foreign_as_home``: then it is converted at its home-currency values, said in a warning, in the
proof (``proof_note``) and in the notes of each account and name concerned. Pure: the model only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.model import Account, Ledger, Problem
from app.source import Source
from app.words import plural, quoted

# QuickBooks' names of the currencies most often met (its currency list), case-insensitive;
# an ISO code is taken as it is
_NAMES = {
    "us dollar": "USD", "u.s. dollar": "USD", "united states dollar": "USD",
    "canadian dollar": "CAD", "euro": "EUR", "british pound sterling": "GBP",
    "british pound": "GBP", "pound sterling": "GBP", "australian dollar": "AUD",
    "new zealand dollar": "NZD", "japanese yen": "JPY", "swiss franc": "CHF",
    "mexican peso": "MXN", "hong kong dollar": "HKD", "singapore dollar": "SGD",
    "indian rupee": "INR", "chinese yuan renminbi": "CNY", "chinese yuan": "CNY",
    "south african rand": "ZAR", "swedish krona": "SEK", "norwegian krone": "NOK",
    "danish krone": "DKK", "brazilian real": "BRL", "philippine peso": "PHP",
}  # fmt: skip
_SHOWN = 8  # names listed in the message; the rest are counted


def code(currency: str) -> str:
    """The ISO code of a currency as an export writes it ("USD", "US Dollar" → "USD"); a name
    not known here stays as it is (never equal to a code)."""
    text = " ".join(currency.split())
    if len(text) == 3 and text.isalpha():
        return text.upper()
    return _NAMES.get(text.casefold(), text)


@dataclass(frozen=True, slots=True)
class Foreign:
    """One account, customer or vendor in another currency than the book's."""

    kind: str  # "account", "customer", "vendor"
    name: str
    currency: str  # its ISO code, or the export's own words when not a known name
    source: Source


def found(ledger: Ledger, home: str) -> list[Foreign]:
    """Every account, customer and vendor of ``ledger`` whose currency is not ``home``."""
    out = [
        Foreign("account", a.full_name, code(a.currency), a.source)
        for a in ledger.accounts
        if a.currency and code(a.currency) != home
    ]
    for kind, names in (("customer", ledger.customers), ("vendor", ledger.vendors)):
        out += [
            Foreign(kind, n.name, code(n.currency), n.source)
            for n in names
            if n.currency and code(n.currency) != home
        ]
    return out


def check(
    outline: Ledger, resolved: Ledger, home: str, *, allowed: bool
) -> tuple[Ledger, list[Problem]]:
    """``outline`` (the mapped ledger) and its problems: an error naming every account and
    name in another currency (``resolved``: the chart before the plan's renames and merges),
    or, ``allowed``, a warning and a note on each of them."""
    items = found(resolved, home)
    if not items:
        return outline, []
    if not allowed:
        said = refusal(items, home, home_seen=_in_home(resolved, home))
        return outline, [Problem(items[0].source, said)]
    said = ", ".join(sorted({f.currency for f in items}))
    warning = Problem(
        items[0].source,
        f"{_counted(items)} {'is' if len(items) == 1 else 'are'} in another currency than the "
        f"book's {home} in QuickBooks ({said}): converted at their {home} values, as QuickBooks' "
        "reports give them (foreign as home); their own amounts in those currencies are not in "
        "the book, and each one's notes say so",
        "warning",
    )
    return _noted(outline, items, home), [warning]


def refusal(items: list[Foreign], home: str, *, home_seen: bool = False) -> str:
    """The message that refuses a company with ``items`` in another currency than ``home``
    (``home_seen``: the lists give others ``home`` itself, so it is the company's own)."""
    shown = "; ".join(
        f"{f.kind} {quoted(f.name)} ({f.currency}, line {f.source.line})" for f in items[:_SHOWN]
    )
    more = f"; and {len(items) - _SHOWN:,} more" if len(items) > _SHOWN else ""
    counts = Counter(f.currency for f in items)
    currencies = _and(list(counts))
    if home_seen:
        choose = ""
    elif len(counts) == 1:
        (only,) = counts
        choose = (
            f"if {only} is the company's home currency, choose it as the book's currency "
            f"(--currency {only}, or the Map step's currency)"
        )
    else:
        choose = (
            "if one of them is the company's home currency, choose it as the book's currency "
            "(--currency, or the Map step's currency)"
        )
    return (
        f"QuickBooks keeps {_counted(items)} in another currency than the book's {home} "
        f"({', '.join(counts)}): {shown}{more}. QuickBooks' exports give their amounts in the "
        f"home currency only, so their own {currencies} amounts cannot be rebuilt, and nothing "
        f"is written. What to do: {f'{choose}; otherwise ' if choose else ''}convert them at "
        'their home-currency values with --foreign-as-home (on the Map step: "Convert '
        "accounts and names in other "
        "currencies at their home-currency values\"): the book then matches QuickBooks' "
        "home-currency figures, and the proof and each one's notes say so"
    )


def _in_home(ledger: Ledger, home: str) -> bool:
    """Whether the lists give some account or name the currency ``home`` itself."""
    named = [a.currency for a in ledger.accounts]
    named += [c.currency for c in ledger.customers] + [v.currency for v in ledger.vendors]
    return any(c and code(c) == home for c in named)


def proof_note(ledger: Ledger, home: str) -> str:
    """The proof's line on a book converted at home-currency values ("" when nothing was)."""
    items = found(ledger, home)
    if not items:
        return ""
    kept = sorted({f.currency for f in items})
    counted = _counted(items)
    return (
        f"{counted[0].upper()}{counted[1:]} kept in another currency in QuickBooks "
        f"({', '.join(kept)}) {'was' if len(items) == 1 else 'were'} converted at their "
        f"home-currency ({home}) values, as QuickBooks' reports give them: the balances above "
        f"are in {home}; their own {_and(kept)} amounts are not in the book."
    )


def note(currency: str, home: str) -> str:
    """The note an account, customer or vendor in another currency gets in the book."""
    return (
        f"QuickBooks currency: {currency}. Converted at its home-currency ({home}) values, as "
        f"QuickBooks' reports give them; its own {currency} amounts are not in this book."
    )


def _counted(items: Iterable[Foreign]) -> str:
    n = Counter(f.kind for f in items)
    return _and([plural(n[k], k) for k in ("account", "customer", "vendor") if n[k]])


def _and(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]


def _noted(outline: Ledger, items: list[Foreign], home: str) -> Ledger:
    """``outline`` with the note on each account (through the plan's renames and merges: its
    origins), customer and vendor in another currency."""
    of = {(f.kind, f.name): f.currency for f in items}

    def account(a: Account) -> Account:
        found_ = [of[key] for o in (a.origin or (a.full_name,)) if (key := ("account", o)) in of]
        if not found_:
            return a
        return replace(a, notes=_join(a.notes, note(", ".join(dict.fromkeys(found_)), home)))

    return replace(
        outline,
        accounts=tuple(account(a) for a in outline.accounts),
        customers=tuple(
            replace(c, notes=_join(c.notes, note(of["customer", c.name], home)))
            if ("customer", c.name) in of
            else c
            for c in outline.customers
        ),
        vendors=tuple(
            replace(v, notes=_join(v.notes, note(of["vendor", v.name], home)))
            if ("vendor", v.name) in of
            else v
            for v in outline.vendors
        ),
    )


def _join(*parts: str) -> str:
    return "\n".join(p for p in parts if p)


__all__ = ["Foreign", "check", "code", "found", "note", "proof_note", "refusal"]
