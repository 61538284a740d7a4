"""The Preview step's items and sales tax (and the CLI's summary lines of them): the tax tables
to be made (name, rate, account, agency, how many lines use each), what GnuCash gets of the
item list, the invoices whose tax is kept as QuickBooks' amount, and invoices opened with
their lines (item, quantity, rate, amount, tax). A view model; no Flask here."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.documents.taxes import DocTax, SalesTax
from app.model import Ledger
from app.words import plural

SHOWN_INVOICES = 50  # invoices the Preview opens with their lines
SHOWN_KEPT = 50  # invoices named in the CLI's summary (the tax report has all)


@dataclass(frozen=True, slots=True)
class TableRow:
    name: str
    rate: str  # "7.25 %"
    members: str  # a group's "State 6.0 % + County 1.25 %", "" for an item
    accounts: str
    agencies: str
    lines: int  # taxable entries using it


@dataclass(frozen=True, slots=True)
class LineRow:
    item: str
    description: str
    quantity: Decimal
    price: Decimal
    amount: Decimal
    tax: str  # the tax table of a taxed line, "sales tax" on a plain tax line, else ""
    included: bool


@dataclass(frozen=True, slots=True)
class InvoiceRow:
    id: str
    owner: str
    kind: str
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    table: str
    kept: str
    lines: tuple[LineRow, ...]


@dataclass(frozen=True, slots=True)
class TaxView:
    mode: str  # the plan's sales_tax setting
    tables: tuple[TableRow, ...]
    not_made: tuple[tuple[str, str], ...]  # (sales tax item or group, why no table)
    taxed_lines: int
    kept: tuple[tuple[str, str, str], ...]  # (invoice, customer, why)
    items: int  # items in the lists
    inventory: tuple[str, ...]  # inventory items' names
    invoices: tuple[InvoiceRow, ...]  # the first invoices with item lines, opened
    more_invoices: int

    def summary(self) -> str:
        """ "Sales tax: 4 GnuCash tax tables (State, County, GST, Bayshore), 114 taxed lines,
        9 invoices keep QuickBooks' tax as plain lines" """
        if self.mode == "lines":
            return "Sales tax: as plain lines on every invoice (no tax tables), as chosen"
        shown = [t.name for t in self.tables[:8]]
        between = "; " if any("," in n for n in shown) else ", "  # ("County, San Thomas")
        names = between.join(shown) + (f"{between}..." if len(self.tables) > 8 else "")
        made = plural(len(self.tables), "GnuCash tax table", "GnuCash tax tables")
        kept = len(self.kept)
        return (
            f"Sales tax: {made}{f' ({names})' if names else ''}, "
            f"{plural(self.taxed_lines, 'taxed line', 'taxed lines')}, {plural(kept, 'invoice')} "
            f"{'keeps' if kept == 1 else 'keep'} QuickBooks' tax as plain lines"
        )

    def notes(self) -> list[str]:
        out = []
        if self.items:
            out.append(
                f"Items: {plural(self.items, 'item')} in QuickBooks' list. GnuCash has no item "
                "list: each invoice and bill line keeps its item's name (the entry's action), "
                "quantity and rate, and the whole list goes to the item catalogue (items.csv in "
                "the audit pack)"
            )
        if self.inventory:
            names = ", ".join(self.inventory[:5]) + (", ..." if len(self.inventory) > 5 else "")
            out.append(
                f"Inventory: {plural(len(self.inventory), 'inventory item', 'inventory items')} "
                f"({names}): its "
                "value stays where QuickBooks posted it, in the inventory asset account; its "
                "quantity on hand is only in the item catalogue"
            )
        out.extend(
            f"No tax table for {name}: {why}; the invoices charging it keep their tax as plain "
            "lines"
            for name, why in self.not_made
        )
        if self.kept:
            shown = "; ".join(f"{i} ({w})" for i, _o, w in self.kept[:SHOWN_KEPT])
            more = len(self.kept) - SHOWN_KEPT
            out.append(
                "Kept as QuickBooks' amount, as plain tax lines: "
                + shown
                + (f"; ... and {more:,} more (in the tax report)" if more > 0 else "")
            )
        return out


def _rate(value: Decimal) -> str:
    return f"{value.normalize():f} %"


def tax_view(st: SalesTax | None, ledger: Ledger) -> TaxView | None:
    """What the book gets of items and sales tax; None when the files have neither items nor
    documents."""
    if st is None:
        return None
    uses = st.uses()
    tables = tuple(
        TableRow(
            t.name,
            _rate(t.rate),
            " + ".join(f"{e.item} {_rate(e.rate)}" for e in t.entries)
            if len(t.entries) > 1
            else "",
            ", ".join(dict.fromkeys(e.account for e in t.entries)),
            ", ".join(t.agencies),
            uses.get(t.name, 0),
        )
        for t in st.tables
    )
    with_items = [d for d in st.docs.values() if any(e.action for e in d.entries)]
    return TaxView(
        mode=st.mode,
        tables=tables,
        not_made=st.not_made,
        taxed_lines=st.taxed_lines,
        kept=tuple((d.id, d.owner, d.kept) for d in st.kept),
        items=len(ledger.items),
        inventory=tuple(i.name for i in ledger.items if i.inventory),
        invoices=tuple(_invoice(d) for d in with_items[:SHOWN_INVOICES]),
        more_invoices=max(0, len(with_items) - SHOWN_INVOICES),
    )


def _invoice(d: DocTax) -> InvoiceRow:
    return InvoiceRow(
        d.id,
        d.owner,
        d.kind,
        d.subtotal,
        d.tax,
        d.total,
        d.table,
        d.kept,
        tuple(
            LineRow(
                e.action,
                e.description,
                e.quantity,
                e.price,
                e.amount,
                e.table or ("sales tax" if e.tax else ""),
                e.included,
            )
            for e in d.entries
        ),
    )


__all__ = ["InvoiceRow", "LineRow", "TableRow", "TaxView", "tax_view"]
