"""The update's summary in the words a person reads (``summary``; the command line names each
held change's key, the wizard's buttons need none) and each held change's line."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from app.fixes import Audience
from app.keys import ledger_sums
from app.model import Ledger, Transaction, money
from app.update import Held, Work, reconciled_here_line
from app.words import plural

ZERO = Decimal(0)


def summary(
    work: Work, ledger: Ledger, audience: Audience = "cli", more: bool = False
) -> list[str]:
    """The summary a person reads: counts, then each held change with file and line (the
    wizard lists those still to decide apart, each with its buttons, and never a key);
    ``more``: the run brings something else up to date or holds it (budgets, a name)."""
    out = [_counts(work, audience)]
    if work.new_accounts:
        out.append(f"New accounts: {', '.join(work.new_accounts)}")
    if work.new_owners:
        some = any(kind == "employee" for kind, _ in work.new_owners)
        said = "customers, vendors and employees" if some else "customers and vendors"
        out.append(f"New {said}: {', '.join(n for _, n in work.new_owners)}")
    out += [held_line(h, ledger, audience) for h in work.held if audience == "cli" or h.kept]
    for h in work.taken:
        did = "removed" if h.index is None else "replaced by QuickBooks' version"
        did = "(made in GnuCash, QuickBooks has it too) removed" if h.alias else did
        taken = f"Taken from QuickBooks {DECIDED[audience]}"
        out.append(f"{taken}: the book's {h.entry.said()} {did}")
    out += [c.said() for c in work.reconciled]
    if work.reconciled_here:
        out.append(reconciled_here_line(tuple(r.said() for r in work.reconciled_here)))
    if work.added_here:
        touched = sorted({a for e in work.added_here for a, _ in e.lines})
        out.append(
            f"Kept {plural(len(work.added_here), 'transaction')} made in GnuCash alone "
            f"(left out of the proof); accounts touched: {', '.join(touched)}"
        )
    if work.edited_here:
        out.append(
            f"Kept {plural(len(work.edited_here), 'transaction')} edited in GnuCash since: "
            + "; ".join(e.said() for e in work.edited_here[:8])
        )
    if work.by_hand:
        out.append(
            f"Made in GnuCash too: {plural(len(work.by_hand), 'change')} QuickBooks made since "
            "the last run (the book already holds QuickBooks' version, so nothing is held): "
            + "; ".join(e.said() for e in work.by_hand[:8])
        )
    if work.deleted_here:
        out.append(_deleted_line(work, ledger, audience))
    if work.rekeyed:
        out.append(
            f"Entered again in GnuCash: {plural(len(work.rekeyed), 'transaction')} of "
            "QuickBooks deleted there and entered anew (an invoice unposted and posted again), "
            "now the book's with their keys: " + "; ".join(e.said() for _, e in work.rekeyed[:8])
        )
    if work.unsure:
        months = ", ".join(f"{n:,} in {m}" for m, n in work.unsure)
        out.append(
            f"QuickBooks' transactions the book held are gone from it ({months}: deleted in "
            "GnuCash?) and could not be told apart from QuickBooks' own entries of those "
            "months: they are added again; delete them in GnuCash again if they were meant to go"
        )
    if work.put_back:
        out.append(f"Put back {DECIDED[audience]}: {', '.join(work.put_back)}")
    if work.nothing_new and not work.held and not more:
        out.append("Nothing new: the book already holds everything in these exports")
    return out


def _deleted_line(work: Work, ledger: Ledger, audience: Audience) -> str:
    shown = []
    for i in work.deleted_here[:8]:
        key = f" [{work.keys[i]}]" if audience == "cli" else ""
        shown.append(f"{said_of(ledger.transactions[i])}{key}")
    how = "; to put one back: --take-quickbooks KEY" if audience == "cli" else ""
    return (
        f"Kept {plural(len(work.deleted_here), 'transaction')} of QuickBooks deleted in "
        f"GnuCash since the last run (QuickBooks still has them; not put back): "
        + "; ".join(shown)
        + how
    )


def _counts(work: Work, audience: Audience) -> str:
    """ "76 transactions added, 225 already in the book, 2 changes in QuickBooks held (1 kept
    as the book has it (the plan), 1 to decide)"."""
    present = len(work.present) - sum(1 for h in work.held if h.index is not None)
    replaced = sum(1 for h in work.taken if h.index is not None)  # (among ``add``)
    counts = (
        f"{plural(len(work.add) - replaced, 'transaction')} added, {present:,} already in the book"
    )
    if replaced:
        counts += f", {replaced:,} replaced by QuickBooks' version"
    kept = sum(1 for h in work.held if h.kept)
    held = f"{plural(len(work.held), 'change')}" + (
        f" ({kept:,} kept as the book has {'it' if kept == 1 else 'them'} "
        f"{DECIDED[audience]}, {len(work.held) - kept:,} to decide)"
        if kept
        else ""
    )
    if audience == "cli":
        counts += f", {held} in QuickBooks held (not applied)"
    elif work.held:  # (the list to decide holds the accounts renamed there too)
        counts += f", {held} to transactions in QuickBooks held"
    return counts


DECIDED: dict[Audience, str] = {"cli": "(the plan)", "wizard": "(your decision)"}


def own_words(work: Work) -> str:
    """What the book holds otherwise than QuickBooks because of what was done in GnuCash, which
    the proof leaves out (made there alone) or takes as the book's (QuickBooks' transactions
    edited there): "1 transaction made in GnuCash alone (Checking credited 586.23; Office
    Supplies debited 586.23)"; "" when nothing. The book is never called matching QuickBooks
    while this is not ""."""
    parts = []
    if work.added_here:
        effect: dict[str, Decimal] = {}
        for e in work.added_here:
            for a, v in e.lines:
                effect[a] = effect.get(a, ZERO) + v
        moved = [
            f"{a} {'debited' if v > 0 else 'credited'} {money(abs(v))}"
            for a, v in sorted(effect.items())
            if v
        ]
        shown = "; ".join(moved[:8]) + ("; …" if len(moved) > 8 else "")
        made = f"{plural(len(work.added_here), 'transaction')} made in GnuCash alone"
        parts.append(f"{made} ({shown})" if shown else made)
    if work.edited_here:
        edits = "; ".join(e.said() for e in work.edited_here[:5])
        n = len(work.edited_here)
        parts.append(f"{plural(n, 'transaction')} of QuickBooks' edited in GnuCash ({edits})")
    return " and the ".join(parts)


def held_head(key: str, kept: bool, audience: Audience) -> str:
    """How a held change's line starts: the command line names its key (for --take-quickbooks
    and --keep-book); the wizard's buttons need none."""
    if audience == "wizard":
        return f"Kept the book's version {DECIDED[audience]}: " if kept else ""
    return f"{'Kept (the plan)' if kept else 'Held'} [{key}]: "


def held_line(h: Held, ledger: Ledger, audience: Audience = "cli") -> str:
    book = f"{h.entry.said()} ({_amount(h.entry.lines)})"
    head = held_head(h.key, h.kept, audience)
    if h.alias:
        return f"{head}The book's {book}, made in GnuCash: {h.why}"
    if h.index is None:
        return (
            f"{head}The book's {book} is no longer in QuickBooks' exports ({h.why}); kept in "
            "the book"
        )
    t = ledger.transactions[h.index]
    # (the same date, accounts and amounts: the edit is in what the line shows not, such as a
    # memo or a class: a class renamed in QuickBooks holds every transaction it is on)
    only = ""
    if h.entry.sums == ledger_sums(t):
        e = h.entry
        only = (
            " (its date, number, name, accounts and amounts are the book's: what changed is a "
            "memo, a class, or the customer or vendor a line names)"
            if (t.num, t.description) == (e.num, e.description)
            else " (its date, accounts and amounts are the book's)"
        )
    return (
        f"{head}{t.source}: QuickBooks now has {said_of(t)} where the book has {book}: "
        f"{h.why}{only}; the book keeps its version"
    )


def said_of(t: Transaction) -> str:
    """ "2019-06-25 2044 Hopkins Construction Rentals (1,679.96)": a transaction of the exports
    as the summary names it."""
    what = " ".join(p for p in (t.date.isoformat(), t.num, t.description) if p)
    return f"{what} ({_amount_of(t)})"


def _amount(lines: Sequence[tuple[str, Decimal]]) -> str:
    return money(sum((v for _, v in lines if v > 0), ZERO))


def _amount_of(t: Transaction) -> str:
    return "void" if t.voided else money(sum((s.value for s in t.splits if s.value > 0), ZERO))


class Chosen:
    """What QuickBooks renamed, held like a change: ``choice`` is the plan's ("quickbooks",
    "book"; "": undecided, held)."""

    __slots__ = ()
    choice: str

    @property
    def key(self) -> str:
        """The key a decision names it by."""
        raise NotImplementedError

    @property
    def taken(self) -> bool:
        return self.choice == "quickbooks"

    @property
    def kept(self) -> bool:
        return self.choice == "book"
