"""mapping.apply: golden files (tests/data/mapping/NAME.txt → NAME.txt.expected: the applied
ledger's to_text) and small behaviour tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import pytest

from app.ledger_text import to_text
from app.mapping import apply
from app.model import Account, AccountType, Ledger, Role, Split, Transaction
from app.pages.mapping import preview_tree, tree_problems
from app.plan import Plan, Rule, plan_from_json
from app.quickbooks import ACCOUNT_TYPES
from app.source import Source
from app.words import quoted

DATA = Path(__file__).parent / "data" / "mapping"
T = AccountType


def read_case(path: Path) -> tuple[Ledger, Plan]:
    """``# INPUT`` lines (accounts ``NAME | QB type | k=v...``, ``txn DATE | ACCOUNT VALUE | ...``)
    and a ``# PLAN`` JSON object."""
    text = path.read_text(encoding="utf-8")
    head, _, plan_text = text.partition("# PLAN\n")
    lines = head.partition("# INPUT\n")[2].splitlines()
    accounts, txns = [], []
    for n, line in enumerate(lines, 1):
        src = Source(path.name, n)
        cells = [c.strip() for c in line.split("|")]
        if line.startswith("txn "):
            splits = tuple(
                Split(c.rsplit(" ", 1)[0], D(c.rsplit(" ", 1)[1]), src) for c in cells[1:]
            )
            txns.append(Transaction(dt.date.fromisoformat(cells[0][4:]), splits, src))
            continue
        fields = dict(kv.split("=", 1) for kv in (cells[2].split() if len(cells) > 2 else []))
        type_ = fields.pop("type", None)
        kw: dict = {"kind_label": cells[1]}
        if "balance" in fields:
            kw["balance"] = D(fields.pop("balance"))
        if "role" in fields:
            kw["role"] = Role(fields.pop("role"))
        kw.update(fields)
        if type_ is None:
            resolved = ACCOUNT_TYPES[cells[1]]
        else:
            resolved = None if type_ == "NONE" else T(type_)
        accounts.append(Account(cells[0], resolved, src, **kw))
    ledger = Ledger(accounts=tuple(accounts), transactions=tuple(txns), chart=True)
    return ledger, plan_from_json(plan_text, path.name)


@pytest.mark.parametrize("case", sorted(DATA.glob("*.txt")), ids=lambda p: p.stem)
def test_golden(case, golden):
    ledger, plan = read_case(case)
    golden(case.with_name(case.name + ".expected"), to_text(apply(ledger, plan)))


def chart(*accounts: tuple[str, str]) -> Ledger:
    return Ledger(
        accounts=tuple(
            Account(name, ACCOUNT_TYPES[label], Source("c.iif", i), kind_label=label)
            for i, (name, label) in enumerate(accounts, 1)
        ),
        chart=True,
    )


def names(ledger: Ledger) -> list[str]:
    return [a.full_name for a in ledger.accounts]


def test_default_keeps_quickbooks_tree_and_names():
    ledger = chart(("Checking", "BANK"), ("Auto", "EXP"), ("Auto:Fuel", "EXP"))
    out = apply(ledger, Plan())
    assert names(out) == ["Checking", "Auto", "Auto:Fuel"]
    assert [a.origin for a in out.accounts] == [("Checking",), ("Auto",), ("Auto:Fuel",)]


@pytest.mark.parametrize(
    ("label", "parent"),
    [
        ("BANK", "Assets:Current Assets"),
        ("OCASSET", "Assets:Current Assets"),
        ("AR", "Assets:Current Assets"),
        ("FIXASSET", "Assets:Fixed Assets"),
        ("OASSET", "Assets:Other Assets"),
        ("AP", "Liabilities:Current Liabilities"),
        ("CCARD", "Liabilities:Credit Cards"),
        ("OCLIAB", "Liabilities:Current Liabilities"),
        ("LTLIAB", "Liabilities:Long-Term Liabilities"),
        ("EQUITY", "Equity"),
        ("INC", "Income"),
        ("EXINC", "Income:Other Income"),
        ("COGS", "Expenses:Cost of Goods Sold"),
        ("EXP", "Expenses"),
        ("EXEXP", "Expenses:Other Expenses"),
    ],
)
def test_reparent_standard_parent_per_quickbooks_type(label, parent):
    out = apply(chart(("X", label), ("X:Y", label)), Plan(reparent=True))
    assert names(out)[-2:] == [f"{parent}:X", f"{parent}:X:Y"]
    created = [a for a in out.accounts if not a.origin]
    assert all(a.placeholder for a in created)
    assert [a.full_name for a in created] == names(out)[: parent.count(":") + 1]


def test_reparent_follows_a_retype():
    plan = Plan(reparent=True, rules=(Rule("retype", "X", "INCOME"),))
    out = apply(chart(("X", "EXP")), plan)
    assert names(out) == ["Income", "Income:X"]
    assert out.accounts[1].type is T.INCOME


def test_merge_moves_splits_children_origin_balance_and_role():
    src = Source("c.iif", 1)
    ledger = Ledger(
        accounts=(
            Account("OBE", T.EQUITY, src, balance=D("-10"), role=Role.OPENING_BALANCE),
            Account("OBE:Sub", T.EQUITY, src),
            Account("Capital", T.EQUITY, src, balance=D("-5")),
            Account("Cash", T.BANK, src),
        ),
        transactions=(
            Transaction(
                dt.date(2024, 1, 1),
                (Split("Cash", D("1"), src), Split("OBE", D("-1"), src)),
                src,
            ),
        ),
        chart=True,
    )
    out = apply(ledger, Plan(rules=(Rule("merge", "OBE", "Capital"),)))
    capital = out.account("Capital")
    assert capital is not None
    assert capital.origin == ("Capital", "OBE")
    assert capital.balance == D("-15")
    assert capital.role is Role.OPENING_BALANCE
    assert names(out) == ["Capital", "Capital:Sub", "Cash"]
    assert [s.account for s in out.transactions[0].splits] == ["Cash", "Capital"]


def test_merge_parent_into_its_own_child():
    out = apply(
        chart(("A", "EXP"), ("A:B", "EXP"), ("A:C", "EXP")),
        Plan(rules=(Rule("merge", "A", "A:B"),)),
    )
    assert names(out) == ["B", "B:C"]


def test_merge_across_families_warns():
    out = apply(chart(("A", "EXP"), ("B", "BANK")), Plan(rules=(Rule("merge", "A", "B"),)))
    assert [(p.severity, p.message) for p in out.problems] == [
        (
            "warning",
            "merging “A” (expense) into “B” (asset) puts expense amounts in an asset account: "
            "GnuCash's reports then count them there; and QuickBooks counts a balance-sheet "
            "account from all time, an income or expense account from the fiscal year's start, "
            "so after the first fiscal year the merged account differs from QuickBooks' figures: "
            "retype it first, or merge into an account of its kind",
        )
    ]


def test_merge_circle_is_an_error():
    plan = Plan(rules=(Rule("merge", "A", "B"), Rule("merge", "B", "A")))
    out = apply(chart(("A", "EXP"), ("B", "EXP")), plan)
    assert any("circle" in p.message and p.severity == "error" for p in out.problems)
    assert names(out) == ["A", "B"]


def test_move_to_top_level():
    out = apply(chart(("A", "EXP"), ("A:B", "EXP")), Plan(rules=(Rule("move", "A:B", ""),)))
    assert names(out) == ["A", "B"]


def test_rename_applies_before_moves():
    plan = Plan(rules=(Rule("rename", "A", "Cars"), Rule("move", "Fuel", "Cars")))
    out = apply(chart(("A", "EXP"), ("Fuel", "EXP")), plan)
    assert names(out) == ["Cars", "Cars:Fuel"]


def test_apply_is_pure():
    ledger = chart(("A", "EXP"))
    before = to_text(ledger)
    apply(ledger, Plan(reparent=True, rules=(Rule("rename", "A", "B"),)))
    assert to_text(ledger) == before


def test_preview_tree_rows():
    rows = preview_tree(chart(("Checking", "BANK")), Plan(reparent=True))
    assert [(r.full_name, r.depth, r.type, r.placeholder, r.created, r.origin) for r in rows] == [
        ("Assets", 0, T.ASSET, True, True, ()),
        ("Assets:Current Assets", 1, T.ASSET, True, True, ()),
        ("Assets:Current Assets:Checking", 2, T.BANK, False, False, ("Checking",)),
    ]


def test_tree_problems_for_inline_validation():
    ledger = chart(("A", "EXP"), ("B", "EXP"), ("Cash", "BANK"))
    assert tree_problems(ledger, Plan()) == []
    plan = Plan(
        rules=(
            Rule("rename", "A", "B"),
            Rule("move", "Cash", "B"),
            Rule("retype", "Ghost", "BANK"),
        )
    )
    messages = [p.message for p in tree_problems(ledger, plan)]
    assert sorted(messages) == [
        "account “B:Cash” (a Bank account) cannot sit under “B” (an Expense account) in "
        "GnuCash: a subaccount is of its parent's kind; move it, or change a type",
        "the change retype “Ghost” names account “Ghost”, which none of the files lists",
        "two accounts would be named “B” (the other from c.iif:1); rename or merge one of them",
    ]


def test_untyped_placeholder_parent_takes_its_retyped_childs_type():
    src = Source("r.csv", 4)
    ledger = Ledger(
        accounts=(
            Account("Truck", None, src, placeholder=True),
            Account("Truck:Purchase", None, src),
        )
    )
    out = apply(ledger, Plan(rules=(Rule("retype", "Truck:Purchase", "ASSET"),)))
    assert [(a.full_name, a.type) for a in out.accounts] == [
        ("Truck", T.ASSET),
        ("Truck:Purchase", T.ASSET),
    ]
    assert apply(ledger, Plan()).accounts[0].type is None


@pytest.mark.samples
def test_enterprise_sample_reparented_tree(samples_dir, golden):
    """The real Enterprise chart under GnuCash's standard tree, one row per account (review the
    golden: type, placeholder flag, QuickBooks type, origin)."""
    from app import pipeline, resolve
    from tests.paths import ENTERPRISE

    plan = Plan(reparent=True)
    parsed = pipeline.read([ENTERPRISE], plan)
    resolved = resolve.resolve(parsed, {})
    out = apply(resolved, plan)
    lines = [
        "  " * r.depth
        + f"{r.name}  [{r.type.value if r.type else '?'}"
        + (" placeholder" if r.placeholder else "")
        + (f" {r.kind_label}" if r.kind_label else "")
        + (f" {r.code}" if r.code else "")
        + "]"
        + (f" <- {', '.join(r.origin)}" if r.origin and r.origin != (r.full_name,) else "")
        for r in preview_tree(resolved, plan)
    ]
    assert [p for p in out.problems if p not in parsed.problems] == []
    golden(DATA / "enterprise_reparent.expected", "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("new", "why"),
    [
        ("Gas:Electric", "must not contain “:” (GnuCash puts it between the levels of a name)"),
        ("  ", "must not be empty"),
        # a NUL cut the name where GnuCash stores it ("Sav"): the book then differed
        ("Ga\x00s", "must not contain a control character (a tab, a line break, a NUL)"),
        ("Ga\ts", "must not contain a control character (a tab, a line break, a NUL)"),
    ],
)
def test_rename_to_a_name_no_account_can_have_is_a_problem(new, why):
    problems = tree_problems(chart(("Gas", "EXP")), Plan(rules=(Rule("rename", "Gas", new),)))
    assert [p.message for p in problems] == [f"the new name {quoted(new)} for “Gas” {why}"]


def test_a_made_parent_s_new_path_rewrites_the_moves_into_it_and_under_it_only():
    plan = Plan(
        rules=(
            Rule("move", "Gas", "Car"),
            Rule("move", "Oil", "Car:Fuel"),
            Rule("move", "Rug", "Carpet"),  # a name that starts like it: not under it
            Rule("rename", "Car", "Auto"),  # only moves are rewritten
        )
    )
    moved = plan.with_parent_path("Car", "Vehicles:Car")
    assert [r.target for r in moved.rules] == [
        "Vehicles:Car",
        "Vehicles:Car:Fuel",
        "Carpet",
        "Auto",
    ]
    assert plan.rules[0].target == "Car"  # the plan itself unchanged


def test_a_plan_s_currency_is_read_as_the_option_reads_it() -> None:
    """ "eur" in a plan file was "unknown currency “eur”" where --currency eur is EUR (hunt 15)."""
    from app.plan import plan_from_json

    assert plan_from_json('{"currency": " eur "}').currency == "EUR"


def test_a_plan_s_names_as_a_person_and_an_older_version_wrote_them() -> None:
    """Hunt 16: a merge's target written decomposed (a Mac's "Café") names its account as it is
    (it was composed, and the merge named no account); a joiner (an emoji's, a Persian word's)
    is a name's own, a direction override is not; a plan saved here by an earlier version with
    a name now refused still opens (the change is a problem of the Map step, to undo), where a
    plan the user gives is refused."""
    import json

    import pytest

    from app.errors import MappingError
    from app.plan import plan_from_json

    nfd = "Cafe\u0301 Supplies"

    def plan(kind: str, target: str) -> str:
        return json.dumps({"rules": [{"kind": kind, "account": "Rent", "target": target}]})

    assert plan_from_json(plan("merge", nfd), strict=True).rules[0].target == nfd
    assert plan_from_json(plan("rename", nfd), strict=True).rules[0].target == "Café Supplies"
    for name in (
        "Rent \U0001f469\u200d\U0001f4bc",
        "\u0647\u0632\u06cc\u0646\u0647\u200c\u0647\u0627",
    ):
        assert plan_from_json(plan("rename", name), strict=True).rules[0].target == name
    with pytest.raises(MappingError, match="direction override"):
        plan_from_json(plan("rename", "a\u202eb"), strict=True)
    assert plan_from_json(plan("rename", "Rent "), strict=False).rules[0].target == "Rent "
    out = apply(chart(("Rent", "EXP")), plan_from_json(plan("rename", "Rent "), strict=False))
    assert any("must not begin or end with a space" in p.message for p in out.problems)
