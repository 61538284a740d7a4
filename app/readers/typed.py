"""SSNs and bank numbers a person typed into a memo ("SSN 123-45-6789", "to acct 0012345678")
or into a list's notes and descriptions (an employee's note, a bank account's description, a
card company's "Account no."), masked in everything a file's ledger puts in the book, with a
warning naming the lines (``private.typed_masked``: the shapes, and what is left alone). Done
once per file, right after its reader, on the lines' memos (an invoice's line descriptions are
made from them). The lists' texts are masked cell by cell by their readers, as the kept copy
the wizard reads is (``iif.rows.mask_ssns``, ``redact``): here they are said. Names and
numbers (``Num``) are identifiers, never looked at.
"""

from __future__ import annotations

import dataclasses

from app.business import Customer, Employee, Vendor
from app.model import Ledger, Problem
from app.readers.private import MASK, holds_typed, maybe_typed, typed_masked
from app.source import Source, line_list
from app.words import plural

_SAID = (
    "what looks like a Social Security number or a bank account, routing or card number (typed "
    "after a word such as SSN or acct, or 9 digits in groups of 3, 2 and 4, or a card's 16 "
    "digits): its digits are masked (•) in the book, which never keeps such numbers"
)
# a list's record → the texts of it a person typed
_TEXTS = {
    "accounts": ("description", "notes"),
    "customers": ("notes",),
    "vendors": ("notes",),
    "employees": ("notes",),
    "items": ("description", "purchase_description"),
}


def typed(ledger: Ledger) -> Ledger:
    """``ledger`` with every memo's typed SSN or bank number masked, and a warning for the memos
    and one for the lists' texts."""
    return _lists(_memos(ledger))


def _memos(ledger: Ledger) -> Ledger:
    if not maybe_typed("\n".join(s.memo for t in ledger.transactions for s in t.splits)):
        return ledger
    found: list[Source] = []  # (a memo masked already, the kept copy's, is said as well)
    transactions = list(ledger.transactions)
    for k, t in enumerate(transactions):
        typed = [s for s in t.splits if s.memo and holds_typed(s.memo)]
        if typed:
            found += [s.source for s in typed]
            splits = (
                dataclasses.replace(s, memo=typed_masked(s.memo)) if s in typed else s
                for s in t.splits
            )
            transactions[k] = dataclasses.replace(t, splits=tuple(splits))
    if not found:
        return ledger
    said = Problem(
        found[0],
        f"{plural(len(found), 'memo')} at {line_list(found)} "
        f"{'holds' if len(found) == 1 else 'hold'} {_SAID}",
        "warning",
    )
    return dataclasses.replace(
        ledger, transactions=tuple(transactions), problems=(*ledger.problems, said)
    )


def _contact(owner: Customer | Vendor | Employee) -> list[str]:
    """What an owner's addresses hold: names, lines, phone, fax, email."""
    places = (owner.billing, owner.shipping) if isinstance(owner, Customer) else (owner.address,)
    return [t for a in places for t in (a.name, *a.lines, a.phone, a.fax, a.email)]


def _lists(ledger: Ledger) -> Ledger:
    """``ledger`` with a warning naming the list entries whose typed numbers the reader masked
    (cell by cell, as the kept copy is: a note's label, "Account no.: ", is not typed)."""
    records = [
        (r.source, [getattr(r, f) for f in fields])
        for key, fields in _TEXTS.items()
        for r in getattr(ledger, key)
    ]
    records += [(j.source, [j.description, j.notes]) for c in ledger.customers for j in c.jobs]
    owners: list[Customer | Vendor | Employee] = [*ledger.customers, *ledger.vendors]
    records += [(o.source, _contact(o)) for o in (*owners, *ledger.employees)]  # (contacts)
    masked = (at for at, texts in records if any(MASK in t and holds_typed(t) for t in texts))
    found = list(dict.fromkeys(masked))  # (each entry once: its notes and address are one's)
    if not found:
        return ledger
    entries = plural(len(found), "list entry", "list entries")
    said = Problem(
        found[0],
        f"the notes, description or address of {entries} at {line_list(found)} "
        f"{'holds' if len(found) == 1 else 'hold'} {_SAID}",
        "warning",
    )
    return dataclasses.replace(ledger, problems=(*ledger.problems, said))
