"""The documents pass of an update (``app.gnc.update``): on a book that already holds some, only
the documents, payments and links that involve a new transaction are made; a new payment of a
document already in the book joins that document's lot; an earlier payment's unapplied rest
that QuickBooks has since applied to a new document is linked to it (docs/UPDATE.md, "Writing
into the book")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import Decimal

from app.documents import Document, Payment
from app.documents.selection import Piece, links, payment_pieces
from app.documents.taxes import SalesTax
from app.errors import BookWriteError
from app.gnc import transactions
from app.gnc.bindings import C
from app.gnc.detacher import SplitListDetacher
from app.gnc.engine import LayoutError
from app.gnc.numeric import to_decimal
from app.gnc.tax import TaxPass

Taken = list[tuple[int, Decimal]]  # (document's transaction, amount given to it)


class UpdatePass(TaxPass):
    """The documents pass on a book that already holds some: ``at`` maps every ledger
    transaction the book holds (present or just written) to its engine transaction; only the
    documents, payments and links that involve a new transaction (``new``) are made. With
    the sales tax plan (``st``, ``tables``: ``tax.tables_in``), new invoices get their items
    and tax tables as in a first write."""

    def __init__(  # noqa: PLR0917
        self, w, at: dict[int, object], new: set[int], docs, allocation, target=None,
        st: SalesTax | None = None, tables: dict | None = None,
    ) -> None:  # fmt: skip
        super().__init__(w.written(), docs, allocation, st, tables or {})
        self.at, self.new = at, new
        self.w.transactions = _Indexed(at)  # type: ignore[assignment]
        self.target: dict[int, Decimal] = dict(target or {})  # QuickBooks' open, per document
        self.by_owner: dict[tuple[str, str], list] = {}
        for d in sorted(docs.documents, key=lambda d: d.date):
            if not d.credit and not d.voided:
                self.by_owner.setdefault((d.owner_kind, d.owner), []).append(d)
        self.gap: dict[int, Decimal] = {}
        # payment transaction → (its A/R or A/P account, the pieces its line was cut into)
        self.paid: dict[int, tuple[str, tuple[Piece, ...]]] = {}
        self.linked: list[tuple] = []  # (credit note, document, amount) linked by this pass

    def run(self) -> dict[str, int]:
        accounts = list(self.w.accounts.values())
        cuts = payment_pieces(self.docs, self.alloc)
        with transactions.bulk_edit(self.w.engine, accounts):
            try:
                self.detacher = SplitListDetacher(
                    self.w.engine, [int(a.get_instance()) for a in accounts]
                )
                self.detacher.detach()
            except LayoutError:
                self.detacher = None
            try:
                self._documents()
                self._gaps()
                for p in sorted(self.docs.payments, key=lambda p: p.amount >= 0):
                    if p.transaction not in self.new:
                        if p.amount < 0 and p.transaction in self.at:  # an old charge's lot
                            self._found(p.transaction, p.account, p.source)
                        continue
                    pieces = self._refit(p, cuts.get(p.transaction) or ())
                    if pieces and all(
                        x.document is None or x.document in self.lots for x in pieces
                    ):
                        self.pay(p, pieces)
                        self.paid[p.transaction] = (p.account, pieces)
                    else:
                        self.paid[p.transaction] = (p.account, ())
                self._links()
                self._rests(cuts)
            finally:
                if self.detacher is not None:
                    self.detacher.reattach()
        return dict(self.count)

    def _links(self) -> None:
        """Each credit note applied to a document or charge where either one is new, fitted to
        the book as a new payment is (``_refit``): no more than the credit note has left in
        the book, and on a document only what the book has more open of than QuickBooks (the
        allocation's own choice first, then the owner's others, oldest first). The allocation,
        worked out on the whole history, may apply it to a document the book's earlier run
        had paid otherwise: linked there, that one was overpaid and another left open, the
        owner's balance right (hunt 10)."""
        by_note: dict[int, list[tuple]] = {}
        for cn, doc, amount in links(self.docs, self.alloc):
            both = {cn.transaction, doc.transaction}
            if both & self.new and all(t in self.lots for t in both):
                by_note.setdefault(cn.transaction, []).append((cn, doc, amount))
        for group in by_note.values():
            cn = group[0][0]
            for doc, amount in self._fitted(cn, [(d, a) for _, d, a in group]):
                self.link(cn, doc, amount)
                self.linked.append((cn, doc, amount))

    def _fitted(self, cn: Document, pairs: list[tuple]) -> list[tuple]:
        """(document or charge, amount) of credit note ``cn``, fitted to the book (``_links``);
        without QuickBooks' open amounts, as the allocation has them."""
        if not self.target:
            return pairs
        side = 1 if cn.owner_kind == "customer" else -1
        left = min(
            sum((a for _, a in pairs), Decimal(0)),
            -side * to_decimal(C.gnc_lot_get_balance(self.lots[cn.transaction])),
        )
        out = []
        for owed, amount in pairs:  # a charge as the allocation has it (no target for it)
            if isinstance(owed, Payment) and (take := min(amount, left)) > 0:
                out.append((owed, take))
                left -= take
        chosen = [d for d, _ in pairs if not isinstance(d, Payment)]
        docs = {
            d.transaction: d for d in (*chosen, *self.by_owner.get((cn.owner_kind, cn.owner), ()))
        }
        taken, _left = self._fill(docs, left)  # (the allocation's choice first: dicts keep order)
        return out + [(docs[doc], take) for doc, take in taken]

    def _fill(
        self, order: Iterable[int], left: Decimal
    ) -> tuple[list[tuple[int, Decimal]], Decimal]:
        """``left`` given, in ``order``, to the documents the book has more open of than
        QuickBooks (``gap``, lowered by what each takes): (document, amount) taken, and what
        is left. The one rule of ``_refit`` and ``_fitted``."""
        out = []
        for doc in dict.fromkeys(order):
            take = min(self.gap.get(doc, Decimal(0)), left)
            if take > 0:
                out.append((doc, take))
                self.gap[doc] -= take
                left -= take
        return out, left

    def _rests(self, cuts: Mapping[int, tuple[Piece, ...]]) -> None:
        """An earlier payment's unapplied rest (its own lot in the book) that QuickBooks has
        since applied to a new document: a lot link from the rest to the document, dated when
        both exist, as GnuCash links a payment applied later; the amount the allocation applies,
        no more than is left of the rest, open on the document, and (with QuickBooks' open
        amounts) still to pay on it (docs/UPDATE.md, "Writing into the book")."""
        docs = {d.transaction: d for d in self.docs.documents}
        for p in self.docs.payments:
            if p.transaction in self.new or p.transaction not in self.at or p.amount <= 0:
                continue
            wanted = [x for x in cuts.get(p.transaction, ()) if x.document in self.new]
            rest = self._rest_lot(p) if wanted else None
            for x in wanted:
                doc = docs.get(x.document) if x.document is not None else None
                lot = self.lots.get(x.document) if x.document is not None else None
                if rest is None or doc is None or lot is None:
                    continue
                side = 1 if p.owner_kind == "customer" else -1
                left = -side * to_decimal(C.gnc_lot_get_balance(rest))
                open_ = side * to_decimal(C.gnc_lot_get_balance(lot))
                gap = self.gap.get(doc.transaction, open_) if self.target else open_
                amount = min(x.amount, left, open_, gap)
                if amount <= 0:
                    continue
                self.lots[p.transaction] = rest
                dated = replace(p, date=max(p.date, doc.date))
                self.link(dated, doc, amount)  # type: ignore[arg-type]
                self.linked.append((dated, doc, amount))
                if doc.transaction in self.gap:
                    self.gap[doc.transaction] -= amount

    def _rest_lot(self, p: Payment) -> object | None:
        """The book's lot holding what is unapplied of payment ``p`` (a lot of no document,
        with something in it), if any."""
        for s in self.splits_in(self.at[p.transaction], p.account):
            lot = C.xaccSplitGetLot(s)
            if lot is None or C.gncInvoiceGetInvoiceFromLot(lot) is not None:
                continue
            if to_decimal(C.gnc_lot_get_balance(lot)):
                return lot
        return None

    def _gaps(self) -> None:
        """What each invoice and bill in the book still needs paid to be as open as QuickBooks
        says (``target``): its lot's open amount now less QuickBooks' (docs/UPDATE.md,
        "Writing into the book")."""
        self.gap.clear()
        for d in self.docs.documents:
            lot = self.lots.get(d.transaction)
            if lot is None or d.credit or d.voided or d.transaction not in self.target:
                continue
            side = 1 if d.owner_kind == "customer" else -1
            now = to_decimal(C.gnc_lot_get_balance(lot)) * side
            self.gap[d.transaction] = now - self.target[d.transaction]

    def _refit(self, p: Payment, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
        """A new payment's pieces fitted to the book: the allocation worked out on the whole
        history may apply an earlier payment otherwise than the book's earlier run did, so the
        money goes to the documents of its owner that the book still has more open of than
        QuickBooks (the allocation's own choice first, then oldest first); what it cannot place
        stays unapplied, as does what QuickBooks leaves unapplied of it (its open-items report's
        row: the allocation's rest), which ages from the payment's date as QuickBooks' does.
        Without QuickBooks' open amounts, the allocation's pieces as they are."""
        if not self.target or p.amount <= 0:
            return pieces
        left = sum((x.amount for x in pieces if x.document is not None), Decimal(0))
        chosen = [x.document for x in pieces if x.document is not None]
        mine = [d.transaction for d in self.by_owner.get((p.owner_kind, p.owner), ())]
        taken, left = self._fill([*chosen, *mine], left)
        out = [Piece(take, doc) for doc, take in taken]
        out += [x for x in pieces if x.document is None and not x.rest]  # paid plain ones
        left += sum((x.amount for x in pieces if x.rest), Decimal(0))
        if left:
            out.append(Piece(left, rest=True))
        return tuple(out)

    def _documents(self) -> None:
        for d in self.docs.documents:
            if d.voided or d.transaction not in self.at:
                continue
            if d.transaction in self.new:
                self.adopt(d)
            else:
                self._found(d.transaction, d.account, d.source)

    def _found(self, index: int, account: str, where: object) -> None:
        """The lot the book already has for the document (or charge) at ``index``, if any.
        None where the book's transaction has no one line in its A/R or A/P account: the book
        holds another version of it (a change in QuickBooks held, as an invoice that was a bill
        in the export before, or an edit made in GnuCash), which this run leaves as it is."""
        hits = self.splits_in(self.at[index], account)
        lot = C.xaccSplitGetLot(hits[0]) if len(hits) == 1 else None
        if lot is not None:
            self.lots[index] = lot


class _Indexed(dict):
    """``Written.transactions`` for the pass: indexable by ledger index like the list a first
    write has."""

    def __getitem__(self, index: int) -> object:
        try:
            return super().__getitem__(index)
        except KeyError:
            raise BookWriteError(f"transaction {index} of the exports is not in the book") from None
