"""A class whose QuickBooks name an update takes, renamed where the book holds it
(docs/UPDATE.md, "A class renamed in QuickBooks"): each line's class slot (``qb-class``) and
memo prefix, the descriptions of the invoice and bill lines copied from those memos, and the
class sub-accounts (name, the keys' name, description).

Works on an open book in the session the update holds (``app.gnc.update``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.classes import SLOT, SUB_ACCOUNT, memo_renamed, renamed
from app.gnc import existing
from app.gnc.bindings import C
from app.gnc.engine import Engine
from app.gnc.slots import slots
from app.update import UpdateRefused
from app.words import quoted


def rename(
    engine: Engine,
    book,
    names: Mapping[str, str],
    accounts: Sequence[tuple[str, str, str]] = (),
) -> int:
    """Every line of ``book`` in a class of ``names`` (the book's name → QuickBooks'; its
    sub-classes with it) renamed, and the class sub-accounts ``accounts`` (name in the book,
    new leaf, new name as the keys have it); returns the lines renamed."""
    s = slots(engine)
    root = book.get_root_account()
    for name, leaf, keyed in accounts:
        account = root.lookup_by_full_name(name)
        if account is None:
            raise UpdateRefused(f"the book has no account {quoted(name)} to rename any more")
        existing.rename_account(engine, account, leaf, keyed)
        for a in (account, *account.get_descendants()):
            said = a.GetDescription() or ""
            if said.startswith(SUB_ACCOUNT):
                a.BeginEdit()
                a.SetDescription(SUB_ACCOUNT + renamed(said.removeprefix(SUB_ACCOUNT), names))
                a.CommitEdit()
    lines: dict[int, tuple[Any, list[tuple[Any, str]]]] = {}
    for a in root.get_descendants():
        for sp in C.xaccAccountGetSplitList(a.get_instance()):
            klass = s.text(int(sp), SLOT)
            if klass and (new := renamed(klass, names)) != klass:
                t = C.xaccSplitGetParent(sp)
                lines.setdefault(int(t), (t, []))[1].append((sp, new))
    for t, split_classes in lines.values():
        C.xaccTransBeginEdit(t)
        for sp, klass in split_classes:
            s.set_text(int(sp), SLOT, klass)
            memo = C.xaccSplitGetMemo(sp) or ""
            if (new := memo_renamed(memo, names)) != memo:
                C.xaccSplitSetMemo(sp, new)
        C.xaccTransCommitEdit(t)
        invoice = C.gncInvoiceGetInvoiceFromTxn(t)
        for entry in C.gncInvoiceGetEntries(invoice) if invoice else ():
            said = C.gncEntryGetDescription(entry) or ""
            if (new := memo_renamed(said, names)) != said:
                C.gncEntryBeginEdit(entry)
                C.gncEntrySetDescription(entry, new)
                C.gncEntryCommitEdit(entry)
    return sum(len(found) for _t, found in lines.values())
