"""Documents for ``tests.support.companygen`` (``make_company(..., documents=True)``): payments
that pay known invoices, credit memos, bills, bill credits and bill payments, with the truth of
every document's open amount; and the Open Invoices / Unpaid Bills Detail reports that print it.

It rewrites only the Invoice, Payment, Bill and Bill Pmt -Check transactions of a company made
with the ordinary generator (same dates, numbers and lines), from its own random source, so
``documents=False`` companies are exactly what they were. Payments pay one to three open
documents of one customer (or vendor), oldest first or not, fully or partly, sometimes with an
unapplied rest; some are prepayments; some credit memos are applied, some left open.
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


def _side(t: Txn) -> str:
    return "vendor" if t.type in ("Bill", "Credit", "Bill Pmt -Check") else "customer"


def _end(side: str, name: str) -> str:
    return name.split(":", 1)[0] if side == "customer" else name


def add_documents(txns: list[Txn], seed: int, customers: list[str], vendors: list[str]):
    """Rewrite ``txns`` in place; returns trans_no → open amount at the end (documents: what is
    still owed; credits: what no document took), positive, for every document and credit."""
    rng = random.Random(seed * 7919 + 12)
    open_: dict[int, Decimal] = {}
    owned: dict[tuple[str, str], list[Txn]] = {}
    for t in txns:
        if t.type in ("Invoice", "Bill"):
            side = _side(t)
            if rng.random() < 0.12:
                _credit_note(t, rng, open_, owned)
                continue
            open_[t.trans_no] = abs(t.splits[0][1])
            owned.setdefault((side, _end(side, t.name)), []).append(t)
        elif t.type in ("Payment", "Bill Pmt -Check"):
            side = _side(t)
            _payment(t, rng, open_, owned, customers if side == "customer" else vendors)
    return open_


def _credit_note(t: Txn, rng: random.Random, open_: dict, owned: dict) -> None:
    side = _side(t)
    t.type = "Credit Memo" if side == "customer" else "Credit"
    t.num = f"{'CM' if side == 'customer' else 'VC'}-{t.trans_no}"
    t.splits = [(a, -v, memo, clr) for a, v, memo, clr in t.splits]
    from tests.support.companygen_tax import negate_items

    negate_items(t)
    total = abs(t.splits[0][1])
    rest = total
    targets = [d for d in owned.get((side, _end(side, t.name)), []) if open_[d.trans_no] > 0]
    if targets and rng.random() < 0.6:
        d = rng.choice(targets)
        amt = min(open_[d.trans_no], total)
        open_[d.trans_no] -= amt
        rest -= amt
    open_[t.trans_no] = rest


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
        t.name = paid[0].name
    else:
        t.name = rng.choice(names)
    rest = ZERO
    if not paid or rng.random() < 0.08:
        rest = Decimal(rng.randint(1000, 30000)).scaleb(-2)
        v += rest
    memo = f"Inv {paid[0].num}" if paid and side == "customer" and rng.random() < 0.25 else ""
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


def write_open_report(company: Company, path: Path, side: str, *, names: bool = True) -> Path:
    """Open Invoices (``side`` "customer") or Unpaid Bills Detail ("vendor") as of the export
    date: one group per customer/vendor (header row, detail rows, "Total ..." row), a TOTAL
    row. ``names``: with the Trans # and Name columns (else the group header names the owner)."""
    from tests.support.companygen_write import _dates, _write_csv, money

    fmt = _dates("mdy")
    asof = company.export_date
    terms = _terms(company)
    cols = ["Type", "Date", "Num", "P. O. #", "Terms", "Due Date", "Aging", "Open Balance"]
    if side == "vendor":
        cols = ["Type", "Date", "Num", "Due Date", "Aging", "Open Balance"]
    if names:
        cols = ["Trans #", *cols[:3], "Name", *cols[3:]]
    header = ["", *cols]
    title = "Open Invoices" if side == "customer" else "Unpaid Bills Detail"
    pad = [""] * (len(header) - 1)
    rows = [[company.name, *pad], [title, *pad], [f"As of {asof:%B} {asof.day}, {asof.year}", *pad]]
    rows += [[""] * len(header), header]
    groups: dict[str, list[Txn]] = {}
    for t in company.transactions:
        if _side(t) == side and company.open_amounts.get(t.trans_no):
            groups.setdefault(t.name, []).append(t)
    total = ZERO
    for owner in sorted(groups):
        rows.append([owner, *pad])
        sub = ZERO
        for t in groups[owner]:
            amount = company.open_amounts[t.trans_no]
            signed = -amount if t.type in CREDITS else amount
            sub += signed
            term, days = terms.get((side, owner), ("", 0))
            due = t.date + dt.timedelta(days=days)
            is_doc = t.type in CUSTOMER_DOCS + VENDOR_DOCS and t.type not in CREDITS
            aging = str((asof - due).days) if is_doc and asof > due else ""
            cell = {"Trans #": f"{t.trans_no:,}", "Type": t.type, "Date": fmt(t.date),
                    "Num": t.num, "Name": owner, "P. O. #": "",
                    "Terms": term if is_doc else "", "Due Date": fmt(due) if is_doc else "",
                    "Aging": aging, "Open Balance": money(signed)}  # fmt: skip
            rows.append(["", *(cell[c] for c in cols)])
        rows.append([f"Total {owner}", *pad[:-1], money(sub)])
        total += sub
    rows.append(["TOTAL", *pad[:-1], money(total)])
    return _write_csv(path, rows, "utf-8")
