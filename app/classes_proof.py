"""The proof of a book that carries classes (docs/CLASSES.md, "The proof"): ``verify`` on the
book with each class sub-account folded back into its QuickBooks account, each sub-account's own
balance checked against its lines (no line went to another class), and the P&L by class."""

from __future__ import annotations

from dataclasses import replace

from app import check_causes, classes_pnl, classes_stage, verify
from app.book import BookSnapshot
from app.made_here import MadeHere
from app.model import Ledger
from app.plan import Cutover
from app.verify_report import Check, Report


def verified(
    written: Ledger,
    snapshot: BookSnapshot,
    cutover: Cutover,
    *,
    update: bool = False,
    apart: MadeHere | None = None,
) -> Report:
    """``verify.verify`` of ``written`` (the ledger as the book holds it) and ``snapshot`` (the
    book read back), per QuickBooks account, with the class part of the proof. ``update`` and
    ``apart``: an update's proof (verify.verify)."""
    folds = classes_stage.folds(written)
    folded = classes_stage.folded_snapshot(snapshot, folds)
    ledger = classes_stage.folded_ledger(written)
    report = verify.verify(ledger, folded, cutover, update=update, apart=apart)
    meant, held, wrong = classes_stage.sub_account_check(written, snapshot)
    if meant:
        check = Check("class sub-accounts", meant, held, meant == held, wrong)
        check = check_causes.sub_accounts(check, update=update)
        report = replace(report, checks=(*report.checks, check))
    return replace(report, classes=classes_pnl.proof(written, folded, folds))
