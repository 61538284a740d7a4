"""The run record: what the last run of qb2gnucash wrote into the book it made or brought up to
date (one slot of the book, JSON), read by the next update (``app.update``)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from app import extras
from app.budget_digests import of_export
from app.lists import LISTS, list_names
from app.model import Ledger

RECORD_SLOT = "qb2gnucash-run"  # the book's slot: ``Record`` as JSON
RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class Record:
    """What the last run wrote into the book: the company, the day its figures are as of,
    the plan (JSON), QuickBooks' figures then (for the delta table), the run count, and every
    name of QuickBooks' lists its exports have had in any run (``LISTS``; empty: a book written
    before they were kept), which tells them from those made in GnuCash alone."""

    company: str
    as_of: dt.date | None
    last_date: dt.date | None  # its last transaction's day
    plan: str
    figures: dict[str, Decimal] = field(default_factory=dict)
    runs: int = 1
    version: int = RECORD_VERSION
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # each account's last reconcile date as a run set it from QuickBooks' last statement: a
    # later date in the book is a reconciliation made in GnuCash (``app.update_statements``)
    statements: dict[str, dt.date] = field(default_factory=dict)
    # QuickBooks' transactions in the book after the run, per month ("2020-06"): how many, and
    # the XOR of their keys' hashes (``digest``): which ones GnuCash deleted since, told apart
    # from those QuickBooks has since (``app.update_deleted``); empty in books written before
    written: dict[str, tuple[int, str]] = field(default_factory=dict)
    # keys of QuickBooks' transactions deleted in GnuCash, kept deleted
    deleted: tuple[str, ...] = ()
    # QuickBooks' classes as the book names them after the run (``app.update_classes``; empty in
    # books written before they were kept)
    classes: tuple[str, ...] = ()
    # each budget's digest as the run left it in the book (``app.update_budgets``): one changed
    # in GnuCash since is told from one QuickBooks changed
    budgets: dict[str, str] = field(default_factory=dict)

    def to_text(self) -> str:
        return json.dumps(
            {
                "version": self.version,
                "company": self.company,
                "as_of": self.as_of.isoformat() if self.as_of else "",
                "last_date": self.last_date.isoformat() if self.last_date else "",
                "plan": self.plan,
                "figures": {a: str(v) for a, v in sorted(self.figures.items())},
                "runs": self.runs,
                "lists": {n: list(v) for n, v in sorted(self.lists.items())},
                "statements": {a: d.isoformat() for a, d in sorted(self.statements.items())},
                "written": {m: list(v) for m, v in sorted(self.written.items())},
                "deleted": list(self.deleted),
                "classes": list(self.classes),
                "budgets": dict(sorted(self.budgets.items())),
            },
            sort_keys=True,
        )

    @classmethod
    def from_text(cls, text: str | None) -> Record | None:
        """None when there is no record, or one this version cannot read."""
        try:
            data = json.loads(text or "")
            return cls(
                company=str(data["company"]),
                as_of=_day(data["as_of"]),
                last_date=_day(data["last_date"]),
                plan=str(data["plan"]),
                figures={a: Decimal(v) for a, v in data["figures"].items()},
                runs=int(data["runs"]),
                version=int(data["version"]),
                lists={n: tuple(map(str, v)) for n, v in data.get("lists", {}).items()},
                statements={
                    a: dt.date.fromisoformat(d) for a, d in data.get("statements", {}).items()
                },
                written={m: (int(n), str(x)) for m, (n, x) in data.get("written", {}).items()},
                deleted=tuple(map(str, data.get("deleted", ()))),
                classes=tuple(map(str, data.get("classes", ()))),
                budgets={str(n): str(d) for n, d in data.get("budgets", {}).items()},
            )
        except (ValueError, KeyError, TypeError, ArithmeticError):
            return None


def _day(text: str) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


def record_of(
    ledger: Ledger,
    plan_json: str,
    runs: int = 1,
    last: Record | None = None,
    statements: Mapping[str, dt.date] | None = None,
    *,
    written: Iterable[tuple[dt.date, str]] = (),
    deleted: Iterable[str] = (),
    budgets: Mapping[str, str] | None = None,
) -> Record:
    """The record a run writes into the book it made (or updated; ``last``: the book's record
    of the run before, whose names of QuickBooks' lists and reconcile dates it keeps);
    ``statements``: the reconcile dates this run set (None: every statement the ledger sets);
    ``written``: (date, key) of QuickBooks' transactions in the book after the run; ``deleted``:
    the keys of those deleted in GnuCash, kept deleted."""
    had = last.lists if last is not None else {}
    names = list_names(ledger)
    if statements is None:
        statements = {x.account: x.date for x in ledger.statements if x.how}
    return Record(
        company=ledger.company,
        as_of=ledger.as_of.date if ledger.as_of else None,
        last_date=max((t.date for t in ledger.transactions), default=None),
        plan=plan_json,
        figures={a.full_name: a.balance for a in ledger.accounts if a.balance is not None},
        runs=runs,
        lists={n: tuple(sorted({*had.get(n, ()), *names[n]})) for n in LISTS},
        statements={**(last.statements if last is not None else {}), **statements},
        written=digest(written),
        deleted=tuple(sorted(set(deleted))),
        classes=tuple(sorted({c.name for c in ledger.classes})),
        budgets=dict(budgets) if budgets is not None else _budgets(ledger),
    )


def _budgets(ledger: Ledger) -> dict[str, str]:
    """The digest of each budget a first write leaves in the book."""
    return {b.name: of_export(b) for b in extras.budgets(ledger.budget_lines)}


def key_hash(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def month_of(day: dt.date) -> str:
    """ "2020-06": the month a digest counts ``day`` in."""
    return f"{day.year:04d}-{day.month:02d}"


def digest(written: Iterable[tuple[dt.date, str]]) -> dict[str, tuple[int, str]]:
    """Per month ("2020-06"): how many keys, and the XOR of their hashes (16 hex digits)."""
    count: dict[str, int] = {}
    mixed: dict[str, int] = {}
    for day, key in written:
        month = month_of(day)
        count[month] = count.get(month, 0) + 1
        mixed[month] = mixed.get(month, 0) ^ key_hash(key)
    return {m: (n, f"{mixed[m]:016x}") for m, n in count.items()}
