"""The whole conversion as three calls shared by the wizard and the command line.

``read`` (files → parsed ledger), ``prepare`` (resolve → plan → cutover → validate: the final
ledger and every problem), ``write`` (book written, read back and verified). ``prepare`` never
raises for bad input: problems are data. ``write`` refuses while any error remains.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

from app import (
    classes_proof,
    classes_stage,
    cutover,
    extras_stage,
    foreign,
    mapped,
    mapping,
    postgres,
    readers,
    resolve,
    statements,
    update,
    validate,
    verify,
)
from app.archive import day_problems
from app.as_of import renamed_daily
from app.book import BookSnapshot, WriteStats
from app.documents import selection, tax_plan
from app.documents.opening import open_items_opening
from app.documents.tax_proof import prove as prove_sales_tax
from app.documents.taxes import SalesTax
from app.errors import BookWriteError, ProblemsError
from app.gc_pause import paused
from app.history import History
from app.model import AccountType, Ledger, Problem
from app.plan import ClassesMode, DocumentsMode, Plan, SalesTaxMode
from app.postgres import Address
from app.read_progress import ReadProgress
from app.verify_report import Report

Progress = Callable[[str, int, int], None]


def read(
    paths: Sequence[Path],
    plan: Plan,
    unread: Sequence[tuple[str, Sequence[Problem]]] = (),
    seen: ReadProgress | None = None,
) -> Ledger:
    """Every file parsed and merged; unreadable ones and ``unread`` (given, not kept: name, why)
    are error problems, never exceptions; ``seen`` is told how far the reading is."""
    with paused(), mapped.as_kept(paths, plan) as given:  # (a file mapped by hand: redacted)
        return readers.read(given, plan, unread=unread, seen=seen)


@dataclass(frozen=True)
class Prepared:
    """``ledger`` is final: every account with its GnuCash full name, parents included.

    It is made on first use from ``outline`` (the final ledger but for the history: accounts,
    as-of day, problems, and the transactions the cutover made) and ``history`` (the resolved
    transactions the book keeps, renamed by ``names``). The Map step, which shows only errors
    and the tree, answers every edit from the outline: renaming 100,000 transactions waits for
    the page that shows them or the book that holds them. The documents part (which invoices,
    bills and payments the book gets, and its warnings) is likewise worked out on first use: it
    never holds an error."""

    parsed: Ledger
    outline: Ledger
    history: History | None  # the resolved history the book keeps (None: balances only)
    names: Mapping[str, str]  # resolved full name → final, where they differ
    checked: tuple[Problem, ...]  # every problem but the documents part's
    documents_mode: DocumentsMode = "none"
    sales_tax_mode: SalesTaxMode = "tables"
    unit: Decimal = Decimal("0.01")  # the book currency's smallest unit (tax is rounded to it)
    classes_mode: ClassesMode = "memo"  # QuickBooks' classes in the book (app/classes_stage.py)
    _memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def ledger(self) -> Ledger:
        if "ledger" not in self._memo:  # (two threads may both make it: it is pure)
            with paused():
                made = (
                    resolve.renamed(self.history.transactions, self.names) if self.history else ()
                )
                if self.outline.transactions:  # the cutover's come first
                    made = (*self.outline.transactions, *made)
                self._memo["ledger"] = classes_stage.carried(
                    replace(self.outline, transactions=made), self.classes_mode
                )
        return self._memo["ledger"]

    @property
    def transaction_count(self) -> int:
        return len(self.outline.transactions) + len(
            self.history.transactions if self.history else ()
        )

    @property
    def documents(self) -> selection.Selection | None:
        """The invoices, bills and payments the book gets (None: the plan says none, there are
        none, or errors remain)."""
        return self._documents()[0]

    @property
    def overview(self) -> selection.Selection | None:
        """``documents`` as the Preview shows them (counts, open amounts, rules, problems):
        worked out on the history as resolved and kept with it for every plan that makes the
        same accounts A/R and A/P, since renaming accounts changes none of that. Its accounts
        are named as before the plan and its transactions numbered within the history: only
        the book needs ``documents``."""
        return self._overview()[0]

    @property
    def sales_tax(self) -> SalesTax | None:
        """The documents' entries (items, quantities, rates, tax) and the tax tables the book
        gets (None: errors remain, or neither items nor documents)."""
        if "sales_tax" not in self._memo:  # (two threads may both work it out: it is pure)
            made = None
            docs = self.documents
            if not self.errors and (docs is not None or self.outline.items):
                with paused():
                    made = tax_plan.plan(
                        self.ledger,
                        docs.docs if docs is not None else None,
                        self.sales_tax_mode,
                        final=lambda name: self.names.get(name, name),
                        unit=self.unit,
                    )
            self._memo["sales_tax"] = made
        return self._memo["sales_tax"]

    @property
    def problems(self) -> tuple[Problem, ...]:
        if "problems" not in self._memo:
            tax = self.tax_overview  # (its warnings: items, tables, invoices keeping their tax)
            found = [*self.checked, *self._overview()[1], *(tax.problems if tax else ())]
            self._memo["problems"] = validate.order(found)
        return self._memo["problems"]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.checked if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def notes(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "note")

    def _documents(self) -> tuple[selection.Selection | None, tuple[Problem, ...]]:
        if "documents" not in self._memo:  # (two threads may both work it out: it is pure)
            found: tuple[selection.Selection | None, tuple[Problem, ...]] = (None, ())
            if not self.errors:  # of a ledger that can be written
                with paused():
                    found = selection.select(self.ledger, self.documents_mode)
            self._memo["documents"] = found
        return self._memo["documents"]

    def _overview(self) -> tuple[selection.Selection | None, tuple[Problem, ...]]:
        history = self.history
        if history is None or self.errors or "documents" in self._memo:
            return self._documents()  # balances only (a few opening documents), or done
        owed, key = self._overview_key(history)
        as_resolved = replace(
            self.outline, accounts=tuple(owed.values()), transactions=history.transactions
        )

        def make() -> tuple[selection.Selection | None, tuple[Problem, ...]]:
            with paused():
                return selection.select(as_resolved, self.documents_mode)

        return history.kept(key, make)

    def _overview_key(self, history: History) -> tuple[dict, tuple]:
        final = {a.full_name: a for a in self.outline.accounts}
        owed = {  # each resolved account the plan makes A/R or A/P, under its resolved name
            r: replace(a, full_name=r)
            for r in history.accounts
            if (a := final.get(self.names.get(r, r))) is not None
            and a.type in (AccountType.RECEIVABLE, AccountType.PAYABLE)
        }
        key = ("documents", self.documents_mode, frozenset((r, a.type) for r, a in owed.items()))
        return owed, key

    @property
    def tax_overview(self) -> SalesTax | None:
        """``sales_tax`` as the Preview shows it: worked out on the history as resolved (its
        accounts named as in QuickBooks' chart) and kept with it, like ``overview``."""
        history = self.history
        if history is None or self.errors or "sales_tax" in self._memo:
            return self.sales_tax
        shown = self.overview
        if shown is None and not self.parsed.items:
            return None
        key = ("sales tax", self.sales_tax_mode, self.unit, self._overview_key(history)[1])
        ledger = replace(self.parsed, transactions=history.transactions)

        def make() -> SalesTax | None:
            with paused():
                docs = shown.docs if shown is not None else None
                return tax_plan.plan(ledger, docs, self.sales_tax_mode, unit=self.unit)

        return history.kept(key, make)


@dataclass(frozen=True, slots=True)
class Outcome:
    stats: WriteStats
    snapshot: BookSnapshot
    report: Report
    written: Ledger  # the ledger as the book holds it (after the documents pass)


def resolve_accounts(parsed: Ledger, plan: Plan) -> Ledger:
    """The report's account labels matched against the chart (the first stage of ``prepare``;
    the wizard keeps it, since only the report-account choices change it)."""
    with paused():
        return resolve.resolve(parsed, plan.account_map)


def prepare(
    parsed: Ledger, plan: Plan, resolved: Ledger | None = None, history: History | None = None
) -> Prepared:
    """Plan applied and checked. Each stage adds its problems to the ledger's. ``resolved``:
    ``resolve_accounts(parsed, plan)`` when the caller already has it; ``history``:
    ``History.of(resolved.transactions)``, likewise (the wizard keeps both across plan edits)."""
    with paused():
        if resolved is None:
            resolved = resolve.resolve(parsed, plan.account_map)
        if history is None:
            history = History.of(resolved.transactions)
        return _prepare(parsed, plan, resolved, history)


def _prepare(parsed: Ledger, plan: Plan, resolved: Ledger, history: History) -> Prepared:
    """mapping → cutover → validate with the history's splits left naming the resolved accounts:
    each stage follows the plan's renames (``names``) on what it reads of them (dates, per-day
    sums, the accounts named); ``Prepared.ledger`` renames them once."""
    if plan.cutover.mode == "balances_only":  # history is ignored: its labels do not matter
        resolved = replace(resolved, problems=_history_ignored(parsed))
    chart = {a.full_name for a in resolved.accounts}
    unresolved = history.accounts - chart
    mapped, names = mapping.applied(resolved, plan)
    outline, keep = cutover.applied(mapped, plan.cutover, renamed_daily(history.daily, names))
    if plan.cutover.mode == "balances_only" and plan.documents != "none":
        outline = open_items_opening(outline)  # the open items as the A/R and A/P openings
    kept = history if keep else None
    if plan.cutover.split_at:
        said = day_problems(plan, kept.transactions if kept else None)
        outline = replace(outline, problems=(*outline.problems, *said))
    outline, converted = foreign.check(
        outline, resolved, plan.currency, allowed=plan.foreign_as_home
    )
    outline = extras_stage.applied(outline, kept.transactions if kept else (), chart, names)
    found = validate.check(
        outline, reported=unresolved, currency=plan.currency, history=kept, names=names
    )
    places = validate.places(plan.currency)
    return Prepared(
        parsed,
        outline,
        kept,
        names,
        validate.order([*outline.problems, *converted, *found]),
        plan.documents,
        plan.sales_tax,
        Decimal(1).scaleb(-places) if places is not None else Decimal("0.01"),
        plan.classes,
    )


def _history_ignored(parsed: Ledger) -> tuple[Problem, ...]:
    """Balances-only mode: errors inside pure transaction files no longer block (the files are
    not used); they stay listed as warnings."""
    history = {f.filename for f in parsed.files if f.only_history}
    return tuple(
        replace(p, severity="warning", message=f"{p.message} (file not used: balances only)")
        if p.severity == "error" and p.source and p.source.filename in history
        else p
        for p in parsed.problems
    )


def write(
    prepared: Prepared,
    out_path: Path | Address,
    plan: Plan,
    on_progress: Progress | None = None,
    *,
    overwrite: bool = False,
) -> Outcome:
    """Write the book, read it back through GnuCash and compare. Refuses while errors remain.
    The book is written beside ``out_path`` under a hidden name and put in place only once it
    has been read back and compared: a run that fails (writing, reading back, a full disk) leaves
    nothing behind, and an existing ``out_path`` is replaced only with ``overwrite``. A
    PostgreSQL ``out_path`` (an ``Address``) likewise: ``postgres.placed``."""
    if prepared.errors:
        raise ProblemsError(prepared.errors)
    if plan.cutover.split_at:  # two books: app.split_write
        raise BookWriteError(
            "this plan keeps the history in an archive book: write it with the wizard, or with "
            "run.py convert --archive ARCHIVE.gnucash"
        )
    if isinstance(out_path, Address):
        with postgres.placed(out_path, overwrite=overwrite) as where:
            return write_proven(prepared, where, plan, on_progress)
    if out_path.exists() and not overwrite:
        raise BookWriteError(f"{out_path} already exists; not overwritten")
    staged = out_path.with_name(f".{out_path.name}.partial-checked-{os.getpid()}")
    try:
        outcome = write_proven(prepared, staged, plan, on_progress)
        try:
            os.replace(staged, out_path)
        except OSError as exc:
            raise BookWriteError(f"cannot put the book in place at {out_path}: {exc}") from exc
    finally:
        staged.unlink(missing_ok=True)  # nothing of a failed run stays behind
    return outcome


def write_proven(
    prepared: Prepared, where: Path | Address, plan: Plan, on_progress: Progress | None
) -> Outcome:
    """The book written at ``where``, read back and compared."""
    from app import gnc  # noqa: PLC0415 - lazily: the core imports without GnuCash

    ledger = statements.marked(prepared.ledger)  # a reconciliation proven line by line
    docs, st = prepared.documents, prepared.sales_tax
    extra = bool(ledger.budget_lines or ledger.memorized or ledger.statements)

    def build(progress: Progress | None) -> tuple[WriteStats, list[str], gnc.ExtrasWritten]:
        """The book written; the documents the engine would tax otherwise than planned; extras."""
        tell: Progress = progress or (lambda phase, done, total: None)
        refused: list[str] = []
        made: list[gnc.ExtrasWritten] = []

        def after(written: gnc.Written) -> None:  # in the same session: the GL is never saved
            if docs is not None or st is not None:  # without its documents
                tell("documents", 0, 1)
                tables = gnc.write_sales_tax(written, st) if st is not None else {}
                if docs is not None and st is not None:
                    gnc.write_documents_with_tax(
                        written, docs.docs, docs.allocation, st, tables, refused
                    )
                elif docs is not None:
                    gnc.write_documents(written, docs.docs, docs.allocation)
                tell("documents", 1, 1)
            if extra:  # budgets, scheduled transactions, reconcile dates
                made.append(gnc.write_extras(written, ledger))

        with gnc.plain():  # compressed while it is read back (docs/ENGINE.md)
            stats = gnc.write_book(
                ledger,
                where,
                currency=plan.currency,
                fmt=plan.format,
                on_progress=progress,
                overwrite=True,
                after=after if docs is not None or st is not None or extra else None,
                marks=update.marks(ledger, plan.to_json()),  # docs/UPDATE.md
            )
        return stats, refused, made[0] if made else gnc.ExtrasWritten()

    def side() -> Ledger:  # as the book holds it, here while the child writes (the other core)
        with paused():
            return selection.as_written(ledger, docs)

    (stats, refused, done), written, apart = gnc.write_book_apart(build, where, on_progress, side)
    stats = replace(done.counted(stats), apart=apart)
    with gnc.compressed_after(where):  # on this process's other thread, meanwhile
        snapshot = gnc.read_book(
            where,
            on_progress=on_progress,
            documents=docs is not None,
            sales_tax=st.tax_accounts if st is not None else None,
        )
    with paused():
        if done.refused:
            written = replace(written, not_imported=(*written.not_imported, *done.refused))
        report = classes_proof.verified(written, snapshot, plan.cutover)  # (and without classes)
        if said := foreign.proof_note(prepared.parsed, plan.currency):
            report = replace(report, notes=(*report.notes, said))
        if docs is not None and snapshot.documents is not None:
            report = verify.with_documents(report, docs, snapshot.documents, written.accounts)
        # (no document with tax and no Sales Tax Liability report: nothing to compare; a
        # balances-only book's tax account opens as one amount, owed to no agency it could name)
        if st is not None and snapshot.sales_tax is not None and (st.docs or written.tax_liability):
            proof = prove_sales_tax(st, snapshot.sales_tax, written, tuple(refused))
            report = replace(report, sales_tax=proof)
    return Outcome(stats, snapshot, report, written)
