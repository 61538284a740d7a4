"""The Map step's view model: the resulting GnuCash tree as rows, what is wrong with it, and where
a retyped account moves when the plan puts accounts under GnuCash's standard tree."""

from __future__ import annotations

from dataclasses import dataclass

from app.mapping import apply
from app.model import AccountType, Ledger, Problem
from app.plan import Plan, Rule
from app.validate import check_accounts


@dataclass(frozen=True, slots=True)
class TreeRow:
    """One line of the resulting tree, for the wizard's live preview."""

    full_name: str
    name: str
    depth: int
    type: AccountType | None
    kind_label: str
    origin: tuple[str, ...]
    placeholder: bool
    created: bool  # a parent made by the plan, not a QuickBooks account
    code: str = ""


def tree_rows(ledger: Ledger) -> list[TreeRow]:
    """The tree of an applied ledger as rows (its accounts are already parents first)."""
    return [
        TreeRow(
            full_name=a.full_name,
            name=a.name,
            depth=a.full_name.count(":"),
            type=a.type,
            kind_label=a.kind_label,
            origin=a.origin,
            placeholder=a.placeholder,
            created=not a.origin,
            code=a.code,
        )
        for a in ledger.accounts
    ]


def preview_tree(resolved: Ledger, plan: Plan) -> list[TreeRow]:
    """The tree ``plan`` makes of a resolved ledger."""
    return tree_rows(apply(resolved, plan))


def tree_problems(resolved: Ledger, plan: Plan) -> list[Problem]:
    """What is wrong with the tree ``plan`` makes (rules naming no account, duplicate names,
    untyped accounts, incompatible parent types): the Map step's inline validation."""
    applied = apply(resolved, plan)
    own = applied.problems[len(resolved.problems) :]
    return [*own, *check_accounts(applied)]


def where_it_moves(resolved: Ledger, plan: Plan, rule: Rule) -> str:
    """ "it moves under “Assets:Current Assets” (GnuCash's standard tree)": where a retype puts
    its account when ``plan`` reparents (a top-level account goes under its type's standard
    parent); "" when its place does not change or the plan keeps QuickBooks' tree."""
    if rule.kind != "retype" or not plan.reparent:
        return ""
    before = _place(apply(resolved, plan), rule.account)
    after = _place(apply(resolved, plan.with_rule(rule)), rule.account)
    if not after or after == before:
        return ""
    parent = after.rpartition(":")[0]
    where = f"under “{parent}”" if parent else "to the top level"
    return f"it moves {where} (GnuCash's standard tree)"


def _place(ledger: Ledger, account: str) -> str:
    """The full name in ``ledger`` of the QuickBooks account ``account`` ("" when gone)."""
    return next((a.full_name for a in ledger.accounts if account in a.origin), "")
