"""The Download step's view model: the finished job's result as plain JSON (``out/result.json``,
written by the worker, read by the page).

One sign convention on the whole page (and in the audit pack's printable report): GnuCash's
account tree's, each account's usual balance positive (``app.pages.side_by_side.SIGN_NOTE``
says so once); the rows and the CSV report keep the proof's own (debit positive, credit
negative), each row with the ``sign`` that shows it. Counts in the checks carry thousands
separators; money is formatted by the pages' ``money`` filter (``app.model.money``)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from app import pipeline
from app.documents.proof import DocumentsProof
from app.documents.tax_proof import UNLISTED, SalesTaxProof
from app.extras_proof import ExtrasProof
from app.fixes import action, step, with_fix
from app.model import Ledger, plain
from app.pages.preview import counts, left_out
from app.pages.side_by_side import (
    SIGN_NOTE,
    causes_data,
    open_items,
    state_data,
    trial_balance,
)
from app.proof_state import words as proof_words
from app.words import check_name, check_value, count_name, usual_sign

__all__ = ["SIGN_NOTE", "legacy_state", "result_data"]


def legacy_state(data: dict) -> dict[str, object]:
    """The verdict of a result.json written before it was kept: matches or needs attention."""
    n = sum(1 for r in data.get("rows", ()) if not r.get("ok"))
    if data.get("ok"):
        return {"state": "matches", "words": proof_words("matches"), "why": "", "class": "ok"}
    said = proof_words("attention", n, 0 if n else 1)
    return {"state": "attention", "words": said, "why": "", "class": "error"}


def result_data(prepared: pipeline.Prepared, outcome: pipeline.Outcome) -> dict[str, object]:
    """What the Download step shows, as plain JSON. What is in the book is counted as the book
    holds it: the documents pass cuts payments' A/R (A/P) lines per document paid and adds the
    credit notes' lot links, which the checks count too."""
    report, ledger = outcome.report, outcome.written
    return {
        "ok": bool(report.ok),
        "state": state_data(report),
        "trial_balance": trial_balance(ledger, report),
        "open_items": open_items(report.documents, report.as_of.date if report.as_of else None),
        "headline": report.headline(),
        "causes": causes_data(report),  # each probable cause once, above the table
        "no_opening": report.no_opening,  # the opening balance asked for, not made: why
        "as_of": report.as_of_lines(),
        "summary": list(report.summary_lines("wizard")),
        "rows": [
            {
                "account": r.account,
                "quickbooks_account": r.quickbooks_account,
                "quickbooks_balance": plain(r.quickbooks_balance),
                "gnucash_balance": plain(r.gnucash_balance),
                "difference": plain(r.difference),
                "basis": r.basis,
                "ok": bool(r.ok),
                "cause": r.cause,
                "action": action(r.fix, "wizard"),
                "step": step(r.fix),
                "sign": usual_sign(r.family),
            }
            for r in report.rows
        ],
        "checks": [
            {
                "name": check_name(c.name),
                "input": check_value(c.input),
                "book": check_value(c.book),
                "ok": bool(c.ok),
                "detail": c.detail,
                "cause": c.cause,  # a difference's probable cause (app.check_causes)
                "todo": c.todo,  # what to do, in GnuCash mostly
                "again": bool(c.again),  # writing the book again may cure it
            }
            for c in report.checks
        ],
        "notes": list(report.notes),
        "families": families(ledger, report.rows),
        "transactions": len(ledger.transactions),
        "counts": [(count_name(what), n) for what, n in counts(ledger)],
        "not_imported": [
            {"what": g.what, "count": g.count, "reasons": list(g.reasons)} for g in left_out(ledger)
        ],
        "warnings": [with_fix(str(p), p.fix, "wizard") for p in prepared.warnings],
        "documents": documents_data(report.documents),
        "sales_tax": sales_tax_data(report.sales_tax),
        "extras": extras_data(
            report.extras, {r.account: r.family for r in report.rows}, report.extras_lines()
        ),
    }


def extras_data(
    proof: ExtrasProof | None, families: Mapping[str, str], lines: list[str]
) -> dict[str, object] | None:
    """Every year end (the table account × year end: only the accounts with a figure or a
    difference on some date, each signed as GnuCash's tree shows its family: ``families``),
    budgets, reconciliations, scheduled transactions."""
    if proof is None:
        return None
    years = proof.years
    by_year = [{r.account: r for r in y.rows} for y in years]
    accounts = [
        a
        for a in dict.fromkeys(r.account for y in years for r in y.rows)
        if any((r := per.get(a)) and (r.quickbooks or r.gnucash) for per in by_year)
    ]
    return {
        "ok": bool(proof.ok),
        "lines": lines,
        "years": [
            {"date": y.date.isoformat(), "ok": bool(y.ok), "compared": y.compared} for y in years
        ],
        "table": [
            {
                "account": a,
                "sign": usual_sign(families.get(a, "")),
                "cells": [
                    {
                        "quickbooks": plain(r.quickbooks),
                        "gnucash": plain(r.gnucash),
                        "ok": not r.difference,
                    }
                    if (r := per.get(a))
                    else None
                    for per in by_year
                ],
            }
            for a in accounts
        ],
    }


KIND_LABELS = {
    "invoice": "Invoices",
    "bill": "Bills",
    "credit_note_customer": "Customer credit notes",
    "credit_note_vendor": "Vendor credit notes",
    "payment": "Payments",
}


def documents_data(proof: DocumentsProof | None) -> dict[str, object] | None:
    """The documents part of the proof (None when the book has no documents)."""
    if proof is None:
        return None
    return {
        "ok": bool(proof.ok),
        "headline": proof.lines()[0],
        "notes": proof.notes(),
        "owners": len(proof.rows),
        "counts": [
            [label, proof.book.get(k, 0)] for k, label in KIND_LABELS.items() if proof.book.get(k)
        ],
        "differences": [
            {
                "owner": r.owner,
                "kind": r.kind,
                "quickbooks_open": plain(r.quickbooks_open),
                "gnucash_open": plain(r.gnucash_open),
                "difference": plain(r.difference),
            }
            for r in proof.differences
        ],
    }


def sales_tax_data(proof: SalesTaxProof | None) -> dict[str, object] | None:
    """The sales tax part of the proof (None when the book has no items or documents)."""
    if proof is None:
        return None
    return {
        "ok": bool(proof.ok),
        "headline": proof.lines()[0],
        "summary": proof.summary(),
        "documents": len(proof.documents),
        "kept": [{"id": r.id, "owner": r.owner, "why": r.kept} for r in proof.kept],
        "differences": [
            {
                "kind": r.kind,
                "id": r.id,
                "owner": r.owner,
                "quickbooks": [plain(v) for v in r.quickbooks],
                "gnucash": [plain(v) for v in r.gnucash] if r.gnucash else None,
                "note": r.lines_differ,
            }
            for r in proof.differences
        ],
        "agencies": [
            {
                "agency": a.agency,
                "quickbooks": plain(a.quickbooks),
                "gnucash": plain(a.gnucash),
                "difference": plain(a.difference),
                "basis": a.basis,
                "ok": not a.difference,
                "why": "" if a.listed or not a.difference else UNLISTED,
            }
            for a in proof.agencies
        ],
    }


FAMILIES = (
    ("asset", "Assets"),
    ("liability", "Liabilities"),
    ("equity", "Equity (without this year's net income)"),
    ("income", "Income (this fiscal year)"),
    ("expense", "Expenses (this fiscal year)"),
)


def families(ledger: Ledger, rows: object) -> list[dict[str, object]]:
    """The compared balances summed by kind of account: the picture beside the table. In the
    page's one sign convention (each kind's usual balance positive); ``width`` is a
    percentage of the largest. A family is ok only when each of its accounts is: differences
    that cancel out in the sum still show (with how many accounts differ)."""
    sums = {f: [Decimal(0), Decimal(0)] for f, _ in FAMILIES}
    differ = dict.fromkeys(sums, 0)
    for r in rows:  # type: ignore[attr-defined]
        account = ledger.account(r.account)
        if account is not None and account.type is not None:
            sums[account.type.family][0] += r.quickbooks_balance
            sums[account.type.family][1] += r.gnucash_balance
            differ[account.type.family] += not r.ok
    biggest = max((abs(v) for pair in sums.values() for v in pair), default=Decimal(0)) or 1
    out = []
    for family, label in FAMILIES:
        qb, gnc = (usual_sign(family) * v for v in sums[family])
        out.append(
            {
                "label": label,
                "quickbooks": plain(qb),
                "gnucash": plain(gnc),
                "qb_width": round(100 * abs(qb) / biggest),
                "gnc_width": round(100 * abs(gnc) / biggest),
                "ok": qb == gnc and not differ[family],
                "differ": differ[family],
            }
        )
    return out
