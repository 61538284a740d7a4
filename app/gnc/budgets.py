"""GnuCash budgets, through ctypes (the bindings do not wrap ``gnc-budget.h``).

Written: one ``GncBudget`` per ``app.extras.Budget``: its name and description, ``periods``
monthly periods from its start (a Recurrence: month × 1), and every non-zero amount set on its
account and period. Amounts keep their natural signs (debit positive, income and liabilities
negative), and the book is marked so (the "Use natural signs in budget amounts" feature, as
GnuCash 4.x and 5.x mark a book whose first budget is made in them): the Budget Report and the
budget page then show income budgets positive, as QuickBooks does.

The book's default budget (the one GnuCash's Budget Report and budget page open first) is the
latest QuickBooks budget for no class and no customer, where the book has the "default-budget"
property (4.x and 5.x; checked, else GnuCash picks one itself).

Read back: every budget of the book (the "Budget" collection), its periods and each account's
value per period (0 where none is set), for ``app.extras_proof``.
"""

from __future__ import annotations

import ctypes
import datetime as dt
from collections.abc import Mapping, Sequence

from app.book import BookBudget
from app.extras import Budget
from app.gnc.calls import NATURAL_SIGNS, RECURRENCE_SIZE, Calls, Target
from app.gnc.engine import Numeric
from app.gnc.numeric import at_unit, from_parts

_P = ctypes.c_void_p
DEFAULT = b"default-budget"  # QofBook's property (the book option Budgeting › Default Budget)


def write(to: Target, budgets: Sequence[Budget], among: Sequence[Budget] = ()) -> int:
    """Every budget into the book; how many. The default budget is the latest plain one of
    ``among`` (all of them, where an update writes some), set when it is written here."""
    calls, book = to.calls, to.book
    lib = calls.lib
    if budgets:
        lib.gnc_features_set_used(book, NATURAL_SIGNS)
    every = among or budgets
    plain = [b for b in every if not b.klass and not b.customer] or list(every)
    default = max(plain, key=lambda b: b.start) if plain else None
    for b in budgets:
        bgt = lib.gnc_budget_new(book)
        lib.gnc_budget_begin_edit(bgt)
        lib.gnc_budget_set_name(bgt, b.name.encode())
        lib.gnc_budget_set_description(bgt, b.description.encode())
        lib.gnc_budget_set_num_periods(bgt, b.periods)
        keep = ctypes.create_string_buffer(RECURRENCE_SIZE)  # copied by set_recurrence
        monthly = calls.recurrence(b.start, "month", 1, ctypes.addressof(keep))
        lib.gnc_budget_set_recurrence(bgt, monthly)
        _amounts(to, bgt, b)
        lib.gnc_budget_commit_edit(bgt)
        if (
            default is not None
            and b.name == default.name
            and calls.has_property(lib.qof_book_get_type(), DEFAULT)
        ):
            guid = lib.qof_instance_get_guid(bgt)
            lib.qof_book_begin_edit(book)  # (the property asserts an edit level)
            lib.qof_instance_set(_P(book), ctypes.c_char_p(DEFAULT), _P(guid), _P(None))
            lib.qof_book_commit_edit(book)
    return len(budgets)


def _amounts(to: Target, bgt: int, b: Budget, before: Sequence[int] = ()) -> None:
    """``b``'s amounts set on ``bgt`` (inside its edit); each value of the accounts ``before``
    (pointers) that ``b`` does not have unset."""
    lib, denom = to.calls.lib, 10**to.places
    for acc in before:
        for period in range(b.periods):
            if lib.gnc_budget_is_account_period_value_set(bgt, acc, period):
                lib.gnc_budget_unset_account_period_value(bgt, acc, period)
    for account, amounts in b.lines:
        acc = to.accounts[account]
        for period, amount in enumerate(amounts):
            if amount:
                units = at_unit(amount, to.places, b.source)[0]
                lib.gnc_budget_set_account_period_value(bgt, acc, period, Numeric(units, denom))


def _named(to: Target) -> dict[str, int]:
    """The book's budgets by name."""
    lib = to.calls.lib
    return {
        (lib.gnc_budget_get_name(g) or b"").decode(): g
        for g in to.calls.collection(to.book, b"Budget")
    }


def rename(to: Target, names: Mapping[str, str]) -> None:
    """Each budget of the book named a key of ``names`` named its value."""
    lib = to.calls.lib
    for name, bgt in _named(to).items():
        if (new := names.get(name)) is not None:
            lib.gnc_budget_begin_edit(bgt)
            lib.gnc_budget_set_name(bgt, new.encode())
            lib.gnc_budget_commit_edit(bgt)


def replace_amounts(to: Target, budgets: Sequence[Budget]) -> int:
    """Each of ``budgets`` the book has (by name) given these amounts: every value it had
    unset first; how many."""
    lib = to.calls.lib
    found = _named(to)
    for b in budgets:
        bgt = found[b.name]
        lib.gnc_budget_begin_edit(bgt)
        _amounts(to, bgt, b, tuple(to.accounts.values()))
        lib.gnc_budget_commit_edit(bgt)
    return len(budgets)


def read(calls: Calls, book: int, names: dict[int, str]) -> tuple[BookBudget, ...]:
    """Every budget of ``book``; ``names``: Account pointer → full name."""
    lib = calls.lib
    natural = bool(lib.gnc_features_check_used(book, NATURAL_SIGNS))
    out = []
    for bgt in calls.collection(book, b"Budget"):
        periods = int(lib.gnc_budget_get_num_periods(bgt))
        values = []
        for acc, name in names.items():
            row = [lib.gnc_budget_get_account_period_value(bgt, acc, p) for p in range(periods)]
            if any(v.num for v in row):
                values.append((name, tuple(from_parts(v.num, v.denom or 1) for v in row)))
        start = lib.gnc_budget_get_period_start_date(bgt, 0)
        out.append(
            BookBudget(
                (lib.gnc_budget_get_name(bgt) or b"").decode(),
                dt.datetime.fromtimestamp(start).date() if start else None,
                periods,
                calls.period_of(lib.gnc_budget_get_recurrence(bgt)),
                tuple(sorted(values)),
                natural,
            )
        )
    out.sort(key=lambda b: b.name)
    return tuple(out)
