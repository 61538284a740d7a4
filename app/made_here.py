"""What the user made in GnuCash alone, in a book an update brings up to date (docs/UPDATE.md,
"The proof"), which the proof leaves out of its counts and says instead:

- the transactions without a key (not the documents' lot links): out of the figures, the
  counts of transactions, lines and marks, and the first and last dates (``update_proof.less``);
- the accounts QuickBooks never had (``Work.accounts_here``: no account slot, neither in the
  exports nor in the last run's figures), but GnuCash's own Imbalance and Orphan accounts,
  which stay compared (a transaction whose debits and credits differ);
- the customers, jobs, vendors, employees and billing terms no export of QuickBooks has named
  (the run record keeps every name they had: ``Record.lists``; a book written before it did
  has every name compared, said);
- the reconcile marks the book has on QuickBooks' lines otherwise than its exports (cleared or
  reconciled in GnuCash, or in QuickBooks, since): marks change no balance, and an update keeps
  the book's (``update_proof.as_booked``).

What QuickBooks' exports have stays compared: missing from the book, or changed there, it
differs. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from app.book import BookSnapshot, engine_made
from app.lists import LISTS, list_names
from app.model import Ledger
from app.update import BookEntry, Work, reconciled_here_line
from app.words import plural, plural_of, some

WORDS = {
    "accounts": "account",
    "customers": "customer",
    "jobs": "job",
    "vendors": "vendor",
    "employees": "employee",
    "terms": "billing term",
}


def book_names(snap: BookSnapshot) -> dict[str, tuple[str, ...]]:
    """The names of the book's lists (``LISTS``), as ``lists.list_names`` has the exports'."""
    return {
        "customers": tuple(o.name for o in snap.customers),
        "jobs": tuple(f"{o.name}:{j}" for o in snap.customers for j in o.jobs),
        "vendors": tuple(o.name for o in snap.vendors),
        "employees": tuple(o.name for o in snap.employees),
        "terms": tuple(t.name for t in snap.terms),
    }


@dataclass(frozen=True)
class MadeHere:
    transactions: tuple[BookEntry, ...] = ()
    accounts: tuple[str, ...] = ()
    # per list, the names made in GnuCash alone; None: the book's record names none of
    # QuickBooks' (written before it did), so every name is compared (``unsure``: those the
    # exports do not have, said)
    lists: Mapping[str, tuple[str, ...]] | None = None
    marks: int = 0  # QuickBooks' lines the book marks otherwise than its exports
    unsure: tuple[str, ...] = ()
    # QuickBooks' customers, jobs and vendors renamed in GnuCash, compared under QuickBooks'
    # name (``gnc.owner_names.owners``): "customer Acme (now Acme Corp.)"
    renamed: tuple[str, ...] = ()
    # reconciled in GnuCash since the last run (``app.update_statements``): "Checking: reconciled
    # in GnuCash to 2027-03-31 (QuickBooks' last statement: 2027-02-28)"
    reconciled: tuple[str, ...] = ()

    def counted(self, snap: BookSnapshot) -> BookSnapshot:
        """The book as the proof's counts take it: without the accounts and names made in
        GnuCash alone (the transactions are out already: ``update_proof.less``)."""
        lists = self.lists or {}
        if not self.accounts and not any(lists.values()):
            return snap
        out = {n: set(lists.get(n, ())) for n in LISTS}
        customers = tuple(
            replace(o, jobs=tuple(j for j in o.jobs if f"{o.name}:{j}" not in out["jobs"]))
            for o in snap.customers
            if o.name not in out["customers"]
        )
        return replace(
            snap,
            accounts=tuple(b for b in snap.accounts if b.full_name not in set(self.accounts)),
            customers=customers,
            vendors=tuple(o for o in snap.vendors if o.name not in out["vendors"]),
            employees=tuple(o for o in snap.employees if o.name not in out["employees"]),
            terms=tuple(t for t in snap.terms if t.name not in out["terms"]),
        )

    def said(self) -> list[str]:
        """The proof's notes: "Made in GnuCash, not compared: 3 transactions (last 2027-03-02),
        account Petty Cash, customer Walk-in." and the marks."""
        parts = []
        if self.transactions:
            last = max(e.date for e in self.transactions)
            parts.append(f"{plural(len(self.transactions), 'transaction')} (last {last})")
        named = {"accounts": self.accounts, **(self.lists or {})}
        for kind in ("accounts", *LISTS):
            names = named.get(kind, ())
            word = WORDS[kind] if len(names) == 1 else plural_of(WORDS[kind])
            parts += [f"{word} {some(names)}"] if names else []
        out = [f"Made in GnuCash, not compared: {', '.join(parts)}."] if parts else []
        if self.marks:
            out.append(
                f"Reconcile marks not compared: the book marks {plural(self.marks, 'line')} of "
                "QuickBooks' transactions otherwise than its exports do (cleared or reconciled "
                "in GnuCash, or in QuickBooks, since the last run; marks change no balance)."
            )
        if self.renamed:
            out.append(
                f"Renamed in GnuCash, compared under QuickBooks' name: {some(self.renamed)}."
            )
        if self.reconciled:
            out.append(reconciled_here_line(self.reconciled) + ".")
        if self.unsure:
            out.append(
                f"Compared, though perhaps made in GnuCash: {some(self.unsure)} (the book's "
                "record does not yet list QuickBooks' names; the next update tells them apart)."
            )
        return out


def found(snap: BookSnapshot, ledger: Ledger, work: Work, marks: int = 0) -> MadeHere:
    """What ``snap`` (the updated book read back) holds that the user made in GnuCash alone,
    against ``ledger`` (the exports as the book names them) and the book's record of the run
    before (``work.last``); ``marks``: ``update_proof.marked_otherwise``."""
    have = {b.full_name for b in snap.accounts}
    mine = {a.full_name for a in ledger.accounts}
    accounts = tuple(
        a for a in work.accounts_here if a in have and a not in mine and not engine_made(a)
    )
    book, exports = book_names(snap), list_names(ledger)
    known = work.last.lists if work.last is not None else {}
    lists: dict[str, tuple[str, ...]] | None = None
    unsure: tuple[str, ...] = ()
    if known:
        lists = {
            n: tuple(sorted(set(book[n]) - set(exports[n]) - set(known.get(n, ())))) for n in LISTS
        }
    else:
        unsure = tuple(sorted({x for n in LISTS for x in set(book[n]) - set(exports[n])}))
    here = tuple(r.said() for r in work.reconciled_here)
    return MadeHere(work.added_here, accounts, lists, marks, unsure, renamed(snap), here)


def renamed(snap: BookSnapshot) -> tuple[str, ...]:
    """The book's customers, jobs and vendors QuickBooks names otherwise (``BookOwner.here``)."""
    out = []
    for o in snap.customers:
        out += [f"customer {o.name} (now {o.here})"] if o.here else []
        out += [f"job {o.name}:{was} (now {now})" for was, now in o.jobs_here]
    return (*out, *(f"vendor {o.name} (now {o.here})" for o in snap.vendors if o.here))
