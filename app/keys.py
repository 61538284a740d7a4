"""Where each transaction of a book came from in QuickBooks: the stable key a later run matches
it by, and two digests that tell whether QuickBooks or GnuCash changed it since
(docs/UPDATE.md, "The key of each record").

The writer stores ``stamp(...)`` in one slot of every transaction it writes (``SLOT``); an update
reads it back (``parse``). Pure: the model only.

- ``key``: ``ref:<Trans #>`` for a transaction whose export gives QuickBooks' own id (Trans #,
  IIF TRNSID); ``opening`` for the cutover's opening transaction; else ``fp:<fingerprint>`` of
  its date, type, number, name and lines (the Find export has no id), ``#2``, ``#3`` after it
  for the second and third identical ones.
- ``content``: QuickBooks' version as written (date, number, name, void, every line with its
  memo): a later export whose ``content`` differs was edited in QuickBooks.
- ``sums``: what the book holds of it per account (date, void, the sum per account): the
  documents pass cuts a payment's line in pieces without changing it; a later book whose
  ``sums`` differ was edited in GnuCash.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from app.model import Transaction

SLOT = "qb2gnucash"  # the transaction slot: "KEY CONTENT SUMS"
# the account slot: its full name as the keys name it (the exports' name when written, kept
# when the account is renamed in GnuCash; docs/UPDATE.md, "An account renamed in GnuCash")
ACCOUNT_SLOT = "qb2gnucash-account"
# the book's slot: each customer's, vendor's and job's name as QuickBooks has it, by GUID (JSON),
# kept when it is renamed in GnuCash (docs/UPDATE.md, "A customer or vendor renamed in GnuCash")
OWNERS_SLOT = "qb2gnucash-owners"
OPENING = "opening"
KINDS = {"ref": "Trans #", "fp": "fingerprint", "opening": "opening balances"}


def canon(value: Decimal) -> str:
    """One spelling per amount: 12.5, 12.50 and 12.500 are "12.5"; 0 and -0 are "0"."""
    return format(value.normalize(), "f") if value else "0"


def hashed(parts: Iterable[str]) -> str:
    """A short digest of ``parts`` (12 hex digits), as the key slots keep them."""
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=6).hexdigest()


def content(t: Transaction) -> str:
    """QuickBooks' version of ``t``: a later export with another ``content`` was edited there."""
    lines = sorted((s.account, "0" if t.voided else canon(s.value), s.memo) for s in t.splits)
    head = (t.date.isoformat(), t.num, t.description, "void" if t.voided else "")
    return hashed((*head, *("\x1e".join(line) for line in lines)))


def sums(day: dt.date, voided: bool, lines: Iterable[tuple[str, Decimal]]) -> str:
    """What a book holds of a transaction: its date, void and sum per account."""
    total: defaultdict[str, Decimal] = defaultdict(Decimal)
    for account, value in lines:
        total[account] += Decimal(0) if voided else value
    parts = sorted(f"{a}\x1e{canon(v)}" for a, v in total.items())
    return hashed((day.isoformat(), "void" if voided else "", *parts))


def ledger_sums(t: Transaction) -> str:
    return sums(t.date, t.voided, ((s.account, s.value) for s in t.splits))


def keys(txns: Sequence[Transaction], opening_kind: str) -> list[str]:
    """The key of each of ``txns`` (see the module docstring); ``opening_kind``: the kind of
    the cutover's own transaction (``app.openings.OPENING_KIND``)."""
    seen: Counter[str] = Counter()
    out = []
    for t in txns:
        if t.ref:
            base = f"ref:{t.ref.replace(',', '').strip()}"
        elif t.kind_label == opening_kind:
            base = OPENING
        else:
            lines = sorted((s.account, canon(s.value)) for s in t.splits)
            base = "fp:" + hashed(
                (t.date.isoformat(), t.kind_label, t.num, t.description, *map(str, lines))
            )
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def look_alike(t: Transaction) -> tuple[str, str, str, str]:
    """What an edit in QuickBooks leaves as it was, for a transaction keyed by its fingerprint
    (which the edit changes): its date, type, number and name."""
    return (t.date.isoformat(), t.kind_label, t.num, t.description)


def stamp(key: str, t: Transaction) -> str:
    """The slot's text for ``t`` written under ``key``."""
    return f"{key} {content(t)} {ledger_sums(t)}"


@dataclass(frozen=True, slots=True)
class Stamp:
    key: str
    content: str
    sums: str


def parse(text: str | None) -> Stamp | None:
    """A slot's text read back; None for a transaction without one (or another program's)."""
    parts = (text or "").split(" ")
    if len(parts) != 3 or not all(parts):
        return None
    return Stamp(*parts)


def kind_of(key: str) -> str:
    """ "Trans #", "fingerprint" or "opening balances": what a key is made of, for messages."""
    return KINDS.get(key.split(":", 1)[0].split("#", 1)[0], key)


def by_prefix(name: str, names: Mapping[str, str]) -> str:
    """``name`` renamed by ``names`` (full name → full name), its sub-accounts with it: the
    longest ``names`` entry that is ``name`` or a parent of it."""
    if not names:
        return name
    parts = name.split(":")
    for n in range(len(parts), 0, -1):
        head = ":".join(parts[:n])
        if head in names:
            return ":".join([names[head], *parts[n:]])
    return name
