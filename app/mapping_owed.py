"""What a plan does to the accounts GnuCash keeps invoices and bills on (A/Receivable, A/Payable):
none left of a side, or another account put on one (``mapping.applied`` adds these warnings).
Pure."""

from __future__ import annotations

from collections.abc import Sequence

from app.model import Account, AccountType, Problem
from app.quickbooks import account_type
from app.words import CONTROLS, GNUCASH_TYPES, quoted


def put_onto(accounts: Sequence[Account]) -> tuple[str, ...]:
    """Each account of another type the plan put on GnuCash's A/Receivable or A/Payable, as the
    proof says it ("'Checking' merged into A/R", "'Undeposited Funds' retyped A/R"): its lines
    name no owner, and a payment through it has two A/R or A/P lines (the proof's cause of the
    owners' differences, ``owner_causes``)."""
    out = []
    for a in accounts:
        if a.type is None or (control := CONTROLS.get(a.type.value)) is None:
            continue
        if account_type(a.kind_label) not in (None, a.type):  # (QuickBooks' own type)
            out.append(f"{quoted(a.origin[0] if a.origin else a.full_name)} retyped {control}")
        out += [f"{quoted(n)} merged into {control}" for n, t in a.merged_in if t is not a.type]
    return tuple(out)


def owed_gone(before: tuple[Account, ...], after: tuple[Account, ...]) -> list[Problem]:
    """A warning for each of A/Receivable and A/Payable the plan leaves no account of (retyped,
    or merged into an account of another type): GnuCash keeps invoices (bills) only on one,
    so the open items become plain transactions and every owner's differ in the proof."""
    out, was = [], {a.full_name: a for a in before}
    for kind, docs, owners in (
        (AccountType.RECEIVABLE, "invoices and customer payments", "customer"),
        (AccountType.PAYABLE, "bills and bill payments", "vendor"),
    ):
        had = next((a for a in before if a.type is kind), None)
        if had is not None and not any(a.type is kind for a in after):
            merged = any(had.full_name in a.origin and len(a.origin) > 1 for a in after)
            kept = not merged  # (retyped, renamed or not)
            how = "was retyped" if kept else "was merged into another account: undo the merge"
            said = (
                f"the plan leaves no account of GnuCash's type {GNUCASH_TYPES[kind.value]} "
                f"({had.full_name} {how}): GnuCash keeps {docs} only on one, so they stay plain "
                f"transactions and every {owners}'s open items will differ from QuickBooks'"
            )  # (a retype's fix: give it its type back, "Change…" beside it)
            out.append(Problem(had.source, said, "warning", "account_type" if kept else ""))
        for o in (o for a in after if a.type is kind for o in a.origin if o in was):  # hunt 15
            if was[o].type not in (kind, None):  # (another account merged or retyped onto it)
                out.append(Problem(was[o].source, (
                    f"the plan puts {o} on GnuCash's type {GNUCASH_TYPES[kind.value]} (merged "
                    f"or retyped): its lines name no {owners}, and a payment through it then "
                    "has two A/R or A/P lines and stays a plain transaction, so open items "
                    "will differ from QuickBooks'; undo that change on the Map step"
                ), "warning"))  # fmt: skip
    return out
