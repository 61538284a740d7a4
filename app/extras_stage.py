"""Issue 26's records through the plan (``pipeline.prepare``): the budget lines, year-end proofs,
reconciliations and memorized transactions under the final account names, each reconciliation
decided (``app.statements``) and each memorized transaction given its lines (``app.schedules``),
what the book does not get added to ``Ledger.not_imported``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from app import extras, schedules, statements
from app.model import Ledger, Transaction


def applied(
    outline: Ledger,
    history: tuple[Transaction, ...],
    chart: set[str],
    names: Mapping[str, str],
) -> Ledger:
    """``outline`` (final names, the cutover's transactions) with its issue-26 records final;
    ``history``: the resolved transactions the book keeps (accounts named as in ``chart``, the
    resolved accounts; ``names`` renames them)."""
    if not (outline.budget_lines or outline.year_ends or outline.statements or outline.memorized):
        return outline
    placed = extras.renamed_statements(outline.statements, names)
    decided = statements.decided(placed, history, outline.transactions, names)
    memorized = extras.renamed_memorized(
        schedules.templated(outline.memorized, history, chart), names
    )
    left_out = (*statements.not_imported(decided), *schedules.not_imported(memorized))
    return replace(
        outline,
        budget_lines=extras.renamed_budget_lines(outline.budget_lines, names),
        year_ends=extras.renamed_year_ends(outline.year_ends, names),
        statements=decided,
        memorized=memorized,
        not_imported=(*outline.not_imported, *left_out),
    )
