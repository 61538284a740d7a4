"""The proof's result (``app.verify`` makes it): a ``Row`` per account, a ``Check`` per count or
date, and the ``Report`` holding them, with its words: the headline, the summary and difference
lines each front end shows, and the CSV report (amounts as plain decimals)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from app import as_of as cut
from app.as_of import ZERO
from app.book import engine_made
from app.classes_pnl import ClassProof
from app.csvsafe import line as csv_line
from app.documents.proof import DocumentsProof
from app.documents.tax_proof import SalesTaxProof
from app.extras_proof import ExtrasProof
from app.fixes import Audience, with_fix
from app.model import AsOf, Fix, money, plain
from app.words import check_name, check_value, differ, plural, some, usual_sign

CSV_HEADER = (
    "account,quickbooks_account,quickbooks_balance,gnucash_balance,difference,basis,as_of,cause"
)
NOTHING_COMPARED = "nothing to compare with QuickBooks: the book has no accounts"
FAMILIES = ("asset", "liability", "equity", "income", "expense")
AGAIN: dict[Audience, str] = {  # a check that writing the book again may cure
    "cli": "run the conversion again (a new book)",
    "wizard": "write the book again on the Import step",
}


@dataclass(frozen=True, slots=True)
class Row:
    account: str  # GnuCash full name
    quickbooks_account: str  # QuickBooks name(s), " + " between merged ones
    quickbooks_balance: Decimal
    gnucash_balance: Decimal
    basis: str  # "all time", "year to date", "retained earnings", "history", "not in the input"
    lines: Decimal = ZERO  # the ledger's lines, all time (opening transaction included)
    opening: Decimal = ZERO  # of which from the opening transaction
    book_total: Decimal = ZERO  # the book's own splits, all time
    in_book: bool = True
    family: str = ""  # "asset", "liability", "equity", "income", "expense"; "" when untyped
    cause: str = ""  # a difference's probable cause, in plain words
    fix: Fix = ""  # the setting that resolves it (app.fixes words it per front end)
    # "" for the input's accounts; "parent": a parent qb2gnucash created for the tree (no
    # QuickBooks origin); "book": in the book only (GnuCash's Imbalance-*/Orphan-*, or made in
    # GnuCash by the user before an update)
    created: str = ""
    # QuickBooks' family where a retype crossed the balance-sheet line (``Account.counted``):
    # the figures compare as QuickBooks counts it, GnuCash reports it as ``family``
    counted: str = ""
    # (QuickBooks' GnuCash type, the book's) where they differ: changed in QuickBooks after the
    # book was written (hunt 22: a figure can match under either type, and the reports differ)
    types: tuple[str, str] | None = None

    @property
    def uploaded(self) -> Decimal:
        """The uploaded transaction lines alone (without the opening transaction)."""
        return self.lines - self.opening

    @property
    def difference(self) -> Decimal:
        return self.gnucash_balance - self.quickbooks_balance

    @property
    def history_difference(self) -> Decimal:
        return self.book_total - self.lines

    @property
    def ok(self) -> bool:
        return (
            self.in_book
            and not self.difference
            and not self.history_difference
            and self.types is None
        )


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    input: object
    book: object
    ok: bool
    detail: str = ""  # what differs, named (the accounts, customers... in the book only)
    cause: str = ""  # a difference's probable cause, in plain words (app.check_causes)
    todo: str = ""  # what to do about it (in GnuCash, mostly); "" when only writing again helps
    again: bool = False  # writing the book again may cure it (said per front end: AGAIN)

    def todo_words(self, audience: Audience = "cli") -> str:
        """What to do, writing the book again first where that may cure it."""
        return "; or ".join(w for w in (AGAIN[audience] if self.again else "", self.todo) if w)


@dataclass(frozen=True, slots=True)
class Report:
    rows: tuple[Row, ...]
    checks: tuple[Check, ...]
    as_of: AsOf | None = None
    notes: tuple[str, ...] = ()
    documents: DocumentsProof | None = None  # invoices, bills, payments (when written)
    sales_tax: SalesTaxProof | None = None  # each document's figures, each agency's tax owed
    extras: ExtrasProof | None = None  # every year end, budgets, reconciliations, schedules
    classes: ClassProof | None = None  # the P&L by class, per fiscal year (docs/CLASSES.md)
    no_opening: str = ""  # the opening balance asked for, not made: why (app.coverage)

    @property
    def year_start(self) -> dt.date | None:
        return self.as_of.year_start if self.as_of else None

    @property
    def differences(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if not r.ok)

    @property
    def own_figures(self) -> bool:
        """The balances compared are the book's own history's, not QuickBooks' (an archive's
        last day, when no QuickBooks Trial Balance of that day was given): "equal", never
        "match QuickBooks"."""
        if self.as_of is None or self.as_of.basis != "archive end":
            return False
        years = self.extras.years if self.extras is not None else ()
        return not any(y.compared and y.date == self.as_of.date for y in years)

    @property
    def ok(self) -> bool:
        """Every account matches, every check passes and the documents agree; never with no
        account compared."""
        return (
            bool(self.rows)
            and not self.differences
            and all(c.ok for c in self.checks)
            and (self.documents is None or self.documents.ok)
            and (self.sales_tax is None or self.sales_tax.ok)
            and (self.extras is None or self.extras.ok)
            and (self.classes is None or self.classes.ok)
        )

    def by_family(self) -> list[tuple[str, Decimal, Decimal]]:
        """(family, QuickBooks total, GnuCash total) for asset, liability, equity, income and
        expense (then untyped, if any): the picture of the balances by account type."""
        totals: dict[str, list[Decimal]] = {f: [ZERO, ZERO] for f in FAMILIES}
        for r in self.rows:  # (a retyped account where QuickBooks' figure counts it)
            pair = totals.setdefault(r.counted or r.family, [ZERO, ZERO])
            pair[0] += r.quickbooks_balance
            pair[1] += r.gnucash_balance
        return [(f, q, g) for f, (q, g) in totals.items()]

    def to_csv(self) -> str:
        """One row per account, nothing else; amounts as plain decimals (-1403.99, 0.00). ``as_of``:
        the day QuickBooks' figures are from and where that came from; ``cause``: a difference's
        probable cause."""
        out = [CSV_HEADER]
        as_of = self.as_of.describe() if self.as_of else ""
        for r in self.rows:
            cells = (
                r.account,
                r.quickbooks_account,
                plain(r.quickbooks_balance),
                plain(r.gnucash_balance),
                plain(r.difference),
                r.basis,
                as_of,
                r.cause,
            )
            out.append(csv_line(cells))
        return "\n".join(out) + "\n"

    @property
    def quickbooks_rows(self) -> tuple[Row, ...]:
        """The rows of QuickBooks' own accounts: what the headline counts."""
        return tuple(r for r in self.rows if not r.created)

    def headline(self) -> str:
        """ "66 of 66 accounts match QuickBooks to the cent" only when every row does; with no
        account at all, that nothing was compared; the documents part added when it differs.
        Counted are the input's accounts: the parents qb2gnucash created for the tree and the
        book's own Imbalance/Orphan accounts are listed apart (``created_lines``)."""
        head = self._accounts_headline()
        docs = self.documents
        if docs is not None and not docs.ok:
            head = f"{head}; {docs.headline()}"
        if self.sales_tax is not None and not self.sales_tax.ok:
            head = f"{head}; {self.sales_tax.headline()}"
        if extras := self.extras_headline():
            head = f"{head}; {extras}"
        return head

    def extras_headline(self) -> str:
        """What the proof of every year, budget, reconciliation and schedule adds to the
        accounts' ("" if nothing): a report of the day the accounts are proved, where they
        differ, is their difference, said once (hunt 23 M9)."""
        if self.extras is None or self.extras.ok:
            return ""
        return self.extras.headline(self._said_day())

    def extras_lines(self) -> list[str]:
        """The extras' lines, a report of the day the accounts differ on said once."""
        return self.extras.lines(self._said_day()) if self.extras is not None else []

    def _said_day(self) -> dt.date | None:
        """The day whose differences the accounts' proof says, if they differ (hunt 27)."""
        return self.as_of.date if self.as_of is not None and self.differences else None

    def _accounts_headline(self) -> str:
        """QuickBooks' balances matched, and apart the accounts that have none (only in the
        transaction files: compared with their lines, never counted as matching QuickBooks)."""
        n = len(self.quickbooks_rows)
        n_differ = len(self.differences)
        if not self.rows:
            return NOTHING_COMPARED
        lines = [r for r in self.quickbooks_rows if r.basis == "history" and r.ok]
        equal = "equals its" if len(lines) == 1 else "equal their"
        said = (
            f"{plural(len(lines), 'account')} with no QuickBooks balance {equal} transaction lines"
        )
        apart = f"; {said}" if lines else ""
        balances = n - len(lines)
        if not n_differ and not lines and self.own_figures:
            day = self.as_of.date if self.as_of else ""
            return (
                f"{n:,} of {plural(n, 'account')} equal the archive's history on {day}, to the "
                "cent: QuickBooks gave no figures of that day (its Trial Balance report as of "
                "that day would prove them)"
            )
        if not n_differ and not lines:
            return f"{n:,} of {plural(n, 'account')} match QuickBooks to the cent"
        if not n_differ and not balances:
            return f"no QuickBooks balance to compare: {said}"
        if not n_differ:
            return (
                f"{balances:,} of {plural(balances, 'account')} match QuickBooks' balances{apart}"
            )
        others = balances - sum(1 for r in self.differences if not r.created)
        if not lines:
            return (
                f"{differ(n_differ, 'account')} from QuickBooks ({plural(others, 'other')} match)"
            )
        return (
            f"{differ(n_differ, 'account')} from QuickBooks ({plural(others, 'other')} match "
            f"QuickBooks' balances{apart})"
        )

    def created_lines(self) -> list[str]:
        """The accounts not counted in the headline, listed apart."""
        out = []
        parents = [r.account for r in self.rows if r.created == "parent"]
        if parents:
            out.append(
                f"Not counted above: {plural(len(parents), 'parent account', 'parent accounts')} "
                "qb2gnucash created for the tree, not in QuickBooks, nothing posted to them: "
                f"{some(parents)}"
            )
        book = [r.account for r in self.rows if r.created == "book"]
        made = [a for a in book if engine_made(a)]
        if made:
            out.append(
                "Not counted above, GnuCash's own accounts for amounts it could not place: "
                f"{some(made)}"
            )
        if mine := [a for a in book if not engine_made(a)]:
            out.append(
                f"Not counted above, in the book only (not in QuickBooks' files): {some(mine)}"
            )
        return out

    def as_of_lines(self) -> list[str]:
        """When QuickBooks' figures are from, and what lies after that day."""
        return cut.as_of_words(self.as_of)

    def summary_lines(self, audience: Audience = "cli", *, differences: bool = True) -> list[str]:
        """The headline, each difference with its cause and fix (unless the caller shows them
        apart), when the figures are from, then failed and passed checks, then the notes."""
        out = [self.headline(), *self.created_lines()]
        if differences:  # (the documents' owners that differ are in their own lines below)
            out.extend(self.difference_lines(audience, checks=False, documents=False))
        out.extend(self.documents.lines() if self.documents else ())
        out.extend(self.sales_tax.lines() if self.sales_tax else ())
        out.extend(self.extras_lines())
        out.extend([self.classes.headline() + "."] if self.classes else ())
        out.extend(self.as_of_lines())
        out.extend(_check_line(c, audience) for c in sorted(self.checks, key=lambda c: c.ok))
        out.extend(self.notes)
        return out

    def difference_lines(
        self, audience: Audience = "cli", *, checks: bool = True, documents: bool = True
    ) -> list[str]:
        """Each differing account with its cause and fix (a cause shared by several said once
        first, each of them then pointing to it), why the opening balance asked for was not made,
        each customer's and vendor's open items that differ with theirs, the year ends and the
        profit and loss by class that differ (``documents``: False where the caller lists those
        parts whole, as ``summary_lines`` does), then each failed check."""
        rows = self.differences
        groups = causes(rows)
        shared = {(c, f) for c, f, n in groups if n > 1}
        out = [
            with_fix(f"Probable cause of {_of(n, len(rows))}: {c}", f, audience)
            for c, f, n in groups
            if (c, f) in shared
        ]
        out.extend([self.no_opening] if self.no_opening else [])
        out.extend(
            _describe(r, audience, f"{pointer(r.cause)} (see above)")
            if (r.cause, r.fix) in shared
            else with_fix(_describe(r, audience), r.fix, audience)
            for r in rows
        )
        if documents and self.documents is not None and not self.documents.ok:
            out.extend(self.documents.owner_lines())
            out.extend(self.documents.unlisted_lines())
        if documents and self.extras is not None and not self.extras.ok:
            out.extend(line for line in self.extras_lines() if "differ" in line.lower())
        if documents and self.classes is not None and not self.classes.ok:
            out.append(self.classes.headline())
        if checks:
            out.extend(_check_line(c, audience) for c in self.checks if not c.ok)
        return out


def causes(rows: Sequence[Row]) -> list[tuple[str, Fix, int]]:
    """Each probable cause of the differing ``rows`` with its fix and how many rows it is
    theirs, in the rows' order: what is said once above the rows."""
    counted = Counter((r.cause, r.fix) for r in rows if not r.ok and r.cause)
    return [(c, f, n) for (c, f), n in counted.items()]


def pointer(cause: str) -> str:
    """What a row keeps of a cause said above: its first words ("the history is incomplete")."""
    return cause.partition(":")[0]


def _of(n: int, of: int) -> str:
    """ "every difference", "12 of the 66 differences"."""
    return "every difference" if n == of else f"{n:,} of the {of:,} differences"


def _check_line(c: Check, audience: Audience = "cli") -> str:
    """ "customers: QuickBooks 9, GnuCash 10 — DIFFERS (in the book only: Acme). Probable cause:
    …. What to do: …." (the check's name and figures as the Download step says them)"""
    mark = "ok" if c.ok else "DIFFERS"
    detail = f" ({c.detail})" if c.detail else ""
    said = f"QuickBooks {check_value(c.input)}, GnuCash {check_value(c.book)}"
    line = f"{check_name(c.name)}: {said} — {mark}{detail}"
    if c.ok or not c.cause:
        return line
    todo = c.todo_words(audience)
    return f"{line}. Probable cause: {c.cause}." + (f" What to do: {todo}." if todo else "")


def _describe(r: Row, audience: Audience = "cli", cause: str | None = None) -> str:
    """The row's figures and its probable cause (``cause``: other words for it): debit positive
    for the command line (as its CSV report), as GnuCash's account tree shows them for the
    wizard (an income, liability or equity balance positive, as on its Download step)."""
    s = usual_sign(r.family) if audience == "wizard" else 1
    if not r.in_book:
        return f"{r.account}: missing from the book (expected {money(r.quickbooks_balance, s)})"
    cause = cause if cause is not None else r.cause
    cause = f" — {cause}" if cause else ""
    if r.types is not None and not r.difference and not r.history_difference:
        return f"{r.account}: {money(r.gnucash_balance, s)} in both ({r.basis}){cause}"
    if r.difference and r.basis != "history":
        return (
            f"{r.account}: QuickBooks {money(r.quickbooks_balance, s)}, GnuCash "
            f"{money(r.gnucash_balance, s)} ({r.basis}), difference "
            f"{money(r.difference, s)}{cause}"
        )
    whose = "QuickBooks' transaction lines (no QuickBooks balance for it)"
    whose = whose if r.basis == "history" else "the files' transaction lines"
    return (
        f"{r.account}: {whose} {money(r.lines, s)}, GnuCash {money(r.book_total, s)} (all time), "
        f"difference {money(r.history_difference, s)}{cause}"
    )


def trial_balance_note(asof: AsOf | None) -> str:
    """How the GnuCash column relates to GnuCash's own Trial Balance report."""
    day = f", Date of Report {asof.date}" if asof else ""
    year = f"from {asof.year_start}, the start of the fiscal year" if asof else "year to date"
    return (
        f"The GnuCash figures are the ones GnuCash's own Trial Balance report (Reports › "
        f"Income & Expense › Trial Balance{day}) shows: each account on its own row with its own "
        "balance (subaccounts are not added into their parents), a positive figure here in its "
        "Debit column, a negative one in its Credit column without the minus sign; but that "
        f"report counts income and expense from the first transaction, this one {year}, and "
        "shows Retained Earnings as posted, where this one adds every earlier fiscal year's net "
        "income to it as QuickBooks does (the next steps in GnuCash list that report's own "
        "figures)."
    )
