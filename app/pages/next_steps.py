"""After Download, "What to do in GnuCash next" (issue 27, item 9): the figures the printable page
gives, worked out by the import worker from the book as read back (``out/next_steps.json``) so
the page and the audit pack's copy show what this book holds, whatever the settings became:

- the book: its format, the GnuCash version that wrote it, how many transactions;
- the accounting period: the fiscal year holding QuickBooks' day (``AsOf``);
- the proof's verdict (``app.proof_state``): a book that does not match QuickBooks says so at the
  top, since every figure below is the book's;
- the Trial Balance to run in GnuCash on that day, each account's debit or credit as GnuCash's
  own report shows it (its "General journal exact balances": every account's own splits, all
  time, up to the Date of Report, income and expense too, Retained Earnings as posted), and
  beside it QuickBooks' Trial Balance figure where that differs, with why: this fiscal year's
  income or expense only, earlier years' net income in Retained Earnings (GnuCash closes no
  year by itself), or a difference the proof found;
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
from app.proof_state import verdict
from app.verify_report import Report, Row

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


def _why(row: Row | None) -> str:
    """Why QuickBooks' Trial Balance shows another figure than GnuCash's for ``row``'s account."""
    if row is None or row.created:  # made by qb2gnucash (a parent for the tree) or GnuCash
        return "none"
    if not row.ok:  # (an account not in the book is never ok)
        return "differs"
    if row.counted:  # retyped across the balance-sheet line: counted as QuickBooks counts it
        return "retyped"
    if row.basis == "history":  # no QuickBooks balance given: its lines were compared
        return "lines"
    if row.basis == "retained earnings":
        return "earlier years"
    if row.basis == "year to date":
        return "this year"
    return "differs"  # (a matching all-time account shows the same figure)


def _trial(
    report: Report, outcome: pipeline.Outcome, day: dt.date | None
) -> tuple[list[dict[str, str]], Decimal, Decimal]:
    """GnuCash's Trial Balance on ``day`` (every account of the book read back with a balance
    then, in the book's order), each row with QuickBooks' figure where it differs; and the
    report's debit and credit totals."""
    rows = {r.account: r for r in report.rows}
    out: list[dict[str, str]] = []
    debit = credit = Decimal(0)
    for a in outcome.snapshot.accounts:
        shown = a.balance_between(None, day)
        row = rows.get(a.full_name)
        quickbooks = row.quickbooks_balance if row is not None and row.created == "" else None
        if not shown and not quickbooks:
            continue
        if row is not None and row.basis == "history" and row.ok:
            quickbooks = None  # (its transaction lines stood in for a figure QuickBooks lacks)
        entry = {
            "account": a.full_name,
            "debit": plain(shown) if shown > 0 else "",
            "credit": plain(-shown) if shown < 0 else "",
            "quickbooks": "",
            "why": "",
        }
        if quickbooks is None or quickbooks != shown:
            entry["quickbooks"] = "" if quickbooks is None else plain(quickbooks)
            entry["why"] = _why(row)
            if entry["why"] == "earlier years" and row is not None:
                entry["earlier_income"] = plain(row.book_total - row.gnucash_balance)
            if entry["why"] == "retyped" and row is not None:
                entry["counted"], entry["family"] = row.counted, row.family
        out.append(entry)
        debit += max(shown, Decimal(0))
        credit += max(-shown, Decimal(0))
    return out, debit, credit


def next_steps_data(
    prepared: pipeline.Prepared,
    outcome: pipeline.Outcome,
    book_format: str,
    version: tuple[int, int],
) -> dict[str, object]:
    """What the page says, as plain JSON (money as ``plain`` text, dates ISO)."""
    report, ledger = outcome.report, outcome.written
    asof = report.as_of
    trial, debit, credit = _trial(report, outcome, asof.date if asof else None)
    judged = verdict(report)
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
        "state": judged.state,
        "verdict": judged.words(),
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
