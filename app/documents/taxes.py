"""Items and sales tax on the documents, the records: a document's entries (``Entry``, item,
quantity, rate, account, taxable, tax table), its QuickBooks figures (``DocTax``), the GnuCash
tax tables QuickBooks' sales tax items and groups become (``TaxTable``), and ``SalesTax``, what
``app.documents.tax_plan.plan`` decides for a book. Here too: GnuCash's own arithmetic of a
customer document (``gnucash_figures``) and QuickBooks' tax owed per agency as the history
holds it (``liability_by_agency``). Pure: the model and ``app.documents``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from app.documents import Documents
from app.items import Item
from app.model import Ledger, Problem, Role, Split
from app.plan import SALES_TAX_MODES, SalesTaxMode
from app.source import Source
from app.words import quoted

ZERO = Decimal(0)
ONE = Decimal(1)
HUNDRED = Decimal(100)
KEPT_NAMED = 20  # invoices named in a warning (the tax report lists every one)


@dataclass(frozen=True, slots=True)
class TableEntry:
    item: str  # the sales tax item
    rate: Decimal  # percent
    account: str  # the liability account (final full name)
    agency: str = ""  # the vendor the tax is owed to


@dataclass(frozen=True, slots=True)
class TaxTable:
    """A GnuCash tax table: a QuickBooks sales tax item (one entry) or group (one per member)."""

    name: str
    entries: tuple[TableEntry, ...]
    source: Source
    description: str = ""

    @property
    def rate(self) -> Decimal:
        return sum((e.rate for e in self.entries), ZERO)

    @property
    def agencies(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.agency for e in self.entries if e.agency))


@dataclass(frozen=True, slots=True)
class Entry:
    """One GnuCash entry. ``amount`` is the line's amount in the document's own sense (what
    GnuCash's rounded value of the entry must be); ``quantity`` × ``price`` gives it (before
    tax is taken out when ``included``)."""

    action: str
    description: str
    account: str
    quantity: Decimal
    price: Decimal
    amount: Decimal
    source: Source
    taxable: bool = False
    table: str = ""
    included: bool = False
    tax: bool = False  # a plain tax line (QuickBooks' tax kept as it is)


@dataclass(frozen=True, slots=True)
class DocTax:
    """A document's entries, and its QuickBooks figures: ``subtotal`` (every line but the tax
    lines), ``tax`` (the tax lines), by tax account too. ``table``: the tax table its taxable
    entries use; ``kept``: why QuickBooks' tax stays plain lines ("" when it does not or there
    is no tax)."""

    transaction: int
    id: str
    owner: str
    kind: str
    entries: tuple[Entry, ...]
    subtotal: Decimal
    tax: Decimal
    tax_by_account: tuple[tuple[str, Decimal], ...] = ()
    table: str = ""
    kept: str = ""
    gnucash_tax: Decimal | None = None  # GnuCash's own figure where it differs (kept)
    why: str = ""  # ``kept`` without this document's figures (what invoices are grouped by)
    plain: tuple[Entry, ...] = ()  # the entries with QuickBooks' tax as plain lines

    @property
    def with_plain_tax(self) -> tuple[Entry, ...]:
        return self.plain or self.entries

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.tax

    @property
    def taxed_lines(self) -> int:
        return sum(1 for e in self.entries if e.taxable)


@dataclass(frozen=True)
class SalesTax:
    """What the book gets of items and sales tax (``plan`` makes it)."""

    mode: SalesTaxMode
    tables: tuple[TaxTable, ...] = ()  # every table the book gets
    docs: Mapping[int, DocTax] = field(default_factory=dict)  # document transaction → entries
    customers: Mapping[str, str] = field(default_factory=dict)  # customer → default table
    agencies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # vendor → its items
    tax_accounts: frozenset[str] = frozenset()
    problems: tuple[Problem, ...] = ()
    not_made: tuple[tuple[str, str], ...] = ()  # (sales tax item or group, why no table)

    @property
    def kept(self) -> tuple[DocTax, ...]:
        """Documents whose tax GnuCash's tables would not give to the cent: kept as plain
        lines, in document order."""
        return tuple(d for d in self.docs.values() if d.kept)

    def uses(self) -> Counter[str]:
        """Table name → the taxable entries that use it."""
        out: Counter[str] = Counter()
        for d in self.docs.values():
            for e in d.entries:
                if e.table:
                    out[e.table] += 1
        return out

    @property
    def taxed_lines(self) -> int:
        return sum(d.taxed_lines for d in self.docs.values())


# ---------------------------------------------------------------- GnuCash's arithmetic


def round_unit(value: Decimal | Fraction, unit: Decimal) -> Decimal:
    """Half up to the currency's unit, as GnuCash rounds entry values and taxes
    (GNC_HOW_RND_ROUND_HALF_UP)."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return value.quantize(unit, rounding=ROUND_HALF_UP)


def gnucash_figures(
    entries: Iterable[Entry], tables: Mapping[str, TaxTable], unit: Decimal = Decimal("0.01")
) -> tuple[Decimal, dict[str, Decimal]]:
    """(subtotal, tax per account) as GnuCash computes a customer document from its entries:
    each entry's value rounded on its own, taxes summed unrounded per tax account and rounded
    once per account (measured on 4.13: 20 lines of 0.105 at 8.25 % give 0.17; two members of
    one group on one account are one rounding, on two accounts two)."""
    subtotal = ZERO
    exact: dict[str, Decimal] = defaultdict(Decimal)  # (Decimal products are exact)
    divided: dict[str, Fraction] = defaultdict(Fraction)  # tax taken out of included prices
    for e in entries:
        aggregate = e.quantity * e.price
        table = tables.get(e.table) if e.taxable else None
        if table is None:
            subtotal += round_unit(aggregate, unit)
        elif not e.included:
            subtotal += round_unit(aggregate, unit)
            for t in table.entries:
                exact[t.account] += aggregate * t.rate / HUNDRED
        else:
            percent = sum((Fraction(t.rate) for t in table.entries), Fraction(0)) / 100
            pretax = Fraction(aggregate) / (1 + percent)
            subtotal += round_unit(pretax, unit)
            for t in table.entries:
                divided[t.account] += pretax * Fraction(t.rate) / 100
    unrounded: dict[str, Fraction] = defaultdict(Fraction)
    for account, amount in exact.items():
        unrounded[account] += Fraction(amount)
    for account, part in divided.items():
        unrounded[account] += part
    return subtotal, {a: round_unit(v, unit) for a, v in unrounded.items()}


def tables_of(
    ledger: Ledger, final: Callable[[str], str] = str
) -> tuple[dict[str, TaxTable], dict[str, str]]:
    """The tax tables of the sales tax items and groups, by name, and why each other one is
    none (no rate, an account not in the chart, a member that is no sales tax item)."""
    accounts = {a.full_name for a in ledger.accounts}
    items = {i.name: i for i in ledger.items}
    out: dict[str, TaxTable] = {}
    not_made: dict[str, str] = {}
    for item in ledger.items:
        if item.kind != "COMPTAX":
            continue
        account = final(item.sales_account) if item.sales_account else ""
        if item.rate is None:
            not_made[item.name] = "it has no rate in the lists"
        elif account not in accounts:
            not_made[item.name] = f"its account {quoted(item.sales_account)} is not in the chart"
        else:
            entry = TableEntry(item.name, item.rate, account, item.tax_agency)
            out[item.name] = TaxTable(item.name, (entry,), item.source, item.description)
    for item in (i for i in ledger.items if i.kind == "STAX"):
        why = next(filter(None, (_member_why(items, not_made, m) for m in item.members)), "")
        if why or not item.members:
            not_made[item.name] = why or "it lists no members"
        else:
            entries = tuple(out[m].entries[0] for m in item.members)
            out[item.name] = TaxTable(item.name, entries, item.source, item.description)
    return out, not_made


def _member_why(items: dict[str, Item], not_made: dict[str, str], name: str) -> str:
    member = items.get(name)
    if member is None or member.kind != "COMPTAX":
        return f"its member {quoted(name)} is not a sales tax item of the lists"
    return f"its member {quoted(name)}: {not_made[name]}" if name in not_made else ""


def says_items(ledger: Ledger, documents: Documents | None) -> bool:
    """The files say something of items or sales tax: an item list, tax codes, a liability
    report, or a document line with an item, quantity, rate or tax code."""
    if ledger.items or ledger.tax_codes or ledger.tax_liability:
        return True
    return documents is not None and any(
        s.item is not None
        for d in documents.documents
        for s in ledger.transactions[d.transaction].splits
    )


def tax_accounts(ledger: Ledger, final: Callable[[str], str] = str) -> frozenset[str]:
    """The sales tax liability accounts: those of the sales tax items, and QuickBooks' own
    (EXTRA SALESTAX)."""
    out = {final(i.sales_account) for i in ledger.items if i.kind == "COMPTAX" and i.sales_account}
    out |= {a.full_name for a in ledger.accounts if a.role is Role.SALES_TAX}
    return frozenset(out)


# ---------------------------------------------------------------- per agency, QuickBooks' side


def agency_of_split(
    split: Split, description: str, items: Mapping[str, Item], agencies: frozenset[str]
) -> str:
    """The agency a line of a sales tax account is owed to: its sales tax item's, else its
    transaction's name when that is an agency (a payment to it); "" when neither says."""
    line = split.item
    if line is not None and line.item:
        item = items.get(line.item)
        if item is not None and item.kind == "COMPTAX" and item.tax_agency:
            return item.tax_agency
        if item is not None and item.kind == "STAX":
            members = {items[m].tax_agency for m in item.members if m in items}
            if len(members) == 1:
                return members.pop()
    return description if description in agencies else ""


def liability_by_agency(ledger: Ledger, accounts: frozenset[str]) -> dict[str, Decimal]:
    """QuickBooks' sales tax owed per agency as the history holds it: every line of the sales
    tax accounts (credit: owed), attributed by ``agency_of_split``; "" for the rest."""
    items = {i.name: i for i in ledger.items}
    agencies = frozenset(i.tax_agency for i in ledger.items if i.tax_agency)
    out: dict[str, Decimal] = defaultdict(Decimal)
    for t in ledger.transactions:
        if t.voided:
            continue
        for s in t.splits:
            if s.account in accounts:
                out[agency_of_split(s, t.description, items, agencies)] -= s.value
    return dict(out)


__all__ = [
    "SALES_TAX_MODES",
    "DocTax",
    "Entry",
    "SalesTax",
    "SalesTaxMode",
    "TableEntry",
    "TaxTable",
    "agency_of_split",
    "gnucash_figures",
    "liability_by_agency",
    "round_unit",
    "says_items",
    "tables_of",
    "tax_accounts",
]
