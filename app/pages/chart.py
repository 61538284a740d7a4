"""The Preview's chart of accounts as rows: a tree in QuickBooks' type order (bank, A/R, other
current asset ... other expense), or sorted by a column (``?sort=``). A view model like the rest
of ``app.pages.preview``; no Flask here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from app.model import Account, AccountType, Ledger
from app.pages.preview import Column, anchor, columns, natural
from app.quickbooks import TYPE_WORDS, type_name
from app.words import GNUCASH_TYPES, usual_sign

# GnuCash's own words for its account types (its New Account dialog), in its order
GNUCASH_WORDS: dict[AccountType, str] = {t: GNUCASH_TYPES[t.value] for t in AccountType}


@dataclass(frozen=True, slots=True)
class AccountRow:
    full_name: str
    name: str
    depth: int
    type: str  # GnuCash type
    type_words: str  # in GnuCash's words ("A/Receivable"), as the Map step says it
    kind_label: str  # QuickBooks' name of its type ("Other Current Asset")
    code: str
    balance: Decimal | None  # QuickBooks' figure as GnuCash's tree shows it (``shown``)
    splits: int
    hidden: bool
    placeholder: bool
    where: str
    anchor: str
    # a parent's figure with its subaccounts', as GnuCash's tree shows it (its "Total"
    # column), in the tree only; None for an account without subaccounts or balances
    total: Decimal | None = None


# QuickBooks' Chart of Accounts lists accounts by type in this order (then by name).
QUICKBOOKS_ORDER = (
    "BANK",
    "AR",
    "OCASSET",
    "FIXASSET",
    "OASSET",
    "AP",
    "CCARD",
    "OCLIAB",
    "LTLIAB",
    "EQUITY",
    "INC",
    "COGS",
    "EXP",
    "EXINC",
    "EXEXP",
)
_RANK = {code: i for i, code in enumerate(QUICKBOOKS_ORDER)}
_GNUCASH_CODE = {  # an account without a QuickBooks type (no chart): its GnuCash type's place
    AccountType.BANK: "BANK",
    AccountType.CASH: "BANK",
    AccountType.RECEIVABLE: "AR",
    AccountType.ASSET: "OCASSET",
    AccountType.PAYABLE: "AP",
    AccountType.CREDIT: "CCARD",
    AccountType.LIABILITY: "OCLIAB",
    AccountType.EQUITY: "EQUITY",
    AccountType.INCOME: "INC",
    AccountType.EXPENSE: "EXP",
}
ACCOUNT_SORTS = ("account", "number", "type", "qbtype", "balance", "lines")
ACCOUNT_COLUMNS = (  # (label, sort key, right-aligned)
    ("Account", "account", False),
    ("Number", "number", False),
    ("GnuCash type", "type", False),
    ("QuickBooks type", "qbtype", False),
    ("QuickBooks balance", "balance", True),
    ("With subaccounts", "", True),
    ("Lines", "lines", True),
)  # a hidden account says so beside its name
TREE_SORTS = ("", "qbtype", "account")  # sorted so, the chart is still shown as a tree


def shown(value: Decimal | None, kind: AccountType | None) -> Decimal | None:
    """A debit-positive figure (None: QuickBooks gives none) as GnuCash's tree shows it for an
    account of ``kind``: a liability's, equity's or income's credit positive."""
    if value is None:
        return None
    return usual_sign(kind.family if kind else "") * value


def quickbooks_rank(a: Account) -> int:
    """Where QuickBooks lists an account's type (bank first, other expense last; unknown
    after them)."""
    code = TYPE_WORDS.get(a.kind_label.strip().casefold(), "")
    if not code and a.type is not None:
        code = _GNUCASH_CODE[a.type]
    return _RANK.get(code, len(_RANK))


def _quickbooks_tree(accounts: Sequence[Account], listed: bool) -> list[Account]:
    """Parents before their children, siblings as QuickBooks lists them: by type, then in the
    order of the chart's own list when there is one (``listed``: the IIF lists, which QuickBooks
    writes in its Chart of Accounts' order), else by name."""
    names = {a.full_name for a in accounts}
    children: dict[str, list[Account]] = {}
    for a in accounts:
        parent = a.full_name.rpartition(":")[0]
        children.setdefault(parent if parent in names else "", []).append(a)
    out: list[Account] = []

    def walk(parent: str) -> None:
        for a in sorted(
            children.get(parent, ()),
            key=lambda a: (quickbooks_rank(a), a.source if listed else a.name.casefold()),
        ):
            out.append(a)
            walk(a.full_name)

    walk("")
    return out


def account_rows(ledger: Ledger, sort: str = "") -> list[AccountRow]:
    """The chart as a table. By default (and sorted by QuickBooks type) a tree as QuickBooks
    lists it: by type (bank, A/R, other current asset, fixed asset, other asset, A/P, credit
    card, other current liability, long-term liability, equity, income, cost of goods sold,
    expense, other income, other expense), parents before children; "account" is the tree by
    name; any other ``sort`` ("number", "-balance"...) a flat list with full names."""
    counts = Counter(s.account for t in ledger.transactions for s in t.splits)
    key = sort.removeprefix("-")
    if key not in ACCOUNT_SORTS:
        sort = key = ""
    if sort in ("", "qbtype"):
        accounts = _quickbooks_tree(ledger.accounts, ledger.chart)
    elif key == "account":
        accounts = sorted(ledger.accounts, key=_tree_key)
    else:
        keys = {
            "number": lambda a: natural(a.code) if a.code else (2, 0, ""),
            "type": lambda a: (a.type.value if a.type else "~", _tree_key(a)),
            "qbtype": lambda a: (quickbooks_rank(a), _tree_key(a)),
            "balance": lambda a: (a.balance is None, shown(a.balance, a.type) or 0, _tree_key(a)),
            "lines": lambda a: (counts[a.full_name], _tree_key(a)),
        }
        accounts = sorted(ledger.accounts, key=keys[key])
    if sort.startswith("-"):
        accounts.reverse()
    tree = sort in TREE_SORTS
    totals = _subtotals(ledger.accounts) if tree else {}
    return [
        AccountRow(
            full_name=a.full_name,
            name=a.name if tree else a.full_name,
            depth=a.full_name.count(":") if tree else 0,
            type=a.type.value if a.type else "unknown",
            type_words=GNUCASH_WORDS[a.type] if a.type else "unknown",
            kind_label=type_name(a.kind_label),
            code=a.code,
            balance=shown(a.balance, a.type),
            splits=counts[a.full_name],
            hidden=a.hidden,
            placeholder=a.placeholder,
            where=str(a.source),
            anchor=anchor(a.source),
            total=shown(totals.get(a.full_name), a.type),
        )
        for a in accounts
    ]


def _subtotals(accounts: Sequence[Account]) -> dict[str, Decimal]:
    """Each parent's QuickBooks balance with all its subaccounts', debit positive (hunt 23 M3:
    the Preview showed Truck 0.00 beside 13,750.00 and -940.97 under it); only parents whose
    subtree holds a balance."""
    names = {a.full_name for a in accounts}
    out: dict[str, Decimal] = {}
    for a in accounts:
        if a.balance is None:
            continue
        parent = a.full_name.rpartition(":")[0]
        while parent:
            if parent in names:
                out[parent] = out.get(parent, Decimal(0)) + a.balance
            parent = parent.rpartition(":")[0]
    own = {a.full_name: a.balance for a in accounts}
    return {name: value + (own[name] or 0) for name, value in out.items()}


def account_columns(sort: str) -> list[Column]:
    return columns(
        ACCOUNT_COLUMNS, sort if sort.removeprefix("-") in ACCOUNT_SORTS else "", "qbtype"
    )


def _tree_key(a: Account) -> tuple[str, ...]:
    return tuple(level.casefold() for level in a.full_name.split(":"))
