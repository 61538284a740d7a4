"""What an update writes (``Decision``), and the accounts QuickBooks renamed since the last run
(docs/UPDATE.md, "An account renamed in QuickBooks").

QuickBooks renames an account everywhere, its history included: the later exports call every
earlier transaction's line by the new name. Found by its number (the book's account code, the
exports' account number, the old name gone from the exports), the rename is held like an edited
transaction: by default the book keeps its name, QuickBooks' accounts are given the book's names
(plan rules, never stored), so the earlier transactions are the book's and the new ones go into
the book's account. Taken from QuickBooks (``Plan.held``: ``account:NUMBER``), the book's account
is renamed and its transactions' keys restamped with QuickBooks' names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from app import keys as k
from app.documents.taxes import SalesTax
from app.fixes import Audience
from app.model import Ledger
from app.plan import Rule
from app.source import Source
from app.update import BookEntry, BookState, Work
from app.update_budgets import Budgets
from app.update_words import DECIDED, Chosen, held_head
from app.words import quoted


@dataclass(frozen=True, slots=True)
class AccountRename(Chosen):
    """The book's ``book`` is QuickBooks' ``quickbooks`` now (same number ``code``, same
    parent); ``choice``: the plan's ("quickbooks", "book"; "": undecided, held)."""

    book: str  # as the keys name it
    quickbooks: str
    origin: str  # QuickBooks' own full name of it now (the plan's rules name that)
    code: str
    source: Source
    choice: str = ""
    now: str = ""  # the book's own name of it, where renamed or moved in GnuCash too

    @property
    def in_book(self) -> str:
        """Its name in the book now (before a rename the plan takes)."""
        return self.now or self.book

    @property
    def taken_name(self) -> str:
        """Its name in the book once QuickBooks' name is taken: QuickBooks' leaf, under the
        parent the book has it under."""
        return ":".join(filter(None, (_split(self.in_book)[0], _split(self.quickbooks)[1])))

    @property
    def key(self) -> str:
        return f"account:{self.code}"

    def said(self, audience: Audience = "cli") -> str:
        if self.taken:
            return (
                f"Taken from QuickBooks {DECIDED[audience]}: the book's account "
                f"{quoted(self.in_book)} renamed {quoted(self.taken_name)}"
            )
        head = held_head(self.key, self.kept, audience)
        return (
            f"{head}{self.source}: QuickBooks now calls account {self.code} "
            f"{quoted(self.quickbooks)} "
            f"where the book has {quoted(self.in_book)}: renamed in QuickBooks; the book keeps "
            "its name, "
            "and the exports' transactions of that account are in it"
        )


def _split(name: str) -> tuple[str, str]:
    parent, _, leaf = name.rpartition(":")
    return parent, leaf


def account_renames(
    state: BookState, ledger: Ledger, choices: Mapping[str, str]
) -> tuple[AccountRename, ...]:
    """Each account of ``ledger`` the book does not have by name but has by number, under the
    same parent, its book name gone from ``ledger``; a sub-account that only follows its
    parent's rename is not one of its own."""
    names = {a.full_name for a in ledger.accounts}
    ours = state.keyed | set(state.record.figures if state.record else ())  # not GnuCash's own
    by_code: dict[str, list[str]] = {}
    for name, code in state.codes.items():
        if code and name not in names and name in ours:
            by_code.setdefault(code, []).append(name)
    found = []
    for a in ledger.accounts:
        was = by_code.get(a.code, []) if a.code and a.full_name not in state.accounts else []
        if len(was) == 1 and _split(was[0])[0] == _split(a.full_name)[0]:
            origin = a.origin[0] if len(a.origin) == 1 else a.full_name
            choice = choices.get(f"account:{a.code}", "")
            now = state.here.get(was[0], "")
            found.append(AccountRename(was[0], a.full_name, origin, a.code, a.source, choice, now))
    return tuple(found)


def taken_as(renames: tuple[AccountRename, ...]) -> dict[str, str]:
    """The keys' name of each account whose QuickBooks name the plan takes → its name after
    the run (QuickBooks')."""
    return {r.book: r.quickbooks for r in renames if r.taken}


def rules(renames: tuple[AccountRename, ...]) -> tuple[Rule, ...]:
    """The plan rules that give QuickBooks' accounts the book's names."""
    return tuple(Rule("rename", r.origin, _split(r.book)[1]) for r in renames)


def named(ledger: Ledger, renames: tuple[AccountRename, ...]) -> bool:
    """Whether the rules did give ``ledger`` (prepared with them) the book's names."""
    have = {a.full_name for a in ledger.accounts}
    return all(r.book in have and r.quickbooks not in have for r in renames)


@dataclass(frozen=True)
class Decision:
    """What the update writes: the exports' final ledger, the work, the book currency, the
    run record it leaves, the documents pass's input (``Documents``, ``Allocation``) and the
    accounts QuickBooks renamed (the taken ones renamed in the book)."""

    ledger: Ledger
    work: Work
    currency: str
    record: str
    docs: tuple | None = None
    rewrite: bool = False  # the plan changed (a decision on a held change): write the record
    renames: tuple[AccountRename, ...] = ()
    named: Mapping[str, str] = field(default_factory=dict)  # book's → keys' (renamed here)
    # the book's transactions of QuickBooks in an account whose QuickBooks name is taken, as
    # the book names their accounts once renamed: their key slots stamped anew
    restamp: tuple[BookEntry, ...] = ()
    sales_tax: SalesTax | None = None  # the documents' items and tax tables
    # the classes whose QuickBooks name is taken (the book's name → QuickBooks'), renamed in the
    # book's lines, and their sub-accounts to rename: (name in the book, new leaf, keys' name)
    classes: Mapping[str, str] = field(default_factory=dict)
    class_accounts: tuple[tuple[str, str, str], ...] = ()
    budgets: Budgets = field(default_factory=Budgets)  # QuickBooks' budgets, as the book names

    @property
    def writes(self) -> bool:
        taken = any(r.taken for r in self.renames)
        again = bool(self.work.by_hand or self.work.rekeyed)  # (their key slots written)
        changed = bool(self.classes) or self.budgets.writes
        return self.rewrite or not self.work.nothing_new or taken or again or changed


def in_book(work: Work, to_book: Mapping[str, str]) -> Work:
    """``work`` with the accounts named as the book names them once the renames the plan takes
    are made: the keys' name → the book's (``to_book``, sub-accounts with their parent), for the
    writer and the proof, which see the book."""
    if not to_book:
        return work

    def entry(e: BookEntry) -> BookEntry:  # (its sums as the book names the accounts too)
        lines = tuple((k.by_prefix(a, to_book), v) for a, v in e.lines)
        return replace(e, lines=lines, sums=k.sums(e.date, "v" in e.marks, lines))

    return replace(
        work,
        present={i: entry(e) for i, e in work.present.items()},
        held=tuple(replace(h, entry=entry(h.entry)) for h in work.held),
        taken=tuple(replace(h, entry=entry(h.entry)) for h in work.taken),
        edited_here=tuple(entry(e) for e in work.edited_here),
        added_here=tuple(entry(e) for e in work.added_here),
        by_hand=tuple(entry(e) for e in work.by_hand),
        rekeyed=tuple((i, entry(e)) for i, e in work.rekeyed),
        links=tuple(entry(e) for e in work.links),
        new_accounts=tuple(k.by_prefix(a, to_book) for a in work.new_accounts),
        accounts_here=tuple(k.by_prefix(a, to_book) for a in work.accounts_here),
        reconciled=tuple(
            replace(c, account=k.by_prefix(c.account, to_book)) for c in work.reconciled
        ),
        reconciled_here=tuple(
            replace(r, account=k.by_prefix(r.account, to_book)) for r in work.reconciled_here
        ),
    )


def to_book(state: BookState, renames: tuple[AccountRename, ...]) -> dict[str, str]:
    """The keys' name of each account → the book's, where they differ: renamed in GnuCash,
    or in QuickBooks with its name taken (the book's account renamed so)."""
    out = dict(state.here)
    out.update({r.book: r.taken_name for r in renames if r.taken})
    return out


def book_rules(compared: Ledger, names: Mapping[str, str]) -> tuple[Rule, ...]:
    """The plan rules that give the exports' accounts, named as the keys have them
    (``compared``), the book's names (``names``: keys' → book's): renamed, or moved under
    another parent, where the account itself changed (not only its parent)."""
    out = []
    for a in compared.accounts:
        book = names.get(a.full_name)
        if book is None or book == a.full_name:
            continue
        origin = a.origin[0] if len(a.origin) == 1 else a.full_name
        parent, leaf = _split(book)
        if _split(origin)[1] != leaf:  # (QuickBooks' leaf, which a kept rename differs from)
            out.append(Rule("rename", origin, leaf))
        if k.by_prefix(_split(a.full_name)[0], names) != parent:
            out.append(Rule("move", origin, parent))  # (the account by QuickBooks' name)
    return tuple(out)


def all_named(ledger: Ledger, names: Mapping[str, str]) -> bool:
    """Whether ``ledger`` has every book name of ``names`` and none of the keys' names left."""
    have = {a.full_name for a in ledger.accounts}
    return all(new in have and (old == new or old not in have) for old, new in names.items())


def to_restamp(state: BookState, to_book: Mapping[str, str], renames) -> tuple[BookEntry, ...]:
    """The book's transactions of QuickBooks with a line in an account whose QuickBooks name the
    plan takes (or under it), their lines as the book names them afterwards (``to_book``)."""
    old = tuple(r.book for r in renames if r.taken)
    if not old:
        return ()

    def touched(e: BookEntry) -> bool:
        return any(a == o or a.startswith(o + ":") for a, _ in e.lines for o in old)

    return tuple(
        replace(e, lines=tuple((k.by_prefix(a, to_book), v) for a, v in e.lines))
        for e in state.entries
        if e.stamp is not None and touched(e)
    )


def book_to_keys(state: BookState, renames: tuple[AccountRename, ...]) -> dict[str, str]:
    """The book's name of each account → the keys', where they differ after this run: renamed
    in GnuCash, or with QuickBooks' name taken under a parent the book names otherwise."""
    taken = {r.book for r in renames if r.taken}
    out = {now: was for was, now in state.here.items() if was not in taken}
    out.update({r.taken_name: r.quickbooks for r in renames if r.taken})
    return {now: was for now, was in out.items() if now != was}
