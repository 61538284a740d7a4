"""Why a customer's, job's or vendor's open items differ from QuickBooks', and what to do
(``owner_cause``): the open-items part of the proof (``app.documents.open_proof``) gives each
owner it flags one. Pure. What it relies on: docs/DOCUMENTS.md, "Aging and the A/R and A/P
reconciliation"."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.business import OpenItem
from app.documents.aging import SIDE_WORDS, documents_words
from app.model import money


@dataclass(frozen=True, slots=True)
class DocumentOpen:
    """A document whose open amount in the book is not the open-items report's for it."""

    owner_kind: str
    owner: str
    kind: str  # invoice / bill / credit_note_customer / credit_note_vendor
    id: str
    quickbooks: Decimal
    gnucash: Decimal

    def said(self) -> str:
        what = {"credit_note_customer": "credit memo", "credit_note_vendor": "bill credit"}
        return (
            f"{what.get(self.kind, self.kind)} {self.id} open QuickBooks "
            f"{money(self.quickbooks)}, GnuCash {money(self.gnucash)}"
        )


def documents_said(documents: list[DocumentOpen]) -> str:
    """ "invoice 1053 open QuickBooks 12,399.02, GnuCash 12,499.02; … and 3 more"."""
    more = f" and {len(documents) - 3:,} more" if len(documents) > 3 else ""
    return "; ".join(d.said() for d in documents[:3]) + more


@dataclass(frozen=True, slots=True)
class OwnerCause:
    """Why a customer's, job's or vendor's open items differ, and what to do: ``step`` names
    the wizard step whose control fixes it ("files"), "" when nothing on the pages does (then
    ``action`` says what can be done instead)."""

    owner_kind: str
    owner: str
    cause: str
    action: str
    step: str = ""


NOTHING_HERE = "Nothing on these pages changes it"


def owner_cause(
    row_kind: str,
    owner: str,
    *,
    total_differs: bool,
    unmatched: list[OpenItem],
    no_lot: Decimal,
    guessed: bool,
    no_control: bool = False,
    documents: list[DocumentOpen] | None = None,
    onto: tuple[str, ...] = (),
    why: str = "",
) -> OwnerCause:
    """The probable cause of one owner's difference: a book with no account of the side's type
    (``no_control``: the Map step retyped or merged it away), report rows the transaction files
    hold with no name (the book keeps those lines in no lot), report rows missing from the
    files, payments applied otherwise (same balance, other items open), or a report the files
    cannot reproduce."""
    control, docs, report, who = SIDE_WORDS[row_kind]
    if no_control:
        kind = "Accounts Receivable" if row_kind == "customer" else "Accounts Payable"
        return OwnerCause(
            row_kind,
            owner,
            f"the book has no account of GnuCash's type {kind} (on the Map step it was given "
            f"another type, or merged into another account), and GnuCash keeps {docs} only on "
            f"one: none was made for this {who}",
            f"on the Map step, undo that change to {control}",
            "map",
        )
    if onto and not (unmatched and not no_lot):  # (hunt 15; report rows in no file: below)
        said = ", ".join(onto[:3]) + (f" and {len(onto) - 3:,} more" if len(onto) > 3 else "")
        return OwnerCause(
            row_kind,
            owner,
            f"on the Map step, {said}: a payment through it then has two A/R or A/P lines and "
            f"stays a plain transaction, applied to none of this {who}'s {docs}",
            "on the Map step, undo that change",
            "map",
        )
    rows = ", ".join(
        f"{i.kind_label} {i.date.isoformat()} {money(i.open)}"
        + (f" (Trans # {i.ref})" if i.ref else "")
        for i in unmatched[:3]
    ) + (f" and {len(unmatched) - 3:,} more" if len(unmatched) > 3 else "")
    if unmatched and no_lot:
        return OwnerCause(
            row_kind,
            owner,
            f"QuickBooks' {report} lists open items of this {who} ({rows}) that the "
            f"transaction files hold with no {who} named on the {control} line: the book "
            f"keeps such lines on {control} with no {who}, so the ledger matches and this "
            f"{who}'s open items do not",
            f"{NOTHING_HERE} (the files do not name the {who}): export the transactions again "
            "with each line's Name (QuickBooks' General Ledger report keeps it) and give that "
            f"file instead, or keep the book: in GnuCash the line stays on {control} with no "
            f"{who}",
        )
    if unmatched:
        return OwnerCause(
            row_kind,
            owner,
            f"QuickBooks' {report} lists open items of this {who} that are in no transaction "
            f"file ({rows})",
            "check that every transaction file is there and that the report is from the same "
            "day as the files",
            "files",
        )
    which = f" ({documents_said(documents)})" if documents else ""
    if not total_differs and guessed:
        return OwnerCause(
            row_kind,
            owner,
            f"QuickBooks' {report} cannot be reproduced from the transaction files "
            f"({why or 'its warning says why'}), so payments and credits were applied oldest "
            f"first{which}",
            "check that the report is from the same day as the transaction files and export "
            f"it again; else, in GnuCash, the {control} register's Actions › View Lots moves a "
            "payment to another document",
            "files",
        )
    if not total_differs and documents == []:  # each one compared, each one QuickBooks'
        return OwnerCause(
            row_kind,
            owner,
            f"every one of this {'job' if ':' in owner else who}'s "
            f"{documents_words(row_kind)} is open by QuickBooks' amount, "
            f"aged otherwise: the {report} gives one a due date or an Aging figure the book's "
            "does not have (a report of another day, edited, or printed without its Due Date "
            "column), or leaves a payment's unapplied rest on another payment",
            "check that the report is from the same day as the transaction files, printed with "
            "its Due Date and Aging columns, and export it again if not; in GnuCash, Edit "
            "Invoice changes a document's due date",
            "files",
        )
    if not total_differs:
        return OwnerCause(
            row_kind,
            owner,
            "the same open balance, on other items: payments and credits were applied as the "
            f"files say, not as QuickBooks applied them, so other {documents_words(row_kind)} are "
            f"open{which} and they age differently",
            f"{NOTHING_HERE}; the ledger and the balance are right. In GnuCash, the "
            f"{control} register's Actions › View Lots moves a payment to another document",
        )
    return OwnerCause(
        row_kind,
        owner,
        f"QuickBooks' {report} and the transaction files disagree about this {who}'s open "
        "items (the report cannot be reproduced from the files)",
        "check that the report is from the same day as the transaction files, and export it "
        "again if not",
        "files",
    )
