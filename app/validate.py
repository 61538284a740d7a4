"""Checks on a final (resolved and mapped) ledger before anything is written.

Collects every finding instead of stopping at the first (the wizard lists them all). Nothing is
ever fixed here: an unbalanced transaction is reported with its lines, never plugged.

Everything the writer (``app.gnc``) refuses for a reason in the input is found here first, with
its file and line, so Preview shows it and no job fails half-way: an account without a type, a
duplicate or parentless account; a transaction without lines, unbalanced, or posting to an
account outside the chart; an amount or credit limit finer than the book currency's unit or
larger than GnuCash's 64-bit count of that unit; terms a customer or vendor names that are not
in the terms list; terms of an unknown kind or with numbers GnuCash cannot store; a currency
whose unit is not a power of ten.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from decimal import Decimal, Underflow, localcontext
from itertools import repeat
from operator import attrgetter, mod
from types import MappingProxyType
from typing import Literal

from app.currency import is_known, unknown
from app.history import History
from app.model import Account, AccountType, Ledger, Problem, Transaction, money
from app.quickbooks import MENU_LISTS
from app.source import Source, line_list
from app.words import GNUCASH_TYPES, article, plural, quoted

# GnuCash's own rule (xaccAccountTypesCompatible, checked against the engine in the tests):
# asset- and liability-like types mix freely, income and expense mix, equity stays with equity.
_GROUP = {
    "asset": "balance",
    "liability": "balance",
    "equity": "equity",
    "income": "pnl",
    "expense": "pnl",
}
# GnuCash's currencies' units (its ISO 4217 table, checked against the engine in the tests):
# decimal places of the smallest unit, 2 unless listed here; MGA and MGF have 1/5 and 1/500.
_PLACES = {
    **dict.fromkeys("AFN BYB CLP DJF IRR ITL JPY KMF TJR VND VUV XDR XSU".split(), 0),
    **dict.fromkeys("BHD IQD JOD KWD LYD OMR TND".split(), 3),
    "CLF": 4,
    **dict.fromkeys("XAG XAU XPD XPT XTS XXX".split(), 6),
}
NOT_DECIMAL = MappingProxyType({"MGA": 5, "MGF": 500})  # currency → its unit's denominator
_VALUE = attrgetter("value")
_ZERO = Decimal(0)
_INT64 = 2**63 - 1  # gnc_numeric's numerator
_GINT = 2**31 - 1  # a bill term's day counts
_NO_NAMES: Mapping[str, str] = MappingProxyType({})


def compatible(parent: AccountType, child: AccountType) -> bool:
    """Whether GnuCash accepts an account of type ``child`` under one of type ``parent``."""
    return _GROUP[parent.family] == _GROUP[child.family]


def places(currency: str) -> int | None:
    """Decimal places of ``currency``'s smallest unit in GnuCash; None when it is not a power
    of ten (MGA, MGF)."""
    return None if currency in NOT_DECIMAL else _PLACES.get(currency, 2)


def check(
    ledger: Ledger,
    *,
    reported: Collection[str] = (),
    currency: str = "USD",
    history: History | None = None,
    names: Mapping[str, str] = _NO_NAMES,
) -> list[Problem]:
    """Every problem that blocks writing ``ledger`` (plus warnings). ``reported``: account
    labels already reported as unresolved by ``resolve``, not reported a second time;
    ``currency``: the book's (amounts must fit its unit). ``history``: transactions the book
    gets after ``ledger``'s, their splits still naming accounts as before ``names`` (old →
    final full name; see ``pipeline.prepare``): checked as if renamed, with what no renaming
    changes worked out once per history."""
    return [
        *_nothing(ledger, history),
        *check_accounts(ledger),
        *_check_transactions(ledger, set(reported), history, names),
        *_check_amounts(ledger, currency, history),
        *_check_terms(ledger),
        *_shared_numbers(ledger),
    ]


NOTHING = (
    "nothing to import: the files hold no accounts, transactions, customers, vendors, employees "
    "or bill terms, so the book would be empty"
)


def _nothing(ledger: Ledger, history: History | None) -> list[Problem]:
    """A warning (each empty file has its own, with its name) when the book would be empty;
    an error when open items were given (an Open Invoices or Unpaid Bills report alone): they
    say what is open in a book that nothing else was given to make."""
    lists = (ledger.accounts, ledger.transactions, ledger.customers, ledger.vendors)
    if any(lists) or ledger.employees or ledger.terms or (history and history.transactions):
        return []
    if ledger.open_items:
        first = ledger.open_items[0].source.filename
        kind = next((f.kind for f in ledger.files if f.filename == first), "")
        what = kind.removeprefix("CSV ") or "open items"
        return [Problem(Source(first, 1), OPEN_ITEMS_ALONE.format(what=what))]
    return [Problem(None, NOTHING, "warning")]


OPEN_ITEMS_ALONE = (
    "this {what} report lists the items still open on a date, but no file gives the accounts "
    "and transactions they belong to, so the book would be empty: add the IIF lists export "
    f"({MENU_LISTS}) and the transaction history, or the lists "
    "alone to start from the balances on a date"
)


def check_accounts(ledger: Ledger) -> list[Problem]:
    """The account tree alone: names, types, parents, type families (the Map step's checks)."""
    out: list[Problem] = []
    by_name = {a.full_name: a for a in ledger.accounts}
    seen: dict[str, Source] = {}
    for a in ledger.accounts:
        levels = a.full_name.split(":")
        if any(not level.strip() for level in levels):
            out.append(Problem(a.source, f"account {quoted(a.full_name)} has an empty name level"))
            continue
        if a.full_name in seen:
            out.append(
                Problem(
                    a.source,
                    f"two accounts would be named {quoted(a.full_name)} (the other from "
                    f"{seen[a.full_name]}); rename or merge one of them",
                )
            )
        seen.setdefault(a.full_name, a.source)
        if a.type is None:
            out.append(Problem(a.source, untyped(a), fix="account_type"))
        parent = by_name.get(a.parent_name) if a.parent_name else None
        if a.parent_name and parent is None:
            out.append(
                Problem(
                    a.source, f"account {quoted(a.full_name)} has no parent {quoted(a.parent_name)}"
                )
            )
        elif parent and parent.type and a.type and not compatible(parent.type, a.type):
            out.append(
                Problem(
                    a.source,
                    f"account {quoted(a.full_name)} ({article(GNUCASH_TYPES[a.type.value])} "
                    "account) "
                    f"cannot sit under {quoted(parent.full_name)} "
                    f"({article(GNUCASH_TYPES[parent.type.value])} account) in GnuCash: a "
                    "subaccount is of its parent's kind; move it, or change a type",
                )
            )
    return out


def shared_codes(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Each account number (code) of more than one account, with their full names, in order."""
    by_code: defaultdict[str, list[str]] = defaultdict(list)
    for code, name in pairs:
        by_code[code.strip()].append(name)
    return {c: sorted(names) for c, names in sorted(by_code.items()) if c and len(names) > 1}


def _shared_numbers(ledger: Ledger) -> list[Problem]:
    """A warning per account number QuickBooks' list gives two accounts: GnuCash keeps it on
    both (an account code need not be unique there), and the proof expects just that."""
    at = {a.full_name: a.source for a in ledger.accounts}
    return [
        Problem(
            at[names[0]],
            f"account number {code} is on {len(names)} accounts: {quoted(names[0])} and "
            f"{', '.join(f'{quoted(n)} ({at[n]})' for n in names[1:])}; GnuCash keeps it on each. "
            "Give one its own number in QuickBooks (Lists › Chart of Accounts, Edit Account) and "
            "export again, or in GnuCash after the import (Edit › Edit Account, Account Code)",
            "warning",
        )
        for code, names in shared_codes((a.code, a.full_name) for a in ledger.accounts).items()
    ]


def untyped(account: Account) -> str:
    """The message for an account without a GnuCash type (the command line adds its option)."""
    label = f" (QuickBooks type {quoted(account.kind_label)})" if account.kind_label else ""
    return f"choose a GnuCash type for account {quoted(account.full_name)}{label}"


def _check_transactions(
    ledger: Ledger, reported: set[str], history: History | None, names: Mapping[str, str]
) -> list[Problem]:
    accounts = {a.full_name: a for a in ledger.accounts}
    out = _unbalanced(ledger.transactions)
    # the common case first, in passes that stay in C: every transaction balances and posts
    # only to chart accounts that take postings; the places are looked up only when not
    bad = {s.account for t in ledger.transactions for s in t.splits}
    parts = [(ledger.transactions, _NO_NAMES)]
    if history is not None:
        out.extend(history.kept(("unbalanced",), lambda: _unbalanced(history.transactions)))
        bad.update(names.get(a, a) for a in history.accounts)
        parts.append((history.transactions, names))
    bad.difference_update(n for n, a in accounts.items() if not a.placeholder)
    bad.difference_update(r for r in reported if r not in accounts)  # said by resolve
    if bad:
        out.extend(_misposted(parts, accounts, bad))
    return out


def _unbalanced(transactions: Iterable[Transaction]) -> list[Problem]:
    """A transaction without lines, or whose lines do not sum to zero (no renaming changes
    either)."""
    out: list[Problem] = []
    for t in transactions:
        if not t.splits:
            out.append(Problem(t.source, "transaction has no lines"))
            continue
        total = sum(map(_VALUE, t.splits), _ZERO)
        if total != 0:
            debits = sum((s.value for s in t.splits if s.value > 0), _ZERO)
            credits = -sum((s.value for s in t.splits if s.value < 0), _ZERO)
            out.append(
                Problem(
                    t.source,
                    f"transaction does not balance: debits {money(debits)}, credits "
                    f"{money(credits)} (difference {money(total)}); "
                    f"{line_list(s.source for s in t.splits)}",
                )
            )
    return out


def _misposted(
    parts: list[tuple[tuple[Transaction, ...], Mapping[str, str]]],
    accounts: dict[str, Account],
    bad: set[str],
) -> list[Problem]:
    """Lines posting to an account outside the chart, or to a placeholder, grouped by account
    (``parts``: transactions, and the renames their splits' accounts still take)."""
    missing: dict[str, list[Source]] = defaultdict(list)
    placeholder: dict[str, list[Source]] = defaultdict(list)
    for transactions, names in parts:
        for t in transactions:
            for s in t.splits:
                name = names.get(s.account, s.account)
                if name in bad:
                    (placeholder if name in accounts else missing)[name].append(s.source)
    out = [
        Problem(sources[0], f"account {quoted(name)} does not exist ({line_list(sources)})")
        for name, sources in missing.items()
    ]
    for name, sources in placeholder.items():
        out.append(
            Problem(
                sources[0],
                f"account {quoted(name)} is a placeholder and cannot take postings "
                f"({line_list(sources)}); move them to another account",
            )
        )
    return out


def _check_amounts(ledger: Ledger, currency: str, history: History | None) -> list[Problem]:
    """Split amounts and credit limits GnuCash stores as a 64-bit count of the currency's unit:
    none may be finer than that unit or larger than the count holds (splits grouped per kind)."""
    if not is_known(currency):
        return [Problem(None, unknown(currency), fix="currency")]
    n = places(currency)
    if n is None:
        return [
            Problem(
                None,
                f"currency {currency} has a unit of 1/{NOT_DECIMAL[currency]}, which GnuCash "
                "cannot take decimal amounts in; choose another book currency",
            )
        ]
    unit, largest = _limits(n)
    unit_words = plural(n, "decimal place", "decimal places") if n else "no decimal places"
    words = {
        "finer": f"finer than the book currency's smallest unit ({currency}: {unit_words})",
        "larger": f"larger than the book currency can hold ({currency}: at most {largest:,f})",
    }
    found = _misfits(ledger.transactions, n)
    if history is not None:
        kept = history.kept(("misfits", n), lambda: _misfits(history.transactions, n))
        found = {why: [*sources, *kept[why]] for why, sources in found.items()}
    out = [
        Problem(
            sources[0],
            f"amounts {words[why]} at {line_list(sources)}; correct them in the file"
            + (" or choose another book currency" if why == "finer" else ""),
        )
        for why, sources in found.items()
        if sources
    ]
    for c in ledger.customers:
        if c.credit_limit is not None and (why := _misfit(c.credit_limit, unit, largest)):
            out.append(
                Problem(
                    c.source,
                    f"customer {quoted(c.name)}: credit limit {c.credit_limit} is {words[why]}; "
                    "correct it in the file",
                )
            )
    return out


def _limits(places: int) -> tuple[Decimal, Decimal]:
    """A currency's unit (``10**-places``) and the largest amount GnuCash holds in it."""
    return Decimal(1).scaleb(-places), Decimal(_INT64).scaleb(-places)


def _misfit(value: Decimal, unit: Decimal, largest: Decimal) -> Literal["finer", "larger", ""]:
    """Why a GnuCash amount of ``unit`` and at most ``largest`` cannot be ``value`` ("": it
    can)."""
    if not -largest <= value <= largest:
        return "larger"
    return "finer" if value != value.quantize(unit) else ""


def _misfits(transactions: tuple[Transaction, ...], places: int) -> dict[str, list[Source]]:
    """The lines whose amounts ``_misfit``, by why (no renaming changes them)."""
    unit, largest = _limits(places)
    found: dict[str, list[Source]] = {"finer": [], "larger": []}
    values = [s.value for t in transactions for s in t.splits]
    # the common case in C: nothing out of range and nothing finer than the unit (x % unit is
    # zero exactly when x is a whole number of units); the places are looked up only when not
    if values and (max(values) > largest or min(values) < -largest or not _whole(values, unit)):
        for t in transactions:
            for s in t.splits:
                if why := _misfit(s.value, unit, largest):
                    found[why].append(s.source)
    return found


def _whole(values: list[Decimal], unit: Decimal) -> bool:
    """Whether every value is a whole number of ``unit`` (in C: ``x % unit`` is zero exactly
    then; a remainder too small for the context underflows, and then the answer is no)."""
    with localcontext() as context:
        context.traps[Underflow] = True
        try:
            return not any(map(mod, values, repeat(unit)))
        except Underflow:
            return False


def _check_terms(ledger: Ledger) -> list[Problem]:
    """Terms as the writer takes them: a known kind, day counts and a discount GnuCash can
    store, and every customer's and vendor's terms in the terms list."""
    out: list[Problem] = []
    listed = {t.name for t in ledger.terms}
    for t in ledger.terms:
        name = quoted(t.name)
        if t.kind not in ("days", "proximo"):
            out.append(Problem(t.source, f"terms {name} are of unknown kind {quoted(t.kind)}"))
        days = (("due days", t.due_days), ("discount days", t.discount_days))
        for what, n in (*days, ("cutoff day", t.cutoff)):
            if not -_GINT <= n <= _GINT:
                said = (
                    f"terms {name}: {what} {n} is more than GnuCash holds; correct it in the file"
                )
                out.append(Problem(t.source, said))
        exponent = t.discount.normalize().as_tuple().exponent
        digits = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        if digits > 18 or abs(t.discount.scaleb(digits)) > _INT64:
            said = f"terms {name}: discount {t.discount:f}% has more digits than GnuCash holds"
            out.append(Problem(t.source, said + "; correct it in the file"))
    named = [("customer", c.name, c.terms, c.source) for c in ledger.customers]
    named += [  # (a job's own terms too)
        ("job", f"{c.name}:{j.name}", j.terms, j.source) for c in ledger.customers for j in c.jobs
    ]
    named += [("vendor", v.name, v.terms, v.source) for v in ledger.vendors]
    for kind, name, terms, source in named:
        if terms and terms not in listed:
            said = f"{kind} {quoted(name)} has terms {quoted(terms)}, which are not in the terms "
            said += "list (no TERMS row names them; is the lists file cut short?): export the "
            out.append(Problem(source, said + "lists again with the terms list"))
    return out


def order(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    """Duplicates dropped; those without a place first, then by file and line (stable)."""
    unique = list(dict.fromkeys(problems))
    unique.sort(
        key=lambda p: (
            p.source is not None,
            p.source.filename if p.source else "",
            p.source.line if p.source else 0,
        )
    )
    return tuple(unique)
