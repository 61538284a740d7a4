"""View models: tree order and depth, transaction search and pages, problem links, columns."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from app.model import (
    Account,
    AccountType,
    FileInfo,
    Ledger,
    Problem,
    Reconcile,
    Split,
    Transaction,
)
from app.pages import chart, preview, problems
from app.pages.files import remove_id
from app.readers.qbcsv.columns import column_sample
from app.source import Source
from tests.paths import DATA


def src(line: int, name: str = "t.csv") -> Source:
    return Source(name, line)


def txn(i: int, account: str = "Checking", memo: str = "") -> Transaction:
    return Transaction(
        date=dt.date(2024, 1, 1) + dt.timedelta(days=i % 300),
        splits=(
            Split(account, D(i) + D("0.25"), src(3 * i + 2), memo, Reconcile.CLEARED),
            Split("Sales", -(D(i) + D("0.25")), src(3 * i + 3)),
        ),
        source=src(3 * i + 2),
        num=str(1000 + i),
        description=f"Customer {i % 7}",
    )


def test_account_rows_are_a_tree_with_split_counts():
    A = AccountType
    ledger = Ledger(
        accounts=(
            Account("Utilities:Gas", A.EXPENSE, src(4, "l.iif"), "EXP", code="7751"),
            Account("Checking", A.BANK, src(2, "l.iif"), "BANK", balance=D("75.00")),
            Account("Utilities", A.EXPENSE, src(3, "l.iif"), "EXP", hidden=True),
            Account("utilities b", None, src(5, "l.iif"), "WEIRD"),
        ),
        transactions=(txn(1, "Utilities:Gas"), txn(2)),
    )
    rows = chart.account_rows(ledger)
    assert [(r.full_name, r.depth) for r in rows] == [
        ("Checking", 0),
        ("Utilities", 0),
        ("Utilities:Gas", 1),
        ("utilities b", 0),
    ]
    assert [r.splits for r in rows] == [1, 0, 1, 0]
    assert rows[0].balance == D("75.00") and rows[0].type == "BANK"
    assert rows[1].hidden and rows[3].type == "unknown"
    assert rows[2].anchor == "src-l_iif-4"


def test_search_and_pages():
    index = preview.SearchIndex([txn(i, memo="rent" if i % 10 == 0 else "") for i in range(120)])
    first = preview.txn_page(index)
    assert (first.page, first.pages, first.matches, len(first.groups)) == (1, 3, 120, 50)
    last = preview.txn_page(index, page=7)
    assert last.page == 3 and len(last.groups) == 20 and last.first == 101
    small = preview.txn_page(index, page=2, per_page=20)  # the page size counts everywhere
    assert (small.pages, len(small.groups), small.first) == (6, 20, 21)
    rent = preview.txn_page(index, "RENT")
    assert rent.matches == 12
    both = preview.txn_page(index, "rent 108")  # every word must match
    assert [g.num for g in both.groups] == ["1080"]
    assert [g.num for g in preview.txn_page(index, "15.25").groups] == ["1015", "1115"]
    assert [g.num for g in preview.txn_page(index, "t.csv:33").groups] == ["1010"]  # split line
    assert preview.txn_page(index, "nothing like this").groups == ()
    group = rent.groups[0]
    assert group.total == D("0.25")
    assert [(s.account, s.reconcile) for s in group.splits] == [
        ("Checking", "cleared"),
        ("Sales", ""),
    ]


def test_problem_rows_link_to_transactions_or_accounts():
    ledger = Ledger(
        accounts=(Account("Checking", AccountType.BANK, src(2, "l.iif")),),
        transactions=(txn(0),),
    )
    index = preview.SearchIndex(ledger.transactions)
    rows = problems.problem_rows(
        [
            Problem(src(3), "split problem"),
            Problem(src(2, "l.iif"), "account problem", "warning"),
            Problem(None, "general"),
            Problem(src(99), "a line with no row"),
        ],
        ledger,
        index,
    )
    assert [(r.message, r.page, r.link) for r in rows] == [  # must-fix first
        ("split problem", "transactions", "t.csv:3"),
        ("general", "", ""),
        ("a line with no row", "", ""),
        ("account problem", "accounts", "src-l_iif-2"),
    ]


def test_problems_put_what_must_be_fixed_first_with_its_fix():
    """A file no reader could read is fixed by removing it on the Files step (a link to its
    Remove button); the banner names only the steps that help; warnings of one kind are one
    line with their count."""
    ledger = Ledger(
        accounts=tuple(Account(f"A{i}", AccountType.BANK, src(i, "l.iif")) for i in range(4)),
        files=(FileInfo("l.iif", "IIF lists", "iif lists"), FileInfo("letter.txt", "not read")),
    )
    index = preview.SearchIndex(())
    differ = [
        Problem(src(i, "l.iif"), f"A{i}: QuickBooks balance {i}.00, history {i * 2}.00", "warning")
        for i in range(4)
    ]
    found = [*differ, Problem(src(1, "letter.txt"), "this is not a QuickBooks export")]
    view = problems.problems_view(found, ledger, index)
    first = view.groups[0]
    assert first.rows[0].severity == "error" and len(first.rows) == 1
    assert (first.first.fix, first.first.step) == ("remove", "files")
    assert first.first.place == "#" + remove_id("letter.txt") == "#remove-letter_txt"
    assert first.first.fix_words.startswith("remove it on the Files step")
    assert view.must_fix == (
        "1 problem must be fixed before the book can be written: on the Files step, remove "
        "the file that is not a QuickBooks export."
    )
    assert [len(g.rows) for g in view.groups] == [1, 4]  # the four differences: one kind
    assert view.errors == 1 and len(view.rows) == 5
    other = problems.problems_view([Problem(src(3), "split problem")], ledger, index)
    assert other.must_fix.endswith(": " + problems.NO_FIX + ".")
    assert "Files step, remove" not in other.must_fix
    two = problems.problems_view(differ[:2], ledger, index)
    assert [len(g.rows) for g in two.groups] == [1, 1] and two.must_fix == ""


def test_column_sample_reads_the_chosen_columns():
    path = DATA / "web" / "odd_columns.csv"
    raw = column_sample(path, {})
    assert raw.headers == ("Posted On", "Ref No", "Ledger", "Note", "Value")
    assert raw.rows[0] == ("02/01/2024", "7", "Checking", "February gas", "-25.00")
    assert raw.complaint.startswith("Still to choose: Date, Account, Amount")
    chosen = column_sample(
        path, {"date": "Posted On", "account": "Ledger", "amount": "Value"}, "dmy"
    )
    assert chosen.complaint == ""
    assert chosen.parsed[0] == (
        ("Date", "2024-01-02", True),
        ("Account", "Checking", True),
        ("Amount", "-25.00", True),
    )
    wrong = column_sample(path, {"date": "Note", "account": "Ledger", "amount": "Ledger"})
    assert wrong.parsed[0][0][2] is False and "expected a date" in wrong.parsed[0][0][1]
    assert wrong.parsed[0][2][2] is False


def test_split_accounts_outside_the_chart_are_flagged():
    index = preview.SearchIndex([txn(1, "Heating Oil")])
    split = preview.txn_page(index, chart={"Sales", "Checking"}).groups[0].splits
    assert [(s.account, s.known) for s in split] == [("Heating Oil", False), ("Sales", True)]
    assert all(s.known for s in preview.txn_page(index).groups[0].splits)


def test_a_family_whose_differences_cancel_out_still_shows_them():
    from app.pages.download import families
    from app.verify_report import Row

    ledger = Ledger(
        accounts=(
            Account("Checking", AccountType.BANK, Source("l.iif", 2)),
            Account("Savings", AccountType.BANK, Source("l.iif", 3)),
        )
    )
    rows = [  # 10.00 too much on one, 10.00 too little on the other: the sum agrees
        Row("Checking", "Checking", D("100.00"), D("110.00"), "all time"),
        Row("Savings", "Savings", D("50.00"), D("40.00"), "all time"),
    ]
    assets = families(ledger, rows)[0]
    assert (assets["quickbooks"], assets["gnucash"]) == ("150.00", "150.00")
    assert not assets["ok"] and assets["differ"] == 2


def test_the_proof_checks_figures_read_as_a_bookkeeper_reads_them():
    import datetime as dt

    from app.words import check_name as _check_name
    from app.words import check_value as _check_value

    assert _check_value(30_000) == "30,000"
    assert _check_value(dt.date(2024, 2, 1)) == "2024-02-01"
    assert [_check_value(v) for v in (None, "", "Opening Balances")] == [
        "none",
        "none",
        "Opening Balances",
    ]
    assert _check_name("splits") == "transaction lines (GnuCash calls them splits)"
    assert _check_name("splits cleared") == "transaction lines cleared"
    assert _check_name("customers") == "customers"


def test_search_finds_dates_as_shown_and_as_quickbooks_writes_them():
    """Issue 13, item 31: the page shows 2024-02-01; QuickBooks writes 2/1/2024 (or 1/2/2024 in
    a day-first file), 02/01/24 with a 2-digit year; a month as 2024-02 or 2/2024."""
    index = preview.SearchIndex([txn(i) for i in range(120)])  # txn(31) is on 2024-02-01

    def nums(q: str, orders=("mdy",)) -> list[str]:
        return [g.num for g in preview.txn_page(index, q, date_orders=orders).groups]

    for q in ("2024-02-01", "2/1/2024", "02/01/2024", "2/1/24", "2024-2-1", "2.1.2024"):
        assert nums(q) == ["1031"], q
    assert nums("1/2/2024", orders=("dmy",)) == ["1031"]
    assert nums("2/1/2024", orders=("dmy",)) == ["1001"]  # 2 January
    assert nums("1/2/2024", orders=("mdy", "dmy")) == ["1001", "1031"]  # either way
    assert nums("2/1/2024 customer 3") == ["1031"]  # with other words
    assert nums("2/1/2024 savings") == []  # txn(31) is Customer 3
    assert preview.txn_page(index, "2/2024", per_page=100).matches == 29  # February 2024
    assert preview.txn_page(index, "2024-02", per_page=100).matches == 29
    assert nums("13/13/2024") == [] and nums("1/2/0019") == []  # no such date: as written


def chart_in_every_type() -> Ledger:
    """One account of each QuickBooks type, given in no order, with a subaccount or two."""
    A = AccountType
    given = [
        ("Other Expense", A.EXPENSE, "EXEXP"),
        ("Sales", A.INCOME, "INC"),
        ("Visa", A.CREDIT, "CCARD"),
        ("Truck", A.ASSET, "FIXASSET"),
        ("Checking", A.BANK, "BANK"),
        ("Loan", A.LIABILITY, "LTLIAB"),
        ("Payroll Liabilities", A.LIABILITY, "OCLIAB"),
        ("Accounts Payable", A.PAYABLE, "AP"),
        ("Interest Income", A.INCOME, "EXINC"),
        ("Deposits", A.ASSET, "OASSET"),
        ("Cost of Goods Sold", A.EXPENSE, "COGS"),
        ("Utilities", A.EXPENSE, "EXP"),
        ("Utilities:Water", A.EXPENSE, "EXP"),
        ("Utilities:Gas", A.EXPENSE, "EXP"),
        ("Owner's Equity", A.EQUITY, "EQUITY"),
        ("Undeposited Funds", A.ASSET, "OCASSET"),
        ("Accounts Receivable", A.RECEIVABLE, "AR"),
        ("Cash Box", A.CASH, ""),  # no QuickBooks type (a report's account): as a bank
        ("Advertising", A.EXPENSE, "Expense"),  # a report's type word
    ]
    return Ledger(
        accounts=tuple(
            Account(name, kind, src(i, "l.iif"), label, code=str(9000 - i))
            for i, (name, kind, label) in enumerate(given)
        ),
        transactions=(txn(1, "Utilities:Gas"), txn(2)),
    )


QUICKBOOKS_ORDER = [
    "Cash Box",
    "Checking",
    "Accounts Receivable",
    "Undeposited Funds",
    "Truck",
    "Deposits",
    "Accounts Payable",
    "Visa",
    "Payroll Liabilities",
    "Loan",
    "Owner's Equity",
    "Sales",
    "Cost of Goods Sold",
    "Advertising",
    "Utilities",
    "Utilities:Gas",
    "Utilities:Water",
    "Interest Income",
    "Other Expense",
]


def test_the_chart_is_in_quickbooks_type_order():
    """Issue 13, item 32: bank, A/R, other current asset, fixed asset, other asset, A/P, credit
    card, other current liability, long-term liability, equity, income, cost of goods sold,
    expense, other income, other expense; subaccounts under their parents, by name."""
    rows = chart.account_rows(chart_in_every_type())
    assert [r.full_name for r in rows] == QUICKBOOKS_ORDER
    assert [r.depth for r in rows if r.full_name.startswith("Utilities")] == [0, 1, 1]
    assert rows[15].name == "Gas"  # a tree: the name under its parent
    assert [r.full_name for r in chart.account_rows(chart_in_every_type(), "qbtype")] == (
        QUICKBOOKS_ORDER
    )


def test_a_listed_chart_keeps_quickbooks_own_order_within_each_type():
    """From the IIF lists (a chart QuickBooks wrote in its Chart of Accounts' order) siblings of
    one type stay in the file's order, as the Map step lists them; only types are reordered."""
    listed = chart_in_every_type()
    listed = Ledger(accounts=listed.accounts, transactions=listed.transactions, chart=True)
    names = [r.full_name for r in chart.account_rows(listed)]
    assert names[:2] == ["Checking", "Cash Box"]  # both banks, in the file's order
    expenses = names[names.index("Cost of Goods Sold") + 1 : names.index("Interest Income")]
    assert expenses == ["Utilities", "Utilities:Water", "Utilities:Gas", "Advertising"]


def test_the_search_finds_an_amount_typed_as_it_is_shown():
    """The tables show 2,596.25; typed with its thousands comma it is found as without it."""
    index = preview.SearchIndex([txn(i) for i in (5, 2596, 12596)])
    plain = [g.num for g in preview.txn_page(index, "2596.25").groups]
    assert plain == ["3596", "13596"]  # (words match inside: 12596.25 holds it too)
    assert [g.num for g in preview.txn_page(index, "2,596.25").groups] == plain
    assert [g.num for g in preview.txn_page(index, "12,596.25").groups] == ["13596"]


def test_the_chart_sorts_by_any_column():
    ledger = chart_in_every_type()

    def names(sort: str) -> list[str]:
        return [r.full_name for r in chart.account_rows(ledger, sort)]

    by_name = names("account")  # the tree by name
    assert by_name[:3] == ["Accounts Payable", "Accounts Receivable", "Advertising"]
    assert by_name.index("Utilities") + 1 == by_name.index("Utilities:Gas")
    assert names("-account") == by_name[::-1]
    assert names("number")[0] == "Advertising" and names("-number")[0] == "Other Expense"
    assert names("-lines")[0] == "Sales"  # 2 lines; Checking and Utilities:Gas 1 each
    flat = chart.account_rows(ledger, "number")
    assert all(r.depth == 0 and r.name == r.full_name for r in flat)  # flat: full names
    assert names("nonsense") == QUICKBOOKS_ORDER
    heads = chart.account_columns("-number")
    assert [(c.label, c.sort, c.state) for c in heads[:2]] == [
        ("Account", "account", "none"),
        ("Number", "number", "descending"),
    ]
    default = chart.account_columns("")
    assert [(c.sort, c.state) for c in default if c.label == "QuickBooks type"] == [
        ("-qbtype", "ascending")
    ]
    # no "Hidden" column (at 800 px it was cut off): a hidden account says so beside its name
    assert [c.label for c in default][-1] == "Lines"


def test_transactions_sort_by_date_number_description_and_amount():
    ts = [txn(5, "Savings"), txn(300), txn(2), txn(40, "Savings")]  # txn(300): 2024-01-01
    index = preview.SearchIndex(ts)

    def nums(sort: str, q: str = "") -> list[str]:
        return [g.num for g in preview.txn_page(index, q, sort=sort).groups]

    assert nums("") == ["1005", "1300", "1002", "1040"]  # as in the files
    assert nums("date") == ["1300", "1002", "1005", "1040"]
    assert nums("-date") == ["1040", "1005", "1002", "1300"]
    assert nums("amount") == ["1002", "1005", "1040", "1300"]
    assert nums("num") == ["1002", "1005", "1040", "1300"]
    assert nums("description") == ["1002", "1005", "1040", "1300"]  # Customer 2, 5, 5, 6
    assert nums("-amount", "savings") == ["1040", "1005"]  # the matches only, in that order
    assert nums("bogus") == nums("")
    page = preview.txn_page(index, sort="-date")
    assert page.sort == "-date"
    assert [(c.label, c.sort, c.state) for c in page.columns if c.key == "date"] == [
        ("Date", "date", "descending")
    ]


def test_the_search_finds_names_typed_without_their_accents():
    """QuickBooks keeps "Café Olé"; typed as "cafe", or with the accents, it is found."""
    from dataclasses import replace

    ole = replace(txn(7), description="Café Olé")
    index = preview.SearchIndex([txn(1), ole, txn(2)])
    for typed in ("cafe", "Café", "CAFE OLE", "olé"):
        assert [g.description for g in preview.txn_page(index, typed).groups] == ["Café Olé"]
    assert preview.txn_page(index, "cafx").matches == 0


def test_the_trial_balance_names_quickbooks_account_only_where_the_name_changed() -> None:
    """A moved account's row ("Expenses:Repairs", QuickBooks' "Repairs") has its place in the
    tree to show where it is, and no "(QuickBooks: Repairs)" beside the same name; a renamed
    or merged one names QuickBooks' account(s)."""
    from app.pages.side_by_side import _renamed
    from app.verify_report import Row

    def row(book: str, quickbooks: str) -> Row:
        return Row(book, quickbooks, D(1), D(1), "all time")

    assert _renamed(row("Expenses:Repairs", "Repairs")) == ""
    assert _renamed(row("Repairs", "Repairs")) == ""
    assert _renamed(row("Expenses:Upkeep", "Repairs")) == "Repairs"
    assert _renamed(row("Upkeep", "Repairs + Upkeep")) == "Repairs + Upkeep"


def test_retyping_accounts_receivable_says_its_invoices_stop_being_documents() -> None:
    """Accounts Receivable made an expense account (a walk did, and read 143 warnings blaming
    missing files): the change says what it costs before it is made."""
    from app.model import Account, AccountType, Ledger
    from app.pages.mapping import where_it_moves
    from app.plan import Plan, Rule
    from app.source import Source

    ar = Account(
        "Accounts Receivable", AccountType.RECEIVABLE, Source("l.iif", 3), balance=D("250")
    )
    chart = Ledger(accounts=(ar,), chart=True)
    said = where_it_moves(chart, Plan(), Rule("retype", "Accounts Receivable", "EXPENSE"))
    assert "its balance, 250.00 as an asset account, reads 250.00 as an expense account" in said
    assert (
        "its customers' invoices can no longer be GnuCash documents (GnuCash posts them to "
        "A/Receivable accounts only)" in said
    )
    assert where_it_moves(chart, Plan(), Rule("retype", "Accounts Receivable", "RECEIVABLE")) == ""


def test_the_standard_tree_s_side_by_side_says_each_section_total_once(tmp_path) -> None:
    """GnuCash's standard tree (the Map step's "Put the accounts under GnuCash's standard
    tree"): the made "Equity" parent's total (without this year's net income) read as a second
    "Total Equity" above Net Income and the group's own, every other section total twice, and
    each made parent showed "no QuickBooks balance; transaction lines 0.00 ✓" (hunt 23). A
    parent that holds its whole section leaves its total to the section; a made parent holding
    nothing of its own is a heading."""
    from dataclasses import replace

    from app import pipeline
    from app.pages.side_by_side import trial_balance
    from app.plan import Plan
    from tests.support.companygen import make_company

    company = make_company(120, seed=3)
    files = [company.write_lists_iif(tmp_path / "lists.iif"),
             company.write_journal_csv(tmp_path / "journal.csv")]  # fmt: skip
    plan = replace(Plan(), reparent=True)
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    outcome = pipeline.write(prepared, tmp_path / "book.gnucash", plan)
    assert outcome.report.ok
    sections = trial_balance(outcome.written, outcome.report)
    for section in sections:
        for group in section["groups"]:
            names = [line["name"] for line in group["lines"]]
            assert f"Total {group['label']}" not in names, (group["label"], names)
            made = [line for line in group["lines"] if line.get("created") == "parent"]
            assert made and all(line["heading"] for line in made if line["depth"] == 0)
    equity = next(g for s in sections for g in s["groups"] if g["label"] == "Equity")
    assert [line["name"] for line in equity["lines"]][-1] == "Net Income (this fiscal year)"
