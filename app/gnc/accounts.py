"""The chart of accounts: written as ``GncAccount`` objects (parents first), read back as
``BookAccount`` with their daily sums."""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter, defaultdict
from decimal import Decimal

from app.book import BookAccount, BookSnapshot
from app.errors import BookWriteError
from app.gnc.bindings import C, GncAccount
from app.gnc.context import PROGRESS_EVERY, Progress, Writer, progress
from app.gnc.engine import Engine, LayoutError, sum_splits
from app.gnc.numeric import from_parts
from app.gnc.slots import slots
from app.gnc.transactions import book_transaction
from app.model import Ledger, Role
from app.words import quoted


def write(w: Writer, ledger: Ledger) -> None:
    """Every account of ``ledger`` into ``w.accounts``; BookWriteError for an account without a
    type, a duplicate or a missing parent."""
    root = w.book.get_root_account()
    total = len(ledger.accounts)
    ordered = sorted(ledger.accounts, key=lambda a: a.full_name.count(":"))
    for done, acc in enumerate(ordered, 1):
        if acc.type is None:
            raise BookWriteError(f"{acc.source}: account {quoted(acc.full_name)} has no type")
        if acc.full_name in w.accounts:
            raise BookWriteError(f"{acc.source}: account {quoted(acc.full_name)} appears twice")
        parent = w.accounts.get(acc.parent_name) if acc.parent_name else root
        if parent is None:
            raise BookWriteError(
                f"{acc.source}: parent {quoted(acc.parent_name)} of {quoted(acc.full_name)} is "
                "missing"
            )
        a = GncAccount(w.book)
        a.BeginEdit()
        a.SetName(acc.name)
        a.SetType(getattr(C, "ACCT_TYPE_" + acc.type.value))
        a.SetCommodity(w.currency)
        a.SetCode(acc.code)
        a.SetDescription(acc.description)
        a.SetNotes(acc.notes)
        a.SetHidden(acc.hidden)
        a.SetPlaceholder(acc.placeholder)
        if acc.role is Role.OPENING_BALANCE:
            a.SetIsOpeningBalance(True)
        parent.append_child(a)
        a.CommitEdit()
        w.accounts[acc.full_name] = a
        if done % PROGRESS_EVERY == 0 or done == total:
            w.progress("accounts", done, total)


def read(engine: Engine, book, with_txns: bool, on_progress: Progress | None) -> BookSnapshot:
    """Every account of ``book`` with its daily sums, the reconcile flags and (``with_txns``)
    every transaction; the owners and terms are left empty (``business.read``)."""
    accounts: list[BookAccount] = []
    txn_day: dict[int, object] = {}  # transaction pointer → posted date, each once
    txns: list[object] = []  # transaction objects in first-seen order (with_txns only)
    flags: dict[bytes, int] = {}
    # the bindings' own time64 → datetime conversion (local time), once per distinct time
    day_of = functools.cache(lambda t: dt.datetime.fromtimestamp(t).date())
    descendants = book.get_root_account().get_descendants()
    names = {int(a.get_instance()): a.get_full_name() for a in descendants}
    for done, a in enumerate(descendants, 1):
        splits = C.xaccAccountGetSplitList(a.get_instance())
        try:  # sums: (date, denominator) → numerator sum
            sums, new = sum_splits(engine, [int(s) for s in splits], txn_day, day_of, flags)
        except LayoutError as exc:
            raise BookWriteError(f"cannot read the book's splits: {exc}") from exc
        if with_txns:
            txns.extend(C.xaccSplitGetParent(splits[i]) for i in new)
        daily: dict[dt.date, Decimal] = defaultdict(Decimal)
        for (day, den), num in sums.items():
            daily[day] += from_parts(num, den)  # type: ignore[index]
        commodity = a.GetCommodity()
        accounts.append(
            BookAccount(
                full_name=names[int(a.get_instance())],
                type=C.xaccAccountTypeEnumAsString(a.GetType()),
                code=a.GetCode() or "",
                description=a.GetDescription() or "",
                notes=a.GetNotes() or "",
                hidden=bool(a.GetHidden()),
                placeholder=bool(a.GetPlaceholder()),
                opening_balance=bool(a.GetIsOpeningBalance()),
                commodity=commodity.get_mnemonic() if commodity else "",
                balance=sum(daily.values(), Decimal(0)),
                splits=len(splits),
                daily=tuple(sorted(daily.items())),
            )
        )
        progress(on_progress, "reading", done, len(descendants))
    reconcile = Counter({f.decode("latin-1"): n for f, n in flags.items()})
    days = [d for a in accounts for d, _ in a.daily[:1] + a.daily[-1:]]
    klass = slots(engine) if txns else None
    klass = klass if klass is not None and not klass.missing else None
    listed = [book_transaction(t, names, klass) for t in txns]
    listed.sort(key=lambda t: (t.date, t.num, t.description))
    return BookSnapshot(
        currency=Counter(a.commodity for a in accounts).most_common(1)[0][0] if accounts else "",
        accounts=tuple(accounts),
        transactions=len(txn_day),
        splits=sum(a.splits for a in accounts),
        reconcile=tuple(sorted(reconcile.items())),
        first_date=min(days, default=None),
        last_date=max(days, default=None),
        transaction_list=tuple(listed),
        days=tuple(sorted(Counter(txn_day.values()).items())),  # type: ignore[arg-type]
    )
