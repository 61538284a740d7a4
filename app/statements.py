"""QuickBooks' last reconciliation of each bank and card account, in the book (pure functions).

QuickBooks' Reconciliation Summary (``qbcsv.reconciliation``) gives, per account, the statement
date and its ending balance: the cleared balance, the sum of every transaction reconciled in that
and the earlier reconciliations. What the book can hold of it: GnuCash's last reconcile date of
the account, and its reconciled splits (state ``y``, reconciled on that date). Decided here, per
statement (``decided``; never guessed):

- ``marks``: the history files carry cleared marks for the account (a ✓ read as reconciled,
  ``Split.reconcile``, as before). QuickBooks' statement is its *last* reconciliation, so every
  line marked reconciled today was cleared in it or an earlier one: their sum must be the
  statement's balance. When it is, the last reconcile date is set; when it is not (a reconciled
  transaction changed or deleted in QuickBooks after the reconciliation: its Reconciliation
  Discrepancy report; or a history file missing), nothing is set and the proof shows the
  difference.
- ``all``: no cleared marks for the account in the files (a Journal export has no Clr column).
  Only when the report says that no transaction up to the statement date was left uncleared,
  and the account's lines up to that date add up exactly to the statement's balance, is every
  one of them marked reconciled (the only set of lines that report describes); else nothing is
  marked and the reconciliation is listed as not imported, with why. A cutover's opening line
  on the account is no cleared transaction of QuickBooks': then nothing is marked either.

``marked`` applies an ``all`` decision to the final ledger's splits (before the book is written);
``app.gnc.extras`` sets the dates; ``app.extras_proof`` reads them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import Decimal

from app.extras import Statement
from app.model import Ledger, NotImported, Reconcile, Transaction, money
from app.words import plural

ZERO = Decimal(0)
WHAT = "Reconciliations"


def decided(
    statements: tuple[Statement, ...],
    history: Iterable[Transaction],
    made: Iterable[Transaction] = (),
    names: Mapping[str, str] | None = None,
) -> tuple[Statement, ...]:
    """Each statement with its decision (``how``, ``why``, ``reconciled``), from the history
    and the transactions the cutover made; ``names``: the history's account names → the
    statements' (the plan's renames), where they differ."""
    if not statements:
        return statements
    names = names or {}
    wanted = {s.account: s for s in statements}
    marks: set[str] = set()
    reconciled: dict[str, Decimal] = dict.fromkeys(wanted, ZERO)
    upto: dict[str, Decimal] = dict.fromkeys(wanted, ZERO)
    for t in history:
        for sp in t.splits:
            account = names.get(sp.account, sp.account)
            s = wanted.get(account)
            if s is None or t.voided:
                continue
            if sp.reconcile is not Reconcile.NEW:
                marks.add(account)
            if sp.reconcile is Reconcile.RECONCILED:
                reconciled[account] += sp.value
            if t.date <= s.date:
                upto[account] += sp.value
    opened = {sp.account for t in made for sp in t.splits if sp.account in wanted}
    return tuple(_decide(s, s.account in marks, reconciled, upto, opened) for s in statements)


def _decide(
    s: Statement,
    marked: bool,
    reconciled: Mapping[str, Decimal],
    upto: Mapping[str, Decimal],
    opened: set[str],
) -> Statement:
    if marked:
        got = reconciled[s.account]
        if got == s.balance:
            return replace(s, how="marks", why="", reconciled=got)
        return replace(
            s,
            how="",
            reconciled=got,
            why=f"the lines the files mark reconciled add up to {money(got)}, the statement "
            f"of {s.date} to {money(s.balance)}: a reconciled transaction was changed or deleted "
            "in QuickBooks after that reconciliation (its Reconciliation Discrepancy report "
            "lists it), or a history file is missing",
        )
    if s.account in opened:
        why = "the book's opening balance for the account is no transaction QuickBooks cleared"
    elif s.uncleared is None:
        why = "the report does not say how many transactions it left uncleared"
    elif s.uncleared:
        why = (
            f"the files have no cleared marks for the account, and the statement left "
            f"{plural(s.uncleared, 'transaction')} up to {s.date} uncleared, "
            "which the files do not tell apart"
        )
    elif upto[s.account] != s.balance:
        why = (
            f"the account's lines up to {s.date} add up to {money(upto[s.account])}, the "
            f"statement to {money(s.balance)}"
        )
    else:
        return replace(s, how="all", why="", reconciled=upto[s.account])
    return replace(s, how="", why=f"{why}; reconcile it in GnuCash from the statement")


def not_imported(statements: Iterable[Statement]) -> tuple[NotImported, ...]:
    """The reconciliations the book does not get (no marks to prove them), with why."""
    return tuple(
        NotImported(WHAT, f"{s.account} (statement of {s.date})", s.why, s.source)
        for s in statements
        if not s.how and not s.why.startswith("the lines the files mark")
    )


def marked(ledger: Ledger) -> Ledger:
    """The ledger with every split of an ``all`` statement's account up to its date marked
    reconciled (voided transactions and the cutover's lines left as they are)."""
    todo = {s.account: s.date for s in ledger.statements if s.how == "all"}
    if not todo:
        return ledger
    out = []
    for t in ledger.transactions:
        if t.voided or not any(
            sp.account in todo and t.date <= todo[sp.account] and sp.reconcile is Reconcile.NEW
            for sp in t.splits
        ):
            out.append(t)
            continue
        splits = tuple(
            replace(sp, reconcile=Reconcile.RECONCILED)
            if sp.account in todo and t.date <= todo[sp.account]
            else sp
            for sp in t.splits
        )
        out.append(replace(t, splits=splits))
    return replace(ledger, transactions=tuple(out))
