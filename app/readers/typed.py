"""SSNs and bank numbers a person typed into a memo ("SSN 123-45-6789", "to acct 0012345678"),
masked in everything a file's ledger puts in the book, with a warning naming the lines
(``private.typed_masked``: the shapes, and what is left alone). Done once per file, right after
its reader, on the lines' memos (an invoice's line descriptions are made from them). The kept
copy the wizard reads has them masked already (``redact``): its warning is the same.
"""

from __future__ import annotations

import dataclasses

from app.model import Ledger, Problem
from app.readers.private import holds_typed, maybe_typed, typed_masked
from app.source import Source, line_list
from app.words import plural


def typed(ledger: Ledger) -> Ledger:
    """``ledger`` with every memo's typed SSN or bank number masked, and a warning."""
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
        f"{'holds' if len(found) == 1 else 'hold'} what looks like a Social Security number or "
        "a bank account or routing number (typed after a word such as SSN or acct, or written "
        "123-45-6789): its digits are masked (•) in the book, which never keeps such numbers",
        "warning",
    )
    return dataclasses.replace(
        ledger, transactions=tuple(transactions), problems=(*ledger.problems, said)
    )
