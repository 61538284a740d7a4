"""A book whose plan changes an account QuickBooks renames later (docs/UPDATE.md, "An account
renamed in QuickBooks"): the plan's changes follow the account, found by its number, with a
warning; the next update needs no finding. Hunt 16: such a book could not be updated at all
("a saved change (rename 'Telephone') names account 'Telephone', which is not in the chart of
accounts (was its file removed?)"), with or without ``--plan``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app import gnc, pipeline, update_run
from app.errors import ProblemsError
from app.plan import Plan, Rule
from tests.support.companygen_later import RENAMED, Later, exports, later_company


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(150, seed=8)


def _book(later: Later, tmp_path: Path, plan: Plan) -> tuple[Path, list[Path]]:
    first = exports(later.first, tmp_path / "march")
    prepared = pipeline.prepare(pipeline.read(first, plan), plan)
    assert not prepared.errors, prepared.errors
    book = tmp_path / "book.gnucash"
    assert pipeline.write(prepared, book, plan).report.ok
    return book, exports(later.second, tmp_path / "june")


@pytest.mark.parametrize(
    ("rules", "in_book"),
    [
        ((Rule("rename", RENAMED[0], "Phone line"),), "Phone line"),
        ((Rule("retype", RENAMED[0], "EXPENSE"), Rule("rename", RENAMED[0], "Phones")), "Phones"),
    ],
)
def test_the_plan_s_change_of_an_account_quickbooks_renamed_follows_it(
    later: Later, tmp_path: Path, rules: tuple[Rule, ...], in_book: str
) -> None:
    old, new = RENAMED
    book, june = _book(later, tmp_path, replace(Plan(), rules=rules))
    outcome = update_run.bring_up_to_date(june, book)
    assert outcome.written and outcome.explained
    assert outcome.plan.rules == tuple(replace(r, account=new) for r in rules)
    said = [line for line in outcome.lines() if line.startswith("Warning: ")]
    assert said == [
        f"Warning: lists.iif:48: QuickBooks renamed account “{old}” to “{new}” since the last "
        f"run (found by its number, 6800): the book's changes of it "
        f"({', '.join(dict.fromkeys(r.kind for r in rules))}) now name it so"
    ]
    assert outcome.work.new_accounts == (later.new_account,)  # (not QuickBooks' new name)
    snap = gnc.read_book(book)
    assert snap.account(new) is None and snap.account(old) is None
    assert outcome.as_taken is not None
    row = next(r for r in outcome.as_taken.rows if r.account == in_book)
    assert row.ok and row.gnucash_balance == later.second.trial_balance()[new]
    again = update_run.bring_up_to_date(june, book)  # (the rules stored name it as it is now)
    assert not again.written and again.explained
    assert not [line for line in again.lines() if line.startswith("Warning: ")]


def test_a_move_of_an_account_quickbooks_renamed_follows_it_and_the_rename_is_held(
    later: Later, tmp_path: Path
) -> None:
    """Moved under another parent by the plan: the move follows QuickBooks' new name, and the
    new leaf is the rename found by number under that parent (held: the book keeps its name)."""
    old, new = RENAMED
    book, june = _book(later, tmp_path, Plan().with_rule(Rule("move", old, "Utilities")))
    outcome = update_run.bring_up_to_date(june, book)
    assert outcome.written and outcome.explained
    assert [(r.book, r.quickbooks) for r in outcome.renames] == [
        (f"Utilities:{old}", f"Utilities:{new}")
    ]
    snap = gnc.read_book(book)
    assert snap.account(f"Utilities:{new}") is None and snap.account(new) is None
    row = next(r for r in outcome.as_taken.rows if r.account == f"Utilities:{old}")
    assert row.ok and row.quickbooks_balance == later.second.trial_balance()[new]


def test_a_merge_of_an_account_quickbooks_renamed_is_still_said(
    later: Later, tmp_path: Path
) -> None:
    """The account merged away has no account of its own in the book to find by number: the
    update is refused, the change named, nothing written."""
    old, _ = RENAMED
    book, june = _book(later, tmp_path, Plan().with_rule(Rule("merge", old, "Utilities")))
    before = book.read_bytes()
    with pytest.raises(ProblemsError) as refused:
        update_run.bring_up_to_date(june, book)
    said = [p.message for p in refused.value.problems]
    assert said == [
        f"the change merge “{old}” names account “{old}”, which none of the files lists"
    ]
    assert book.read_bytes() == before


def test_a_change_of_an_account_quickbooks_deleted_does_not_follow_another_renamed(
    tmp_path: Path,
) -> None:
    """The plan renamed an unused account QuickBooks then deleted, and QuickBooks renamed
    another under the same parent: the rename went to that other account, its lines into the
    unused one's book account, the book written (hunt 18). Refused now, the change named, the
    book as it was."""
    later = later_company(150, seed=8)  # (its own: the lists are changed)
    later.first.accounts.append(("Old Dues", "EXP", "6990", ""))
    book, june = _book(later, tmp_path, Plan().with_rule(Rule("rename", "Old Dues", "Dues")))
    before = book.read_bytes()
    with pytest.raises(ProblemsError) as refused:
        update_run.bring_up_to_date(june, book)
    said = [p.message for p in refused.value.problems]
    assert said == [
        "the change rename “Old Dues” names account “Old Dues”, which none of the files lists"
    ]
    # (not "write its name in --type or the plan file": a plan changing the accounts is refused)
    assert [p.fix for p in refused.value.problems] == ["book_rule_gone"]
    assert book.read_bytes() == before


def test_a_company_name_masked_since_is_the_same_company() -> None:
    """A report title's typed numbers are masked as read (hunt 20), not in a record written
    before: the same company was refused as another (hunt 21)."""
    import datetime as dt

    from app.model import Ledger
    from app.update_record import Record
    from app.update_refused import refusal

    rec = Record("Green Valley SSN 900-12-3456", dt.date(2021, 3, 31), None, "{}")
    now = Ledger(company="Green Valley SSN •••-••-••••")
    assert refusal(rec, now, "book.gnucash") is None
    other = Ledger(company="Other Co")
    said = refusal(rec, other, "book.gnucash") or ""
    assert "these exports are of “Other Co”, and book.gnucash holds “Green Valley SSN" in said
    assert "900-12-3456" not in said  # (an older record's name, masked when said)
