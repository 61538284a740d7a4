"""Items and sales tax on the documents, decided (``plan``): each document's entries, the tax
tables the book gets, and per invoice whether GnuCash's own tax arithmetic
(``taxes.gnucash_figures``) gives QuickBooks' figure to the cent; else QuickBooks' tax is kept
as plain lines on that invoice, and said. Nothing changes a posting: a document still adopts
its QuickBooks transaction (``app.gnc.documents``). Pure. The rules (docs/SALES-TAX.md says why):
- Tables: a sales tax item with a rate is a table of one entry (rate → its liability account,
  its agency recorded), a sales tax group one with an entry per member. An item without a rate,
  or a group with a member that has none or is unknown, makes no table (said).
- A line is a tax line when it is the IIF AUTOSTAX line, names a sales tax item or group, or
  names no item and posts to a sales tax account. The others are entries: action = the item,
  description = the memo (else the item's description), QuickBooks' quantity and rate where
  they give the amount (else 1 × amount). An item the lists lack is the description (warned).
- An invoice or credit note uses the table its tax lines name (one item or group, or all the
  members of one group); taxable are the lines that say so (IIF TAXABLE, a tax code), else by
  their item's code; a rate that is the amount plus the line's own tax is tax included (VAT/GST
  editions). The table is used when every flag is known and GnuCash's figure is QuickBooks' for
  every tax account; else the tax stays plain lines ("kept", with why). Bills: plain lines.
- Mode "lines": every document keeps its tax as plain lines; no table is used.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import Decimal

from app.documents import Document, Documents, end_owner
from app.documents.taxes import (
    KEPT_NAMED,
    ONE,
    ZERO,
    DocTax,
    Entry,
    SalesTax,
    SalesTaxMode,
    TaxTable,
    gnucash_figures,
    round_unit,
    says_items,
    tables_of,
    tax_accounts,
)
from app.items import Item, ItemLine, TaxCode
from app.model import Ledger, Problem, Split, money
from app.source import Source
from app.words import quoted, sales_documents

_MAX_PRICE_PLACES = 6


def plan(
    ledger: Ledger,
    documents: Documents | None,
    mode: SalesTaxMode = "tables",
    *,
    final: Callable[[str], str] | None = None,
    unit: Decimal = Decimal("0.01"),
) -> SalesTax | None:
    """The entries of every document in ``documents`` and the tables the book gets, for the
    final ``ledger`` (``final``: a chart account's final name, the plan's renames); None when
    the files say nothing of items or tax (no item list, no item column)."""
    if not says_items(ledger, documents):
        return None  # nothing of items or tax in the files: the documents as they were
    return _Planner(ledger, mode, final or (lambda n: n), unit).run(documents)


class _Planner:
    def __init__(
        self, ledger: Ledger, mode: SalesTaxMode, final: Callable[[str], str], unit: Decimal
    ) -> None:
        self.ledger, self.mode, self.final, self.unit = ledger, mode, final, unit
        self.items = {i.name: i for i in ledger.items}
        leaves: dict[str, list[Item]] = defaultdict(list)
        for i in ledger.items:
            leaves[i.name.rsplit(":", 1)[-1]].append(i)
        self.leaves = {k: v[0] for k, v in leaves.items() if len(v) == 1}
        self.codes: dict[str, TaxCode] = {c.code: c for c in ledger.tax_codes}
        self.accounts = {a.full_name: a for a in ledger.accounts}
        self.tax_accounts = tax_accounts(ledger, final)
        self.problems: list[Problem] = []
        self.warned: set[str] = set()
        self.tables, self.not_made = tables_of(ledger, final)

    # --- the run ---

    def run(self, documents: Documents | None) -> SalesTax:
        docs: dict[int, DocTax] = {}
        if documents is not None:
            for d in documents.documents:
                if not d.voided:
                    docs[d.transaction] = self._doc(d)
        self._said_kept(docs.values())
        customers = self._customers() if self.mode == "tables" else {}
        agencies: dict[str, list[str]] = defaultdict(list)
        for i in self.ledger.items:  # each sales tax item (a table or not), and each group
            members = [self.items[m] for m in i.members if m in self.items] if i.group else [i]
            owed = {m.tax_agency for m in members if m.kind == "COMPTAX"}
            if i.sales_tax and len(owed) == 1 and "" not in owed:
                agencies[owed.pop()].append(i.name)
        return SalesTax(
            mode=self.mode,
            tables=tuple(self.tables.values()) if self.mode == "tables" else (),
            docs=docs,
            customers=customers,
            agencies={k: tuple(v) for k, v in agencies.items()},
            tax_accounts=self.tax_accounts,
            problems=tuple(self.problems),
            not_made=tuple(self.not_made.items()),
        )

    def _customers(self) -> dict[str, str]:
        out = {}
        for c in self.ledger.customers:
            code = self.codes.get(c.tax_code)
            taxable = c.taxable if c.taxable is not None else (code.taxable if code else None)
            if taxable and c.tax_item in self.tables:
                out[c.name] = c.tax_item
        return out

    def item(self, name: str) -> Item | None:
        return self.items.get(name) or self.leaves.get(name.rsplit(":", 1)[-1])

    def _warn_once(self, key: str, source: Source, message: str) -> None:
        if key not in self.warned:
            self.warned.add(key)
            self.problems.append(Problem(source, message, "warning"))

    # --- one document ---

    def _doc(self, d: Document) -> DocTax:
        txn = self.ledger.transactions[d.transaction]
        splits = [s for s in txn.splits if s.account != d.account]
        if len(splits) != len(d.lines):  # (derive's lines are these splits, in order)
            splits = [Split(ln.account, ln.amount, ln.source, ln.description) for ln in d.lines]
        customer = d.owner_kind == "customer"
        taxes: list[tuple[Split, Decimal]] = []
        plain: list[tuple[Split, Decimal]] = []
        for split, ln in zip(splits, d.lines, strict=True):
            (taxes if self._is_tax(split) else plain).append((split, ln.amount))
        entries = [self._entry(s, amount) for s, amount in plain]
        by_account: dict[str, Decimal] = defaultdict(Decimal)
        for s, amount in taxes:
            by_account[s.account] += amount
        subtotal = sum((e.amount for e in entries), ZERO)
        tax = sum((a for _s, a in taxes), ZERO)
        doc = DocTax(
            d.transaction,
            d.id,
            d.owner,
            d.kind,
            (),
            subtotal,
            tax,
            tuple(sorted(by_account.items())),
        )
        tax_entries = [self._tax_entry(s, amount) for s, amount in taxes]
        if not customer or not taxes or self.mode == "lines" or not self.tables:
            return _with(doc, [*entries, *tax_entries])
        table, why = self._table_of(d, taxes, entries, splits)
        if table is None:
            return _with(doc, [*entries, *tax_entries], kept=why, why=why)
        flagged, why = self._taxable(plain, entries, table)
        if flagged is None:
            return _with(doc, [*entries, *tax_entries], kept=why, why=why)
        got_subtotal, got_tax = gnucash_figures(flagged, self.tables, self.unit)
        gnucash_tax = sum(got_tax.values(), ZERO)
        if got_subtotal != subtotal:
            return _with(
                doc,
                [*entries, *tax_entries],
                kept=f"GnuCash would take the tax out of the tax-included prices as "
                f"{money(got_subtotal)} before tax and {money(gnucash_tax)} tax, QuickBooks "
                f"{money(subtotal)} and {money(tax)}",
                gnucash_tax=gnucash_tax,
                why=f"GnuCash would take the {table.name} tax out of their tax-included prices "
                "otherwise than QuickBooks, which rounds each line's tax",
            )
        wanted = {a: v for a, v in by_account.items() if v}
        if {a: v for a, v in got_tax.items() if v} != wanted:
            kept, why = _differs(table, tax, gnucash_tax)
            return _with(doc, [*entries, *tax_entries], kept=kept, gnucash_tax=gnucash_tax, why=why)
        return _with(doc, flagged, table=table.name, plain=(*entries, *tax_entries))

    def _is_tax(self, s: Split) -> bool:
        line = s.item
        if line is not None:
            if line.auto_tax:
                return True
            if line.item:
                known = self.item(line.item)
                return bool(known and known.sales_tax)
        return s.account in self.tax_accounts

    def _entry(self, s: Split, amount: Decimal) -> Entry:
        line = s.item or ItemLine()
        item = self.item(line.item) if line.item else None
        action, description = "", s.memo
        if item is not None:
            action = item.name
            description = s.memo or item.description or item.name
        elif line.item:
            self._warn_once(
                f"item {line.item}",
                s.source,
                f"item {quoted(line.item)} is not in the item list: its lines keep the name as "
                "their description (GnuCash has no item list; export the lists with the items to "
                "have it as the entry's action)",
            )
            description = f"{line.item}: {s.memo}" if s.memo else line.item
        quantity, price = self._quantity_price(line, amount)
        if line.quantity and line.price is not None and quantity == ONE != abs(line.quantity):
            # QuickBooks' quantity × rate is not the line's amount (a tax-included price): the
            # entry is 1 × the amount, and says QuickBooks' figures
            shown = f"QuickBooks: {abs(line.quantity):f} × {line.price:f}"
            description = f"{description} ({shown})" if description else shown
        return Entry(action, description, s.account, quantity, price, amount, s.source)

    def _tax_entry(self, s: Split, amount: Decimal) -> Entry:
        line = s.item or ItemLine()
        item = self.item(line.item) if line.item else None
        name = item.name if item else line.item
        description = s.memo or (item.description if item else "") or name or "Sales tax"
        return Entry(name, description, s.account, ONE, amount, amount, s.source, tax=True)

    def _quantity_price(self, line: ItemLine, amount: Decimal) -> tuple[Decimal, Decimal]:
        """QuickBooks' quantity and rate where they give the line's amount (GnuCash rounds an
        entry's value half up to the unit), else 1 × the amount."""
        q = abs(line.quantity) if line.quantity else None
        if q is None or line.percent is not None or not amount:
            return ONE, amount
        sign = -1 if amount < 0 else 1
        if line.price is not None:
            price = abs(line.price) * sign
        else:
            price = (amount / q).normalize()
            if -price.as_tuple().exponent > _MAX_PRICE_PLACES:  # type: ignore[operator]
                return ONE, amount
        if round_unit(q * price, self.unit) == amount:
            return q, price
        return ONE, amount

    def _table_of(
        self,
        d: Document,
        taxes: list[tuple[Split, Decimal]],
        entries: list[Entry],
        splits: list[Split],
    ) -> tuple[TaxTable | None, str]:
        named = [s.item.item for s, _ in taxes if s.item is not None and s.item.item]
        if len(named) == len(taxes):
            names = set(named)
        elif named:
            return None, "the file does not say which sales tax item each tax line is"
        else:  # tax lines naming no item (VAT/GST editions): the taxed lines' codes say it
            codes = {
                self.codes[s.item.tax_code].item
                for s in splits
                if s.item is not None and s.item.tax_code in self.codes
            } - {""}
            if len(codes) != 1:
                return None, "the file does not say which sales tax item its tax lines are"
            names = codes
        found = [self.item(n) for n in names]
        for n, it in zip(names, found, strict=True):
            if it is None:
                self._warn_once(
                    f"item {n}",
                    taxes[0][0].source,
                    f"sales tax item {quoted(n)} is not in the item list: the tax of the invoices "
                    "that charge it stays plain lines",
                )
                return None, f"sales tax item {quoted(n)} is not in the lists"
        known = {it.name for it in found if it is not None}
        table_name = ""
        if len(known) == 1:
            table_name = next(iter(known))
        else:
            groups = [
                g.name
                for g in self.ledger.items
                if g.kind == "STAX" and set(g.members) == known and g.name in self.tables
            ]
            customer = self._customer(d)
            if len(groups) == 1:
                table_name = groups[0]
            elif customer is not None and customer.tax_item in groups:
                table_name = customer.tax_item
            else:
                return None, f"its tax lines name {len(known)} sales tax items of no one group"
        table = self.tables.get(table_name)
        if table is None:
            why = self.not_made.get(table_name, "not made")
            self._warn_once(
                f"table {table_name}",
                taxes[0][0].source,
                f"sales tax item {quoted(table_name)} is no GnuCash tax table ({why}): the tax of "
                "the invoices that charge it stays plain lines",
            )
            return None, f"sales tax item {quoted(table_name)}: {why}"
        return table, ""

    def _customer(self, d: Document):
        name = end_owner("customer", d.owner)
        return next((c for c in self.ledger.customers if c.name == name), None)

    def _taxable(
        self, plain: list[tuple[Split, Decimal]], entries: list[Entry], table: TaxTable
    ) -> tuple[list[Entry] | None, str]:
        """The entries with their taxable flag and table (tax-included where the price is the
        amount plus the line's own tax), or None and why."""
        out = []
        for (s, amount), e in zip(plain, entries, strict=True):
            taxable = self._flag(s.item)
            if taxable is None:
                if not amount:
                    out.append(e)
                    continue
                return None, "the files do not say which of its lines are taxable"
            if not taxable:
                out.append(e)
                continue
            out.append(_taxed(e, s.item, table, self.unit))
        return out, ""

    def _flag(self, line: ItemLine | None) -> bool | None:
        if line is None:
            return None
        if line.taxable is not None:
            return line.taxable
        if line.tax_code:
            code = self.codes.get(line.tax_code)
            return code.taxable if code else None
        item = self.item(line.item) if line.item else None
        if item is None:
            return None
        if item.tax_code and item.tax_code in self.codes:
            return self.codes[item.tax_code].taxable
        return item.taxable

    def _said_kept(self, docs: Iterable[DocTax]) -> None:
        """One warning per reason invoices keep QuickBooks' tax (a table whose rate never
        gives it, a table that rounds otherwise...), naming the invoices."""
        by_why: dict[str, list[DocTax]] = defaultdict(list)
        for d in docs:
            if d.kept:
                by_why[d.why or d.kept].append(d)
        for why, kept in by_why.items():
            n = len(kept)
            ids = ", ".join(k.id for k in kept[:KEPT_NAMED]) + (", ..." if n > KEPT_NAMED else "")
            what = sales_documents(n, sum(1 for k in kept if k.kind != "invoice"))
            self.problems.append(
                Problem(
                    None,
                    f"{what} {'keeps' if n == 1 else 'keep'} QuickBooks' sales tax to the cent, "
                    f"as plain lines instead of a tax table ({ids}): {why}",
                    "warning",
                )
            )


def _taxed(e: Entry, line: ItemLine | None, table: TaxTable, unit: Decimal) -> Entry:
    """``e`` taxable with ``table``; tax included where QuickBooks' quantity × rate is the
    line's amount plus its own tax (VAT/GST editions)."""
    if line is not None and line.tax_amount and line.price and line.quantity:
        gross = round_unit(abs(line.quantity * line.price), unit)
        if gross == abs(e.amount) + abs(line.tax_amount):
            sign = -1 if e.amount < 0 else 1
            return Entry(
                e.action, e.description, e.account, abs(line.quantity), abs(line.price) * sign,
                e.amount, e.source, True, table.name, included=True,
            )  # fmt: skip
    return Entry(
        e.action, e.description, e.account, e.quantity, e.price, e.amount, e.source, True,
        table.name,
    )  # fmt: skip


def _differs(table: TaxTable, qb: Decimal, gnucash: Decimal) -> tuple[str, str]:
    """(the document's reason, the reason without its figures)."""
    figures = f"GnuCash's {table.name} table gives {money(gnucash)}, QuickBooks' tax is {money(qb)}"
    if abs(qb - gnucash) <= Decimal("0.01") * max(1, len(table.entries)):
        return figures, (
            f"GnuCash's {table.name} table rounds their tax once per tax account, QuickBooks "
            "each tax item on its own: a cent apart"
        )
    return figures, f"the rate of {table.name} ({table.rate}%) does not give QuickBooks' tax"


def _with(doc: DocTax, entries: list[Entry], **kw) -> DocTax:
    return DocTax(
        doc.transaction,
        doc.id,
        doc.owner,
        doc.kind,
        tuple(entries),
        doc.subtotal,
        doc.tax,
        doc.tax_by_account,
        **kw,
    )
