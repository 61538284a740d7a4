"""A transaction's name when its lines carry their own (shared by the CSV and IIF readers).

QuickBooks puts a deposit's payers on its deposit lines, not on the bank line, and a report may
name another party on a line (the tax office on a GST line). The transaction's description is
its first row's name; when that row has none, the names on its lines: one name is that name,
several are the first and "+ N more". A line whose own name differs from the description keeps
it as its ``owner`` (an A/R or A/P line's customer, job or vendor: its own name, whatever the
description says) and in its memo (``Name: memo``), so no name is lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.model import Split


def named(
    first: str, splits: Sequence[Split], own: Iterable[tuple[Split, str]]
) -> tuple[str, tuple[Split, ...]]:
    """(description, splits) of a transaction whose first row is named ``first`` (stripped)
    and whose lines in ``own`` carry another name (as read: stripped here; empty ones say
    nothing)."""
    names = {id(s): n.strip() for s, n in own}
    description = first
    if not description:
        distinct = list(dict.fromkeys(n for n in names.values() if n))
        if distinct:
            more = len(distinct) - 1
            description = distinct[0] + (f" + {more} more" if more else "")
    out = []
    for split in splits:
        name = names.get(id(split), "")
        if not name or name == description:
            out.append(split)
            continue
        memo = split.memo
        if name not in memo:
            memo = f"{name}: {memo}" if memo else name
        out.append(replace(split, memo=memo, owner=name))
    return description, tuple(out)
