"""Sales tax on a written book: GnuCash tax tables made from QuickBooks' sales tax items and
groups, each customer's default table, each agency's items in its vendor notes (each line's
item is its split's action, from the GL writer); read back through the engine (the tables, every
document's entries and figures, the tax owed per agency).

What this relies on in the engine (4.13 bindings, read in the 5.x sources too: docs/ENGINE.md,
"Tax tables"): ``gncTaxTableCreate/SetName/AddEntry``, ``gncTaxTableEntryCreate/SetAccount/
SetType/SetAmount``, ``gncTaxTableReturnChild`` (the frozen copy a posted document's entries
point at, as PostToAccount makes), ``gncCustomerSetTaxTable/SetTaxTableOverride``,
``gncEntrySet/GetInvTaxTable, InvTaxable, InvTaxIncluded``, ``gncEntryGetDocValue/
DocTaxValue``, ``gncInvoiceGetTotal/TotalSubtotal/TotalTax``. ``gncTaxTableGetEntries`` comes
back mistyped through the bindings (4.13 and 5.x: the GList typemap), so entries are walked in
ctypes. Used only through ``write_book(..., after=...)`` and ``read_book(sales_tax=...)``.
"""

from __future__ import annotations

import ctypes
import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Mapping
from decimal import Decimal

from app.book import BookEntry, BookInvoiceTax, BookSalesTax, BookTaxTable
from app.documents import Document, Documents
from app.documents.allocate import Allocation
from app.documents.taxes import SalesTax, TaxTable
from app.errors import BookWriteError
from app.gnc import bindings
from app.gnc.bindings import C, Query
from app.gnc.context import Written
from app.gnc.documents import _Pass  # the documents pass
from app.gnc.engine import Numeric
from app.gnc.lots import _Names  # owner names through ctypes
from app.gnc.numeric import exact, from_parts, to_decimal
from app.words import quoted

AGENCY_NOTE = "Sales tax agency for: "  # one line per sales tax item in the vendor's notes


def _num(value: Decimal):
    return C.gnc_numeric_create(*exact(value))


def write_sales_tax(w: Written, st: SalesTax) -> dict[str, object]:
    """The tables, the customers' defaults and the agencies' notes (each line's item is its
    split's action already: ``transactions.write``); returns each table's frozen child (what
    a posted document's entries point at) by name."""
    made = {t.name: _table(w, t) for t in st.tables}
    for name, table_name in st.customers.items():
        owner = w.owners.get(("customer", name))
        if owner is None:
            continue
        c = owner.get_instance()
        C.gncCustomerBeginEdit(c)
        C.gncCustomerSetTaxTable(c, made[table_name])
        C.gncCustomerSetTaxTableOverride(c, True)
        C.gncCustomerCommitEdit(c)
    for agency, items in st.agencies.items():
        owner = w.owners.get(("vendor", agency))
        if owner is None:
            continue
        v = owner.get_instance()
        notes = C.gncVendorGetNotes(v) or ""
        lines = "\n".join(f"{AGENCY_NOTE}{i}" for i in items)
        C.gncVendorBeginEdit(v)
        C.gncVendorSetNotes(v, f"{notes}\n{lines}" if notes else lines)
        C.gncVendorCommitEdit(v)
    return {name: C.gncTaxTableReturnChild(t, True) for name, t in made.items()}


def _table(w: Written, t: TaxTable) -> object:
    """A GnuCash tax table of the planned ``t``: a percentage entry per account."""
    table = C.gncTaxTableCreate(w.book.get_instance())  # type: ignore[attr-defined]
    C.gncTaxTableBeginEdit(table)
    C.gncTaxTableSetName(table, t.name)
    for e in t.entries:
        account = w.accounts.get(e.account)
        if account is None:
            raise BookWriteError(f"{t.source}: tax table {t.name}: no account {quoted(e.account)}")
        entry = C.gncTaxTableEntryCreate()
        C.gncTaxTableEntrySetAccount(entry, account.get_instance())
        C.gncTaxTableEntrySetType(entry, C.GNC_AMT_TYPE_PERCENT)
        C.gncTaxTableEntrySetAmount(entry, _num(e.rate))
        C.gncTaxTableAddEntry(table, entry)
    C.gncTaxTableCommitEdit(table)
    return table


def tables_in(w: Written, st: SalesTax) -> dict[str, object]:
    """For an update: the book's own tables by the names the plan gives them (a first write
    made them so), a table the book lacks (a tax item new in QuickBooks since) made as a first
    write makes it; each as the frozen child a posted document's entries point at. A table
    the user changed in GnuCash is used as it is: where it taxes otherwise than QuickBooks, the
    document keeps QuickBooks' tax as plain lines (``TaxPass.entered``)."""
    book_i = w.book.get_instance()  # type: ignore[attr-defined]
    out = {}
    for t in st.tables:
        table = C.gncTaxTableLookupByName(book_i, t.name) or _table(w, t)
        out[t.name] = C.gncTaxTableReturnChild(table, True)
    return out


class TaxPass(_Pass):
    """The documents pass with each document's planned entries (items, tax tables); where the
    engine computes another tax than planned, the entries again with QuickBooks' tax as plain
    lines, and the document named in ``refused``."""

    def __init__(
        self,
        w: Written,
        docs: Documents,
        allocation: Allocation,
        st: SalesTax | None,
        tables: dict,
    ) -> None:
        super().__init__(w, docs, allocation)
        self.st, self.tables = st, tables
        self.refused: list[str] = []
        self.tabled = 0  # documents with a line taxed through a table, as planned
        self.plain: list[tuple[str, str]] = []  # (id, why) of those keeping QuickBooks' tax

    def lines(self, d: Document) -> tuple:
        planned = self.st.docs.get(d.transaction) if self.st is not None else None
        return planned.entries if planned is not None else d.lines

    def entered(self, inv: object, d: Document, vendor: bool) -> Decimal:
        total = to_decimal(C.gncInvoiceGetTotal(inv))
        planned = self.st.docs.get(d.transaction) if self.st is not None else None
        if planned is not None and planned.kept:
            self.plain.append((d.id, planned.kept))
        if planned is None or not planned.table:
            return total
        # the subtotal is QuickBooks' by construction unless a price includes the tax: then a
        # total as planned could hide a tax that is not, so the tax is asked too
        included = any(e.included for e in planned.entries)
        if total == planned.total and (
            not included or to_decimal(C.gncInvoiceGetTotalTax(inv)) == planned.tax
        ):
            self.tabled += any(e.table for e in planned.entries)
            return total
        for e in list(C.gncInvoiceGetEntries(inv)):
            C.gncInvoiceRemoveEntry(inv, e)
            C.gncEntryBeginEdit(e)
            C.gncEntryDestroy(e)
        for ln in planned.plain:
            self.entry(inv, d, ln, vendor)
        self.refused.append(d.id)
        self.plain.append((d.id, "GnuCash computed another tax than planned"))
        return to_decimal(C.gncInvoiceGetTotal(inv))


def write_documents(  # noqa: PLR0917 - write_documents' own, and what this pass adds
    w: Written, docs: Documents, allocation: Allocation, st: SalesTax, tables: dict,
    refused: list[str],
) -> dict[str, int]:  # fmt: skip
    """``app.gnc.write_documents`` with the documents' planned entries; ``refused`` gets the
    documents the engine would tax otherwise than planned."""
    p = TaxPass(w, docs, allocation, st, tables)
    counts = p.run()
    refused.extend(p.refused)
    return counts


# ---------------------------------------------------------------- reading back


class _Lib:
    """The tax-table getters the bindings cannot walk (their entry list is mistyped)."""

    def __init__(self) -> None:
        lib = bindings.engine().lib
        P = ctypes.c_void_p
        for name, res, args in (
            ("gncTaxTableGetEntries", P, [P]),
            ("gncTaxTableEntryGetAccount", P, [P]),
            ("gncTaxTableEntryGetAmount", Numeric, [P]),
            ("gncTaxTableEntryGetType", ctypes.c_int, [P]),
        ):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        self.lib = lib

    def entries(self, table: int) -> list[tuple[int, Decimal, int]]:
        """(account pointer, amount, type) of each entry of a table."""
        out = []
        node = self.lib.gncTaxTableGetEntries(table)
        while node:
            cell = ctypes.cast(node, ctypes.POINTER(ctypes.c_void_p * 3)).contents
            entry = cell[0]
            amount = self.lib.gncTaxTableEntryGetAmount(entry)
            out.append(
                (
                    int(self.lib.gncTaxTableEntryGetAccount(entry) or 0),
                    from_parts(amount.num, amount.denom),
                    self.lib.gncTaxTableEntryGetType(entry),
                )
            )
            node = cell[1]
        return out


def _table_name(table) -> str:
    """A table's name; a frozen child's is its parent's."""
    if table is None:
        return ""
    parent = C.gncTaxTableGetParent(table)
    return C.gncTaxTableGetName(parent if parent is not None else table) or ""


def read(book, tax_accounts: Collection[str] = ()) -> BookSalesTax:
    """The book's tax tables, each document's entries and figures, each customer's default
    table, and the tax owed per agency (the sales tax accounts' lines by their item's agency,
    named in the agencies' vendor notes, else by the transaction's name when it is an agency)."""
    lib = _Lib()
    names: dict[int, str] = {}
    accounts = {}
    for acc in book.get_root_account().get_descendants():
        names[int(acc.get_instance())] = acc.get_full_name()
        accounts[acc.get_full_name()] = acc
    book_i = book.get_instance()
    tables = []
    for t in C.gncTaxTableGetTables(book_i):
        entries = tuple(
            (names.get(account, ""), amount) for account, amount, _kind in lib.entries(int(t))
        )
        tables.append(BookTaxTable(C.gncTaxTableGetName(t) or "", entries))
    customers = {}
    owner_names = _Names(book)  # by QuickBooks' name, as the documents' owners
    named = owner_names.names.of
    query = Query()
    query.search_for("gncCustomer")
    query.set_book(book)
    for c in query.run():
        table = C.gncCustomerGetTaxTable(c)
        if table is not None:
            customers[named(int(c), C.gncCustomerGetName(c) or "")] = _table_name(table)
    query.destroy()
    agency_items: dict[str, tuple[str, ...]] = {}
    query = Query()
    query.search_for("gncVendor")
    query.set_book(book)
    for v in query.run():
        notes = C.gncVendorGetNotes(v) or ""
        items = tuple(
            line[len(AGENCY_NOTE) :] for line in notes.splitlines() if line.startswith(AGENCY_NOTE)
        )
        if items:
            agency_items[named(int(v), C.gncVendorGetName(v) or "")] = items
    query.destroy()
    invoices = _invoices(book, names, owner_names)
    agencies = _agencies(accounts, tax_accounts, agency_items)
    return BookSalesTax(
        tables=tuple(sorted(tables, key=lambda t: t.name)),
        invoices=invoices,
        customers=customers,
        agencies=agencies,
        agency_items=agency_items,
    )


def _invoices(book, names: Mapping[int, str], owner_names: _Names) -> tuple[BookInvoiceTax, ...]:
    query = Query()
    query.search_for("gncInvoice")
    query.set_book(book)
    out = []
    for inv in query.run():
        kind_of, owner = owner_names.full(owner_names.lib.gncInvoiceGetOwner(int(inv)))
        customer = kind_of == "customer"
        credit = bool(C.gncInvoiceGetIsCreditNote(inv))
        entries = []
        for e in C.gncInvoiceGetEntries(inv):
            table = C.gncEntryGetInvTaxTable(e) if customer else C.gncEntryGetBillTaxTable(e)
            account = C.gncEntryGetInvAccount(e) if customer else C.gncEntryGetBillAccount(e)
            price = C.gncEntryGetInvPrice(e) if customer else C.gncEntryGetBillPrice(e)
            taxable = C.gncEntryGetInvTaxable(e) if customer else C.gncEntryGetBillTaxable(e)
            included = (
                C.gncEntryGetInvTaxIncluded(e) if customer else C.gncEntryGetBillTaxIncluded(e)
            )
            entries.append(
                BookEntry(
                    action=C.gncEntryGetAction(e) or "",
                    description=C.gncEntryGetDescription(e) or "",
                    account=names.get(int(account), "") if account is not None else "",
                    quantity=to_decimal(C.gncEntryGetDocQuantity(e, credit)),
                    price=to_decimal(price),
                    value=to_decimal(C.gncEntryGetDocValue(e, True, customer, credit)),
                    tax=to_decimal(C.gncEntryGetDocTaxValue(e, True, customer, credit)),
                    taxable=bool(taxable),
                    table=_table_name(table) if taxable else "",
                    included=bool(included),
                )
            )
        out.append(
            BookInvoiceTax(
                kind=("credit_note_" if credit else "") + ("customer" if customer else "vendor"),
                id=C.gncInvoiceGetID(inv) or "",
                owner=owner,
                subtotal=to_decimal(C.gncInvoiceGetTotalSubtotal(inv)),
                tax=to_decimal(C.gncInvoiceGetTotalTax(inv)),
                total=to_decimal(C.gncInvoiceGetTotal(inv)),
                entries=tuple(entries),
            )
        )
    query.destroy()
    return tuple(sorted(out, key=lambda d: (d.kind, d.owner, d.id)))


def _agencies(
    accounts: Mapping[str, object],
    tax_accounts: Collection[str],
    agency_items: Mapping[str, tuple[str, ...]],
) -> dict[str, tuple[tuple[dt.date, Decimal], ...]]:
    """Agency → the tax the book says is owed to it, per posted day; "" for lines no agency
    is named for."""
    of_item = {item: agency for agency, items in agency_items.items() for item in items}
    out: dict[tuple[str, dt.date], Decimal] = defaultdict(Decimal)
    for name in tax_accounts:
        acc = accounts.get(name)
        if acc is None:
            continue
        for s in C.xaccAccountGetSplitList(acc.get_instance()):  # type: ignore[attr-defined]
            txn = C.xaccSplitGetParent(s)
            if C.xaccTransGetVoidStatus(txn):
                continue
            action = C.xaccSplitGetAction(s) or ""
            who = C.xaccTransGetDescription(txn) or ""
            agency = of_item.get(action) or (who if who in agency_items else "")
            out[agency, C.xaccTransGetDate(txn).date()] -= to_decimal(C.xaccSplitGetValue(s))
    days: dict[str, list[tuple[dt.date, Decimal]]] = defaultdict(list)
    for (agency, day), value in sorted(out.items()):
        days[agency].append((day, value))
    return {k: tuple(v) for k, v in days.items()}
