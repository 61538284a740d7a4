"""The documents part of the proof: per customer, job and vendor, the open balance GnuCash holds
in the documents' (and owners') lots, read back through the engine, against QuickBooks' — the
Open Invoices / Unpaid Bills report when given, else the history's named A/R and A/P postings.
A job is an owner of its own (a GnuCash job under its customer), compared on its own: the right
sum under the customer does not make a job's balance right.

Pure: the core's documents and a read-back summary (``app.gnc.BookDocuments`` or any
object with ``owner_open``); no gnucash import.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from app import csvsafe
from app.documents import Documents
from app.documents.aging import SIDE_WORDS, AgingRow, Reconciliation
from app.documents.owner_causes import DocumentOpen, OwnerCause
from app.words import differ, plural

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class OwnerRow:
    owner: str  # a customer, a job (``Customer:Job``) or a vendor
    kind: str  # "customer" / "vendor"
    quickbooks_open: Decimal
    gnucash_open: Decimal
    basis: str  # "report" or "history": where QuickBooks' figure comes from

    @property
    def difference(self) -> Decimal:
        return self.gnucash_open - self.quickbooks_open


def quickbooks_open(docs: Documents) -> dict[tuple[str, str], tuple[Decimal, str]]:
    """(kind, owner) → (open balance, basis): what the customer or job owes (we owe the
    vendor)."""
    out: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    reported = docs.reported
    for o in docs.open_items:
        out[o.owner_kind, o.owner] += o.open
    for d in docs.documents:
        if d.owner_kind not in reported and not d.voided:
            out[d.owner_kind, d.owner] += -d.total if d.credit else d.total
    for p in docs.payments:
        if p.owner_kind not in reported and not p.voided:
            out[p.owner_kind, p.owner] -= p.amount
    return {k: (v, "report" if k[0] in reported else "history") for k, v in out.items()}


def compare(
    docs: Documents, gnucash_open: Mapping[tuple[str, str], Decimal]
) -> tuple[OwnerRow, ...]:
    """One row per owner present on either side, sorted by kind and owner."""
    qb = quickbooks_open(docs)
    rows = []
    for key in sorted(set(qb) | set(gnucash_open)):
        amount, basis = qb.get(key, (ZERO, "report" if key[0] in docs.reported else "history"))
        rows.append(OwnerRow(key[1], key[0], amount, gnucash_open.get(key, ZERO), basis))
    return tuple(rows)


def documents_report(rows: tuple[OwnerRow, ...]) -> str:
    """The second proof file: ``owner,kind,quickbooks_open,gnucash_open,difference``."""
    header = ("owner", "kind", "quickbooks_open", "gnucash_open", "difference")
    body = (
        (r.owner, r.kind, *(f"{v:.2f}" for v in (r.quickbooks_open, r.gnucash_open, r.difference)))
        for r in rows
    )
    return csvsafe.text((header, *body))


def ok(rows: tuple[OwnerRow, ...]) -> bool:
    return all(r.difference == 0 for r in rows)


KIND_WORDS = {
    "invoice": ("invoice", "invoices"),
    "bill": ("bill", "bills"),
    "credit_note_customer": ("customer credit note", "customer credit notes"),
    "credit_note_vendor": ("vendor credit note", "vendor credit notes"),
    "payment": ("payment", "payments"),
}


def _n(count: int, kind: str) -> str:
    return plural(count, *KIND_WORDS.get(kind, (kind, "")))


def _unlisted(r: Reconciliation) -> str:
    """One side whose report does not list its control account's figure."""
    control, _docs, report, _owner = SIDE_WORDS[r.owner_kind]
    listed = r.quickbooks_balance - r.quickbooks_not_listed
    if r.mapped:
        return (
            f"{control} {r.quickbooks_balance:,.2f} as the Map step made it ({', '.join(r.onto)}) "
            f"and QuickBooks' {report} {listed:,.2f} differ"
        )
    return (
        f"QuickBooks' {control} {r.quickbooks_balance:,.2f} and its {report} {listed:,.2f} disagree"
    )


def _unlisted_todo(r: Reconciliation) -> str:
    control, _docs, _report, owner = SIDE_WORDS[r.owner_kind]
    return (
        f"the rest is no {owner}'s open item in the report: what the Map step put on {control} "
        f"(it stays there in GnuCash naming no {owner}), or the report is of another day, "
        f"filtered or edited; on the Map step, undo that change to see QuickBooks' own "
        f"{control} against its report"
    )


def _owners(count: int, kind: str) -> str:
    return plural(count, kind)


UNLISTED = (
    "the report is of another day, filtered or edited; export it again from QuickBooks the day "
    "of the trial balance, unfiltered"
)


@dataclass(frozen=True, slots=True)
class DocumentsProof:
    """The documents part of the verification: every owner's open balance, GnuCash (its lots,
    read back) against QuickBooks, and what the book holds against what was meant."""

    rows: tuple[OwnerRow, ...]
    expected: Mapping[str, int]  # kind → documents (and "payment") meant for the book
    book: Mapping[str, int]  # the same, read back
    mode: str = "all"  # the plan's documents setting
    unowned_lots: int = 0  # A/R or A/P lots with neither a document nor an owner
    aging: tuple[AgingRow, ...] = ()  # per owner, QuickBooks' buckets against GnuCash's
    reconciliation: tuple[Reconciliation, ...] = ()  # A/R, A/P taken apart on both sides
    causes: tuple[OwnerCause, ...] = ()  # of each owner in ``allocated``
    # each document open by another amount than the open-items report says
    documents_differ: tuple[DocumentOpen, ...] = ()

    @property
    def differences(self) -> tuple[OwnerRow, ...]:
        return tuple(r for r in self.rows if r.difference)

    @property
    def allocated(self) -> tuple[tuple[str, str], ...]:
        """(kind, owner) of every customer, job and vendor whose open items differ: its open
        balance, how its open items age, or which of them are open by how much."""
        keys = {(r.kind, r.owner) for r in self.differences}
        keys |= {(r.owner_kind, r.owner) for r in self.aging if not r.ok}
        keys |= {(d.owner_kind, d.owner) for d in self.documents_differ}
        return tuple(sorted(keys, key=lambda k: (k[0] != "customer", k[1].casefold())))

    def cause_of(self, kind: str, owner: str) -> OwnerCause | None:
        return next((c for c in self.causes if (c.owner_kind, c.owner) == (kind, owner)), None)

    @property
    def count_differences(self) -> list[str]:
        return [k for k in KIND_WORDS if self.expected.get(k, 0) != self.book.get(k, 0)]

    @property
    def unlisted(self) -> tuple[Reconciliation, ...]:
        """The sides whose open-items report and QuickBooks' trial balance disagree: QuickBooks
        names a customer (vendor) on every A/R (A/P) line, so its report lists the whole
        balance; what it does not is of another day, filtered or edited (hunt 19: in
        balances-only mode it sat on A/R naming no one, and the book "matched")."""
        return tuple(r for r in self.reconciliation if r.quickbooks_not_listed)

    @property
    def ok(self) -> bool:
        return (
            not self.allocated
            and not self.count_differences
            and not self.unowned_lots
            and not self.unlisted
        )

    def unlisted_lines(self) -> list[str]:
        """What the proof lists for the sides whose report and trial balance disagree."""
        if not self.unlisted:
            return []
        recs = [line for r in self.unlisted for line in (r.quickbooks_line(), r.gnucash_line())]
        return [self.unlisted_said(), *recs]

    def unlisted_words(self) -> str:
        """ "QuickBooks' A/R 56,491.88 and its Open Invoices report 56,292.35 disagree" (the
        verdict names it); where the Map step put another account on A/R, that is said
        instead: the report is not to blame for the account's figure."""
        return "; ".join(_unlisted(r) for r in self.unlisted)

    def unlisted_said(self) -> str:
        """``unlisted_words`` with what to do about each side."""
        said = [f"{_unlisted(r)}: {_unlisted_todo(r)}" for r in self.unlisted if r.mapped]
        if theirs := [r for r in self.unlisted if not r.mapped]:
            said.append(f"{'; '.join(_unlisted(r) for r in theirs)}: {UNLISTED}")
        return "; ".join(said)

    @property
    def documents(self) -> int:
        return sum(v for k, v in self.book.items() if k != "payment")

    def _owners_compared(self) -> str:
        customers = sum(1 for r in self.rows if r.kind == "customer" and ":" not in r.owner)
        jobs = sum(1 for r in self.rows if r.kind == "customer" and ":" in r.owner)
        vendors = sum(1 for r in self.rows if r.kind == "vendor")
        counted = [_owners(customers, "customer"), _owners(vendors, "vendor")]
        if jobs:
            counted.insert(1, _owners(jobs, "job"))
        return ", ".join(counted[:-1]) + f" and {counted[-1]}"

    def headline(self) -> str:
        """ "212 invoices and bills, open balances of 40 customers, 6 jobs and 12 vendors
        match QuickBooks", or what differs."""
        if self.differences:
            who = owners_words(tuple((r.kind, r.owner) for r in self.differences))
            what = differ(len(self.differences), "balance", count=False)
            return f"{who} open {what} from QuickBooks"
        if self.documents_differ:
            n = len(self.documents_differ)
            sides = {d.owner_kind for d in self.documents_differ}
            one, many = _DOCUMENT_WORDS.get(min(sides) if len(sides) == 1 else "", _EITHER)
            what = f"{plural(n, one, many)} open by other amounts"
            return f"{owners_words(self.allocated)} open items differ from QuickBooks' ({what})"
        if self.allocated:
            return f"{owners_words(self.allocated)} open items age differently from QuickBooks'"
        if self.unlisted:
            return self.unlisted_said()
        if not self.ok:
            return "the invoices and bills in the book differ from the files'"
        docs = self.documents
        what = "invoice or bill" if docs == 1 else "invoices and bills"
        reported = any(r.report_documents is not None for r in self.reconciliation)
        if not docs and not self.rows and reported:  # (a report that lists nothing: hunt 25)
            return "no invoice or bill open, as QuickBooks' open-items report says"
        whose = (
            "QuickBooks"
            if reported or any(r.basis == "report" for r in self.rows)
            else ("QuickBooks' transactions (no open-items report to compare with)")
        )
        return f"{docs:,} {what}, open balances of {self._owners_compared()} match {whose}"

    def lines(self) -> list[str]:
        """The headline, each owner that differs with its probable cause and what to do, the
        reconciliation of A/R and A/P, each count that differs, then the counts."""
        head = self.headline()
        out = [head[:1].upper() + head[1:], *self.owner_lines()]
        for rec in self.reconciliation:
            out.extend((rec.quickbooks_line(), rec.gnucash_line()))
        return out + self.notes()

    def owner_lines(self) -> list[str]:
        """Each customer, job and vendor whose open items differ, with the probable cause and
        what to do."""
        out = []
        rows = {(r.kind, r.owner): r for r in self.rows}
        for kind, owner in self.allocated:
            r = rows.get((kind, owner))
            what = "job" if kind == "customer" and ":" in owner else kind
            line = f"{what} {owner}: "
            c = self.cause_of(kind, owner)
            if r is not None and r.difference:
                line += (
                    f"open balance QuickBooks {r.quickbooks_open:,.2f}, GnuCash "
                    f"{r.gnucash_open:,.2f}, difference {r.difference:,.2f} ({r.basis})"
                ) + (" — " if c is not None else "")
            elif c is None:
                line += "the same open balance, aged differently"
            if c is not None:  # (with the same balance, it says on which items and why)
                line += f"{c.cause}; {c.action}"
            out.append(line)
        return out

    def notes(self) -> list[str]:
        """Counts that differ, lots without an owner, what the book holds."""
        out: list[str] = []
        out.extend(
            f"{KIND_WORDS[k][1]}: meant {self.expected.get(k, 0):,}, book {self.book.get(k, 0):,}"
            " — DIFFERS"
            for k in self.count_differences
        )
        if self.unowned_lots:
            out.append(f"{self.unowned_lots:,} A/R or A/P lots belong to no document or owner")
        for side in sorted({r.owner_kind for r in self.aging if r.from_date}):
            _control, _docs, report, _owner = SIDE_WORDS[side]
            out.append(
                f"QuickBooks' {report} ages each item from its own date (its preference “Age "
                "from transaction date”), not its due date: GnuCash's side is aged the same way "
                "here; in GnuCash's aging report, set “Due or Post Date” to “Post date” to see "
                "the same"
            )
        held = ", ".join(_n(self.book[k], k) for k in KIND_WORDS if self.book.get(k))
        if held:
            basis = {r.basis for r in self.rows}
            where = (
                "the Open Invoices / Unpaid Bills report"
                if basis == {"report"}
                else "the history's A/R and A/P"
                if basis == {"history"}
                else "the open-items report where given, else the history"
            )
            out.append(f"Documents in the book: {held} (QuickBooks' open balances from {where})")
        return out


_EITHER = ("invoice or bill", "invoices or bills")
_DOCUMENT_WORDS = {
    "customer": ("invoice or credit memo", "invoices or credit memos"),
    "vendor": ("bill or bill credit", "bills or bill credits"),
}


def owners_words(keys: tuple[tuple[str, str], ...]) -> str:
    """ "1 customer's", "2 vendors'", "1 customer's and 2 vendors'" (a job counted as one)."""
    by = Counter("job" if k == "customer" and ":" in o else k for k, o in keys)
    return " and ".join(
        f"{by[k]:,} {k}'s" if by[k] == 1 else f"{by[k]:,} {k}s'"
        for k in ("customer", "job", "vendor")
        if by[k]
    )


def prove(
    docs: Documents,
    expected: Mapping[str, int],
    book_open: Mapping[tuple[str, str], Decimal],
    book_counts: Mapping[str, int],
    *,
    mode: str = "all",
    unowned_lots: int = 0,
) -> DocumentsProof:
    """``docs``: every document and payment of the history (QuickBooks' side)."""
    rows = compare(docs, book_open)
    return DocumentsProof(rows, dict(expected), dict(book_counts), mode, unowned_lots)
