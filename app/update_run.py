"""``run.py convert --update BOOK FILES...`` and the wizard's "Bring an existing book up to
date", as one call: the book read and brought up to date in a copy (``gnc.update_book``), the
copy read back through GnuCash and proven, then put in place with the previous book kept as a
backup (docs/UPDATE.md).

The plan the book was written with (stored in it) is applied to the new exports, with what the
caller changes on top (``given``), so new transactions land in the renamed accounts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from app import (
    classes_proof,
    extras,
    keys,
    made_here,
    pipeline,
    statements,
    update_budgets,
    update_classes,
    update_deleted,
    update_deltas,
    update_place,
    update_prepare,
    update_record,
    update_refused,
    update_statements,
    update_twice,
    verify,
)
from app import update as plan_update
from app import update_decision as renaming
from app import update_proof as proof
from app.documents import selection
from app.errors import ProblemsError
from app.fixes import Audience, with_fix
from app.gc_pause import paused
from app.model import Ledger, Problem
from app.openings import OPENING_KIND
from app.plan import Plan, plan_from_json
from app.postgres import Address
from app.update import BookState, UpdateRefused, Work
from app.update_budgets import Budgets
from app.update_classes import ClassRename
from app.update_decision import AccountRename, Decision
from app.update_deltas import Delta
from app.update_refused import book_rules, mode_changed, not_done, refusal, unknown_keys
from app.update_words import summary
from app.verify_report import Report
from app.words import plural

if TYPE_CHECKING:
    from app import gnc


@dataclass(frozen=True)
class UpdateOutcome:
    work: Work
    ledger: Ledger  # the new exports' final ledger
    plan: Plan  # the plan applied (the book's, with the caller's changes)
    written: bool  # False: nothing new, the book left untouched
    report: Report | None = None  # the proof of the updated book
    deltas: tuple[Delta, ...] = ()
    held: dict[str, Decimal] | None = None  # per account, what the held changes keep out
    # the proof of the book as it would be had the held changes been applied: matching, the
    # book differs from QuickBooks by exactly those changes
    as_taken: Report | None = None
    backup: Path | str | None = None  # (str: a database on a PostgreSQL server)
    documents: dict[str, int] | None = None
    renames: tuple[AccountRename, ...] = ()  # accounts QuickBooks renamed since the last run
    classes: tuple[ClassRename, ...] = ()  # and classes
    # new documents taxed through tables; (id, why) of those keeping QuickBooks' tax as lines
    tax: tuple[int, tuple[tuple[str, str], ...]] = (0, ())
    budgets: Budgets = field(default_factory=Budgets)  # QuickBooks' budgets added, kept...
    warnings: tuple[Problem, ...] = ()  # the exports' (a number masked, QuickBooks' rename...)

    @property
    def renamed(self) -> tuple[AccountRename | ClassRename, ...]:
        """What QuickBooks renamed since the last run, each decided as a held change is."""
        return (*self.renames, *self.classes)

    def lines(self, audience: Audience = "cli") -> list[str]:
        """What the run did, in the words a person reads (the wizard's worked on a copy of the
        user's book: their own file is untouched, the updated one is downloaded)."""
        more = self.budgets.writes or bool(self.budgets.differ) or bool(self.renamed)
        out = summary(self.work, self.ledger, audience, more) + [
            r.said(audience) for r in self.renamed if audience == "cli" or r.taken or r.kept
        ]
        out += [f"Warning: {with_fix(str(p), p.fix, audience)}" for p in self.warnings]
        out += self.budgets.lines(audience)
        if self.ledger.memorized:
            out.append(
                f"Memorized transactions: {len(self.ledger.memorized):,} in the exports; an "
                "update does not bring scheduled transactions up to date (the book keeps those "
                "its conversion made)"
            )
        tabled, kept = self.tax
        if tabled or kept:
            said = (
                f"Sales tax: {plural(tabled, 'new invoice', 'new invoices')} taxed through "
                "GnuCash's tax tables, as in the first conversion"
            )
            if kept:
                verb = "keeps" if len(kept) == 1 else "keep"
                said += (
                    f"; {plural(len(kept), 'new invoice', 'new invoices')} {verb} QuickBooks' "
                    "tax as plain lines: " + "; ".join(f"{i} ({why})" for i, why in kept)
                )
            out.append(said)
        if not self.written:
            out.append("The book was not changed")
        elif audience == "wizard" and not isinstance(self.backup, str):  # (str: in PostgreSQL)
            out.append("Your own copy of the book is untouched: download the updated one below")
        elif self.backup is not None:
            out.append(f"The previous book is kept as {self.backup}")
        if self.deltas:
            off = [d for d in self.deltas if not d.ok]
            out.append(
                f"What this run added, per account, against QuickBooks' movement since the last "
                f"run: {plural(len(self.deltas), 'account')} moved"
                + (
                    f"; {plural(len(off), 'account')} where this run's movement is not "
                    "QuickBooks' (held changes, or transactions dated before the last run)"
                    if off
                    else "; this run added exactly QuickBooks' movement on each"
                )
            )
        return out

    @property
    def explained(self) -> bool:
        """Every difference of the proof is what the held changes keep out of the book."""
        return self.as_taken is not None and self.as_taken.ok

    @property
    def differs(self) -> bool:
        """The proof differs by more than the held changes and the budgets the book keeps as
        its own: said as the proof's verdict, even when the run added nothing."""
        report = self.report
        if report is None or report.ok or self.explained:
            return False
        kept = {h.budget.name for h in self.budgets.differ}
        if report.extras is not None and kept:
            rest = tuple(
                m for m in report.extras.mismatches if not (m.what == "budget" and m.name in kept)
            )
            report = replace(report, extras=replace(report.extras, mismatches=rest))
        return not report.ok


def _planned(stored: str, given: Callable[[Plan], Plan], name: str) -> Plan:
    """The plan the book was written with (``stored``, its JSON), with the caller's changes;
    UpdateRefused when they would write in another mode than the book's."""
    was = plan_from_json(stored, f"the plan stored in {name}")
    plan = given(was)
    if changed := mode_changed(was, plan, name):
        raise UpdateRefused(changed)
    return plan


def bring_up_to_date(
    paths: Sequence[Path],
    book: Path | Address,
    given: Callable[[Plan], Plan] = lambda plan: plan,
    on_progress: pipeline.Progress | None = None,
    password: str | None = None,
) -> UpdateOutcome:
    """Bring ``book`` up to date with the exports at ``paths``; raises UpdateRefused,
    ProblemsError or BookWriteError with nothing written (the book as it was). ``password``:
    a PostgreSQL book's server's (the wizard's, typed), else PGPASSWORD or ~/.pgpass."""
    from app import gnc  # noqa: PLC0415 - lazily: the core imports without GnuCash

    book, name = update_place.checked(book, password)
    made: dict[str, object] = {}

    def decide(state: BookState) -> Decision:
        if state.record is None:
            raise UpdateRefused(refusal(state.record, Ledger(), name) or "")
        plan = _planned(state.record.plan, given, name)
        if why := not_done(plan, name):  # docs/UPDATE.md, "Not done yet"
            raise UpdateRefused(why)
        parsed, plan = update_prepare.followed(state, pipeline.read(paths, plan), plan)
        prepared = pipeline.prepare(parsed, plan)
        if prepared.errors:
            raise ProblemsError(book_rules(prepared.errors))
        classes = update_classes.found(state, parsed, prepared, plan)
        parsed, prepared = classes.parsed, classes.prepared
        compared, renames = update_prepare.compared(state, parsed, plan, prepared)
        to_book = renaming.to_book(state, renames)
        prepared = update_prepare.in_book(parsed, plan, compared, renames, to_book, name)
        with paused():
            ledger = statements.marked(compared.ledger)
            budgets = update_budgets.of_update(
                state,
                extras.budgets(ledger.budget_lines),
                plan,
                renaming.taken_as(renames),
            )
            held = (*renames, *classes.renames, *budgets.held)
            work = _work(state, ledger, plan, name, (h.key for h in held))
            took = None
            if classes.final is not None:  # a class's name in QuickBooks taken: written so
                compared, prepared, took = update_prepare.taken(
                    state, classes, plan, compared, work, to_book, name
                )
                ledger, work = statements.marked(compared.ledger), took.work
                budgets, plan = update_budgets.with_classes(budgets, plan, classes.taken, state)
            record = _record(state, ledger, plan, work, renames, budgets.digests)
            if prepared is not compared:  # the book names some accounts otherwise
                ledger, work = statements.marked(prepared.ledger), renaming.in_book(work, to_book)
            ledger = update_statements.kept_marks(work, ledger)
        docs = prepared.documents
        made.update(plan=plan, prepared=prepared, ledger=ledger, to_book=to_book, classes=classes)
        return Decision(
            ledger,
            work,
            plan.currency,
            record,
            (docs.docs, docs.allocation, docs.open_amounts) if docs is not None else None,
            rewrite=plan.held != plan_from_json(state.record.plan).held,
            renames=renames,
            named=renaming.book_to_keys(state, renames),
            restamp=update_classes.restamp(
                renaming.to_restamp(state, to_book, renames) + work.by_hand, took, to_book
            ),
            sales_tax=prepared.sales_tax if docs is not None else None,
            classes=classes.taken,
            class_accounts=update_classes.in_book(took, to_book, renaming.taken_as(renames)),
            budgets=budgets.in_book(to_book),
        )

    with update_place.staged(book, password) as staged:
        done = gnc.update_book(book, staged, decide, on_progress, password)
        work, ledger = done.decision.work, done.decision.ledger
        plan = made["plan"]
        assert isinstance(plan, Plan)
        renames = done.decision.renames
        found = made["classes"]
        assert isinstance(found, update_classes.Found)
        prepared, to_book = _made(made)
        if not done.written:  # proven as it is: the last run's proof may have differed
            report, _, held, taken = _prove(
                book, prepared, ledger, work, plan, done, to_book, password
            )
            return UpdateOutcome(
                work, ledger, plan, False, report, (), held, taken, renames=renames,
                classes=found.renames, budgets=done.decision.budgets, warnings=prepared.warnings,
            )  # fmt: skip
        report, deltas, held, taken = _prove(
            staged, prepared, ledger, work, plan, done, to_book, password
        )
        backup = update_place.put_in_place(staged, book, password)
    return UpdateOutcome(
        work, ledger, plan, True, report, deltas, held, taken, backup, done.documents, renames,
        found.renames, (done.tabled, done.plain), done.decision.budgets, prepared.warnings,
    )  # fmt: skip


def _made(made: dict[str, object]) -> tuple[pipeline.Prepared, dict[str, str]]:
    """What ``decide`` made that the proof needs: the prepared exports, the book's names."""
    prepared, to_book = made["prepared"], made["to_book"]
    assert isinstance(prepared, pipeline.Prepared) and isinstance(to_book, dict)
    return prepared, to_book


def _record(  # noqa: PLR0917
    state: BookState,
    ledger: Ledger,
    plan: Plan,
    work: Work,
    renames: tuple[AccountRename, ...],
    budgets: Mapping[str, str],
) -> str:
    """The run record the update leaves (the keys' names of accounts whose QuickBooks name is
    taken: QuickBooks')."""
    assert state.record is not None
    once = {k: v for k, v in plan.held.items() if k != update_refused.RENAMED}  # (this run's:
    record = update_record.record_of(  # kept, it let any other company in, hunt 26)
        ledger,
        replace(plan, held=once).to_json(),
        state.record.runs + 1,
        state.record,
        update_statements.dates(work),
        written=update_deleted.written_after(work, ledger, state),
        deleted=(work.keys[i] for i in work.deleted_here),
        budgets=budgets,
    )
    after = renaming.taken_as(renames)  # (the keys' names after the run)
    figures = {keys.by_prefix(a, after): v for a, v in record.figures.items()}
    return replace(record, figures=figures).to_text()


def _work(
    state: BookState,
    ledger: Ledger,
    plan: Plan,
    book: str,
    decided: Iterable[str],
) -> Work:
    """What the update adds, holds and carries; UpdateRefused for a decision the caller gives
    now (not the stored plan's) on no change held: a mistyped key is said, never ignored
    (``decided``: the keys of what else is held: renames, budgets)."""
    assert state.record is not None
    work = plan_update.decide(state, ledger, OPENING_KIND, book, plan.held)
    stamped = [(e.date, e.stamp.key) for e in state.entries if e.stamp]
    if why := update_refused.starts_later(
        stamped, ledger.files, book
    ) or update_refused.keyed_otherwise(stamped, ledger.files, work.keys, book):
        raise UpdateRefused(why)
    work = update_deleted.kept_deleted(work, ledger, state, plan.held)  # (deleted in GnuCash)
    work = update_statements.carry(work, ledger, state)
    work = update_twice.held_twice(work, ledger, plan.held)  # (entered in both: held)
    stored = plan_from_json(state.record.plan).held
    asked = [k for k, v in plan.held.items() if stored.get(k) != v]
    known = {h.key for h in (*work.held, *work.taken)} | set(decided) | {update_refused.RENAMED}
    known |= {*work.both, *work.put_back, *(work.keys[i] for i in work.deleted_here)}
    if why := unknown_keys(asked, known):
        raise UpdateRefused(why)
    return work


def _prove(  # noqa: PLR0917
    staged: Path | Address,
    prepared: pipeline.Prepared,
    ledger: Ledger,
    work: Work,
    plan: Plan,
    done: gnc.Updated,
    to_book: dict[str, str],
    password: str | None,
) -> tuple[Report, tuple[Delta, ...], dict[str, Decimal], Report | None]:
    """The updated copy read back through GnuCash and compared with QuickBooks as of the new
    exports, less what was made in GnuCash alone (said in its notes: ``app.made_here``); the
    delta table; what the held changes keep out."""
    from app import gnc  # noqa: PLC0415

    docs = prepared.documents
    st = done.decision.sales_tax
    snapshot = gnc.read_book(
        staged,
        documents=docs is not None,
        sales_tax=st.tax_accounts if st is not None and st.docs else None,
        password=password,
    )
    with paused():
        mine = proof.less(snapshot, work.added_here)
        as_written = selection.as_written(ledger, docs)
        written = proof.as_booked(as_written, work, ledger, done.paid, done.linked)
        here = {r.account for r in work.reconciled_here}  # the book's: not compared
        written = replace(
            written, statements=tuple(s for s in written.statements if s.account not in here)
        )
        marks = proof.marked_otherwise(work, as_written)
        apart = made_here.found(snapshot, written, work, marks)
        report = classes_proof.verified(written, mine, plan.cutover, update=True, apart=apart)
        if docs is not None and snapshot.documents is not None:
            report = verify.with_documents(report, docs, snapshot.documents, written.accounts)
        report = proof.new_documents_tax(report, snapshot, written, work, st, done.refused)
        rates = proof.rates_changed(st, snapshot.sales_tax)
        report = replace(report, notes=(*report.notes, *rates)) if rates else report
        sheet = frozenset(
            a.full_name
            for a in ledger.accounts
            if a.counted is not None and a.counted.balance_sheet
        )
        last = work.last or update_record.Record("", None, None, "")
        last = replace(
            last, figures={keys.by_prefix(a, to_book): v for a, v in last.figures.items()}
        )
        held = proof.held_effect(work, ledger)
        deltas = update_deltas.deltas(ledger, work, last, sheet, held)
        taken = None
        if work.held or work.edited_here or work.deleted_here:
            out, put = proof.as_taken(work, ledger)
            less = proof.less(mine, out, put)
            taken = classes_proof.verified(written, less, plan.cutover, update=True, apart=apart)
            undecided = any(not h.kept for h in work.held)
            report = proof.held_causes(report, taken, undecided, proof.held_owners(work, docs))
        report = replace(report, notes=(*report.notes, *apart.said()))
        report = _kept_budgets(report, done.decision.budgets)
    return report, deltas, held, taken


def _kept_budgets(report: Report, budgets: Budgets) -> Report:
    """The proof with the cause of each budget that differs because the book keeps its own."""
    why = {h.budget.name: f"{h.why}: the book keeps its own (listed above)" for h in budgets.differ}
    if report.extras is None or not why:
        return report
    mismatches = tuple(
        replace(m, cause=why[m.name]) if m.what == "budget" and m.name in why else m
        for m in report.extras.mismatches
    )
    return replace(report, extras=replace(report.extras, mismatches=mismatches))
