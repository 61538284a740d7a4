"""The account plan applied to a resolved ledger: a pure function from (ledger, plan) to ledger.

Order: retype rules, then the tree (QuickBooks' own tree with names unchanged, or with
``plan.reparent`` every top-level account under GnuCash's standard parent for its QuickBooks
type, sub-accounts following their parent), then renames, then moves, then merges.

Decisions:
- A ``move`` target is a full name in the tree as it stands after the renames and the earlier
  moves; a parent that does not exist yet is created.
- Every parent this module creates (standard parents, missing QuickBooks parents, new move
  targets) is a placeholder: nothing posts to it. Its type is the standard one, else the
  child's type.
- When reparenting, a QuickBooks account whose name is the standard parent's own name (``Cost
  of Goods Sold``, ``Equity``) becomes that parent, and a QuickBooks account that lands on a
  standard parent's place (``Other Income`` under ``Income``) is used as that parent instead of
  a second account with the same name.
- Merging A into B: A's splits and children go to B, A disappears, B.origin gains A's origin,
  the QuickBooks balances add up. Merging across type families is allowed, with a warning.
- Rules naming accounts that do not exist are error problems, not exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from difflib import get_close_matches

from app.mapping_owed import owed_gone
from app.model import Account, AccountType, Ledger, Problem, Role
from app.plan import Plan, Rule, name_fault, target_word
from app.quickbooks import ACCOUNT_TYPES, STANDARD_PARENTS
from app.resolve import renamed
from app.source import Source
from app.words import article, quoted

A = AccountType
# Standard parents (GnuCash's usual top level) and their types.
STANDARD: dict[str, AccountType] = {
    "Assets": A.ASSET,
    "Assets:Current Assets": A.ASSET,
    "Assets:Fixed Assets": A.ASSET,
    "Assets:Other Assets": A.ASSET,
    "Liabilities": A.LIABILITY,
    "Liabilities:Credit Cards": A.CREDIT,
    "Liabilities:Current Liabilities": A.LIABILITY,
    "Liabilities:Long-Term Liabilities": A.LIABILITY,
    "Equity": A.EQUITY,
    "Income": A.INCOME,
    "Income:Other Income": A.INCOME,
    "Expenses": A.EXPENSE,
    "Expenses:Cost of Goods Sold": A.EXPENSE,
    "Expenses:Other Expenses": A.EXPENSE,
}
BY_TYPE: dict[AccountType, str] = {
    A.BANK: "Assets:Current Assets",
    A.CASH: "Assets:Current Assets",
    A.ASSET: "Assets",
    A.RECEIVABLE: "Assets:Current Assets",
    A.CREDIT: "Liabilities:Credit Cards",
    A.LIABILITY: "Liabilities",
    A.PAYABLE: "Liabilities:Current Liabilities",
    A.EQUITY: "Equity",
    A.INCOME: "Income",
    A.EXPENSE: "Expenses",
}


def standard_parent(kind_label: str, type_: AccountType | None) -> str:
    """Where reparenting puts a top-level account: by its QuickBooks type when that still agrees
    with its (possibly retyped) GnuCash type, else by the GnuCash type; "" when untyped."""
    code = kind_label.upper()
    if code in STANDARD_PARENTS and ACCOUNT_TYPES.get(code) == type_:
        return STANDARD_PARENTS[code]
    return BY_TYPE.get(type_, "") if type_ else ""


@dataclass
class _Node:
    """One account of the tree being built (local, mutable while ``apply`` runs)."""

    key: str  # source full name; "+path" for a parent created here
    name: str
    type: AccountType | None
    parent: str | None
    source: Source
    account: Account | None = None
    origin: list[str] = field(default_factory=list)
    balance: Decimal | None = None
    role: Role = Role.NONE
    label: str = ""  # QuickBooks type code (a created parent takes its first child's)
    merged_in: list[tuple[str, AccountType]] = field(default_factory=list)  # and their types


class _Tree:
    def __init__(self) -> None:
        self.nodes: dict[str, _Node] = {}

    def path(self, key: str) -> str:
        names: list[str] = []
        seen: set[str] = set()
        while key and key not in seen:
            seen.add(key)
            node = self.nodes[key]
            names.append(node.name)
            key = node.parent or ""
        return ":".join(reversed(names))

    def find(self, path: str) -> str | None:
        """The key of the node at ``path`` (an account before a created parent)."""
        hits = [k for k in self.nodes if self.path(k) == path]
        hits.sort(key=lambda k: k.startswith("+"))
        return hits[0] if hits else None

    def ensure(self, path: str, child: _Node, placed: dict[str, str] | None = None) -> str | None:
        """The key of the node at ``path``, creating placeholder parents level by level."""
        if not path:
            return None
        parent: str | None = None
        levels = path.split(":")
        for i in range(len(levels)):
            prefix = ":".join(levels[: i + 1])
            if placed is None:
                key = self.find(prefix)
            else:  # reparenting: only accounts placed there or parents made for it
                key = placed.get(prefix) or next(
                    (k for k in self.nodes if k.startswith("+") and self.path(k) == prefix), None
                )
            if key is None:
                key = "+" + prefix
                while key in self.nodes:  # a parent made earlier has moved away
                    key += "+"
                self.nodes[key] = _Node(
                    key, levels[i], STANDARD.get(prefix, child.type), parent, child.source
                )
                if prefix not in STANDARD:
                    self.nodes[key].label = child.label
            parent = key
        return parent

    def is_below(self, key: str, ancestor: str) -> bool:
        while key:
            if key == ancestor:
                return True
            key = self.nodes[key].parent or ""
        return False


def apply(ledger: Ledger, plan: Plan) -> Ledger:
    """The ledger with the plan applied: final names, types, placeholders; splits rewritten."""
    out, names = applied(ledger, plan)
    return replace(out, transactions=renamed(out.transactions, names))


def applied(ledger: Ledger, plan: Plan) -> tuple[Ledger, dict[str, str]]:
    """``apply`` but for the splits, and the renames they take: full name in ``ledger`` →
    final full name, for every account whose splits post under another name. The transactions
    are left as they are: figures summed per account follow the renames without a pass over
    the history, and the history is renamed once, when the book is written."""
    tree = _Tree()
    problems: list[Problem] = []
    known = {a.full_name for a in ledger.accounts}
    for a in ledger.accounts:
        tree.nodes[a.full_name] = _Node(
            a.full_name,
            a.name,
            a.type,
            a.parent_name or None,
            a.source,
            a,
            list(a.origin or (a.full_name,)),
            a.balance,
            a.role,
            a.kind_label,
        )
    missing = [a for a in ledger.accounts if a.parent_name and a.parent_name not in known]
    for a in missing:
        tree.nodes[a.full_name].parent = None
    for a in missing:  # QuickBooks parents missing from the chart
        tree.nodes[a.full_name].parent = tree.ensure(a.parent_name, tree.nodes[a.full_name])
    rules = [r for r in plan.rules if _exists(r, known, problems)]
    for r in rules:
        if r.kind == "retype":
            tree.nodes[r.account].type = AccountType(r.target)
    _type_empty_parents(tree)
    if plan.reparent:
        _reparent(tree)
    for r in rules:
        if r.kind == "rename":
            tree.nodes[r.account].name = r.target
    for r in rules:
        if r.kind == "move":
            _move(tree, r.account, r.target.strip(), problems)
    final_of = _merge(tree, [r for r in rules if r.kind == "merge"], problems)
    accounts = _accounts(tree)
    problems += owed_gone(ledger.accounts, accounts)
    paths = {k: tree.path(k) for k in tree.nodes}
    names = {src: paths[key] for src, key in final_of.items() if src != paths[key]}
    return replace(ledger, accounts=accounts, problems=(*ledger.problems, *problems)), names


def _exists(rule: Rule, known: set[str], problems: list[Problem]) -> bool:
    if rule.account not in known:
        name = rule.account
    elif rule.kind == "merge" and rule.target not in known:
        name = rule.target
    elif why := name_fault(rule):
        said = f"the {target_word(rule)} {quoted(rule.target)} for {quoted(rule.account)} {why}"
        problems.append(Problem(None, said))
        return False
    else:
        return True
    close = get_close_matches(name, known, n=1)
    problems.append(
        Problem(
            None,
            f"the change {rule.kind} {quoted(rule.account)} names account {quoted(name)}, which "
            "none of the "
            "files lists" + (f" (they list {quoted(close[0])})" if close else ""),
            fix="unknown_account",
        )
    )
    return False


def _type_empty_parents(tree: _Tree) -> None:
    """An untyped parent nothing posts to (created here, or a placeholder inferred from report
    labels) takes its first typed sub-account's type, so retyping the child is enough."""
    children: dict[str, list[_Node]] = {}
    for n in tree.nodes.values():
        if n.parent:
            children.setdefault(n.parent, []).append(n)

    def typed(node: _Node) -> AccountType | None:
        if node.type is None and (node.account is None or node.account.placeholder):
            node.type = next(
                (t for c in children.get(node.key, []) if (t := typed(c)) is not None), None
            )
        return node.type

    for n in list(tree.nodes.values()):
        typed(n)


def _reparent(tree: _Tree) -> None:
    roots = [n for n in tree.nodes.values() if n.parent is None]
    placed: dict[str, str] = {}  # final path → key, for QuickBooks accounts that become parents
    targets: dict[str, str] = {}
    for n in roots:
        parent = standard_parent(n.label, n.type)
        if not parent:
            continue
        own = parent.rsplit(":", 1)[-1]
        if n.name == own:
            placed.setdefault(parent, n.key)
            targets[n.key] = parent.rpartition(":")[0]
        else:
            placed.setdefault(f"{parent}:{n.name}", n.key)
            targets[n.key] = parent
    for key, parent in targets.items():
        node = tree.nodes[key]
        if parent and not tree.is_below(placed.get(parent, ""), key):
            node.parent = tree.ensure(parent, node, placed)
        else:
            node.parent = None


def _move(tree: _Tree, key: str, target: str, problems: list[Problem]) -> None:
    node = tree.nodes[key]
    where = tree.find(target) if target else None
    if where is None and target in tree.nodes:  # (an account an earlier move took elsewhere:
        where = target  # by its QuickBooks name, so a circle of moves is one, not a new parent)
    if where is not None and tree.is_below(where, key):
        problems.append(
            Problem(
                None,
                f"cannot move {quoted(key)} under {quoted(target)}, which is inside it",
            )
        )
        return
    node.parent = where if where is not None or not target else tree.ensure(target, node)


def _merge_targets(tree: _Tree, into: dict[str, str], problems: list[Problem]) -> dict[str, str]:
    """Each account → where its chain of merges ends (a circle is a problem and merges nothing)."""
    final: dict[str, str] = {k: k for k in tree.nodes if not k.startswith("+")}
    for start in into:
        key, seen = start, [start]
        while key in into:
            key = into[key]
            if key in seen:
                problems.append(
                    Problem(None, f"the merges go round in a circle ({' → '.join(seen)})")
                )
                break
            seen.append(key)
        else:
            final[start] = key
    return final


CROSSED = (  # (hunt 15: the proof then blamed a transaction missing from the files)
    "; and QuickBooks counts a balance-sheet account from all time, an income or expense "
    "account from the fiscal year's start, so after the first fiscal year the merged account "
    "differs from QuickBooks' figures: retype it first, or merge into an account of its kind"
)


def _mixed(a: _Node, b: _Node) -> Problem:
    """The warning for ``a`` merged into ``b`` of another family (both typed)."""
    assert a.type is not None and b.type is not None
    crossed = a.type.balance_sheet != b.type.balance_sheet  # (counted from other days)
    return Problem(
        a.source,
        f"merging {quoted(a.key)} ({a.type.family}) into {quoted(b.key)} ({b.type.family}) puts "
        f"{a.type.family} amounts in {article(b.type.family)} account: GnuCash's "
        "reports then count them there" + CROSSED * crossed,
        "warning",
    )


def _absorb(a: _Node, b: _Node, problems: list[Problem]) -> None:
    """``a`` merged into ``b``: its names, role, balance, and what was merged into it."""
    if a.type and b.type and a.type.family != b.type.family:
        problems.append(_mixed(a, b))
    b.origin.extend(o for o in a.origin if o not in b.origin)
    counted = (a.account.counted if a.account else None) or a.type  # (QuickBooks' type)
    if counted is not None:  # (``Account.crossed``, ``mapping_owed.put_onto``: the causes)
        b.merged_in.append((a.origin[0] if a.origin else a.key, counted))
    b.merged_in.extend(a.merged_in)
    if b.role is Role.NONE:
        b.role = a.role
    if a.balance is not None:
        b.balance = a.balance + (b.balance or Decimal(0))


def _merge(tree: _Tree, rules: list[Rule], problems: list[Problem]) -> dict[str, str]:
    """Apply merges; return source full name → key of the node that now holds its splits."""
    final = _merge_targets(tree, {r.account: r.target for r in rules}, problems)
    for src, dst in final.items():
        if src == dst:
            continue
        _absorb(tree.nodes[src], tree.nodes[dst], problems)
    for src, dst in final.items():
        if src != dst:
            if tree.is_below(dst, src):  # merging a parent into its own sub-account
                tree.nodes[dst].parent = tree.nodes[src].parent
            for n in tree.nodes.values():
                if n.parent == src:
                    n.parent = dst
    for src, dst in final.items():
        if src != dst:
            del tree.nodes[src]
    return final


def _counted_as(was: AccountType | None, now: AccountType | None) -> AccountType | None:
    """QuickBooks' type when a retype crossed the balance-sheet line: its figure still counts
    by it (``Account.counted_as``); else None."""
    crossed = was is not None and now is not None and was.balance_sheet != now.balance_sheet
    return was if crossed else None


def _accounts(tree: _Tree) -> tuple[Account, ...]:
    """Parents first (depth-first, siblings in their original order)."""
    children: dict[str | None, list[str]] = {}
    for key, node in tree.nodes.items():
        children.setdefault(node.parent, []).append(key)
    top = ("Assets", "Liabilities", "Equity", "Income", "Expenses")
    roots = children.get(None, [])
    roots.sort(key=lambda k: top.index(tree.nodes[k].name) if tree.nodes[k].name in top else 5)
    out: list[Account] = []

    def walk(parent: str | None) -> None:
        for key in children.get(parent, []):
            node = tree.nodes[key]
            full = tree.path(key)
            if node.account is None:
                out.append(
                    Account(full_name=full, type=node.type, source=node.source, placeholder=True)
                )
            else:
                out.append(
                    replace(
                        node.account,
                        full_name=full,
                        type=node.type,
                        origin=tuple(node.origin),
                        balance=node.balance,
                        role=node.role,
                        counted_as=_counted_as(node.account.counted, node.type),
                        merged_in=tuple(node.merged_in),
                    )
                )
            walk(key)

    walk(None)
    return tuple(out)
