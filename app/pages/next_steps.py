"""After Download, "What to do in GnuCash next" (issue 27, item 9): the figures the printable page
gives, worked out by the import worker from the book as read back (``out/next_steps.json``) so
the page and the audit pack's copy show what this book holds, whatever the settings became:

- the book: its format, the GnuCash version that wrote it, how many transactions;
- the accounting period: the fiscal year holding QuickBooks' day (``AsOf``);
- the Trial Balance to run in GnuCash for that period, each account's debit or credit as the book
  holds it (the proof's GnuCash figures, ``app.verify``: balance-sheet accounts all time, income
  and expense from the fiscal year's start; Retained Earnings as posted, earlier years' net income
  said apart, since GnuCash closes no year by itself);
- the aging reports: each customer's and vendor's open balance in the book, on that day, and the
  columns GnuCash's own Receivable and Payable Aging reports show for it (``aging.report_aging``,
  which does not age as QuickBooks does: docs/DOCUMENTS.md, "GnuCash's own aging reports");
- the first bank reconciliation: each bank and credit card account's last QuickBooks statement
  (the Reconciliation Summary's), or that none was given;
- the next invoice: QuickBooks' last invoice number, for GnuCash's counter (a bill's number is the
  vendor's, and goes in the bill's Billing ID).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from app import pipeline
from app.documents.aging import REPORT_COLUMNS, report_aging
from app.model import AccountType, Ledger, plain

RECONCILED = (AccountType.BANK, AccountType.CREDIT)
# the company's own numbers (a bill's is the vendor's invoice number: no counter of the book's)
INVOICE_KINDS = {"invoice": "Invoice"}


def _number(num: str) -> int | None:
    m = re.fullmatch(r"\D*(\d{1,12})", num.strip())
    return int(m.group(1)) if m else None


def last_numbers(ledger: Ledger) -> dict[str, str]:
    """ "invoice" → the highest number QuickBooks gave one (its text), where numbered: GnuCash's
    counter set to it never gives a number twice."""
    out: dict[str, str] = {}
    for key, kind in INVOICE_KINDS.items():
        numbered = [
            (n, t.num)
            for t in ledger.transactions
            if t.kind_label == kind and (n := _number(t.num)) is not None
        ]
        if numbered:
            out[key] = max(numbered)[1]
    return out


def _year_end(start: dt.date) -> dt.date:
    try:
        return start.replace(year=start.year + 1) - dt.timedelta(days=1)
    except ValueError:  # February 29
        return start.replace(year=start.year + 1, day=28)


def _total(owners: list[dict[str, str]], kind: str) -> str:
    return plain(sum((Decimal(o["open"]) for o in owners if o["kind"] == kind), Decimal(0)))


def _report_aging(outcome: pipeline.Outcome, as_of: dt.date | None) -> list[dict[str, object]]:
    """Per side, what GnuCash's own aging report shows with To set to ``as_of``: each
    customer's (vendor's) columns, their totals, and what of the control accounts the report
    leaves out (lines neither a document's nor a payment's: journal entries)."""
    documents = outcome.snapshot.documents
    if documents is None or as_of is None:
        return []
    rows = report_aging(documents.open_lots, as_of)
    out: list[dict[str, object]] = []
    for control in documents.controls:
        kind = control.owner_kind
        mine = sorted(
            ((owner, row) for (k, owner), row in rows.items() if k == kind and any(row)),
            key=lambda x: x[0].casefold(),
        )
        sums = [sum((row[i] for _o, row in mine), Decimal(0)) for i in range(len(REPORT_COLUMNS))]
        total = sum(sums, Decimal(0))
        out.append(
            {
                "kind": kind,
                "report": "Receivable Aging" if kind == "customer" else "Payable Aging",
                "owners": [
                    {
                        "owner": o,
                        "columns": [plain(v) for v in row],
                        "total": plain(sum(row, Decimal(0))),
                    }
                    for o, row in mine
                ],
                "columns": [plain(v) for v in sums],
                "total": plain(total),
                "left_out": plain(control.balance - total),
            }
        )
    return out


def next_steps_data(
    prepared: pipeline.Prepared,
    outcome: pipeline.Outcome,
    book_format: str,
    version: tuple[int, int],
) -> dict[str, object]:
    """What the page says, as plain JSON (money as ``plain`` text, dates ISO)."""
    report, ledger = outcome.report, outcome.written
    asof = report.as_of
    trial = []
    debit = credit = Decimal(0)
    for r in report.rows:
        if not r.in_book or r.created == "book" or not r.gnucash_balance:
            continue
        if r.basis == "retained earnings":
            posted, earlier = r.book_total, r.gnucash_balance - r.book_total
        else:
            posted, earlier = r.gnucash_balance, Decimal(0)
        trial.append(
            {
                "account": r.account,
                "balance": plain(r.gnucash_balance),
                "debit": plain(r.gnucash_balance) if r.gnucash_balance > 0 else "",
                "credit": plain(-r.gnucash_balance) if r.gnucash_balance < 0 else "",
                "posted": plain(posted),
                "earlier": plain(earlier),
                "earlier_income": plain(-earlier),  # net income positive, a loss negative
                "basis": r.basis,
            }
        )
        debit += max(r.gnucash_balance, Decimal(0))
        credit += max(-r.gnucash_balance, Decimal(0))
    owners = []
    if report.documents is not None:
        owners = [
            {"owner": o.owner, "kind": o.kind, "open": plain(o.gnucash_open)}
            for o in report.documents.rows
            if o.gnucash_open
        ]
    aging = _report_aging(outcome, asof.date if asof else None)
    statements = {s.account: s for s in ledger.statements}
    banks = [
        {
            "account": a.full_name,
            "type": a.type.value if a.type else "",
            "statement": statements[a.full_name].date.isoformat()
            if a.full_name in statements
            else "",
            "balance": plain(statements[a.full_name].balance) if a.full_name in statements else "",
        }
        for a in ledger.accounts
        if a.type in RECONCILED and not a.placeholder
    ]
    year_start = asof.year_start if asof else None
    return {
        "format": book_format,
        "version": ".".join(map(str, version)) if version != (0, 0) else "",
        "transactions": len(ledger.transactions),
        "as_of": asof.date.isoformat() if asof else "",
        "year_start": year_start.isoformat() if year_start else "",
        "year_end": _year_end(year_start).isoformat() if year_start else "",
        "trial": trial,
        "debit": plain(debit),
        "credit": plain(credit),
        "documents": report.documents is not None,
        "owners": owners,
        "receivable": _total(owners, "customer"),
        "payable": _total(owners, "vendor"),
        "aging": aging,
        "aging_columns": list(REPORT_COLUMNS),
        "banks": banks,
        "last_numbers": last_numbers(ledger),
    }
