"""The Map step's view model: the resulting GnuCash tree as rows, what is wrong with it, and where
a retyped account moves when the plan puts accounts under GnuCash's standard tree."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from app.errors import MappingError
from app.mapping import STANDARD, apply
from app.model import AccountType, Ledger, Problem, money
from app.pages.chart import GNUCASH_WORDS as TYPE_WORDS
from app.pages.chart import shown
from app.plan import Plan, Rule
from app.validate import check_accounts, compatible
from app.words import article, quoted, usual_sign

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class TreeRow:
    """One line of the resulting tree, for the wizard's live preview. ``balance`` (its own
    QuickBooks figure) and ``total`` (with every account under it) are signed as GnuCash's tree
    shows them: credit-natured accounts (income, liabilities, equity) positive when in credit;
    None where QuickBooks gives no figure."""

    full_name: str
    name: str
    depth: int
    type: AccountType | None
    kind_label: str
    origin: tuple[str, ...]
    placeholder: bool
    created: bool  # a parent made by the plan, not a QuickBooks account
    code: str = ""
    balance: Decimal | None = None
    total: Decimal | None = None
    parent: bool = False  # has accounts under it: ``total`` is their subtotal

    @property
    def type_words(self) -> str:
        return TYPE_WORDS[self.type] if self.type else "unknown"


def tree_rows(ledger: Ledger) -> list[TreeRow]:
    """The tree of an applied ledger as rows (its accounts are already parents first), each
    with its QuickBooks figure and its subtree's subtotal."""
    totals: dict[str, Decimal] = {}
    figured: set[str] = set()
    parents: set[str] = set()
    for a in ledger.accounts:
        parts = a.full_name.split(":")
        for i in range(1, len(parts)):
            parents.add(":".join(parts[:i]))
        if a.balance is None:
            continue
        for i in range(1, len(parts) + 1):
            above = ":".join(parts[:i])
            totals[above] = totals.get(above, ZERO) + a.balance
            figured.add(above)
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
            balance=shown(a.balance, a.type),
            total=shown(totals[a.full_name], a.type) if a.full_name in figured else None,
            parent=a.full_name in parents,
        )
        for a in ledger.accounts
    ]


@dataclass(frozen=True, slots=True)
class TreeBalance:
    """The live check of the Map step: the tree's QuickBooks figures still add up to zero
    (debits = credits) whatever is moved, merged or retyped; ``missing``: accounts of the
    input without a QuickBooks figure (no chart, or a report row without one)."""

    debits: Decimal
    credits: Decimal
    figured: int
    missing: int

    @property
    def balances(self) -> bool:
        return self.figured > 0 and self.debits == self.credits


def tree_balance(ledger: Ledger) -> TreeBalance:
    figures = [a.balance for a in ledger.accounts if a.balance is not None]
    missing = sum(1 for a in ledger.accounts if a.balance is None and a.origin)
    debits = sum((b for b in figures if b > 0), ZERO)
    credits = -sum((b for b in figures if b < 0), ZERO)
    return TreeBalance(debits, credits, len(figures), missing)


def row_of(rows: list[TreeRow], account: str) -> TreeRow:
    """The row of the QuickBooks account ``account`` (merged into it, or its own)."""
    row = next((r for r in rows if account in r.origin), None)
    if row is None:
        raise MappingError(
            f"There is no account {quoted(account)} in the tree any more; reload the page."
        )
    return row


def parent_choices(rows: list[TreeRow], row: TreeRow, kind: AccountType | None = None) -> list[str]:
    """Where ``row``'s account (of type ``kind``, else its own) can move: every account of the
    tree but itself, those under it and those GnuCash would not take it under (an expense
    account under a bank account); its parent now whatever it is ("" = the top level, first)."""
    inside = row.full_name + ":"
    kind = kind or row.type
    now = row.full_name.rpartition(":")[0]
    return [""] + [
        r.full_name
        for r in rows
        if r.full_name != row.full_name
        and not r.full_name.startswith(inside)
        and (r.full_name == now or _takes(r, kind))
    ]


def _takes(parent: TreeRow, kind: AccountType | None) -> bool:
    """Whether GnuCash takes an account of type ``kind`` under ``parent`` (unknown: yes)."""
    return parent.type is None or kind is None or compatible(parent.type, kind)


def check_parent(
    rows: list[TreeRow], row: TreeRow, parent: str, kind: AccountType | None = None
) -> None:
    """Refuse ``parent`` for ``row``'s account (of type ``kind``, else its own) unless
    ``parent_choices`` offers it (the Change… list, or a row it was dropped on), saying why:
    itself, an account under it, one of a type GnuCash keeps apart, or none."""
    if parent in parent_choices(rows, row, kind):
        return
    name = row.full_name
    kind = kind or row.type
    under = next((r for r in rows if r.full_name == parent), None)
    if under is not None and under.type is not None and kind is not None:
        if not _takes(under, kind):
            raise MappingError(
                f"“{name}” ({article(TYPE_WORDS[kind])} account) cannot go under "
                f"“{parent}” ({article(TYPE_WORDS[under.type])} account): GnuCash keeps "
                "income and expense accounts apart from assets and liabilities, and equity apart "
                "from both. Choose another account, or change a type first: nothing changed."
            )
    if parent == name:
        raise MappingError(f"“{name}” cannot go under itself: nothing changed.")
    if parent.startswith(name + ":") and any(r.full_name == parent for r in rows):
        raise MappingError(
            f"“{name}” cannot go under “{parent}”, one of its own sub-accounts: nothing changed."
        )
    raise MappingError(
        f"There is no account “{parent}” in the tree to put “{name}” under (the page may be out "
        "of date; reload it): nothing changed."
    )


def new_parent(parent: str, made: str) -> str:
    """Where an account goes into a new account ``made`` (``Vehicle``, or ``Vehicle:Fuel`` for
    two levels) under ``parent`` ("": the top level); a level without a name is refused."""
    levels = [level.strip() for level in made.split(":")]
    if not all(levels):
        raise MappingError(
            f"The new account “{made.strip()}” has a level without a name (a colon separates "
            "levels): type its name, e.g. Vehicle, or Vehicle:Fuel for two levels."
        )
    return ":".join([*([parent] if parent else []), *levels])


def made_parents(rows: list[TreeRow], plan: Plan) -> set[str]:
    """The parents the user made on the Map step (a move's new account, or a level of one),
    which can be renamed or moved: not GnuCash's standard parents the plan's tree makes."""
    into = [r.target.strip() for r in plan.rules if r.kind == "move"]
    return {
        r.full_name
        for r in rows
        if r.created
        and r.full_name not in STANDARD
        and any(t == r.full_name or t.startswith(r.full_name + ":") for t in into)
    }


def made_row(rows: list[TreeRow], plan: Plan, path: str) -> TreeRow:
    """The row of the parent made on the Map step at ``path``."""
    row = next((r for r in rows if r.full_name == path), None)
    if row is None or path not in made_parents(rows, plan):
        raise MappingError(
            f"There is no new account “{path}” in the tree any more; reload the page."
        )
    return row


def merge_choices(rows: list[TreeRow], row: TreeRow, account: str) -> list[TreeRow]:
    """The accounts ``account`` (``row``'s) may be merged into: QuickBooks accounts of its own
    family (asset, liability, equity, income, expense), as QuickBooks merges only accounts of one
    type; any, when its type is not known yet."""
    family = row.type.family if row.type else None
    return [
        r
        for r in rows
        if r.origin
        and account not in r.origin
        and (family is None or r.type is None or r.type.family == family)
    ]


def change_made_parent(
    rows: list[TreeRow], plan: Plan, path: str, name: str, parent: str
) -> tuple[Plan, str]:
    """``plan`` with the parent made on the Map step at ``path`` named ``name`` under
    ``parent`` ("": the top level), every account under it going along; and what was done."""
    row = made_row(rows, plan, path)
    if not name or ":" in name:
        raise MappingError(
            "Type the new account's name without a colon (choose where it goes in Under): "
            "nothing changed."
        )
    check_parent(rows, row, parent)
    new = new_parent(parent, name)
    if new == path:
        return plan, "Nothing changed."
    if any(r.full_name == new for r in rows):
        raise MappingError(
            f"There is already an account “{new}”: choose another name or place for “{path}”, "
            "or move its accounts there one by one; nothing changed."
        )
    return plan.with_parent_path(path, new), f"Saved: “{path}” is now “{new}”, with its accounts."


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
    """What a retype does besides the type: "it moves under “Assets:Current Assets” (GnuCash's
    standard tree)" when ``plan`` reparents (a top-level account goes under its type's standard
    parent), and, into another family (income to expense...), how its balance then reads; ""
    for neither."""
    if rule.kind != "retype":
        return ""
    now = apply(resolved, plan)
    said = []
    before = _place(now, rule.account)
    after = _place(apply(resolved, plan.with_rule(rule)), rule.account) if plan.reparent else ""
    if after and after != before:
        parent = after.rpartition(":")[0]
        where = f"under “{parent}”" if parent else "to the top level"
        said.append(f"it moves {where} (GnuCash's standard tree)")
    account = next((a for a in now.accounts if a.full_name == before), None)
    new = AccountType(rule.target)
    if account and account.balance and account.type and account.type.family != new.family:
        old, value = account.type.family, account.balance
        said.append(
            f"its balance, {money(value, usual_sign(old))} as {article(old)} account, reads "
            f"{money(value, usual_sign(new.family))} as {article(new.family)} account in "
            f"GnuCash, and moves from the {old} to the {new.family} side of the reports (a type "
            "says where an amount is reported; QuickBooks' figure is compared as it is)"
        )
    docs = {AccountType.RECEIVABLE: "customers' invoices", AccountType.PAYABLE: "vendors' bills"}
    if account and account.type in docs and new != account.type:
        said.append(
            f"its {docs[account.type]} can no longer be GnuCash documents (GnuCash posts them to "
            f"{TYPE_WORDS[account.type]} accounts only): they stay plain transactions, and "
            "their open items are neither written nor compared"
        )
    return "; ".join(said)


def _place(ledger: Ledger, account: str) -> str:
    """The full name in ``ledger`` of the QuickBooks account ``account`` ("" when gone)."""
    return next((a.full_name for a in ledger.accounts if account in a.origin), "")


def describe(rule: Rule) -> str:
    if rule.kind == "rename":
        return f"Rename “{rule.account}” to “{rule.target}”"
    if rule.kind == "move":
        return (
            f"Move “{rule.account}” under “{rule.target}”"
            if rule.target
            else f"Move “{rule.account}” to the top level"
        )
    if rule.kind == "merge":
        return f"Merge “{rule.account}” into “{rule.target}”"
    return f"Make “{rule.account}” {article(rule.target.lower() + ' account')}"


def new_problems(resolved: Ledger, plan: Plan, rule: Rule) -> list[Problem]:
    """What ``rule`` would add to the tree's problems (MappingError: what it cannot be)."""
    chart = replace(resolved, transactions=())
    before = {p.message for p in tree_problems(chart, plan)}
    return [p for p in tree_problems(chart, plan.with_rule(rule)) if p.message not in before]


def with_checked(resolved: Ledger, plan: Plan, rule: Rule) -> Plan:
    """``plan`` with ``rule``, refused as the list of changes refuses it (``refuse_breaking``):
    the row's form saved a merge into itself or into no account, a name another account has,
    and the Import step was refused until it was undone (hunt 15)."""
    refuse_breaking(resolved, plan, rule)
    return plan.with_rule(rule)


def refuse_breaking(resolved: Ledger, plan: Plan, rule: Rule) -> None:
    """A change that would break the tree (an account moved under its own subaccount...) is
    refused with what the live check says (MappingError), nothing saved."""
    broken = [p.message for p in new_problems(resolved, plan, rule) if p.severity == "error"]
    if broken:
        raise MappingError(f"Not saved: {broken[0][0].upper()}{broken[0][1:]}.")
