"""Documents for ``tests.support.companygen`` (``make_company(..., documents=True)``): payments
that pay known invoices, credit memos, bills, bill credits and bill payments, with the truth of
every document's open amount; and the Open Invoices / Unpaid Bills Detail reports that print it.

It rewrites only the Invoice, Payment, Bill and Bill Pmt -Check transactions of a company made
with the ordinary generator (same dates, numbers and lines), from its own random source, so
``documents=False`` companies are exactly what they were. Payments pay one to three open
documents of one customer, job (a job is an owner of its own: its payments and credits pay its
own documents, as QuickBooks names each A/R line after the job it applies to) or vendor, oldest
first or not, fully or partly, sometimes with an unapplied rest; some are prepayments; some
credit memos are applied, some left open.

``journals=True`` also turns some of the company's journal entries into entries on A/R or A/P
(``add_documents``): a charge or a credit on a customer (its A/R line names it, the expense line
names a vendor) or on a vendor (its A/P line names it, the income line names a customer), the
first row sometimes naming no one; payments pay the charges like invoices and bills, the credits
are applied like credit notes, and what stays open of them is in the reports as General Journal
rows.

The reports are printed as QuickBooks does: one group per customer, its jobs as groups inside it
(their header and "Total" rows one column further in), one group per vendor.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.companygen import Company, Txn

ZERO = Decimal(0)
CENT = Decimal("0.01")
CUSTOMER_DOCS = ("Invoice", "Credit Memo")
VENDOR_DOCS = ("Bill", "Credit")
CREDITS = ("Credit Memo", "Credit", "Payment", "Bill Pmt -Check")


JOURNAL = "General Journal"
_CONTROL = {"customer": "Accounts Receivable", "vendor": "Accounts Payable"}


def _side(t: Txn) -> str:
    if t.type == JOURNAL:
        return "vendor" if any(s[0] == _CONTROL["vendor"] for s in t.splits) else "customer"
    return "vendor" if t.type in ("Bill", "Credit", "Bill Pmt -Check") else "customer"


def owner_of(t: Txn) -> str:
    """The customer, job or vendor a document, payment or journal entry on A/R (A/P) is of:
    the name on its A/R (A/P) line."""
    if t.type != JOURNAL or not t.names:
        return t.name
    control = _CONTROL[_side(t)]
    return next(t.names[i] for i, s in enumerate(t.splits) if s[0] == control)


def control(t: Txn) -> Decimal:
    """The amount of ``t``'s A/R (A/P) line (debit positive)."""
    return next(s[1] for s in t.splits if s[0] == _CONTROL[_side(t)])


def sense(t: Txn) -> int:
    """+1 when what ``t`` leaves open is owed (a document, a journal charge), -1 for a credit."""
    if t.type != JOURNAL:
        return -1 if t.type in CREDITS else 1
    return 1 if (control(t) > 0) == (_side(t) == "customer") else -1


def open_items(company: Company) -> list[tuple[str, str, Txn, Decimal]]:
    """(side, owner, transaction, open as the reports print it: credits negative) for every
    document, payment and journal entry with something open, in date order."""
    return [
        (_side(t), owner_of(t), t, sense(t) * company.open_amounts[t.trans_no])
        for t in company.transactions
        if company.open_amounts.get(t.trans_no)
    ]


def add_documents(
    txns: list[Txn],
    seed: int,
    customers: list[str],
    vendors: list[str],
    journals: bool = False,
):
    """Rewrite ``txns`` in place; returns trans_no → open amount at the end (documents and
    charges: what is still owed; credits: what no document took), positive, for every
    document, credit and (``journals``) journal entry on A/R or A/P."""
    rng = random.Random(seed * 7919 + 12)
    jrng = random.Random(seed * 6007 + 3)  # its own source: journals=False is what it was
    open_: dict[int, Decimal] = {}
    owned: dict[tuple[str, str], list[Txn]] = {}
    for t in txns:
        if t.type in ("Invoice", "Bill"):
            side = _side(t)
            if rng.random() < 0.12:
                _credit_note(t, rng, open_, owned)
                continue
            open_[t.trans_no] = abs(t.splits[0][1])
            owned.setdefault((side, t.name), []).append(t)
        elif t.type in ("Payment", "Bill Pmt -Check"):
            side = _side(t)
            _payment(t, rng, open_, owned, customers if side == "customer" else vendors)
        elif journals and _plain_journal(t) and jrng.random() < 0.7:
            _owner_journal(t, jrng, open_, owned, customers, vendors)
    return open_


def _plain_journal(t: Txn) -> bool:
    """One of the generator's depreciation entries (not the opening ones, not a twin)."""
    return (
        t.type == JOURNAL and t.memo == "Depreciation and reclass" and not t.num.startswith("ADJ")
    )


def _owner_journal(  # noqa: PLR0917
    t: Txn,
    rng: random.Random,
    open_: dict,
    owned: dict,
    customers: list[str],
    vendors: list[str],
) -> None:
    """``t`` becomes a charge or a credit on a customer (or vendor) whose other line names
    someone else: an expense line a vendor (an income line a customer); sometimes a third line
    names no one. The rows come in any order, so the first row may name no one, the other party
    or the owner."""
    side = rng.choice(("customer", "vendor"))
    owner = rng.choice(customers if side == "customer" else vendors)
    other = rng.choice(vendors if side == "customer" else customers)
    charge = rng.random() < 0.5
    amount = Decimal(rng.randint(5000, 250000)).scaleb(-2)
    value = amount if (side == "customer") == charge else -amount  # debit + on A/R (A/P)
    account = rng.choice(("Repairs", "Office Supplies") if side == "customer" else
                         ("Design Income", "Retail Sales"))  # fmt: skip
    memo = "Rebilled to the customer" if side == "customer" else "Job costs settled with vendor"
    rows = [(_CONTROL[side], value, memo, "", owner)]
    if rng.random() < 0.4:
        part = (amount * Decimal(rng.randint(10, 60)) / 100).quantize(CENT)
        part = part if value > 0 else -part
        rows += [(account, -(value - part), memo, "", other), ("Telephone", -part, memo, "", "")]
    else:
        rows.append((account, -value, memo, "", other))
    rng.shuffle(rows)
    t.splits = [r[:4] for r in rows]
    t.names = tuple(r[4] for r in rows)
    t.name = t.names[0]
    t.memo = memo
    if charge:
        open_[t.trans_no] = amount
        owned.setdefault((side, owner), []).append(t)
        return
    open_[t.trans_no] = _applied(amount, owned.get((side, owner), []), rng, open_)


def _applied(amount: Decimal, owed: list[Txn], rng: random.Random, open_: dict) -> Decimal:
    """A credit of ``amount`` applied (60 % of the time) to one of ``owed`` still open; what
    stays unapplied."""
    targets = [d for d in owed if open_[d.trans_no] > 0]
    if not targets or rng.random() >= 0.6:
        return amount
    d = rng.choice(targets)
    used = min(open_[d.trans_no], amount)
    open_[d.trans_no] -= used
    return amount - used


def _credit_note(t: Txn, rng: random.Random, open_: dict, owned: dict) -> None:
    side = _side(t)
    t.type = "Credit Memo" if side == "customer" else "Credit"
    t.num = f"{'CM' if side == 'customer' else 'VC'}-{t.trans_no}"
    t.splits = [(a, -v, memo, clr) for a, v, memo, clr in t.splits]
    from tests.support.companygen_tax import negate_items

    negate_items(t)
    open_[t.trans_no] = _applied(abs(t.splits[0][1]), owned.get((side, t.name), []), rng, open_)


def _payment(t: Txn, rng: random.Random, open_: dict, owned: dict, names: list[str]) -> None:
    side = _side(t)
    pools = [k for k, ds in owned.items() if k[0] == side and any(open_[d.trans_no] for d in ds)]
    paid: list[Txn] = []
    v = ZERO
    if pools and rng.random() < 0.9:
        ds = [d for d in owned[rng.choice(pools)] if open_[d.trans_no] > 0]
        k = rng.randint(1, min(3, len(ds)))
        chosen = ds[:k] if rng.random() < 0.6 else rng.sample(ds, k)  # not always oldest first
        for d in chosen:
            due = open_[d.trans_no]
            if rng.random() < 0.3 and due > 1:
                amt = (due * Decimal(rng.randint(20, 80)) / 100).quantize(CENT)
            else:
                amt = due
            open_[d.trans_no] -= amt
            v += amt
            paid.append(d)
        t.name = owner_of(paid[0])
    else:
        t.name = rng.choice(names)
    rest = ZERO
    if not paid or rng.random() < 0.08:
        rest = Decimal(rng.randint(1000, 30000)).scaleb(-2)
        v += rest
    named = paid and side == "customer" and paid[0].type != JOURNAL
    memo = f"Inv {paid[0].num}" if named and rng.random() < 0.25 else ""
    if side == "customer":
        t.splits = [("Undeposited Funds", v, "", ""), ("Accounts Receivable", -v, memo, "")]
    else:
        clr = t.splits[0][3]
        t.splits = [("Checking", -v, "", clr), ("Accounts Payable", v, memo, "")]
    t.memo = ""
    open_[t.trans_no] = rest


# ---------------------------------------------------------------- the open-items reports


def _terms(company: Company) -> dict[tuple[str, str], tuple[str, int]]:
    """(side, name) → (terms name, due days), as the Lists IIF gives them."""
    names = [(t[0], t[2]) for t in company.terms]
    out = {("customer", n): names[i % len(names)] for i, n in enumerate(company.customers)}
    out.update({("vendor", n): names[i % len(names)] for i, n in enumerate(company.vendors)})
    return out


def write_open_report(
    company: Company, path: Path, side: str, *, names: bool = True, nested: bool = True
) -> Path:
    """Open Invoices (``side`` "customer") or Unpaid Bills Detail ("vendor") as of the export
    date: one group per customer/vendor (header row, detail rows, "Total ..." row), a TOTAL
    row. ``names``: with the Trans # and Name columns (else the group headers name the owner).
    ``nested``: a customer's jobs are groups inside its group, one column further in, as
    QuickBooks prints them (else each ``Customer:Job`` is a group of its own)."""
    from tests.support.companygen_write import _dates, _write_csv, money

    fmt = _dates("mdy")
    asof = company.export_date
    terms = _terms(company)
    cols = ["Type", "Date", "Num", "P. O. #", "Terms", "Due Date", "Aging", "Open Balance"]
    if side == "vendor":
        cols = ["Type", "Date", "Num", "Due Date", "Aging", "Open Balance"]
    if names:
        cols = ["Trans #", *cols[:3], "Name", *cols[3:]]
    groups: dict[str, list[tuple[Txn, Decimal]]] = {}
    for of_side, owner, t, signed in open_items(company):
        if of_side == side:
            groups.setdefault(owner, []).append((t, signed))
    deep = nested and any(":" in owner for owner in groups)
    lead = 2 if deep else 1  # the columns the group headers and Total rows sit in
    header = [""] * lead + cols
    title = "Open Invoices" if side == "customer" else "Unpaid Bills Detail"
    pad = [""] * (len(header) - 1)
    rows = [[company.name, *pad], [title, *pad], [f"As of {asof:%B} {asof.day}, {asof.year}", *pad]]
    rows += [[""] * len(header), header]

    def details(owner: str) -> Decimal:
        """The detail rows of ``owner``'s items; their sum."""
        sub = ZERO
        for t, signed in groups.get(owner, ()):
            sub += signed
            term, days = terms.get((side, owner), ("", 0))
            due = t.date + dt.timedelta(days=days)
            is_doc = t.type in CUSTOMER_DOCS + VENDOR_DOCS and t.type not in CREDITS
            aging = str((asof - due).days) if is_doc and asof > due else ""
            cell = {"Trans #": f"{t.trans_no:,}", "Type": t.type, "Date": fmt(t.date),
                    "Num": t.num, "Name": owner, "P. O. #": "",
                    "Terms": term if is_doc else "", "Due Date": fmt(due) if is_doc else "",
                    "Aging": aging, "Open Balance": money(signed)}  # fmt: skip
            rows.append([""] * lead + [cell[c] for c in cols])
        return sub

    def total_row(label: str, level: int, amount: Decimal) -> None:
        rows.append([""] * level + [f"Total {label}"] + pad[level:-1] + [money(amount)])

    total = ZERO
    for top in sorted({o.split(":", 1)[0] if deep else o for o in groups}):
        rows.append([top, *pad])
        sub = details(top)  # a customer's own items first, then each job's group
        for job in sorted(o for o in groups if deep and o.startswith(f"{top}:")):
            leaf = job.split(":", 1)[1]
            rows.append(["", leaf, *pad[1:]])
            of_job = details(job)
            total_row(leaf, 1, of_job)
            sub += of_job
        total_row(top, 0, sub)
        total += sub
    rows.append(["TOTAL", *pad[:-1], money(total)])
    return _write_csv(path, rows, "utf-8")


def owner_balances(
    company: Company, before: dt.date | None = None
) -> dict[tuple[str, str], Decimal]:
    """(side, owner) → what is open with the customer (job) or vendor on the day before
    ``before`` (None: at the end), owed positive: the sum of its A/R (A/P) lines, whichever
    payment paid whichever document. What an archive closed on that day leaves open, owner by
    owner (``app.archive``)."""
    out: dict[tuple[str, str], Decimal] = {}
    for t in company.transactions:
        if before is not None and t.date >= before:
            continue
        if not any(s[0] in _CONTROL.values() for s in t.splits):
            continue
        side = _side(t)
        key = (side, owner_of(t))
        out[key] = out.get(key, ZERO) + (1 if side == "customer" else -1) * control(t)
    return {k: v for k, v in out.items() if v}


# ---------------------------------------------------------------- names the history lost


def lose_names(company: Company, side: str = "vendor", count: int = 3) -> list[Txn]:
    """The first journal entry on A/P (``side`` "vendor") or A/R ("customer") that leaves
    something open, of each of ``count`` owners, loses every Name cell in the history exports
    (``Txn.unnamed``), as an export that dropped them would; the open-items reports still list
    it under its owner, as QuickBooks does. The book then holds its lines on A/P (A/R) outside
    any owner's lot: the ledger matches QuickBooks, those owners' open items do not
    (``unnamed_truth``, ``aging_truth(book=True)``)."""
    chosen: dict[str, Txn] = {}
    for t in company.transactions:
        if len(chosen) == count:
            break
        if t.type == JOURNAL and t.names and _side(t) == side:
            if company.open_amounts.get(t.trans_no):
                chosen.setdefault(owner_of(t), t)
    for t in chosen.values():
        t.unnamed = True
    return list(chosen.values())


def unnamed_truth(company: Company) -> dict[tuple[str, str], Decimal]:
    """(side, owner) → what the book's lots hold less than QuickBooks' open balance, owed sense
    (positive: GnuCash shows the owner owing less): each unnamed entry's A/R (A/P) line."""
    out: dict[tuple[str, str], Decimal] = {}
    for t in company.transactions:
        if t.unnamed:
            key = (_side(t), owner_of(t))
            owed = control(t) if key[0] == "customer" else -control(t)
            out[key] = out.get(key, ZERO) + owed
    return out


AGING = ("Current", "1-30", "31-60", "61-90", "Over 90")


def aging_truth(company: Company, *, book: bool = False) -> dict[tuple[str, str], list[Decimal]]:
    """(side, owner) → what is open in each aging bucket on the export date, as QuickBooks'
    A/R and A/P aging shows it: a document from its due date (its date plus its owner's terms'
    days, as the reports print it), a payment, credit or journal entry from its own date;
    current up to the due date, then 1-30, 31-60, 61-90 and over 90 days past it. ``book``: as
    the book holds it, the entries whose names the history lost (``lose_names``) left out."""
    asof = company.export_date
    terms = _terms(company)
    out: dict[tuple[str, str], list[Decimal]] = {}
    for side, owner, t, signed in open_items(company):
        if book and t.unnamed:
            continue
        is_doc = t.type in ("Invoice", "Bill")
        due = t.date + dt.timedelta(days=terms.get((side, owner), ("", 0))[1]) if is_doc else t.date
        days = (asof - due).days
        i = 0 if days <= 0 else 1 if days <= 30 else 2 if days <= 60 else 3 if days <= 90 else 4
        out.setdefault((side, owner), [ZERO] * 5)[i] += signed
    return out
