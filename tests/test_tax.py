"""Items and sales tax, before any book: the readers (the item list, sales tax items and groups,
codes, customers' tax items, the IIF SPL item columns in Intuit's kit shape, the optional CSV
item columns, the Sales Tax Liability report), the plan of each document's entries and tax
(tables, taxable lines, QuickBooks' tax kept where GnuCash's arithmetic differs) and the bad
input the issue names. The engine side is in test_gnc_tax.py."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from app import pipeline
from app.documents.tax_proof import NO_AGENCY, AgencyRow, SalesTaxProof
from app.documents.taxes import Entry, TableEntry, TaxTable, gnucash_figures, liability_by_agency
from app.model import ReadOptions
from app.plan import Plan, plan_from_json
from app.readers import read_one
from app.readers.qbcsv.sales_tax import by_agency
from app.source import Source
from tests.paths import SAMPLES
from tests.support.companygen import make_company

D = Decimal
KIT = Path(__file__).parent / "data" / "tax"
SRC = Source("t", 1)


def _prepared(files, **plan):
    p = replace(Plan(), **plan)
    prepared = pipeline.prepare(pipeline.read(files, p), p)
    assert not prepared.errors, prepared.errors
    return prepared


@pytest.fixture(scope="module")
def kit():
    return _prepared([KIT / "kit_lists.iif", KIT / "kit_invoices.iif"])


# ---------------------------------------------------------------- readers


def test_kit_lists_items_groups_codes_and_customers() -> None:
    ledger = read_one(KIT / "kit_lists.iif", ReadOptions())
    items = {i.name: i for i in ledger.items}
    assert items["Filters"].price == D("3.35") and items["Filters"].tax_code == "Tax"
    assert items["Espresso Machine"].price == D("1249.00")
    state = items["State Tax"]
    assert (state.kind, state.rate, state.sales_account, state.tax_agency) == (
        "COMPTAX",
        D("6.0"),
        "Sales Tax Payable",
        "State Revenue Dept",
    )
    assert items["Special District"].rate is None
    assert items["Harbor Group"].members == ("State Tax", "Harbor City Tax")
    assert items["Harbor Group"].kind == "STAX" and items["Harbor Group"].sales_tax
    assert {(c.code, c.taxable) for c in ledger.tax_codes} == {("Tax", True), ("Non", False)}
    cafe = next(c for c in ledger.customers if c.name == "Ridgeway Cafe")
    assert (cafe.taxable, cafe.tax_code, cafe.tax_item) == (True, "Tax", "Harbor Group")
    assert dict(ledger.files[0].counts)["Items"] == 7


def test_kit_spl_item_columns() -> None:
    ledger = read_one(KIT / "kit_invoices.iif", ReadOptions())
    first = ledger.transactions[0]
    machine, setup, filters, state, harbor = first.splits[1:]
    assert machine.item is not None and setup.item is not None and filters.item is not None
    assert (machine.item.item, machine.item.quantity, machine.item.price) == (
        "Espresso Machine",
        D(-1),
        D("1249.00"),
    )
    assert machine.item.taxable is True and setup.item.taxable is False
    assert (filters.item.quantity, filters.item.price) == (D(-3), D("3.35"))
    assert state.item is not None and state.item.auto_tax and state.item.percent == D("6.0")
    assert harbor.item is not None and harbor.item.item == "Harbor City Tax"
    assert first.splits[0].item is None  # the TRNS row has no item columns


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/samples is not beside the project")
def test_real_enterprise_sample_items() -> None:
    """The real Enterprise export's INVITEM and SALESTAXCODE rows (read from ../shared)."""
    path = SAMPLES / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
    ledger = read_one(path, ReadOptions())
    items = {i.name: i for i in ledger.items}
    group = items["San Thomas Group"]
    assert group.members == ("County, San Thomas", "Assessment")
    rates = {m: items[m].rate for m in group.members}
    assert rates == {"County, San Thomas": D("6.5"), "Assessment": D("1.75")}
    assert {items[m].tax_agency for m in group.members} == {"State Board of Equalization"}
    assert items["San Domingo"].rate == D("7.75")
    assert items["10% Discount"].rate == D("-10.0") and items["10% Discount"].kind == "DISC"
    pump = items["Pump"]
    assert (pump.kind, pump.quantity, pump.stock_value, pump.asset_account) == (
        "INVENTORY",
        D(48),
        D("2588.87"),
        "Inventory Asset",
    )
    assert items["Rock Fountain"].members == ("Fountain", "Pump", "Concrete", "Installation")
    assert {c.code for c in ledger.tax_codes} == {"ST1", "Tax", "LBR", "Non"}
    crenshaw = next(c for c in ledger.customers if c.name == "Crenshaw, Bob")
    assert crenshaw.tax_item == "San Thomas Group"
    tables = _prepared([path]).sales_tax
    assert tables is not None
    made = {t.name: t for t in tables.tables}
    assert made["San Thomas Group"].rate == D("8.25")
    assert {e.agency for e in made["San Thomas Group"].entries} == {"State Board of Equalization"}


def test_csv_item_columns_are_read_and_never_required(tmp_path) -> None:
    company = make_company(300, seed=3, items=True)
    with_items = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    ledger = read_one(with_items, ReadOptions())
    lines = [s.item for t in ledger.transactions for s in t.splits if s.item is not None]
    assert lines and any(x.quantity and x.price for x in lines)
    assert any(x.tax_code == "GST" and x.tax_amount for x in lines)
    # the same report without them still reads (and a Find export has none)
    plain = read_one(company.write_find_csv(tmp_path / "find.csv"), ReadOptions())
    assert not any(s.item for t in plain.transactions for s in t.splits)
    assert not plain.errors and plain.transactions


def test_a_bad_qty_cell_warns_and_the_amount_is_read(tmp_path) -> None:
    company = make_company(120, seed=4, items=True)
    path = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    text = path.read_text()
    row = next(ln for ln in text.splitlines() if ",Materials," in ln or ",Labor," in ln)
    cells = row.split(",")
    broken = row.replace(f",{cells[-4]},", ",lots,", 1) if cells[-4] else row
    path.write_text(text.replace(row, broken, 1))
    ledger = read_one(path, ReadOptions())
    assert not ledger.errors
    assert any("Qty" in p.message and "lots" in p.message for p in ledger.problems)


def test_sales_tax_liability_report(tmp_path) -> None:
    company = make_company(800, seed=6, items=True)
    ledger = read_one(company.write_sales_tax_liability_csv(tmp_path / "stl.csv"), ReadOptions())
    assert not ledger.problems
    assert ledger.files[0].kind == "CSV Sales Tax Liability"
    owed = company.tax.liability(company, company.export_date)
    got = by_agency(ledger.tax_liability)
    assert got == {k: v for k, v in owed.items() if k}
    assert {r.as_of for r in ledger.tax_liability} == {company.export_date}
    assert {r.item for r in ledger.tax_liability if r.item} == {"State", "County", "GST"}


def test_a_liability_report_rate_other_than_the_item_lists_is_said(tmp_path) -> None:
    """The Sales Tax Liability report's Tax Rate for an item is not the item list's (one of them
    exported on another day): said at the report's row, naming the item list's line; it was
    passed over without a word."""
    from app.readers import merge

    company = make_company(300, seed=6, items=True)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    stl = company.write_sales_tax_liability_csv(tmp_path / "stl.csv")
    parts = [read_one(p, ReadOptions()) for p in (lists, stl)]
    assert not [p for p in merge(parts).problems if "a rate of" in p.message]
    row = next(r for r in parts[1].tax_liability if r.item and r.rate is not None)
    changed = replace(row, rate=row.rate + 1)
    other = replace(parts[1], tax_liability=(changed,))
    said = [str(p) for p in merge([parts[0], other]).problems if "a rate of" in p.message]
    assert len(said) == 1 and said[0].startswith(
        f"{row.source}: the report gives sales tax item “{row.item}” a rate of {changed.rate}%, "
        "the item list (lists.iif:"
    ), said


# ---------------------------------------------------------------- GnuCash's arithmetic


def _table(*rates: tuple[str, str]) -> dict[str, TaxTable]:
    entries = tuple(TableEntry(f"m{i}", D(r), a) for i, (r, a) in enumerate(rates))
    return {"t": TaxTable("t", entries, SRC)}


def _entry(q: str, p: str, included: bool = False) -> Entry:
    return Entry("", "", "Sales", D(q), D(p), D(0), SRC, True, "t", included)


def test_gnucash_figures_as_measured_on_the_engine() -> None:
    """The figures GnuCash 4.13 computes (measured; docs/SALES-TAX.md): each entry rounded on
    its own for the subtotal, the tax unrounded per account, rounded once per account."""
    assert gnucash_figures([_entry("1", "0.105")] * 20, _table(("8.25", "T"))) == (
        D("2.20"),
        {"T": D("0.17")},
    )
    one = [_entry("1", "1.00")]
    assert gnucash_figures(one, _table(("6.5", "T1"), ("1.75", "T2")))[1] == {
        "T1": D("0.07"),
        "T2": D("0.02"),
    }
    assert gnucash_figures(one, _table(("6.5", "T1"), ("1.75", "T1")))[1] == {"T1": D("0.08")}
    gst = [_entry("1", "1.05", True), _entry("1", "2.05", True), _entry("1", "3.05", True)]
    assert gnucash_figures(gst, _table(("10", "G"))) == (D("5.58"), {"G": D("0.56")})


# ---------------------------------------------------------------- the plan


def test_kit_plan_tables_entries_and_what_is_kept(kit) -> None:
    st = kit.sales_tax
    docs = {d.id: d for d in st.docs.values()}
    assert {t.name for t in st.tables} == {"State Tax", "Harbor City Tax", "Harbor Group"}
    assert st.customers == {"Ridgeway Cafe": "Harbor Group"}
    assert st.agencies == {  # (an item without a rate too: its lines are still owed to it)
        "State Revenue Dept": ("State Tax", "Special District"),
        "Harbor City Treasurer": ("Harbor City Tax",),
    }
    first = docs["5001"]
    assert (first.table, first.kept, first.subtotal, first.tax) == (
        "Harbor Group",
        "",
        D("1324.05"),
        D("107.02"),
    )
    got = [(e.action, e.quantity, e.price, e.amount, e.taxable) for e in first.entries]
    assert got == [
        ("Espresso Machine", D(1), D("1249.00"), D("1249.00"), True),
        ("Setup", D(1), D("65.00"), D("65.00"), False),
        ("Filters", D(3), D("3.35"), D("10.05"), True),
    ]
    # a cent apart: QuickBooks rounds each member (0.07 + 0.03), GnuCash the account (0.09)
    apart = docs["5002"]
    assert apart.table == "" and "0.09" in apart.kept and "0.10" in apart.kept
    assert [e.tax for e in apart.entries] == [False, True, True]
    assert sum((e.amount for e in apart.entries), D(0)) == D("1.20")
    # a tax item without a rate: plain lines for it, said
    norate = docs["5005"]
    assert "Special District" in norate.kept and "no rate" in norate.kept
    assert ("Special District", "it has no rate in the lists") in st.not_made
    warnings = [w.message for w in kit.warnings]
    assert sum("“Special District”" in w and "no rate" in w for w in warnings) >= 1
    # an item the lists do not have: the name as description, warned once for two invoices
    unknown = [w for w in warnings if "“Training” is not in the item list" in w]
    assert len(unknown) == 1
    assert [e.description for e in docs["5004"].entries] == ["Training"]
    assert docs["5003"].entries[1].description == "Training: Staff training"
    assert any("1 invoice keeps QuickBooks' sales tax" in w and "5002" in w for w in warnings)


def test_lines_mode_makes_no_table(kit) -> None:
    lines = _prepared([KIT / "kit_lists.iif", KIT / "kit_invoices.iif"], sales_tax="lines")
    st = lines.sales_tax
    assert st.tables == () and st.customers == {} and not st.kept
    first = next(d for d in st.docs.values() if d.id == "5001")
    assert not any(e.taxable for e in first.entries)
    assert [e.action for e in first.entries if e.tax] == ["State Tax", "Harbor City Tax"]


def test_plan_sales_tax_setting_round_trip() -> None:
    plan = replace(Plan(), sales_tax="lines")
    assert plan_from_json(plan.to_json()) == plan
    assert plan_from_json("{}").sales_tax == "tables"  # a plan saved before
    with pytest.raises(Exception, match="sales_tax must be tables or lines \\(got "):
        plan_from_json('{"sales_tax": "some"}')


def test_generated_company_plan_equals_its_truth(tmp_path) -> None:
    """Every invoice's lines, subtotal and tax, and which invoices keep QuickBooks' tax, as
    the generator's own (independent) arithmetic says; each agency's liability."""
    company = make_company(1200, seed=8, items=True, documents=True)
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_transaction_detail_csv(tmp_path / "detail.csv"),
    ]
    prepared = _prepared(files)
    st, ledger = prepared.sales_tax, prepared.ledger
    truth = company.tax.invoices
    seen = 0
    for d in st.docs.values():
        ref = int(ledger.transactions[d.transaction].ref)
        if ref not in truth:
            continue  # a bill
        seen += 1
        t = truth[ref]
        assert (d.subtotal, d.tax) == (t.subtotal, t.tax), d.id
        assert bool(d.kept) == t.kept, (d.id, d.kept)
        items = [(e.action, e.quantity, e.amount) for e in d.entries if not e.tax]
        if not (t.kept and t.included):
            assert items == [(n, q, a) for n, q, _p, a in t.lines], d.id
        else:  # tax-included prices kept as QuickBooks' amounts: 1 × the net, figures said
            assert [(n, a) for n, _q, a in items] == [(n, a) for n, _q, _p, a in t.lines]
            said = [e.description for e in d.entries if e.quantity == 1 and not e.tax]
            assert all("QuickBooks: " in x for x in said if "×" in x)
        if d.table:
            assert d.table == t.table
    assert seen == len(truth) > 150
    kept = sum(1 for t in truth.values() if t.kept)
    assert 0 < kept < seen // 3 and len(st.kept) == kept
    assert any(d.table == "GST" for d in st.docs.values())  # tax-included prices, as tables
    owed = liability_by_agency(ledger, st.tax_accounts)
    assert {k: v for k, v in owed.items() if v} == {
        k: v for k, v in company.tax.liability(company).items() if v
    }


def test_generator_items_company_is_consistent(tmp_path) -> None:
    """The generator's own truth holds together: every transaction balances, each invoice's
    A/R line is its subtotal plus its tax, and the IIF TRNS/SPL export carries the same items,
    quantities, rates and tax lines as the CSV report."""
    company = make_company(600, seed=9, items=True)
    for t in company.transactions:
        assert sum((s[1] for s in t.splits), D(0)) == 0, t.trans_no
    by_no = {t.trans_no: t for t in company.transactions}
    for no, truth in company.tax.invoices.items():
        t = by_no[no]
        assert abs(t.splits[0][1]) == truth.total
        assert sum(truth.by_item.values(), D(0)) == truth.tax
    csv_ledger = read_one(company.write_transaction_detail_csv(tmp_path / "d.csv"), ReadOptions())
    iif_ledger = read_one(company.write_transactions_iif(tmp_path / "t.iif"), ReadOptions())

    def items(ledger):
        return sorted(
            (t.ref, s.item.item, abs(s.item.quantity or 0), s.item.price)
            for t in ledger.transactions
            for s in t.splits
            if s.item is not None and s.item.item
        )

    assert items(csv_ledger) == items(iif_ledger)
    auto = {
        s.item.item for t in iif_ledger.transactions for s in t.splits if s.item and s.item.auto_tax
    }
    assert auto == {"State", "County", "GST"}


@pytest.mark.parametrize(
    ("agencies", "said"),
    [
        ((("State Board", "12.40"),), "and the tax owed to 1 agency match QuickBooks"),
        (
            (("State Board", "12.40"), (NO_AGENCY, "3.22")),
            "and the tax owed to 1 agency and with no agency named match QuickBooks",
        ),
        (((NO_AGENCY, "3.22"),), "and the tax owed with no agency named match QuickBooks"),
        ((), "subtotal, tax and total of 0 invoices and bills match QuickBooks"),
    ],
)
def test_the_tax_proofs_headline_counts_what_it_compared(agencies, said) -> None:
    """Tax owed on lines that name no agency is compared too: the headline says so, never "the
    tax owed to 0 agencies" beside a row of it."""
    rows = tuple(AgencyRow(a, Decimal(v), Decimal(v), "history") for a, v in agencies)
    proof = SalesTaxProof("tables", (), rows, tables=0, taxed_lines=0)
    assert proof.ok and proof.headline().endswith(said)


def test_an_agency_the_report_does_not_list_says_so() -> None:
    """An agency the book owes tax to that the Sales Tax Liability report has no row of was shown
    as "QuickBooks 0.00 (report)" with no cause; it says the report lists none of it."""
    rows = (
        AgencyRow("State Board", Decimal("12.00"), Decimal("12.00"), "report"),
        AgencyRow("County", Decimal(0), Decimal("3.10"), "report", listed=False),
    )
    lines = SalesTaxProof("tables", (), rows, tables=1, taxed_lines=2).lines()
    county = next(line for line in lines if line.startswith("tax agency County"))
    assert county.endswith(
        "— the Sales Tax Liability report has no row of this agency (a report of another day, "
        "or a row removed from it): export it again with the other files"
    )


def test_credit_memos_keeping_their_tax_are_not_called_invoices() -> None:
    """The warning naming the documents that keep QuickBooks' tax as plain lines says credit
    memos where there are (a walk read CM-473 among "invoices")."""
    from decimal import Decimal as D

    from app.documents.tax_plan import _Planner
    from app.documents.taxes import DocTax

    def doc(i: int, ident: str, kind: str) -> DocTax:
        return DocTax(i, ident, "Cook, Brian", kind, (), D(0), D(0), kept="it rounds", why="x")

    planner = _Planner.__new__(_Planner)
    planner.problems = []
    planner._said_kept([doc(1, "1001", "invoice"), doc(2, "CM-9", "credit_note_customer")])
    planner._said_kept([doc(2, "CM-9", "credit_note_customer")])
    planner._said_kept([doc(1, "1001", "invoice")])
    said = [p.message for p in planner.problems]
    assert said[0].startswith("2 invoices and credit memos keep QuickBooks' sales tax")
    assert said[1].startswith("1 credit memo keeps QuickBooks' sales tax")
    assert said[2].startswith("1 invoice keeps QuickBooks' sales tax")
