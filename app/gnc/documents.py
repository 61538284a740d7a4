"""The business layer on a written book: invoices, bills and credit notes that *adopt* the GL
transactions ``app.gnc.transactions`` already wrote, and payments applied through the engine's lots.

Design and measurements: docs/DOCUMENTS.md (its headings cited below in quotes). No amount in
any account changes: a document's posting *is* its QuickBooks transaction (unposted invoice +
entries, then AttachToLot / AttachToTxn / SetPostedAcc / due date); a payment keeps its bank
split while its A/R (A/P) split is cut into one piece per document paid and an unapplied rest
(owner lot); a credit note applied to a document is a zero-sum lot-link ("L") transaction.
Never PostToAccount or the engine's auto-apply ("No engine auto-apply of payments"); vendor
signs from the split itself ("Payment signs follow the split"); credit-note quantities through
SetDocQuantity ("Credit-note quantities"); voided transactions stay out of lots (so headed).
Bulk recipe ("Speed"): every account in BeginEdit with deferred balances and events suspended,
and each transaction changed inside one edit of its own: a lot add, a due date, AttachToTxn and
SetReadOnly each edit the transaction, and an edit not nested in another commits it whole
(measured on 5.10 at 10,133 documents: 1.51-1.62x the GL write with one commit per call,
1.20-1.31x with one per transaction).

Raw ``gnucash_core_c`` calls, as in the writer's hot loop, with the bindings from
``app.gnc.bindings``: used only through ``write_book(..., after=...)``, never by the core.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType

from app.documents import Document, Documents, Line, Payment
from app.documents.allocate import Allocation
from app.documents.selection import Piece, links, payment_pieces
from app.documents.taxes import Entry
from app.errors import BookWriteError
from app.gnc.bindings import C
from app.gnc.context import Written
from app.gnc.detacher import SplitListDetacher
from app.gnc.engine import LayoutError
from app.gnc.numeric import exact, to_decimal
from app.gnc.slots import slots
from app.gnc.transactions import DETACH_EVERY, bulk_edit
from app.words import quoted

READ_ONLY = "Generated from an invoice. Try unposting the invoice."
TYPE_WORDS = {"invoice": "Invoice", "bill": "Bill"}  # a lot's title; else "Credit Note"

ZERO = Decimal(0)


class _Pass:
    tables: Mapping[str, object] = MappingProxyType({})  # tax table children by name (tax.py)

    def __init__(self, w: Written, docs: Documents, allocation: Allocation) -> None:
        self.w, self.docs, self.alloc = w, docs, allocation
        self.book_i = w.book.get_instance()  # type: ignore[attr-defined]
        self.cur_i = w.currency.get_instance()  # type: ignore[attr-defined]
        self.lots: dict[int, object] = {}  # document transaction index → its lot
        self.count: defaultdict[str, int] = defaultdict(int)
        self.detacher: SplitListDetacher | None = None
        self.inserts = 0
        self.unit = 10**w.places  # the currency's smallest unit, as a denominator
        # GnuCash's neutral time of day, as a datetime (DOCUMENTS.md, "Dates cross as datetime");
        # a few dates, each asked for many times
        self.noon = functools.cache(lambda day: dt.datetime(day.year, day.month, day.day, 10, 59))
        self.exact = functools.cache(lambda v: C.gnc_numeric_create(*exact(v)))  # (the same)

    def inserted(self, n: int) -> None:
        """``n`` new splits went into account lists: on 4.13 each insert walks the whole list
        (g_list_find), so the lists are kept short as in the GL writer (docs/ENGINE.md, "Why
        writing and reading a big book is quadratic in GnuCash 4.x-5.6")."""
        self.inserts += n
        if self.detacher is not None and self.inserts >= DETACH_EVERY:
            self.detacher.detach()
            self.inserts = 0

    def num(self, value: Decimal) -> object:
        return C.gnc_numeric_create(int(value.scaleb(self.w.places)), self.unit)

    def owner(self, kind: str, name: str, where: object):
        got = self.w.owners.get((kind, name))
        if got is None:
            raise BookWriteError(f"{where}: {kind} {quoted(name)} is not in the {kind} list")
        return got.get_instance()  # the GncOwner typemap takes it

    def splits_in(self, txn_ptr, account: str) -> list:
        """The transaction's splits in ``account``."""
        acc = int(self.w.accounts[account].get_instance())
        return [s for s in C.xaccTransGetSplitList(txn_ptr) if int(C.xaccSplitGetAccount(s)) == acc]

    def post_split(self, txn_ptr, account: str, where: object):
        hits = self.splits_in(txn_ptr, account)
        if len(hits) != 1:
            raise BookWriteError(f"{where}: expected one {account} split, found {len(hits)}")
        return hits[0]

    def run(self) -> dict[str, int]:
        # every account: committing an adopted transaction re-balances (4.13) or re-sorts (5.x)
        # each account it touches that is not in edit mode: quadratic (DOCUMENTS.md, "Speed")
        accounts = list(self.w.accounts.values())
        cuts = payment_pieces(self.docs, self.alloc)
        with bulk_edit(self.w.engine, accounts):
            try:  # this pass only adds splits (none removed or moved): the detacher's rule
                self.detacher = SplitListDetacher(
                    self.w.engine,
                    [int(a.get_instance()) for a in accounts],
                )
                self.detacher.detach()
            except LayoutError:  # 5.x: inserts are cheap there
                self.detacher = None
            try:
                for d in self.docs.documents:
                    if not d.voided:
                        self.adopt(d)
                # charges first: their lots are where the payments of them go
                for p in sorted(self.docs.payments, key=lambda p: p.amount >= 0):
                    pieces = cuts.get(p.transaction)
                    if pieces:
                        self.pay(p, pieces)
                for cn, doc, amount in links(self.docs, self.alloc):
                    self.link(cn, doc, amount)
            finally:
                if self.detacher is not None:
                    self.detacher.reattach()  # before anything reads or commits the accounts
        return dict(self.count)

    def adopt(self, d: Document) -> None:
        """An unposted document with its entries, attached to its own GL transaction."""
        txn = self.w.transactions[d.transaction]
        ar = self.post_split(txn, d.account, d.source)
        # AttachToTxn would not notice (DOCUMENTS.md, "A transaction adopted twice is not refused")
        if C.xaccSplitGetLot(ar) is not None:
            raise BookWriteError(f"{d.source}: transaction already belongs to a document")
        owner = self.owner(d.owner_kind, d.owner, d.source)
        vendor = d.owner_kind == "vendor"
        inv = C.gncInvoiceCreate(self.book_i)
        C.gncInvoiceBeginEdit(inv)
        C.gncInvoiceSetID(inv, d.id)
        C.gncInvoiceSetCurrency(inv, self.cur_i)
        C.gncInvoiceSetOwner(inv, owner)
        C.gncInvoiceSetDateOpened(inv, self.noon(d.date))
        C.gncInvoiceSetNotes(inv, d.notes)
        if d.credit:
            C.gncInvoiceSetIsCreditNote(inv, True)
        term = self.w.terms.get(d.terms)
        if term is not None:  # posted documents point at a frozen child copy, as PostToAccount
            C.gncInvoiceSetTerms(inv, C.gncBillTermReturnChild(term.get_instance(), True))
        for ln in self.lines(d):
            self.entry(inv, d, ln, vendor)
        total = self.entered(inv, d, vendor)
        if total != d.total:
            raise BookWriteError(f"{d.source}: document {d.id} lines {total} != GL {d.total}")
        lot = C.gnc_lot_new(self.book_i)
        C.gncInvoiceAttachToLot(inv, lot)
        C.gnc_lot_set_title(lot, f"{TYPE_WORDS.get(d.kind, 'Credit Note')} {d.id}")
        # one edit of the transaction for all that changes it (the lot, the due date, the
        # invoice's KVP and type, read-only): each call edits it again, and an edit that is not
        # nested in another commits the whole transaction
        C.xaccTransBeginEdit(txn)
        C.gnc_lot_add_split(lot, ar)
        C.xaccTransSetDateDue(txn, self.noon(d.due))
        C.gncInvoiceAttachToTxn(inv, txn)  # txn type 'I', its KVP names the invoice
        C.gncInvoiceSetPostedAcc(inv, self.w.accounts[d.account].get_instance())
        C.gncInvoiceSetDatePosted(inv, self.noon(d.date))
        C.gncInvoiceCommitEdit(inv)
        C.xaccTransSetReadOnly(txn, READ_ONLY)
        C.xaccTransCommitEdit(txn)
        self.lots[d.transaction] = lot
        self.count[d.kind] += 1

    def lines(self, d: Document) -> tuple:  # (``app.gnc.tax.TaxPass``: the planned ones)
        return d.lines

    def entered(self, inv: object, d: Document, vendor: bool) -> Decimal:  # (TaxPass: tax)
        return to_decimal(C.gncInvoiceGetTotal(inv))

    def entry(self, inv: object, d: Document, ln: Line | Entry, vendor: bool) -> None:
        """One document line: an entry on the line's account; a planned one (``app.documents.
        taxes.Entry``) with its item as action and its tax table (quantity, rate exact)."""
        e = C.gncEntryCreate(self.book_i)
        C.gncEntryBeginEdit(e)
        C.gncEntrySetDate(e, self.noon(d.date))
        C.gncEntrySetDateEntered(e, self.noon(d.date))
        C.gncEntrySetDescription(e, ln.description)
        C.gncEntrySetAction(e, getattr(ln, "action", ""))
        # DOCUMENTS.md, "Credit-note quantities"
        C.gncEntrySetDocQuantity(e, self.exact(ln.quantity), d.credit)
        acc = self.w.accounts[ln.account].get_instance()
        price = self.exact(ln.price)
        table = self.tables.get(getattr(ln, "table", ""))
        if vendor:
            C.gncEntrySetBillAccount(e, acc)
            C.gncEntrySetBillPrice(e, price)
            C.gncEntrySetBillTaxable(e, False)
        else:
            C.gncEntrySetInvAccount(e, acc)
            C.gncEntrySetInvPrice(e, price)
            C.gncEntrySetInvTaxable(e, table is not None)
            if table is not None:
                C.gncEntrySetInvTaxTable(e, table)
                C.gncEntrySetInvTaxIncluded(e, bool(getattr(ln, "included", False)))
        C.gncEntryCommitEdit(e)
        (C.gncBillAddEntry if vendor else C.gncInvoiceAddEntry)(inv, e)

    def pay(self, p: Payment, pieces: tuple[Piece, ...]) -> None:
        """The payment's A/R (A/P) split cut into its pieces (``selection.payment_pieces``):
        one per document paid (in its lot), one for documents left plain (no lot), the
        unapplied rest (an owner lot). New pieces keep the line's memo, reconcile state, class."""
        txn = self.w.transactions[p.transaction]
        ar = self.post_split(txn, p.account, p.source)
        sign = 1 if to_decimal(C.xaccSplitGetValue(ar)) > 0 else -1
        C.xaccTransBeginEdit(txn)
        splits = [ar]
        memo, state = C.xaccSplitGetMemo(ar) or "", C.xaccSplitGetReconcile(ar)
        same_class = slots(self.w.engine).copier(int(ar))  # its class (docs/CLASSES.md)
        for _ in pieces[1:]:
            s = C.xaccMallocSplit(self.book_i)
            C.xaccSplitSetParent(s, txn)
            C.xaccSplitSetAccount(s, self.w.accounts[p.account].get_instance())
            if memo:
                C.xaccSplitSetMemo(s, memo)
            same_class(int(s))
            C.xaccSplitSetReconcile(s, state)
            splits.append(s)
        self.inserted(len(splits) - 1)
        for s, piece in zip(splits, pieces, strict=True):
            n = self.num(sign * piece.amount)
            C.xaccSplitSetValue(s, n)
            C.xaccSplitSetAmount(s, n)
        C.xaccTransSetTxnType(txn, C.TXN_TYPE_PAYMENT)
        for s, piece in zip(splits, pieces, strict=True):  # inside the edit (see adopt)
            if piece.document is not None:
                C.gnc_lot_add_split(self.lots[piece.document], s)
            elif piece.rest:
                lot = C.gnc_lot_new(self.book_i)
                C.gncOwnerAttachToLot(self.owner(p.owner_kind, p.owner, p.source), lot)
                C.gnc_lot_add_split(lot, s)
                self.lots[p.transaction] = lot  # a charge's lot: the payments of it join it
        C.xaccTransCommitEdit(txn)
        self.count["payment"] += 1

    def link(self, cn: Document, doc: Document | Payment, amount: Decimal) -> None:
        """``amount`` of credit note ``cn`` offset against ``doc`` (a document or a charge): a
        zero-sum 'L' transaction with one split in each lot (as gncOwnerCreateLotLink)."""
        side = 1 if cn.owner_kind == "customer" else -1
        t = C.xaccMallocTransaction(self.book_i)
        C.xaccTransBeginEdit(t)
        C.xaccTransSetCurrency(t, self.cur_i)
        C.xaccTransSetDate(t, cn.date.day, cn.date.month, cn.date.year)
        C.xaccTransSetDescription(t, cn.owner)
        C.xaccTransSetTxnType(t, C.TXN_TYPE_LINK)
        made = []
        for d, value in ((doc, -side * amount), (cn, side * amount)):
            s = C.xaccMallocSplit(self.book_i)
            C.xaccSplitSetParent(s, t)
            C.xaccSplitSetAccount(s, self.w.accounts[d.account].get_instance())
            n = self.num(value)
            C.xaccSplitSetValue(s, n)
            C.xaccSplitSetAmount(s, n)
            C.xaccSplitSetAction(s, "Lot Link")
            made.append((d, s))
        for d, s in made:  # inside the edit (see adopt)
            C.gnc_lot_add_split(self.lots[d.transaction], s)
        # the memo GnuCash itself gives a link ("Offset between documents: Credit Note CM-1 -
        # Invoice 1001", in the engine's language): Check & Repair rewrites any other, and 5.10
        # crashes doing so (it frees the link's split list while walking it)
        C.gncOwnerSetLotLinkMemo(t)
        C.xaccTransCommitEdit(t)
        self.inserted(2)
        self.count["link"] += 1


def write_documents(w: Written, docs: Documents, allocation: Allocation) -> dict[str, int]:
    """Adopt, apply, link (the ``after`` pass of ``write_book``). Counts by kind."""
    return _Pass(w, docs, allocation).run()
