"""The same generated company exported twice (issue 25, the parallel run): ``later_company``
gives an export made on a ``cut`` day (``Later.first``) and one made later (``Later.second``),
with the truth of what changed in between.

The later export holds every transaction of the first (same Trans #, dates, numbers, lines)
and, after the cut, new ones: the generator's own, with payments of invoices and bills the
first export still had open; an invoice to a customer new since the cut; an invoice to a new job
of a customer the first export has (``new_job``); a check to an account new since the cut; an
employee hired since the cut (``new_employee``, in the second export's lists).
One account is renamed in QuickBooks after the first export (``RENAMED``, same number: the
second export names every line of it, earlier ones too, by the new name). Two earlier
transactions are changed in QuickBooks after the first export:
one check's amount edited (``edited``: the first's version and the second's), one deleted
(``deleted``). Both exports' figures (trial balance, open amounts) are what QuickBooks would
report on their day, the edit and the deletion included in the second's.

The first export's documents are worked out by ``companygen_docs.add_documents`` on the
transactions up to the cut: it walks them in order from its own random source, so what it
does with them is what it did with the same transactions in the whole history (the two agree
on every earlier transaction; ``tests/test_companygen_later.py`` checks it).
"""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from tests.support import companygen_classes as _c
from tests.support import companygen_docs as _d
from tests.support.companygen import CUSTOMERS, VENDORS, Company, Txn, make_company

NEW_CUSTOMER = "Zephyr Garden Supply"
NEW_JOB = "Heldt, Bob:Patio"  # a new job of a customer the first export has
NEW_EMPLOYEE = ("Rosa Linden", "900-45-6789")  # hired since the cut (the number is never kept)
NEW_ACCOUNT = ("Marketing", "EXP", "6050", "")
EDIT = Decimal("10.00")
JOB_AMOUNT = Decimal("615.40")
RENAMED = ("Telephone", "Telephone and Internet")  # renamed in QuickBooks after the cut (6800)


@dataclass
class Later:
    first: Company  # exported on ``cut``
    second: Company  # exported on its last transaction's day
    cut: dt.date
    edited: tuple[Txn, Txn]  # (the first export's version, the second's)
    deleted: Txn  # in the first export, gone from the second
    new_customer: str
    new_account: str
    new_job: str
    paid_later: list[int]  # Trans # of documents open in the first, paid in full by the second
    new_employee: str = NEW_EMPLOYEE[0]  # in the second export's lists only

    @property
    def added(self) -> list[Txn]:
        """The second export's transactions the first does not have."""
        known = {t.trans_no for t in self.first.transactions}
        return [t for t in self.second.transactions if t.trans_no not in known]


def _changeable(t: Txn) -> bool:
    """A check with an amount (no document, not voided): edited or deleted without touching
    A/R or A/P."""
    return t.type == "Check" and t.splits[0][1] != 0 and len(t.splits) >= 2


def later_company(
    transactions: int = 600,
    seed: int = 5,
    share: float = 0.75,
    years: int = 2,
    *,
    classes: bool = False,
    items: bool = False,
) -> Later:
    """A documents company (``make_company(..., documents=True)``) exported at ``share`` of its
    history and again at its end; see the module docstring. ``classes``: with QuickBooks'
    classes (``companygen_classes``: drawn line by line in order, so the first export's lines
    have the classes the whole history gives them). ``items``: with items and sales tax
    (``companygen_tax``: every invoice rewritten in order, so the first export's invoices are
    the whole history's; ``Company.tax`` is the whole history's truth, by Trans #)."""
    whole = make_company(
        transactions, seed, years=years, documents=True, classes=classes, items=items
    )
    plain = make_company(transactions, seed, years=years, items=items)  # before add_documents
    cut = plain.transactions[int(len(plain.transactions) * share)].date
    prefix = copy.deepcopy([t for t in plain.transactions if t.date <= cut])
    open_then = _d.add_documents(prefix, seed, list(CUSTOMERS), list(VENDORS))
    first = replace(whole, transactions=prefix, exported=cut, open_amounts=open_then)
    if classes:
        _c.add_classes(first, seed)

    txns = copy.deepcopy(whole.transactions)
    early = [t for t in txns if t.date <= cut and t.date > txns[2].date and _changeable(t)]
    target, gone = early[len(early) // 2], early[len(early) // 3]
    before = next(t for t in first.transactions if t.trans_no == target.trans_no)
    head, line = target.splits[0], target.splits[1]
    target.splits = [
        (head[0], head[1] - EDIT, head[2], head[3]),
        (line[0], line[1] + EDIT, line[2], line[3]),
        *target.splits[2:],
    ]
    txns.remove(gone)
    last = txns[-1].date
    no = max(t.trans_no for t in txns)
    amount = Decimal("1250.00")
    invoice = Txn(
        no + 1,
        "Invoice",
        last,
        "9001",
        NEW_CUSTOMER,
        "",
        [("Accounts Receivable", amount, "", ""), ("Design Income", -amount, "Line 1", "")],
    )
    job_invoice = Txn(
        no + 3,
        "Invoice",
        last,
        "9003",
        NEW_JOB,
        "",
        [("Accounts Receivable", JOB_AMOUNT, "", ""), ("Design Income", -JOB_AMOUNT, "Line 1", "")],
    )
    check = Txn(
        no + 2,
        "Check",
        last,
        "9002",
        VENDORS[0],
        "Spring campaign",
        [("Checking", Decimal("-480.00"), "", ""), (NEW_ACCOUNT[0], Decimal("480.00"), "", "")],
    )
    txns += [invoice, check, job_invoice]
    old, new = RENAMED
    for t in txns:  # QuickBooks renames the account in its whole history
        t.splits = [(new if a == old else a, *rest) for a, *rest in t.splits]
    opened = {**whole.open_amounts, invoice.trans_no: amount, job_invoice.trans_no: JOB_AMOUNT}
    second = replace(
        whole,
        transactions=txns,
        accounts=[(new if a[0] == old else a[0], *a[1:]) for a in whole.accounts] + [NEW_ACCOUNT],
        customers=[*whole.customers, NEW_CUSTOMER, NEW_JOB],
        employees=[*whole.employees, NEW_EMPLOYEE],
        open_amounts=opened,
    )
    paid = [n for n, v in open_then.items() if v > 0 and opened.get(n) == 0 and _owed(first, n)]
    return Later(
        first, second, cut, (before, target), gone, NEW_CUSTOMER, NEW_ACCOUNT[0], NEW_JOB, paid
    )


def exports(company: Company, folder: Path, history: str = "journal") -> list[Path]:
    """One export of the company as the update tests give it: the lists, the history
    (``history``: "journal", or "transaction_detail", the report with the item columns) and
    both open-items reports."""
    folder.mkdir(parents=True, exist_ok=True)
    write = getattr(company, f"write_{history}_csv")
    return [
        company.write_lists_iif(folder / "lists.iif"),
        write(folder / f"{history}.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]


def _owed(company: Company, trans_no: int) -> bool:
    """An invoice or a bill (not a credit, a payment's rest or a journal entry)."""
    t = next(t for t in company.transactions if t.trans_no == trans_no)
    return t.type in ("Invoice", "Bill")


def retyped(company: Company, account: str, qb_type: str, amount: Decimal) -> Company:
    """``company`` (a later export) where QuickBooks changed ``account``'s type to
    ``qb_type`` (a QuickBooks type word: "EXP") after the first export, and a new check of
    ``amount`` on its last day posts to it from Checking: the truth is the new type (a fresh
    conversion's), the book written before keeps the old one."""
    out = copy.deepcopy(company)
    out.accounts = [(a[0], qb_type, *a[2:]) if a[0] == account else a for a in out.accounts]
    last = out.transactions[-1]
    no = max(t.trans_no for t in out.transactions) + 1
    splits = [("Checking", -amount, "", ""), (account, amount, "", "")]
    out.transactions.append(Txn(no, "Check", last.date, "9100", "State Fund", "", splits))
    return out
