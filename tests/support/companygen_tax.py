"""Items and sales tax for ``tests.support.companygen`` (``make_company(..., items=True)``), with
the truth of every invoice's lines and tax and of every agency's liability.

The company sells from an item list (services, non-inventory and inventory parts at prices
with cents and fractions of a cent, an other charge), charges sales tax through two sales tax
items of two agencies (State Board of Equalization 6 %, County Tax Collector 1.25 %, both posting
to Sales Tax Payable) and the sales tax group of both, one customer is charged a VAT/GST-style
code (GST 10 % to GST Payable, Tax Office) on tax-included prices, two are not taxable.
QuickBooks' arithmetic: each line's amount is its quantity × rate rounded to the cent; each tax
item's tax is its rate × the taxable subtotal, rounded on its own (a group: one line per
member); a GST line's tax is the line's own, gross × 10/110 rounded, and its amount the gross
less it. Some checks become sales tax payments to an agency of what it is owed at that time.

It rewrites only the Invoice transactions of a company made with the ordinary generator (same
dates, numbers, names) and some checks, from its own random source, before the documents are
made (``companygen_docs`` then turns some invoices into credit memos: their lines and tax
negated), so ``items=False`` companies are exactly what they were.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.companygen import Company, Txn

ZERO = Decimal(0)
CENT = Decimal("0.01")
SALES_TAX = "Sales Tax Payable"
GST_ACCOUNT = "GST Payable"
STATE_AGENCY = "State Board of Equalization"
COUNTY_AGENCY = "County Tax Collector"
GST_AGENCY = "Tax Office"
AGENCIES = (STATE_AGENCY, COUNTY_AGENCY, GST_AGENCY)
EXTRA_ACCOUNTS = ((GST_ACCOUNT, "OCLIAB", "2310", ""),)


@dataclass(frozen=True)
class Item:
    name: str
    kind: str  # INVITEMTYPE
    description: str = ""
    account: str = ""
    price: str = ""  # as the IIF writes it: "55.00", "6.0%"
    cost: str = ""
    code: str = ""  # SALESTAXCODE
    agency: str = ""  # TAXVEND
    asset: str = ""
    cogs: str = ""
    quantity: str = ""  # on hand
    value: str = ""
    members: tuple[str, ...] = ()


ITEMS = (
    Item("Design", "SERV", "Landscape design", "Design Income", "55.00", code="Non"),
    Item("Labor", "SERV", "Landscaping labor", "Landscaping Services:Labor", "35.00", code="Non"),
    Item("Materials", "PART", "Job materials", "Landscaping Services:Job Materials", "12.50",
         code="Tax"),
    Item("Fertilizer", "PART", "Lawn fertilizer", "Retail Sales", "1.89", code="Tax"),
    Item("Seed:Grass", "PART", "Grass seed, per lb", "Retail Sales", "0.735", code="Tax"),
    Item("Pump", "INVENTORY", "Fountain pump", "Retail Sales", "75.00", "56.00", "Tax",
         asset="Inventory Asset", cogs="Cost of Goods Sold", quantity="48", value="2,688.00"),
    Item("Delivery", "OTHC", "Delivery fee", "Other Income", "15.00", code="Non"),
    Item("State", "COMPTAX", "State sales tax", SALES_TAX, "6.0%", agency=STATE_AGENCY),
    Item("County", "COMPTAX", "County sales tax", SALES_TAX, "1.25%", agency=COUNTY_AGENCY),
    Item("GST", "COMPTAX", "Goods and services tax", GST_ACCOUNT, "10.0%", agency=GST_AGENCY),
)  # fmt: skip
GROUPS = (
    Item("Fountain Kit", "GRP", "Pump with installation", members=("Pump", "Labor")),
    Item("Bayshore", "STAX", "Bayshore sales tax", members=("State", "County")),
)
RATES = {"State": Decimal("6.0"), "County": Decimal("1.25"), "GST": Decimal("10.0")}
ITEM_AGENCY = {"State": STATE_AGENCY, "County": COUNTY_AGENCY, "GST": GST_AGENCY}
TAX_CODES = (("Tax", "Taxable Sales", "Y", ""), ("Non", "Non-Taxable Sales", "N", ""),
             ("GST", "Goods and services tax", "Y", "GST"))  # fmt: skip
SOLD = ("Design", "Labor", "Materials", "Fertilizer", "Seed:Grass", "Pump", "Delivery")
# customer (top level; jobs follow it) → (TAXABLE, SALESTAXCODE, TAXITEM)
PROFILES = {
    "Adam's Candy Shop": ("Y", "Tax", "Bayshore"),
    "Andres, Cristina": ("Y", "Tax", "State"),
    "Balak, Mike": ("Y", "Tax", "Bayshore"),
    "Cook, Brian": ("Y", "Tax", "State"),
    "Café Olé": ("Y", "GST", "GST"),
    "Heldt, Bob": ("N", "Non", ""),
    "Lew Plumbing": ("Y", "Tax", "Bayshore"),
    "Pretell Real Estate": ("N", "Non", ""),
    "Teschner, Anton": ("Y", "Tax", "State"),
    "Zephyr Garden Supply": ("N", "Non", ""),  # companygen_later's customer new since the cut
}


@dataclass(frozen=True)
class Line:
    """What a split says of its item (the item columns of the exports)."""

    item: str = ""
    quantity: Decimal | None = None  # positive, as the CSV shows it (IIF writes it negative)
    price: Decimal | None = None
    taxable: bool | None = None
    code: str = ""
    tax_amount: Decimal | None = None  # signed as the line's amount (GST lines)
    auto_tax: bool = False


@dataclass
class InvoiceTruth:
    """QuickBooks' figures of one invoice (positive, its own sense; a credit memo's too)."""

    lines: list[tuple[str, Decimal, Decimal, Decimal]]  # (item, quantity, rate, amount)
    subtotal: Decimal
    tax: Decimal
    by_item: dict[str, Decimal]  # sales tax item → its tax
    table: str  # the customer's tax item ("" none)
    included: bool = False
    # what GnuCash's own arithmetic would give for the tax (the table's, per account) and the
    # subtotal (tax-included prices: each line's pre-tax value rounded on its own)
    gnucash_tax: Decimal | None = None
    gnucash_subtotal: Decimal | None = None

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.tax

    @property
    def kept(self) -> bool:
        """GnuCash's tables would not give QuickBooks' figures: tax kept as plain lines."""
        if self.gnucash_tax is None:
            return False
        sub = self.gnucash_subtotal
        return self.gnucash_tax != self.tax or (sub is not None and sub != self.subtotal)


@dataclass
class TaxTruth:
    invoices: dict[int, InvoiceTruth] = field(default_factory=dict)  # trans_no → truth
    paid: dict[str, Decimal] = field(default_factory=lambda: defaultdict(Decimal))

    def liability(self, company: Company, upto=None) -> dict[str, Decimal]:
        """Agency → tax owed (collected less paid), over the history, or up to a day."""
        out: dict[str, Decimal] = defaultdict(Decimal)
        for t in company.transactions:
            if upto is not None and t.date > upto:
                continue
            for i, (account, amount, _m, _c) in enumerate(t.splits):
                if account not in (SALES_TAX, GST_ACCOUNT):
                    continue
                line = t.items[i] if t.items else None
                if line is not None and line.item in ITEM_AGENCY:
                    out[ITEM_AGENCY[line.item]] -= amount
                elif t.name in AGENCIES:
                    out[t.name] -= amount
                else:
                    out[""] -= amount
        return dict(out)


def _round(v: Decimal) -> Decimal:
    return v.quantize(CENT, rounding=ROUND_HALF_UP)


def profile(customer: str) -> tuple[str, str, str]:
    return PROFILES[customer.split(":", 1)[0]]


def _gnucash_tax(table: str, taxable: Decimal, gross: list[Decimal]) -> Decimal:
    """GnuCash's tax of a table on the document: of the taxable lines' quantity × rate before
    rounding, every member on Sales Tax Payable one rounding of the summed rate; tax included:
    of the summed unrounded pre-tax values (docs/SALES-TAX.md)."""
    if table == "GST":
        from fractions import Fraction

        pre = sum((Fraction(g) * 10 / 11 for g in gross), Fraction(0))
        v = pre / 10
        return _round(Decimal(v.numerator) / Decimal(v.denominator))
    rate = sum((RATES[m] for m in _members(table)), ZERO)
    return _round(taxable * rate / 100)


def _members(table: str) -> tuple[str, ...]:
    return ("State", "County") if table == "Bayshore" else (table,)


def add_items(
    txns: list[Txn], seed: int, checks_to_agency: bool = True, lines: int = 0
) -> TaxTruth:
    """Rewrite every Invoice of ``txns`` in place with item lines (``lines`` each, 0: one to
    three) and sales tax; turn some later checks into sales tax payments. The truth of each
    invoice and payment."""
    rng = random.Random(seed * 104729 + 7)
    truth = TaxTruth()
    owed: dict[str, Decimal] = defaultdict(Decimal)
    prices = {i.name: Decimal(i.price) for i in ITEMS if i.kind not in ("COMPTAX",)}
    taxable_items = {i.name for i in ITEMS if i.code == "Tax"}
    for t in txns:
        if t.type == "Invoice":
            _invoice(t, rng, prices, taxable_items, truth, owed, lines)
        elif checks_to_agency and t.type == "Check" and rng.random() < 0.25:
            _payment(t, rng, truth, owed)
    return truth


def _invoice(t, rng, prices, taxable_items, truth, owed, count=0) -> None:  # noqa: PLR0917
    taxable_flag, _code, table = profile(t.name)
    gst = table == "GST"
    n = count or rng.randint(1, 3)
    lines, splits, items = [], [], []
    taxable_sub = ZERO
    taxable_raw = ZERO  # Σ quantity × rate of the taxable lines, unrounded (what GnuCash taxes)
    gross: list[Decimal] = []
    line_tax_total = ZERO
    for name in rng.sample(SOLD, n):
        if name in ("Design", "Labor"):
            q = Decimal(rng.choice((1, 2, 3, 4, 6, 8, 12, 16, 24, 40))) / (
                2 if rng.random() < 0.2 else 1
            )
        elif name == "Fertilizer":
            q = Decimal(rng.randint(1, 200))
        elif name == "Seed:Grass":
            q = Decimal(rng.randint(1, 90))
        elif name == "Pump":
            q = Decimal(rng.randint(1, 3))
        elif name == "Delivery":
            q = Decimal(1)
        else:
            q = Decimal(rng.randint(1, 60))
        price = prices[name]
        if rng.random() < 0.15 and name not in ("Seed:Grass",):
            price = price + Decimal(rng.randint(-50, 200)) / 100
        amount = _round(q * price)
        item_taxable = name in taxable_items
        line_taxable = item_taxable and taxable_flag == "Y"
        account = next(i.account for i in ITEMS if i.name == name)
        memo = (
            f"{next(i.description for i in ITEMS if i.name == name)}" if rng.random() < 0.5 else ""
        )
        if gst:
            # tax-included prices: the line's gross is quantity × rate, its tax gross/11
            line_tax = _round(amount / 11) if line_taxable else ZERO
            net = amount - line_tax
            gross.append(q * price if line_taxable else ZERO)  # unrounded, as GnuCash sees it
            lines.append((name, q, price, net))
            splits.append((account, -net, memo, ""))
            items.append(Line(name, q, price, line_taxable, "GST" if line_taxable else "Non",
                              -line_tax if line_taxable else None))  # fmt: skip
            line_tax_total += line_tax
            taxable_sub += net if line_taxable else ZERO
        else:
            lines.append((name, q, price, amount))
            splits.append((account, -amount, memo, ""))
            items.append(Line(name, q, price, line_taxable, "Tax" if line_taxable else "Non"))
            taxable_sub += amount if line_taxable else ZERO
            taxable_raw += q * price if line_taxable else ZERO
    subtotal = sum((a for *_x, a in lines), ZERO)
    by_item: dict[str, Decimal] = {}
    if gst:
        if any(gross):
            by_item["GST"] = line_tax_total
            splits.append((GST_ACCOUNT, -line_tax_total, "GST", ""))
            items.append(Line("GST", auto_tax=True))
    elif table and taxable_flag == "Y":
        for m in _members(table):
            tax = _round(taxable_sub * RATES[m] / 100)
            by_item[m] = tax
            splits.append((SALES_TAX, -tax, "", ""))
            items.append(Line(m, auto_tax=True))
    tax = sum(by_item.values(), ZERO)
    for m, v in by_item.items():
        owed[ITEM_AGENCY[m]] += v
    t.splits = [("Accounts Receivable", subtotal + tax, "", ""), *splits]
    t.items = (None, *items)
    gnucash = gnucash_sub = None
    if by_item:
        gnucash = _gnucash_tax(table, taxable_raw, [g for g in gross if g])
    if by_item and gst:  # tax-included: each taxable line's value is its gross × 10/11, rounded
        nets = [_round(g * 10 / 11) for g in gross if g]
        untaxed = sum((a for (*_x, a), g in zip(lines, gross, strict=True) if not g), ZERO)
        gnucash_sub = sum(nets, ZERO) + untaxed
    truth.invoices[t.trans_no] = InvoiceTruth(
        [(n_, q_, p_, a_) for n_, q_, p_, a_ in lines], subtotal, tax, by_item,
        table if by_item else "", gst, gnucash, gnucash_sub,
    )  # fmt: skip


def _payment(t, rng, truth: TaxTruth, owed: dict[str, Decimal]) -> None:
    agency = rng.choice([a for a in AGENCIES if owed[a] > 0] or [""])
    if not agency:
        return
    amount = owed[agency] if rng.random() < 0.7 else _round(owed[agency] * Decimal("0.6"))
    if not amount:
        return
    owed[agency] -= amount
    truth.paid[agency] += amount
    account = GST_ACCOUNT if agency == GST_AGENCY else SALES_TAX
    t.type = "Sales Tax Payment"
    t.name = agency
    t.memo = "Sales tax"
    clr = t.splits[0][3]
    t.splits = [("Checking", -amount, "Sales tax", clr), (account, amount, "Sales tax", "")]
    t.items = ()


def negate_items(t: Txn) -> None:
    """A credit memo made of an invoice (companygen_docs): the tax amounts follow the lines."""
    if not t.items:
        return
    t.items = tuple(
        None
        if x is None
        else Line(
            x.item,
            x.quantity,
            x.price,
            x.taxable,
            x.code,
            -x.tax_amount if x.tax_amount is not None else None,
            x.auto_tax,
        )
        for x in t.items
    )


# ---------------------------------------------------------------- the lists and the report


def lists_sections(company: Company, rows: list[list[str]], rec) -> None:
    """INVITEM (both headers), SALESTAXCODE rows of a "Lists to IIF" export."""
    main = ("NAME REFNUM TIMESTAMP INVITEMTYPE DESC PURCHASEDESC ACCNT ASSETACCNT COGSACCNT QNTY "
            "VALUE PRICE COST TAXABLE SALESTAXCODE PAYMETH TAXVEND PREFVEND REORDERPOINT EXTRA "
            "HIDDEN DELCOUNT USEID").split()  # fmt: skip
    rows.append(["!INVITEM", *main])
    for i in ITEMS:
        vendor = "Middlefield Drywall" if i.kind == "INVENTORY" else ""
        r = rec(i.name, INVITEMTYPE=i.kind, DESC=i.description, PURCHASEDESC=i.description,
                ACCNT=i.account, ASSETACCNT=i.asset, COGSACCNT=i.cogs, QNTY=i.quantity,
                VALUE=i.value, PRICE=i.price, COST=i.cost or "0",
                TAXABLE="Y" if i.code == "Tax" else "N", SALESTAXCODE=i.code, TAXVEND=i.agency,
                PREFVEND=vendor, USEID="N")  # fmt: skip
        rows.append(["INVITEM", *(r.get(n, "") for n in main)])
    group = (
        "NAME REFNUM TIMESTAMP INVITEMTYPE DESC TOPRINT EXTRA QNTY HIDDEN DELCOUNT USEID".split()
    )
    rows.append(["!INVITEM", *group])
    rows.append(["!ENDGRP"])
    for g in GROUPS:
        r = rec(g.name, INVITEMTYPE=g.kind, DESC=g.description, TOPRINT="Y", USEID="N")
        rows.append(["INVITEM", *(r.get(n, "") for n in group)])
        for m in g.members:
            kind = next(i.kind for i in ITEMS if i.name == m)
            r = rec(m, INVITEMTYPE=kind, TOPRINT="Y", QNTY="1" if g.kind == "GRP" else "")
            rows.append(["INVITEM", *(r.get(n, "") for n in group)])
        rows.append(["ENDTAX" if g.kind == "STAX" else "ENDGRP"])
    codes = "CODE REFNUM TIMESTAMP HIDDEN DESC TAXABLE TAXITEM".split()
    rows.append(["!SALESTAXCODE", *codes])
    for code, desc, taxable, item in TAX_CODES:
        r = rec(code, CODE=code, DESC=desc, TAXABLE=taxable, TAXITEM=item)
        rows.append(["SALESTAXCODE", *(r.get(n, "") for n in codes)])


def customer_fields(name: str) -> dict[str, str]:
    taxable, code, item = profile(name)
    if ":" in name:  # QuickBooks exports a job's own flags: not taxable, no code
        return {"TAXABLE": "N", "SALESTAXCODE": "", "TAXITEM": item}
    return {"TAXABLE": taxable, "SALESTAXCODE": code, "TAXITEM": item}


def write_liability_report(company: Company, path: Path) -> Path:
    """QuickBooks' Sales Tax Liability report as of the export date (CSV): grouped by agency,
    one row per sales tax item, Total rows, a TOTAL row."""
    from tests.support.companygen_write import _write_csv, money

    asof = company.export_date
    liability = company.tax.liability(company, asof)
    per_item: dict[str, Decimal] = defaultdict(Decimal)
    collected: dict[str, Decimal] = defaultdict(Decimal)
    for t in company.transactions:
        if t.date > asof:
            continue
        for i, (account, amount, _m, _c) in enumerate(t.splits):
            line = t.items[i] if t.items else None
            if account in (SALES_TAX, GST_ACCOUNT) and line is not None and line.item in RATES:
                per_item[line.item] -= amount
                collected[line.item] -= amount
    # payments reduce the agency's first item's row (QuickBooks shows them per agency)
    when = f"As of {asof:%B} {asof.day}, {asof.year}"
    head = ["", "", "Total Sales", "Non-Taxable Sales", "Taxable Sales", "Tax Rate",
            "Tax Collected", f"Sales Tax Payable {when}"]  # fmt: skip
    pad = [""] * (len(head) - 1)
    rows = [[company.name, *pad], ["Sales Tax Liability", *pad], [when, *pad], [""] * len(head)]
    rows.append(head)
    total = ZERO
    for agency in AGENCIES:
        items = [m for m, a in ITEM_AGENCY.items() if a == agency]
        rows.append([agency, *pad])
        owed_items = {m: per_item[m] for m in items}
        paid = sum(owed_items.values(), ZERO) - liability.get(agency, ZERO)
        for m in items:
            payable = owed_items[m] - (paid if m == items[0] else ZERO)
            rows.append(["", m, "", "", "", f"{RATES[m]}%", money(collected[m]), money(payable)])
        rows.append([f"Total {agency}", "", "", "", "", "", "",
                     money(liability.get(agency, ZERO))])  # fmt: skip
        total += liability.get(agency, ZERO)
    rows.append(["TOTAL", "", "", "", "", "", "", money(total)])
    return _write_csv(path, rows, "utf-8")
