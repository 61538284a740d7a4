"""Items, sales tax codes and the item detail of a transaction line, in GnuCash's words where it
has them (GnuCash has no item list: the catalogue goes to the audit pack, a line's item becomes
its entry's action; a sales tax item or group becomes a tax table). Parsers make them,
``app.model.Ledger`` holds them, ``app.documents.taxes`` turns them into entries and tax tables.

QuickBooks' item types (IIF ``INVITEMTYPE``) stay as the reader found them in ``Item.kind``;
the predicates below are the one place that says what a kind means.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from app.source import Source

# INVITEMTYPE → what it is, in words (the catalogue's "type" column)
KIND_WORDS = {
    "SERV": "service",
    "PART": "non-inventory part",
    "INVENTORY": "inventory part",
    "INVENTORYASSEMBLY": "inventory assembly",
    "ASSEMBLY": "inventory assembly",
    "OTHC": "other charge",
    "DISC": "discount",
    "PMT": "payment",
    "SUBT": "subtotal",
    "GRP": "group",
    "COMPTAX": "sales tax item",
    "STAX": "sales tax group",
    "FIXEDASSET": "fixed asset",
}
SALES_TAX_KINDS = frozenset({"COMPTAX", "STAX"})
INVENTORY_KINDS = frozenset({"INVENTORY", "INVENTORYASSEMBLY", "ASSEMBLY"})


@dataclass(frozen=True, slots=True)
class Item:
    """One entry of QuickBooks' item list. ``rate`` is a percentage (6.5 for 6.5 %) where the
    item's price is one (sales tax items, percent discounts and charges), else ``price`` is
    its sales price. ``members``: a group's items, in order (a sales tax group's members are
    sales tax items). Accounts are the chart's full names."""

    name: str
    kind: str  # INVITEMTYPE, upper case: SERV, PART, INVENTORY, OTHC, DISC, COMPTAX, STAX...
    source: Source
    description: str = ""
    purchase_description: str = ""
    sales_account: str = ""  # income account (a sales tax item: its liability account)
    asset_account: str = ""
    cogs_account: str = ""  # cost of goods sold, or the expense account of a purchase
    price: Decimal | None = None
    rate: Decimal | None = None  # percent
    cost: Decimal | None = None
    quantity: Decimal | None = None  # on hand (inventory)
    stock_value: Decimal | None = None  # on-hand value (inventory)
    taxable: bool | None = None
    tax_code: str = ""
    tax_agency: str = ""  # the vendor a sales tax item's tax is owed to
    preferred_vendor: str = ""
    hidden: bool = False
    members: tuple[str, ...] = ()

    @property
    def sales_tax(self) -> bool:
        """A sales tax item or group: a GnuCash tax table."""
        return self.kind in SALES_TAX_KINDS

    @property
    def group(self) -> bool:
        return self.kind in ("GRP", "STAX")

    @property
    def inventory(self) -> bool:
        return self.kind in INVENTORY_KINDS

    @property
    def kind_word(self) -> str:
        return KIND_WORDS.get(self.kind, self.kind.lower())


@dataclass(frozen=True, slots=True)
class TaxCode:
    """A sales tax code (``Tax``, ``Non``, a company's own; in VAT/GST editions ``GST``, ``S``,
    ``FRE``...): whether a line carrying it is taxed. ``item``: the sales tax item whose rate
    it stands for, where the export says so (VAT/GST editions)."""

    code: str
    taxable: bool
    source: Source
    description: str = ""
    item: str = ""
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class ItemLine:
    """What a transaction line says of its item, as the file gives it: ``quantity`` with
    QuickBooks' sign (negative on invoice lines in IIF), ``price`` the rate per unit, or
    ``percent`` the rate of a percentage item. ``taxable`` is the line's own flag (IIF
    TAXABLE), ``tax_code`` its code, ``tax_amount`` the line's own tax (VAT/GST editions),
    ``auto_tax`` an IIF ``EXTRA`` of AUTOSTAX (the invoice's sales tax line)."""

    item: str = ""
    quantity: Decimal | None = None
    price: Decimal | None = None
    percent: Decimal | None = None
    taxable: bool | None = None
    tax_code: str = ""
    tax_amount: Decimal | None = None
    auto_tax: bool = False

    def __bool__(self) -> bool:
        return bool(
            self.item
            or self.quantity is not None
            or self.price is not None
            or self.percent is not None
            or self.taxable is not None
            or self.tax_code
            or self.tax_amount is not None
            or self.auto_tax
        )


TaxRowKind = Literal["item", "agency total", "total"]


@dataclass(frozen=True, slots=True)
class TaxLiability:
    """One row of QuickBooks' Sales Tax Liability report: the tax still owed for a sales tax
    item (``item``) of an agency, or an agency's total, as of ``as_of``."""

    agency: str
    item: str  # "" on an agency's total row
    payable: Decimal
    source: Source
    as_of: dt.date | None = None
    collected: Decimal | None = None
    rate: Decimal | None = None  # percent


CATALOGUE_HEADER = (
    "name", "type", "description", "purchase_description", "sales_price", "rate_percent",
    "cost", "income_account", "asset_account", "cogs_or_expense_account", "tax_code", "taxable",
    "tax_agency", "preferred_vendor", "quantity_on_hand", "value_on_hand", "members", "hidden",
    "where",
)  # fmt: skip


def catalogue(items: tuple[Item, ...]) -> list[tuple[str, ...]]:
    """The item list as rows of ``CATALOGUE_HEADER`` (the audit pack's items.csv): GnuCash has
    no item list, so this is where every item, its prices, accounts and, for an inventory item,
    the quantity on hand are kept (the value on hand is in its asset account in the book)."""

    def number(v: Decimal | None) -> str:
        return "" if v is None else f"{v:f}"

    def flag(v: bool | None) -> str:
        return "" if v is None else "yes" if v else "no"

    rows: list[tuple[str, ...]] = []
    for i in items:
        prices = (number(i.price), number(i.rate), number(i.cost))
        accounts = (i.sales_account, i.asset_account, i.cogs_account)
        tax = (i.tax_code, flag(i.taxable), i.tax_agency)
        stock = (number(i.quantity), number(i.stock_value))
        rows.append(
            (i.name, i.kind_word, i.description, i.purchase_description, *prices, *accounts, *tax,
             i.preferred_vendor, *stock, "; ".join(i.members), "yes" if i.hidden else "",
             str(i.source))
        )  # fmt: skip
    return rows
