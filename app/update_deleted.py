"""QuickBooks' transactions deleted in GnuCash since the last run (pure). The exports still have
them and the book does not, so they looked new and were put back without a word (a walk
deleted check 2044 in GnuCash; the next update added it again and called the book matching).

The run record keeps, per month, how many of QuickBooks' transactions the book held after the
run and the XOR of their keys' hashes (``update_record.digest``). A month of the book now
short of that count lost those transactions in GnuCash (deleted, or redated into another
month); the XOR of what is missing names them among the transactions the exports have and the
book does not, the rest being QuickBooks' own since (entered late, with an earlier date). What
is found stays out of the book, kept as the book's decision, as an edit made in GnuCash is: said
with its key, and the proof says the book differs from QuickBooks by exactly those. Taking
QuickBooks' version (``--take-quickbooks KEY``, the wizard's "Put it back") puts one back;
the record remembers the others (``Record.deleted``) so the next run does not add them either.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from app.model import Ledger
from app.plan import plan_from_json
from app.update import BookState, Work
from app.update_record import digest, key_hash, month_of

SEARCH = 20_000  # combinations tried at most in one month (several deleted there)


def kept_deleted(work: Work, ledger: Ledger, state: BookState, choices: Mapping[str, str]) -> Work:
    """``work`` without the transactions the book deleted since the last run (``deleted_here``)
    but those ``choices`` (the plan's decisions by key) put back; see the module docstring."""
    rec = state.record
    if rec is None or not (rec.written or rec.deleted):
        return work
    remembered = set(rec.deleted)
    found = {i for i in work.add if work.keys[i] in remembered}
    book = digest((e.date, e.stamp.key) for e in state.entries if e.stamp is not None)
    by_month: defaultdict[str, list[int]] = defaultdict(list)
    last = rec.last_date or dt.date.max  # (later ones are QuickBooks' new: never the book's)
    for i in work.add:
        day = ledger.transactions[i].date
        if day <= last:
            by_month[month_of(day)].append(i)
    unsure = []
    for month, (count, mixed) in rec.written.items():
        now, now_mixed = book.get(month, (0, "0"))
        missing = count - now
        if missing > 0:
            target = int(mixed, 16) ^ int(now_mixed, 16)
            waiting = [i for i in by_month.get(month, ()) if i not in found]
            named = _named(waiting, missing, target, work.keys)
            found |= named
            if not named and waiting:  # (none waiting: redated in GnuCash into another month)
                unsure.append((month, missing))
    # a decision to put one back applies to what the last run kept out, or is given now: one
    # put back before and deleted in GnuCash again is a new deletion, said again
    before = plan_from_json(rec.plan).held
    back = {
        i
        for i in found
        if choices.get(work.keys[i]) == "quickbooks"
        and (work.keys[i] in remembered or before.get(work.keys[i]) != "quickbooks")
    }
    out = tuple(sorted(found - back))
    return replace(
        work,
        add=tuple(i for i in work.add if i not in out),
        deleted_here=out,
        put_back=tuple(work.keys[i] for i in sorted(back)),
        unsure=tuple(unsure),
    )


def _named(waiting: Sequence[int], missing: int, target: int, keys: Sequence[str]) -> set[int]:
    """The ``missing`` of ``waiting`` whose keys' hashes XOR to ``target``; none when no such
    set is found within ``SEARCH`` tries (then they are added, as before the record kept it)."""
    if missing > len(waiting) or math.comb(len(waiting), missing) > SEARCH:
        return set()
    hashes = {i: key_hash(keys[i]) for i in waiting}
    for chosen in itertools.combinations(waiting, missing):
        mixed = 0
        for i in chosen:
            mixed ^= hashes[i]
        if mixed == target:
            return set(chosen)
    return set()


def written_after(work: Work, ledger: Ledger, state: BookState) -> list[tuple[dt.date, str]]:
    """(date, key) of QuickBooks' transactions in the book once ``work`` is written: the book's
    own, but those whose version the plan takes from QuickBooks (removed), and those added."""
    taken = {id(h.entry) for h in work.taken}
    kept = [
        (e.date, e.stamp.key) for e in state.entries if e.stamp is not None and id(e) not in taken
    ]
    again = [(e.date, work.keys[i]) for i, e in work.rekeyed]  # (keyed by this run)
    return kept + again + [(ledger.transactions[i].date, work.keys[i]) for i in work.add]
