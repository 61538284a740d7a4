"""The sales tax part of the proof: per document, GnuCash's own subtotal, tax and total (and
its entries: item, quantity, rate, amount), read back through the engine, against QuickBooks'
lines; per tax agency, the tax the book says is owed against QuickBooks' (the Sales Tax
Liability report when given, else the history). The third report file (``tax_report``).

Pure: the plan (``app.documents.taxes``) and a read-back summary (``app.book.BookSalesTax``).
A document's tax in the book is its tax tables' tax plus its plain tax lines (entries on a
sales tax account), its subtotal the rest; QuickBooks' the same split of its lines.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from app import csvsafe
from app.book import BookInvoiceTax, BookSalesTax
from app.documents.taxes import DocTax, SalesTax, liability_by_agency
from app.items import TaxLiability
from app.model import Ledger, money
from app.words import plural, quoted

ZERO = Decimal(0)
NO_AGENCY = "(no agency named)"
_KINDS = {
    "invoice": "customer",
    "credit_note_customer": "credit_note_customer",
    "bill": "vendor",
    "credit_note_vendor": "credit_note_vendor",
}


@dataclass(frozen=True, slots=True)
class DocumentRow:
    kind: str  # invoice / bill / credit_note_customer / credit_note_vendor
    id: str
    owner: str
    quickbooks: tuple[Decimal, Decimal, Decimal]  # subtotal, tax, total
    gnucash: tuple[Decimal, Decimal, Decimal] | None  # None: not in the book
    table: str = ""  # the tax table used ("" none)
    kept: str = ""  # why QuickBooks' tax is kept as plain lines
    lines_differ: str = ""  # the first entry that is not QuickBooks' line, in words

    @property
    def ok(self) -> bool:
        return self.gnucash == self.quickbooks and not self.lines_differ


UNLISTED = (
    "the Sales Tax Liability report has no row of this agency (a report of another day, or a row "
    "removed from it): export it again with the other files"
)


@dataclass(frozen=True, slots=True)
class AgencyRow:
    agency: str
    quickbooks: Decimal
    gnucash: Decimal
    basis: str  # "report" or "history"
    listed: bool = True  # the report has a row of this agency (basis "report")

    @property
    def difference(self) -> Decimal:
        return self.gnucash - self.quickbooks


@dataclass(frozen=True, slots=True)
class SalesTaxProof:
    mode: str
    documents: tuple[DocumentRow, ...]
    agencies: tuple[AgencyRow, ...]
    tables: int  # tax tables in the book
    taxed_lines: int  # entries with a tax table
    refused: tuple[str, ...] = ()  # documents whose table the engine refused (kept as lines)
    as_of: dt.date | None = None  # the report's date (agencies, basis "report")

    @property
    def kept(self) -> tuple[DocumentRow, ...]:
        return tuple(r for r in self.documents if r.kept)

    @property
    def differences(self) -> tuple[DocumentRow, ...]:
        return tuple(r for r in self.documents if not r.ok)

    @property
    def agency_differences(self) -> tuple[AgencyRow, ...]:
        return tuple(r for r in self.agencies if r.difference)

    @property
    def ok(self) -> bool:
        return not self.differences and not self.agency_differences

    @property
    def named(self) -> str:
        """What differs, as the verdict names it."""
        if self.agency_differences or any(r.gnucash != r.quickbooks for r in self.differences):
            return "the sales tax differs"
        return "the lines of invoices or bills differ"

    def headline(self) -> str:
        if self.differences or self.agency_differences:
            parts = []
            if figures := [r for r in self.differences if r.gnucash != r.quickbooks]:
                parts.append(f"the figures of {plural(len(figures), 'document')} differ")
            if lines := [r for r in self.differences if r.gnucash == r.quickbooks]:
                parts.append(f"the lines of {plural(len(lines), 'document')} differ")
            if self.agency_differences:
                n = len(self.agency_differences)
                parts.append(f"the tax owed to {plural(n, 'tax agency', 'tax agencies')} differs")
            return " and ".join(parts) + " from QuickBooks"
        n = len(self.documents)
        agencies = sum(1 for r in self.agencies if r.agency != NO_AGENCY)
        to = [f"to {plural(agencies, 'agency')}"] if agencies else []
        if any(r.agency == NO_AGENCY for r in self.agencies):
            to.append("with no agency named")
        owed = f" and the tax owed {' and '.join(to)}" if to else ""
        return (
            f"subtotal, tax and total of {plural(n, 'invoice and bill', 'invoices and bills')}"
            f"{owed} match QuickBooks"
        )

    def lines(self) -> list[str]:
        head = self.headline()
        out = [head[:1].upper() + head[1:]]
        for r in self.differences[:20]:
            if r.gnucash is None:
                out.append(f"{r.kind} {r.id} ({r.owner}): not in the book")
                continue
            q, g = r.quickbooks, r.gnucash
            out.append(
                f"{r.kind} {r.id} ({r.owner}): QuickBooks subtotal {money(q[0])}, tax "
                f"{money(q[1])}, total {money(q[2])}; GnuCash {money(g[0])}, {money(g[1])}, "
                f"{money(g[2])}" + (f"; {r.lines_differ}" if r.lines_differ else "")
            )
        if len(self.differences) > 20:
            out.append(f"... and {len(self.differences) - 20:,} more (the tax report lists all)")
        out.extend(
            f"tax agency {r.agency}: QuickBooks {money(r.quickbooks)} ({r.basis}), GnuCash "
            f"{money(r.gnucash)}, difference {money(r.difference)}"
            + ("" if r.listed else f" — {UNLISTED}")
            for r in self.agency_differences
        )
        out.append(self.summary())
        kept = self.kept
        if kept:
            out.append(
                f"Kept as QuickBooks' amount, as plain tax lines ({len(kept):,}): "
                + "; ".join(f"{r.id} ({r.kept})" for r in kept[:50])
                + (f"; ... and {len(kept) - 50:,} more (the tax report)" if len(kept) > 50 else "")
            )
        return out

    def summary(self) -> str:
        if self.mode == "lines":
            return "Sales tax kept as plain lines on every invoice (no tax tables), as chosen"
        return (
            f"Sales tax: {plural(self.tables, 'GnuCash tax table', 'GnuCash tax tables')}, "
            f"{plural(self.taxed_lines, 'taxed line', 'taxed lines')}, "
            f"{plural(len(self.kept), 'invoice')} with QuickBooks' tax "
            "kept as plain lines"
        )


def _book_figures(
    doc: BookInvoiceTax, tax_accounts: frozenset[str]
) -> tuple[Decimal, Decimal, Decimal]:
    """(subtotal, tax, total) of a document in the book: its tables' tax plus its plain tax
    lines (entries on a sales tax account)."""
    plain = sum((e.value for e in doc.entries if e.account in tax_accounts), ZERO)
    return doc.subtotal - plain, doc.tax + plain, doc.total


def _lines_differ(doc: BookInvoiceTax, planned: tuple) -> str:
    if len(doc.entries) != len(planned):
        return f"{len(doc.entries)} entries, QuickBooks {len(planned)} lines"
    for e, p in zip(sorted(doc.entries, key=_order), sorted(planned, key=_order), strict=True):
        got = (e.action, e.quantity, e.price, e.value)
        want = (p.action, p.quantity, p.price, _entry_value(p))
        if got != want:
            return (
                f"entry {quoted(e.action or e.description)}: {e.quantity} × {e.price} = {e.value}, "
                f"QuickBooks {p.quantity} × {p.price} = {_entry_value(p)}"
            )
    return ""


def _entry_value(p) -> Decimal:
    return p.amount


def _order(e) -> tuple:
    return (getattr(e, "action", ""), getattr(e, "description", ""), str(getattr(e, "price", "")))


def prove(
    st: SalesTax,
    book: BookSalesTax,
    ledger: Ledger,
    refused: tuple[str, ...] = (),
) -> SalesTaxProof:
    """``ledger``: the final ledger as the book holds it (QuickBooks' side of the agencies,
    when no Sales Tax Liability report was given)."""
    by_key = {(d.kind, d.id): d for d in book.invoices}
    rows = []
    for d in st.docs.values():
        planned: DocTax = d
        entries = planned.with_plain_tax if d.id in refused else planned.entries
        kept = planned.kept or (
            "GnuCash computed another tax than planned" if d.id in refused else ""
        )
        got = by_key.get((_KINDS[d.kind], d.id))
        rows.append(
            DocumentRow(
                d.kind,
                d.id,
                d.owner,
                (d.subtotal, d.tax, d.total),
                _book_figures(got, st.tax_accounts) if got is not None else None,
                d.table if d.id not in refused else "",
                kept,
                _lines_differ(got, entries) if got is not None else "",
            )
        )
    agencies = _agencies(st, book, ledger)
    as_of = next((r.as_of for r in ledger.tax_liability if r.as_of), None)
    return SalesTaxProof(
        st.mode,
        tuple(rows),
        agencies,
        len(book.tables),
        sum(1 for d in book.invoices for e in d.entries if e.table),
        tuple(refused),
        as_of,
    )


LINES_ONLY = (
    "changed in QuickBooks since the book's last run in its lines only (an item, a quantity, a "
    "rate; the same amounts): an update does not rewrite an invoice, so change it in GnuCash "
    "(Edit Invoice) to match"
)


def lines_changed(st: SalesTax, book: BookSalesTax) -> tuple[DocumentRow, ...]:
    """Of the documents of ``st`` the book already holds (an update's earlier ones), each
    whose entries are not QuickBooks' lines while its subtotal, tax and total are (a change
    of amounts is held as its transaction's): QuickBooks' quantity and rate, or its item,
    changed since, which the transaction's digest cannot see (hunt 10). Its lines only: how
    the tax is held (a table, plain lines: a rate changed in QuickBooks since plans the old
    invoices otherwise) is not compared."""
    by_key = {(d.kind, d.id): d for d in book.invoices}
    out = []
    for d in st.docs.values():
        got = by_key.get((_KINDS[d.kind], d.id))
        if got is None or _book_figures(got, st.tax_accounts) != (d.subtotal, d.tax, d.total):
            continue
        items = tuple(e for e in got.entries if e.account not in st.tax_accounts)
        lines = tuple(e for e in d.entries if e.account not in st.tax_accounts)
        if differ := _lines_differ(replace(got, entries=items), lines):
            figures = (d.subtotal, d.tax, d.total)
            said = f"{LINES_ONLY}: {differ}"
            out.append(DocumentRow(d.kind, d.id, d.owner, figures, figures, d.table, "", said))
    return tuple(out)


def _agencies(st: SalesTax, book: BookSalesTax, ledger: Ledger) -> tuple[AgencyRow, ...]:
    report = ledger.tax_liability
    if report:
        as_of = next((r.as_of for r in report if r.as_of), None)
        quickbooks = _report_totals(report)
        gnucash = book_by_agency(book, as_of)
        basis = "report"
    else:
        quickbooks = liability_by_agency(ledger, st.tax_accounts)
        gnucash = book_by_agency(book, None)
        basis = "history"
    keys = sorted(set(quickbooks) | set(gnucash), key=lambda k: (k == "", k))
    return tuple(
        AgencyRow(
            k or NO_AGENCY,
            quickbooks.get(k, ZERO),
            gnucash.get(k, ZERO),
            basis,
            basis != "report" or k in quickbooks,  # (without a report, nothing is unlisted)
        )
        for k in keys
        if quickbooks.get(k, ZERO) or gnucash.get(k, ZERO) or k
    )


def book_by_agency(book: BookSalesTax, as_of: dt.date | None) -> dict[str, Decimal]:
    return {
        agency: sum((v for day, v in days if as_of is None or day <= as_of), ZERO)
        for agency, days in book.agencies.items()
    }


def _report_totals(rows: tuple[TaxLiability, ...]) -> dict[str, Decimal]:
    from app.readers.qbcsv.sales_tax import by_agency  # noqa: PLC0415 - the report's own rule

    return by_agency(rows)


def tax_report(proof: SalesTaxProof | None) -> str:
    """The third proof file: one row per document (QuickBooks' and GnuCash's subtotal, tax,
    total, the table, why QuickBooks' tax was kept), then one per tax agency (a header alone
    without a proof)."""
    header = (
        "what", "kind", "id", "name", "quickbooks_subtotal", "quickbooks_tax", "quickbooks_total",
        "gnucash_subtotal", "gnucash_tax", "gnucash_total", "difference", "tax_table", "note",
    )  # fmt: skip
    out: list[tuple[str, ...]] = [header]
    if proof is None:
        return csvsafe.text(out)
    for r in proof.documents:
        g = r.gnucash or (ZERO, ZERO, ZERO)
        diff = g[2] - r.quickbooks[2] if r.gnucash is not None else -r.quickbooks[2]
        note = r.kept or r.lines_differ or ("not in the book" if r.gnucash is None else "")
        book = [f"{v:.2f}" for v in g] if r.gnucash is not None else ["", "", ""]
        qb = [f"{v:.2f}" for v in r.quickbooks]
        out.append(("document", r.kind, r.id, r.owner, *qb, *book, f"{diff:.2f}", r.table, note))
    for a in proof.agencies:
        when = f" as of {proof.as_of}" if a.basis == "report" and proof.as_of else ""
        note = f"tax owed, QuickBooks' from the {a.basis}{when}"
        figures = ("", f"{a.quickbooks:.2f}", "", "", f"{a.gnucash:.2f}", "")
        out.append(("agency", "", "", a.agency, *figures, f"{a.difference:.2f}", "", note))
    return csvsafe.text(out)


def agencies_of(items: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Sales tax item → agency, from agency → items."""
    return {i: a for a, items_ in items.items() for i in items_}
