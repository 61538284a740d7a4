"""The book's customers, vendors and jobs by their names as QuickBooks has them (docs/UPDATE.md,
"A customer or vendor renamed in GnuCash"). A write keeps each one's QuickBooks name by its
GUID in one slot of the book (``keys.OWNERS_SLOT``, JSON; a job its own name), so one renamed
in GnuCash is still QuickBooks' customer: an update finds it (``owners``), and the proof reads
it back under QuickBooks' name (``Names``, used by every reader of owners).

One slot of the book, not one on each owner: GnuCash 4.13 cannot unlock a SQLite book at the end
of a session that loaded a vendor with a slot (``GncDbiSqlConnection::unlock_database``
fails: the book stays locked), measured with the slot on customers, jobs and vendors in turn.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator

from app import keys
from app.gnc import bindings
from app.gnc.bindings import C, GncCustomer, GncJob, GncVendor, Query
from app.gnc.engine import Engine
from app.gnc.slots import slots
from app.update import UpdateRefused
from app.words import quoted

Key = tuple[str, str]  # ("customer", "Name"), ("customer", "Name:Job"), ("vendor", "Name")


def _kept(engine: Engine, book) -> dict[str, str]:
    """GUID → QuickBooks' name, as the book's slot keeps them ({} without one)."""
    s = slots(engine)
    text = None if s.missing else s.get_long(int(book.get_instance()), keys.OWNERS_SLOT)
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return {str(g): str(n) for g, n in found.items()} if isinstance(found, dict) else {}


def _raw(book) -> Iterator[tuple[str, object, int, str, int | None]]:
    """Every customer, vendor and job: (kind, the bindings' object, its pointer, its name now,
    its customer's pointer for a job, else None)."""
    for kind, cls in (("gncCustomer", GncCustomer), ("gncVendor", GncVendor)):
        query = Query()
        query.search_for(kind)
        query.set_book(book)
        for inst in query.run():
            o = cls(instance=inst)
            yield (
                ("vendor" if kind == "gncVendor" else "customer"),
                o,
                int(inst),
                o.GetName() or "",
                None,
            )
            for j in C.gncCustomerGetJoblist(inst, True) if kind == "gncCustomer" else ():
                yield "customer", GncJob(instance=j), int(j), C.gncJobGetName(j) or "", int(inst)
        query.destroy()


class Names:
    """Each owner's name as QuickBooks has it, by the engine's pointer in this session (a job
    its own name): the book's slot, else its name now (made in GnuCash, or in a book written
    before the slot was)."""

    def __init__(self, engine: Engine, book, kept: dict[str, str] | None = None) -> None:
        """``kept``: the book's slot as ``_kept`` read it, where the caller has it already."""
        kept = _kept(engine, book) if kept is None else kept
        self.known: dict[int, str] = {}
        if kept:
            for _kind, o, inst, _now, _of in _raw(book):
                got = kept.get(o.GetGUID().to_string())  # type: ignore[attr-defined]
                if got is not None:
                    self.known[inst] = got

    def of(self, pointer: int, now: str) -> str:
        return self.known.get(pointer, now)


def each(book, names: Names) -> Iterator[tuple[Key, object, str]]:
    """Every customer, job and vendor: (its key by QuickBooks' name, the bindings' object,
    its name now)."""
    customer = ""
    for kind, o, inst, now, of in _raw(book):
        name = names.of(inst, now)
        if of is None:
            customer = name
            yield (kind, name), o, now
        else:
            yield (kind, f"{customer}:{name}"), o, now


def owners(book) -> dict[Key, object]:
    """The book's customers, jobs and vendors by QuickBooks' name, as ``Writer.owners`` holds
    them; UpdateRefused where two go by one name."""
    out: dict[Key, object] = {}
    for key, o, now in each(book, Names(bindings.engine(), book)):
        if key in out:  # renamed in GnuCash, and another made with its old name since
            raise UpdateRefused(
                f"two {key[0]}s of the book go by {quoted(key[1])} (one renamed in GnuCash, maybe "
                f"to {quoted(now)}, and one made with QuickBooks' name since?): rename the one "
                "QuickBooks does not know, then update again"
            )
        out[key] = o
    return out


def stamp(engine: Engine, book, ours: Collection[Key] | None = None) -> None:
    """The book's slot given the QuickBooks name of each customer, vendor and job it does not
    name yet: those QuickBooks' exports name (``ours``, keys as ``owners``), every one in a
    first write (None); never one made in GnuCash alone. Set outside an edit, before the save
    that writes the whole book."""
    s = slots(engine)
    if s.missing:
        return
    kept = _kept(engine, book)
    for key, o, _now in each(book, Names(engine, book, kept)):
        guid = o.GetGUID().to_string()  # type: ignore[attr-defined]
        if guid not in kept and (ours is None or key in ours):
            kept[guid] = key[1].split(":", 1)[1] if isinstance(o, GncJob) else key[1]
    s.put_long(int(book.get_instance()), keys.OWNERS_SLOT, json.dumps(kept, sort_keys=True))
