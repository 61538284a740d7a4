"""Which payment (or credit note) paid which document: QuickBooks' exports do not say.

Per owner (a job is an owner of its own: its payments and credit notes pay its documents, as
QuickBooks names each A/R line of a payment after the job whose invoice it pays) by the strongest
evidence there is:

1. the Open Invoices / Unpaid Bills report: every document's open amount and every payment's
   unapplied rest are known, so the application must give exactly those ("open items report");
2. a payment's memo naming a document number, or its amount equal to exactly one document's
   part still to pay ("reference or amount");
3. oldest document first, as GnuCash's own auto-apply does ("oldest first").

A charge (a journal entry that adds to what the owner owes: a debit to A/R, a credit to A/P) is
paid like a document; a journal entry that lowers it is a credit like a payment.

Within rule 1, steps 2 and 3 choose among the applications that reproduce the report (any of
them gives the same balances). Where the report cannot be reproduced job by job but can for the
customer with its jobs together (a customer's payment, on one A/R line, that paid its jobs'
invoices), the customer's family is one pool. What no document takes stays the owner's
prepayment or credit. Where the report cannot be reproduced, payments go oldest first within
what it does say: nothing it shows open is paid beyond that, no credit it shows unapplied is
used beyond that.
Pure: the model and ``app.documents`` only.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from app.business import OpenItem
from app.documents import Documents, OwnerKind, end_owner
from app.documents.report_rows import open_amounts
from app.model import Problem

Rule = Literal["open items report", "reference or amount", "oldest first", "nothing to apply"]
ZERO = Decimal(0)
_TOKEN = re.compile(r"[^\s,;:/()]+")


@dataclass(frozen=True, slots=True)
class Application:
    """``amount`` (positive) of the credit (payment or credit note, by transaction index) paid
    the document or charge (by transaction index)."""

    credit: int
    document: int
    amount: Decimal
    step: Literal["reference", "amount", "oldest first"]


@dataclass(frozen=True, slots=True)
class OwnerRule:
    owner_kind: OwnerKind
    owner: str  # end owner
    rule: Rule
    note: str = ""  # counts per step, or why the report could not be used
    why: str = ""  # why the report could not be used ("documents paid 1,554.57 but ...")


@dataclass(frozen=True, slots=True)
class Allocation:
    applications: tuple[Application, ...] = ()
    rules: tuple[OwnerRule, ...] = ()
    problems: tuple[Problem, ...] = ()
    # the report's open items found in no document or payment of the history
    unmatched: tuple[OpenItem, ...] = ()
    # (document's transaction index, its Due Date as the report prints it)
    due_dates: tuple[tuple[int, dt.date], ...] = ()

    def applied_to(self, credit: int) -> list[Application]:
        return [a for a in self.applications if a.credit == credit]


@dataclass(slots=True)
class _Credit:
    key: int
    date: object
    amount: Decimal
    hint: str
    source: object


@dataclass(slots=True)
class _Debit:
    """What a credit can pay: a document (invoice, bill) or a charge (a journal entry's debit
    to A/R, credit to A/P), by its transaction index."""

    key: int
    date: object
    total: Decimal
    num: str


def allocate(docs: Documents) -> Allocation:
    """The applications for every owner of ``docs`` (see the module docstring)."""
    debits, credits = _by_owner(docs)
    reported = docs.reported
    open_of, problems, unmatched, due = open_amounts(docs, reported)
    families: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for pool in sorted(set(debits) | set(credits)):
        families[pool[0], end_owner(*pool)].append(pool)
    apps: list[Application] = []
    rules: list[OwnerRule] = []
    for (kind, end), pools in families.items():
        ds = {pool: sorted(debits[pool], key=lambda d: (d.date, d.key)) for pool in pools}
        cs = {pool: sorted(credits[pool], key=lambda c: (c.date, c.key)) for pool in pools}
        if kind in reported and len(pools) > 1:
            together = _family(kind, end, ds, cs, open_of)
            if together is not None:
                apps += together[0]
                rules.append(together[1])
                continue
        for pool in pools:
            got, rule, problem = _pool(pool, ds[pool], cs[pool], kind in reported, open_of)
            apps += got
            rules.append(rule)
            if problem is not None:
                problems.append(problem)
    return Allocation(
        tuple(apps), tuple(rules), tuple(problems), tuple(unmatched), tuple(sorted(due.items()))
    )


def _by_owner(
    docs: Documents,
) -> tuple[dict[tuple[str, str], list[_Debit]], dict[tuple[str, str], list[_Credit]]]:
    """(kind, owner) → what its credits can pay (documents, charges), and its credits."""
    debits: dict[tuple[str, str], list[_Debit]] = defaultdict(list)
    credits: dict[tuple[str, str], list[_Credit]] = defaultdict(list)
    for d in docs.documents:
        if d.voided:
            continue
        pool = (d.owner_kind, d.owner)
        if d.credit:
            hint = " ".join(ln.description for ln in d.lines)
            credits[pool].append(_Credit(d.transaction, d.date, d.total, hint, d.source))
        else:
            debits[pool].append(_Debit(d.transaction, d.date, d.total, d.num))
    for p in docs.payments:
        if p.voided or not p.amount:
            continue
        pool = (p.owner_kind, p.owner)
        if p.amount > 0:
            credits[pool].append(_Credit(p.transaction, p.date, p.amount, p.memo, p.source))
        else:  # a charge: payments pay it as they pay a document
            debits[pool].append(_Debit(p.transaction, p.date, -p.amount, p.num))
    return debits, credits


def _family(
    kind: str,
    end: str,
    ds: dict[tuple[str, str], list[_Debit]],
    cs: dict[tuple[str, str], list[_Credit]],
    open_of: dict[int, Decimal],
) -> tuple[list[Application], OwnerRule] | None:
    """A customer and its jobs as one pool, when the report cannot be reproduced job by job but
    can for them together (a customer's payment, on one A/R line, that paid its jobs'
    invoices); None when each job's own pool does, or neither."""
    if not any(_infeasible(*_reported(ds[p], cs[p], open_of)) for p in ds):
        return None
    all_ds = sorted((d for p in ds for d in ds[p]), key=lambda d: (d.date, d.key))
    all_cs = sorted((c for p in cs for c in cs[p]), key=lambda c: (c.date, c.key))
    need, have = _reported(all_ds, all_cs, open_of)
    if _infeasible(need, have):
        return None
    got = _apply(all_ds, all_cs, need, have, dated=False)
    note = "; ".join(filter(None, (_steps(got), f"applied across the jobs of {end}")))
    return got, OwnerRule(kind, end, "open items report", note)  # type: ignore[arg-type]


def _reported(
    ds: list[_Debit], cs: list[_Credit], open_of: dict[int, Decimal]
) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
    """What the report says each document had paid and each credit applied."""
    need = {d.key: d.total - open_of.get(d.key, ZERO) for d in ds}
    have = {c.key: c.amount - open_of.get(c.key, ZERO) for c in cs}
    return need, have


def _pool(
    pool: tuple[str, str],
    ds: list[_Debit],
    cs: list[_Credit],
    reported: bool,
    open_of: dict[int, Decimal],
) -> tuple[list[Application], OwnerRule, Problem | None]:
    """One owner's applications: by the report when it can be reproduced, else as the history
    says (references, amounts, oldest first), within what the report says is still open."""
    kind, owner = pool
    why = ""
    problem = None
    need = {d.key: d.total for d in ds}
    have = {c.key: c.amount for c in cs}
    if reported:
        paid, applied = _reported(ds, cs, open_of)
        why = _infeasible(paid, applied)
        if not why:
            got = _apply(ds, cs, paid, applied, dated=False)
            return got, OwnerRule(kind, owner, "open items report", _steps(got)), None  # type: ignore[arg-type]
        problem = Problem(
            None,
            f"{kind} {owner}: the open-items report cannot be reproduced from the "
            f"history ({why}); payments applied oldest first instead, leaving open what the "
            "report shows open",
            "warning",
        )
        # what the report does say holds: a document (charge) it shows open is never paid
        # beyond that, a credit it shows unapplied is never used beyond that
        need = {k: max(v, ZERO) for k, v in paid.items()}
        have = {k: max(v, ZERO) for k, v in applied.items()}
    got = _apply(ds, cs, need, have, dated=True)
    steps = Counter(a.step for a in got)
    rule: Rule = (
        "oldest first"
        if steps["oldest first"]
        else "reference or amount"
        if got
        else "nothing to apply"
    )
    note = _steps(got) + (f"; report not used: {why}" if why else "")
    return got, OwnerRule(kind, owner, rule, note, why), problem  # type: ignore[arg-type]


def _infeasible(need: dict[int, Decimal], have: dict[int, Decimal]) -> str:
    if any(v < 0 for v in need.values()):
        return "an open amount above its document's total"
    if any(v < 0 for v in have.values()):
        return "an unapplied amount above its payment"
    paid, applied = sum(need.values(), ZERO), sum(have.values(), ZERO)
    if paid != applied:
        return f"documents paid {paid:,.2f} but payments and credits applied {applied:,.2f}"
    return ""


def _apply(
    ds: list[_Debit],
    cs: list[_Credit],
    need: dict[int, Decimal],
    have: dict[int, Decimal],
    *,
    dated: bool,
) -> list[Application]:
    """References, then exact amounts, then oldest first. ``dated``: a credit first pays only
    documents dated on or before it (then, what is left, later ones too)."""
    out: list[Application] = []

    def take(c: _Credit, d: _Debit, step) -> None:
        amt = min(need[d.key], have[c.key])
        if amt > 0:
            out.append(Application(c.key, d.key, amt, step))
            need[d.key] -= amt
            have[c.key] -= amt

    for c, d in _by_reference(ds, cs):
        if have[c.key] > 0:
            take(c, d, "reference")
    # a credit equal to exactly one document's part still to pay: documents by that part (a
    # document's part only drops to 0 in this step, so each bucket is checked as it goes)
    by_need: dict[Decimal, list[_Debit]] = defaultdict(list)
    for d in ds:
        if need[d.key] > 0:
            by_need[need[d.key]].append(d)
    for c in cs:
        amount = have[c.key]
        if amount > 0:
            hits = [
                d for d in by_need.get(amount, ()) if need[d.key] == amount and _before(d, c, dated)
            ]
            if len(hits) == 1:
                take(c, hits[0], "amount")
    for pass_dated in (True, False) if dated else (False,):
        _oldest_first(ds, cs, need, have, dated=pass_dated, take=take)
    return out


def _oldest_first(
    ds: list[_Debit],
    cs: list[_Credit],
    need: dict[int, Decimal],
    have: dict[int, Decimal],
    *,
    dated: bool,
    take,
) -> None:
    """Each credit, in order, pays the oldest documents with something left to pay (``dated``:
    only those dated on or before it, a prefix of ``ds``). Paid documents are skipped through
    next-open pointers, so the pass is linear, not credits × documents."""
    n = len(ds)
    dates = [d.date for d in ds]
    nxt = [i + 1 if need[d.key] <= 0 else i for i, d in enumerate(ds)] + [n]

    def find(i: int) -> int:
        root = i
        while nxt[root] != root:
            root = nxt[root]
        while nxt[i] != root:  # path compression
            nxt[i], i = root, nxt[i]
        return root

    for c in cs:
        if have[c.key] <= 0:
            continue
        end = bisect_right(dates, c.date) if dated else n  # type: ignore[call-overload]
        i = find(0)
        while i < end and have[c.key] > 0:
            take(c, ds[i], "oldest first")
            if need[ds[i].key] <= 0:
                nxt[i] = i + 1
            i = find(i + 1)


def _by_reference(ds: list[_Debit], cs: list[_Credit]) -> list[tuple[_Credit, _Debit]]:
    """(credit, document) for each number a credit's memo or reference names that exactly one
    document carries, in the credits' order."""
    by_num: dict[str, list[_Debit]] = defaultdict(list)
    for d in ds:
        if d.num:
            by_num[d.num].append(d)
    pairs = []
    for c in cs:
        for token in _TOKEN.findall(c.hint):
            hits = by_num.get(token.lstrip("#"), [])
            if len(hits) == 1:
                pairs.append((c, hits[0]))
    return pairs


def _before(d: _Debit, c: _Credit, dated: bool) -> bool:
    return not dated or d.date <= c.date  # type: ignore[operator]


def _steps(apps: list[Application]) -> str:
    n = Counter(a.step for a in apps)
    return ", ".join(f"{n[s]} {s}" for s in ("reference", "amount", "oldest first") if n[s])


def unapplied(docs: Documents, allocation: Allocation) -> dict[int, Decimal]:
    """Transaction index → what is left (positive) of every credit (what no document took) and
    of every charge (what no payment paid)."""
    applied: dict[int, Decimal] = defaultdict(Decimal)
    paid: dict[int, Decimal] = defaultdict(Decimal)
    for a in allocation.applications:
        applied[a.credit] += a.amount
        paid[a.document] += a.amount
    out: dict[int, Decimal] = {}
    for d in docs.documents:
        if d.credit and not d.voided:
            out[d.transaction] = d.total - applied[d.transaction]
    for p in docs.payments:
        if not p.voided:
            left = p.amount - applied[p.transaction] if p.amount >= 0 else -p.amount
            out[p.transaction] = left - paid[p.transaction] if p.amount < 0 else left
    return out


__all__ = ["Allocation", "Application", "OpenItem", "OwnerRule", "allocate", "unapplied"]
