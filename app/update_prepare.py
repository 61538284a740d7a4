"""The exports prepared as an update compares and writes them (docs/UPDATE.md): the accounts
QuickBooks renamed under the book's names for them (``compared``), the accounts as the book names
them (renamed or moved in GnuCash, or a QuickBooks name taken: ``in_book``), and the classes whose
QuickBooks name the plan takes (``taken``).
"""

from __future__ import annotations

from dataclasses import replace

from app import mapping, pipeline, update_classes
from app import update_decision as renaming
from app.errors import ProblemsError
from app.model import Account, Ledger, Problem
from app.plan import Plan, Rule
from app.update import BookState, UpdateRefused, Work, aligned
from app.update_decision import AccountRename
from app.words import quoted


def followed(state: BookState, parsed: Ledger, plan: Plan) -> tuple[Ledger, Plan]:
    """The stored plan's changes of an account QuickBooks renamed since the last run, made to
    its new name (a rename, a move, a retype: the book's account made from it is found by its
    number, an export's account under the same parent that the book does not have), with a
    warning saying so; a change no such account explains is left as it is (said by ``prepare``),
    and so is a merge (the book has no account of the one merged away to find by number). Made
    only where the account, named as it was, is what the changes made the book's of its number
    (``_was``)."""
    names = {a.full_name for a in parsed.accounts}
    gone = {r.account for r in plan.rules if r.account not in names and r.kind != "merge"}
    if not gone:
        return parsed, plan
    in_book = {}  # the book's accounts from QuickBooks the exports do not name, by number
    for name, code in state.codes.items():
        if code and name not in names and name in state.keyed:
            in_book[code] = name if code not in in_book else ""
    new = [a for a in parsed.accounts if in_book.get(a.code) and a.full_name not in state.accounts]
    to: dict[str, str] = {}
    for old in sorted(gone):
        parent = old.rpartition(":")[0]
        same = [a for a in new if a.full_name.rpartition(":")[0] == parent]
        if len(same) == 1 and _was(state, parsed, plan, old, same[0]):
            to[old] = same[0].full_name
    if not to:
        return parsed, plan
    rules = tuple(replace(r, account=to.get(r.account, r.account)) for r in plan.rules)
    codes = {a.full_name: a.code for a in new}
    said = [
        Problem(
            next(a.source for a in parsed.accounts if a.full_name == new_name),
            f"QuickBooks renamed account {quoted(old)} to {quoted(new_name)} since the last run "
            "(found by "
            f"its number, {codes[new_name]}): the book's changes of it ({_kinds(plan.rules, old)})"
            " now name it so",
            "warning",
        )
        for old, new_name in to.items()
    ]
    return replace(parsed, problems=(*parsed.problems, *said)), replace(plan, rules=rules)


def _was(state: BookState, parsed: Ledger, plan: Plan, old: str, now: Account) -> bool:
    """Whether ``now`` (an account of the exports) is ``old`` renamed: named ``old`` again, the
    plan's changes make of it the book's account of its number (an unused account the plan
    renamed and QuickBooks deleted is not another account QuickBooks renamed since: hunt 18)."""
    back = Ledger(
        accounts=tuple(replace(a, full_name=old) if a is now else a for a in parsed.accounts)
    )
    made = next((a.full_name for a in mapping.apply(back, plan).accounts if a.code == now.code), "")
    return bool(made) and state.codes.get(made) == now.code


def _kinds(rules: tuple[Rule, ...], account: str) -> str:
    return ", ".join(dict.fromkeys(r.kind for r in rules if r.account == account))


def compared(
    state: BookState, parsed: Ledger, plan: Plan, prepared: pipeline.Prepared
) -> tuple[pipeline.Prepared, tuple[AccountRename, ...]]:
    """The exports prepared as the keys name the accounts (an account QuickBooks renamed under
    the book's name for it), and the renames; rules that do not give those names leave the
    exports as they are (the account new, its transactions held)."""
    renames = renaming.account_renames(state, prepared.ledger, plan.held)
    if not renames:
        return prepared, ()
    ruled = pipeline.prepare(parsed, replace(plan, rules=plan.rules + renaming.rules(renames)))
    if (
        ruled.errors
        or not renaming.named(ruled.ledger, renames)
        or not aligned(ruled.ledger, prepared.ledger)
    ):
        return prepared, ()
    return ruled, renames


def in_book(  # noqa: PLR0917
    parsed: Ledger,
    plan: Plan,
    compared: pipeline.Prepared,
    renames: tuple[AccountRename, ...],
    to_book: dict[str, str],
    book: str,
) -> pipeline.Prepared:
    """The exports prepared as the book names the accounts: renamed or moved in GnuCash since
    the last run, or renamed in QuickBooks with the name taken (``to_book``); UpdateRefused
    where the plan's rules cannot name them so."""
    if not to_book:
        return compared
    rules = renaming.rules(tuple(r for r in renames if r.book not in to_book))
    rules += renaming.book_rules(compared.ledger, to_book)
    out = pipeline.prepare(parsed, replace(plan, rules=plan.rules + rules))
    have = {a.full_name for a in compared.ledger.accounts}
    wanted = {old: new for old, new in to_book.items() if old in have}
    if (
        out.errors
        or not aligned(out.ledger, compared.ledger)
        or not renaming.all_named(out.ledger, wanted)
    ):
        have = {a.full_name for a in out.ledger.accounts}
        off = [(a, b) for a, b in sorted(wanted.items()) if b not in have] or sorted(wanted.items())
        raise UpdateRefused(
            f"{book} names accounts otherwise than the exports in a way this update cannot "
            f"follow (such as {quoted(off[0][0])}, now {quoted(off[0][1])} in the book): rename "
            "or move it "
            "back in GnuCash, or convert into a new book"
        )
    return out


def taken(  # noqa: PLR0917
    state: BookState,
    classes: update_classes.Found,
    plan: Plan,
    given: pipeline.Prepared,
    work: Work,
    to_book: dict[str, str],
    book: str,
) -> tuple[pipeline.Prepared, pipeline.Prepared, update_classes.Taking]:
    """The exports under QuickBooks' names of the classes the plan takes (``classes.final``), as
    the keys and as the book name the accounts, and the work made on ``given`` (the exports as
    compared, under the book's names) for them."""
    assert classes.final is not None
    ready = classes.ready or pipeline.prepare(classes.final, plan)
    if ready.errors:
        raise ProblemsError(ready.errors)
    final, renames = compared(state, classes.final, plan, ready)
    took = update_classes.taking(state, classes, given.ledger, final.ledger, work)
    return final, in_book(classes.final, plan, final, renames, to_book, book), took
