"""Reading back a book's documents and A/R / A/P lots through the engine (``read``,
``read_documents``): every invoice and bill with its lot's balance, each owner's open balance,
each open lot with its dates (what ages), and each side's control accounts taken apart (in
documents' lots, the owners' own lots, no lot). Owner names come through ctypes (``_Names``):
the bindings cannot pass a bare GncOwner."""

from __future__ import annotations

import ctypes
import datetime as dt
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from app.book import BookControl, BookDocument, BookDocuments, BookLot
from app.errors import BookWriteError
from app.gnc import bindings
from app.gnc.bindings import C, Query, Session, SessionOpenMode
from app.gnc.numeric import to_decimal
from app.gnc.owner_names import Names

ZERO = Decimal(0)


class _Owner(ctypes.Structure):
    _fields_ = (("type", ctypes.c_int), ("owner", ctypes.c_void_p), ("temp", ctypes.c_void_p))


_OWNER_CUSTOMER, _OWNER_JOB, _OWNER_VENDOR = 2, 3, 4


class _Names:
    """Owner names through the engine library (the bindings cannot pass a bare GncOwner)."""

    def __init__(self, book) -> None:
        lib = bindings.engine().lib
        P, OP = ctypes.c_void_p, ctypes.POINTER(_Owner)
        for name, res, args in (
            ("gncOwnerGetOwnerFromLot", ctypes.c_int, [P, OP]),
            ("gncInvoiceGetInvoiceFromLot", P, [P]),
            ("gncInvoiceGetOwner", OP, [P]),
            ("gncOwnerGetEndOwner", OP, [OP]),
            ("gncOwnerGetName", ctypes.c_char_p, [OP]),
            ("gncJobGetName", ctypes.c_char_p, [P]),
            ("gncJobGetOwner", OP, [P]),
        ):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        self.lib = lib
        self.names = Names(bindings.engine(), book)
        self.known: dict[int, tuple[str, str]] = {}  # an owner's pointer → (kind, full name)

    def full(self, owner) -> tuple[str, str]:
        """(kind, full name as QuickBooks has it: ``owner_names``) of a GncOwner pointer."""
        o = owner.contents
        if (got := self.known.get(o.owner)) is not None:
            return got
        if o.type == _OWNER_JOB:
            job = self.names.of(o.owner, (self.lib.gncJobGetName(o.owner) or b"").decode())
            got = "customer", f"{self.full(self.lib.gncJobGetOwner(o.owner))[1]}:{job}"
        else:
            kind = "vendor" if o.type == _OWNER_VENDOR else "customer"
            now = (self.lib.gncOwnerGetName(owner) or b"").decode()
            got = kind, self.names.of(o.owner, now)
        self.known[o.owner] = got
        return got

    def of_lot(self, lot: int) -> tuple[str, str] | None:
        inv = self.lib.gncInvoiceGetInvoiceFromLot(lot)
        if inv:
            return self.full(self.lib.gncInvoiceGetOwner(inv))
        buf = _Owner()
        if not self.lib.gncOwnerGetOwnerFromLot(lot, ctypes.byref(buf)):
            return None
        return self.full(ctypes.pointer(buf))


def read_documents(path: Path) -> BookDocuments:
    """Every document and every A/R / A/P lot of the book at ``path``, read in a read-only
    session through the engine (lot balances, IsPaid, owners)."""
    path = Path(path).absolute()
    engine = bindings.engine()
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    session = Session()
    engine.log_disable()
    try:
        session.begin(
            ("sqlite3://" if sqlite else "xml://") + str(path), SessionOpenMode.SESSION_READ_ONLY
        )
        session.load()
        engine.log_disable()
        return read(session.book)
    except Exception as exc:  # GnuCashBackendException and the like
        raise BookWriteError(f"GnuCash could not read the documents of {path.name}: {exc}") from exc
    finally:
        session.end()


def read(book) -> BookDocuments:
    """The documents and A/R / A/P lots of an open ``book`` (``read_book(documents=True)``)."""
    names = _Names(book)
    query = Query()
    query.search_for("gncInvoice")
    query.set_book(book)
    out = []
    for inst in query.run():
        kind_of, owner = names.full(names.lib.gncInvoiceGetOwner(int(inst)))
        credit = bool(C.gncInvoiceGetIsCreditNote(inst))
        kind = (
            ("credit_note_vendor" if credit else "bill")
            if kind_of == "vendor"
            else ("credit_note_customer" if credit else "invoice")
        )
        lot = C.gncInvoiceGetPostedLot(inst)
        side = 1 if kind_of == "customer" else -1
        sense = -1 if credit else 1
        bal = to_decimal(C.gnc_lot_get_balance(lot)) * side * sense if lot else Decimal(0)
        txn = C.gncInvoiceGetPostedTxn(inst)
        out.append(
            BookDocument(
                kind=kind,
                id=C.gncInvoiceGetID(inst) or "",
                owner=owner,
                total=to_decimal(C.gncInvoiceGetTotal(inst)),
                open=bal,
                paid=bool(C.gncInvoiceIsPaid(inst)),
                due=C.xaccTransRetDateDue(txn).date() if txn else None,
                entries=len(C.gncInvoiceGetEntries(inst)),
                posted=bool(C.gncInvoiceIsPosted(inst)),
            )
        )
    query.destroy()
    owner_open: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    lots = unowned = 0
    payments: set[int] = set()
    open_lots: list[BookLot] = []
    sides: dict[str, list] = {}  # owner kind → [accounts, balance, in documents, in owners' lots]
    for acc in book.get_root_account().get_descendants():
        kind = acc.GetType()
        if kind not in (C.ACCT_TYPE_RECEIVABLE, C.ACCT_TYPE_PAYABLE):
            continue
        side = 1 if kind == C.ACCT_TYPE_RECEIVABLE else -1
        of = sides.setdefault("customer" if side == 1 else "vendor", [[], ZERO, ZERO, ZERO])
        of[0].append(acc.get_full_name())
        of[1] += side * to_decimal(C.xaccAccountGetBalance(acc.get_instance()))
        for lot in C.xaccAccountGetLotList(acc.get_instance()):
            lots += 1
            who = names.of_lot(int(lot))
            if who is None:
                unowned += 1
                continue
            balance = side * to_decimal(C.gnc_lot_get_balance(lot))
            owner_open[who] += balance
            inv = names.lib.gncInvoiceGetInvoiceFromLot(int(lot))
            of[2 if inv else 3] += balance
            if balance:
                open_lots.append(_open_lot(lot, who, balance, bool(inv)))
            for split in C.gnc_lot_get_split_list(lot):
                txn = C.xaccSplitGetParent(split)
                if C.xaccTransGetTxnType(txn) == C.TXN_TYPE_PAYMENT:
                    payments.add(int(txn))
    out.sort(key=lambda d: (d.kind, d.owner, d.id))
    controls = tuple(
        BookControl(k, tuple(sorted(v[0])), v[1], v[2], v[3])
        for k in ("customer", "vendor")
        if (v := sides.get(k))
    )
    open_lots.sort(key=lambda x: (x.owner_kind, x.owner, x.date, x.due or x.date, x.open))
    return BookDocuments(
        tuple(out), dict(owner_open), lots, unowned, len(payments), tuple(open_lots), controls
    )


def _open_lot(lot, who: tuple[str, str], balance: Decimal, document: bool) -> BookLot:
    """An open lot's owner, date (its first split's), due date (a document's) and balance."""
    inv = C.gncInvoiceGetInvoiceFromLot(lot) if document else None
    if inv:  # a document's own dates (a prepayment applied to it may be older); a credit
        # note ages from its date, as QuickBooks ages a credit memo or bill credit
        date = C.gncInvoiceGetDatePosted(inv).date()
        kept = C.gncInvoiceGetDateDue(inv).date()
        due = None if C.gncInvoiceGetIsCreditNote(inv) else kept
        return BookLot(who[0], who[1], date, due, balance, document, report_due=kept)
    first = C.gnc_lot_get_earliest_split(lot)
    txn = C.xaccSplitGetParent(first) if first else None
    date = C.xaccTransGetDate(txn).date() if txn else dt.date.min
    paid = bool(txn) and C.xaccTransGetTxnType(txn) == C.TXN_TYPE_PAYMENT
    return BookLot(who[0], who[1], date, None, balance, document, payment=paid)
