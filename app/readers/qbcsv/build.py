"""Fast constructors for the model's Split/Source and Transaction (used by the CSV hot loop).

The model's frozen slots dataclasses set each field through ``object.__setattr__`` in their
generated ``__init__``: for the 224k splits of a 30 MB report that is about half the cost of
csv.reader itself. These builders make the very same objects by setting the slots through their
descriptors (no ``__init__``, no name lookup per field). They are used only while the classes
still have exactly the fields written here and no ``__post_init__``; otherwise (the model grew a
field) the ordinary constructors are used, so a model change can never leave a slot unset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from decimal import Decimal

from app.model import Reconcile, Split, Transaction
from app.source import Source

_SOURCE = ("filename", "line")
_SPLIT = (
    "account", "value", "source", "memo", "reconcile", "mark", "account_type_label", "owner",
    "item", "klass",
)  # fmt: skip
_TRANSACTION = (
    "date", "splits", "source", "num", "description", "notes", "ref", "kind_label", "voided",
    "due", "terms",
)  # fmt: skip

SplitMaker = Callable[[str, Decimal, int, str, Reconcile, str, str], Split]


def _direct(cls: type, names: tuple[str, ...]) -> bool:
    """True when ``cls`` is a slots dataclass with exactly ``names`` and nothing run on init."""
    return (
        tuple(f.name for f in fields(cls)) == names
        and getattr(cls, "__slots__", None) == names
        and not hasattr(cls, "__post_init__")
    )


def split_maker(filename: str) -> SplitMaker:
    """``make(account, value, line, memo, reconcile, mark, account_type_label)`` → the Split
    ``Split(account, value, Source(filename, line), memo, reconcile, mark, label)``."""
    if not (_direct(Source, _SOURCE) and _direct(Split, _SPLIT)):

        def plain(account, value, line, memo, reconcile, mark, label):  # noqa: PLR0917
            return Split(account, value, Source(filename, line), memo, reconcile, mark, label)

        return plain
    new = object.__new__
    set_file, set_line = (getattr(Source, n).__set__ for n in _SOURCE)
    s_account, s_value, s_source, s_memo, s_reconcile, s_mark, s_label, s_owner, s_item, s_klass = (
        getattr(Split, n).__set__ for n in _SPLIT
    )

    def make(account, value, line, memo, reconcile, mark, label):  # noqa: PLR0917
        src = new(Source)
        set_file(src, filename)
        set_line(src, line)
        split = new(Split)
        s_account(split, account)
        s_value(split, value)
        s_source(split, src)
        s_memo(split, memo)
        s_reconcile(split, reconcile)
        s_mark(split, mark)
        s_label(split, label)
        s_owner(split, "")
        s_item(split, None)  # set after, by the reader, where the row has item columns
        s_klass(split, "")  # likewise, where the row has a Class column
        return split

    return make


def transaction_maker() -> Callable[..., Transaction]:
    """``make(date, splits, source, num, description, notes, ref, kind_label, voided)`` → the
    Transaction with those fields (all positional, all required)."""
    if not _direct(Transaction, _TRANSACTION):
        return Transaction
    new = object.__new__
    setters = [getattr(Transaction, n).__set__ for n in _TRANSACTION]
    s_date, s_splits, s_source, s_num, s_desc, s_notes, s_ref, s_kind, s_void, s_due, s_terms = (
        setters
    )

    def make(date, splits, source, num, description, notes, ref, kind, voided):  # noqa: PLR0917
        txn = new(Transaction)
        s_date(txn, date)
        s_splits(txn, splits)
        s_source(txn, source)
        s_num(txn, num)
        s_desc(txn, description)
        s_notes(txn, notes)
        s_ref(txn, ref)
        s_kind(txn, kind)
        s_void(txn, voided)
        s_due(txn, None)
        s_terms(txn, "")
        return txn

    return make


class Group:
    """One transaction being rebuilt: fields from its first row, its splits."""

    __slots__ = ("date", "kind", "line", "name", "names", "num", "ref", "splits", "void")

    def __init__(  # noqa: PLR0917 - positional for speed: one per transaction
        self, line: int, ref: str, kind: str, date: str, num: str, name: str
    ) -> None:
        self.line = line
        self.ref = ref
        self.kind = kind
        self.date = date
        self.num = num
        self.name = name
        self.splits: list[Split] = []
        self.void = False  # a split memo starts with VOID (QuickBooks' voided transactions)
        self.names: list[tuple[Split, str]] | None = None  # lines named otherwise than row 1

    def own(self, split: Split, name: str) -> None:
        """``split``'s row names someone other than the first row (a deposit's payer)."""
        if self.names is None:
            self.names = [(split, name)]
        else:
            self.names.append((split, name))


def renamed(
    groups: list[Group], flat: list[tuple], names: dict[str, str]
) -> tuple[list[Group], list[tuple]]:
    """Groups and flat rows (the Find export's, split at index 5) with each split whose account
    is a key of ``names`` on that name instead; a line's own name stays with its split."""
    for g in groups:
        if any(s.account in names for s in g.splits):
            new = {id(s): replace(s, account=names.get(s.account, s.account)) for s in g.splits}
            g.splits = [new[id(s)] for s in g.splits]
            if g.names:
                g.names = [(new[id(s)], name) for s, name in g.names]
    flat = [
        (*row[:5], replace(row[5], account=names[row[5].account]), *row[6:])
        if row[5].account in names
        else row
        for row in flat
    ]
    return groups, flat
