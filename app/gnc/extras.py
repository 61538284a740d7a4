"""Issue 26's part of a book: budgets and scheduled transactions (ctypes: ``budgets``,
``schedules``) and the last reconcile date of each reconciled account (the bindings), written in
the same session as the rest, before the save; read back for the proof.

Guarded like the split-list detacher: a part this engine cannot write (``Calls.refusal``: a
function not exported, an enum or property other than the headers say) is left out before
anything of it is made; the book is still written, and what was left out is listed as not
imported with why (``ExtrasWritten.refused``). A read that cannot be made says why
(``BookSnapshot.extras_unread``): the proof then reports those parts as not read back.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from app import extras, schedules
from app.book import BookReconciled, WriteStats
from app.gnc import budgets as budget_part
from app.gnc import schedules as schedule_part
from app.gnc.bindings import C
from app.gnc.calls import Calls, Target, calls
from app.gnc.context import Written
from app.gnc.engine import Engine
from app.gnc.numeric import to_decimal
from app.model import Ledger, NotImported, Reconcile
from app.update import UpdateRefused
from app.update_budgets import Budgets


@dataclass(frozen=True, slots=True)
class ExtrasWritten:
    budgets: int = 0
    schedules: int = 0
    reconciled: int = 0
    refused: tuple[NotImported, ...] = ()

    def counted(self, stats: WriteStats) -> WriteStats:
        """``stats`` with these counts."""
        return replace(
            stats, budgets=self.budgets, schedules=self.schedules, reconciled=self.reconciled
        )


def day_end(day: dt.date) -> dt.datetime:
    """The last second of ``day`` (local time): GnuCash's statement dates are day ends."""
    return dt.datetime.combine(day, dt.time(23, 59, 59))


def write(w: Written, ledger: Ledger) -> ExtrasWritten:
    """The ledger's budgets, scheduled transactions and reconcile dates into ``w``'s book."""
    made_budgets = extras.budgets(ledger.budget_lines)
    made_schedules = schedules.schedules(ledger.memorized)
    refused: list[NotImported] = []
    counts = {"budget": 0, "schedule": 0}
    if made_budgets or made_schedules:
        c = calls(w.engine)
        to = _target(w, c)
        for part, made, what, writer in (
            ("budget", made_budgets, "Budgets", budget_part.write),
            ("schedule", made_schedules, schedules.WHAT, schedule_part.write),
        ):
            if not made:
                continue
            why = c.refusal(part)
            if why:
                refused += [
                    NotImported(what, m.name, f"not written: {why}", m.source) for m in made
                ]
            else:
                counts[part] = writer(to, made)  # type: ignore[arg-type]
    reconciled = 0
    for s in ledger.statements:
        if s.how:
            _reconcile(w.accounts[s.account], s.date)
            reconciled += 1
    return ExtrasWritten(counts["budget"], counts["schedule"], reconciled, tuple(refused))


def _reconcile(account, day: dt.date) -> None:
    """The account's last reconcile date, and its reconciled splits reconciled on that day
    (QuickBooks' last reconciliation holds every one of them)."""
    when = day_end(day)
    acc = account.get_instance()
    C.xaccAccountSetReconcileLastDate(acc, when)
    for split in C.xaccAccountGetSplitList(acc):
        if C.xaccSplitGetReconcile(split) == Reconcile.RECONCILED.value:
            C.xaccSplitSetDateReconciledSecs(split, when)


def carry(account, day: dt.date, lines: list) -> None:
    """QuickBooks' later reconciliation of ``account`` carried by an update: its date the last
    reconcile date; ``lines`` (the book's splits QuickBooks has reconciled since) reconciled,
    and every reconciled split without a reconcile date (those the update added) reconciled on
    that day. The earlier reconciliations' splits keep their day."""
    when = day_end(day)
    acc = account.get_instance()
    C.xaccAccountSetReconcileLastDate(acc, when)
    for split in lines:
        txn = C.xaccSplitGetParent(split)
        C.xaccTransBeginEdit(txn)
        C.xaccSplitSetReconcile(split, Reconcile.RECONCILED.value)
        C.xaccSplitSetDateReconciledSecs(split, when)
        C.xaccTransCommitEdit(txn)
    for split in C.xaccAccountGetSplitList(acc):
        if C.xaccSplitGetReconcile(split) == Reconcile.RECONCILED.value:
            if _never(C.xaccSplitGetDateReconciled(split)):
                C.xaccSplitSetDateReconciledSecs(split, when)


def _never(when: object) -> bool:
    """A split's reconcile date not set: 0, which the bindings give as 1970-01-01 (local)."""
    return when == 0 or (isinstance(when, dt.datetime) and when.year <= 1970)


def read(engine: Engine, book) -> dict[str, object]:
    """``BookSnapshot``'s issue-26 fields: budgets, schedules, reconciled accounts."""
    accounts = book.get_root_account().get_descendants()
    names = {int(a.get_instance()): a.get_full_name() for a in accounts}
    c = calls(engine)
    reconciled = []
    for a in accounts:
        last = c.last_reconciled(int(a.get_instance()))
        if last is not None:
            balance = C.xaccAccountGetReconciledBalanceAsOfDate(a.get_instance(), day_end(last))
            name = names[int(a.get_instance())]
            reconciled.append(BookReconciled(name, last, to_decimal(balance)))
    out: dict[str, object] = {"reconciled": tuple(sorted(reconciled, key=lambda r: r.account))}
    whys = [w for w in (c.refusal("budget"), c.refusal("schedule")) if w]
    if whys:
        return {**out, "extras_unread": "; ".join(dict.fromkeys(whys))}
    ptr = int(book.get_instance())
    return {
        **out,
        "budgets": budget_part.read(c, ptr, names),
        "schedules": schedule_part.read(c, ptr, names),
    }


def update_budgets(w: Written, budgets: Budgets) -> None:
    """QuickBooks' budgets an update brings into the book (``app.update_budgets``): the new ones
    written, the changed ones given QuickBooks' amounts; UpdateRefused where this engine cannot
    write budgets."""
    if not budgets.writes:
        return
    c = calls(w.engine)
    if why := c.refusal("budget"):
        raise UpdateRefused(f"QuickBooks' budgets cannot be brought up to date: {why}")
    to = _target(w, c)
    budget_part.rename(to, budgets.names)
    budget_part.write(to, budgets.added, budgets.every)
    budget_part.replace_amounts(to, budgets.replaced)


def _target(w: Written, c: Calls) -> Target:
    return Target(
        c,
        int(w.book.get_instance()),  # type: ignore[attr-defined]
        int(w.currency.get_instance()),  # type: ignore[attr-defined]
        {name: int(a.get_instance()) for name, a in w.accounts.items()},
        w.places,
    )
