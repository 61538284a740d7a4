"""The proof's verdict in three states, in a bookkeeper's words, the same on every page (the home
list, the Import step, the Download step, the audit pack's report) and on the command line:

- "matches": "Matches QuickBooks to the cent": every account, every check, every open item.
- "allocated": "Ledger matches; open items of 2 vendors allocated differently": every account
  and every check matches, only which customer's or vendor's items are open (or how they age)
  differs.
- "attention": "Needs your attention: 3 accounts differ": anything else that differs (an
  account, a count, a date, the sales tax, a year end, the P&L by class, open items of a side
  whose A/R or A/P was retyped away so no document was made), or nothing compared at all.

``verdict`` is the one implementation; a finished import keeps its ``Verdict`` as plain fields
(``app.jobs.ImportJob``) and ``words`` says it again from them. Never "matches" when anything
differs. Pure: no Flask, no gnucash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from app.words import differ, plural

if TYPE_CHECKING:
    from app.verify_report import Report

State = Literal["matches", "allocated", "attention"]
MATCHES = "Matches QuickBooks to the cent"
# "matches" where QuickBooks gave no balance at all: every account compared with the files'
# transaction lines alone (its ``named``), said so and shown amber, never as the full match
LINES_ONLY = "Matches QuickBooks' transactions to the cent; no QuickBooks balance was given"
# the same where the balances are the book's own history's (an archive's last day, no Trial
# Balance of that day given: ``Report.own_figures``)
OWN_HISTORY = "Matches its history to the cent; QuickBooks gave no figures of its last day"


@dataclass(frozen=True, slots=True)
class Verdict:
    state: State
    accounts: int = 0  # accounts whose balance differs
    checks: int = 0  # counts and dates that differ (and the sales tax, year-end parts)
    customers: int = 0  # customers whose open items differ (their jobs: ``jobs``)
    vendors: int = 0  # vendors whose open items differ
    why: str = ""  # "allocated": the probable cause, short
    # the parts that differ besides accounts and the other checks, named ("the year end
    # 2021-12-30 differs from QuickBooks' trial balance"); ``checks`` counts them too
    named: tuple[str, ...] = ()
    jobs: int = 0  # jobs (Customer:Job) whose open items differ

    @property
    def colour(self) -> str:
        """ "ok" (green), "warn" (amber: the ledger matches, or only transactions were compared)
        or "error" (red)."""
        return colour(self.state, self.named)

    def words(self) -> str:
        return words(
            self.state,
            self.accounts,
            self.checks,
            self.customers,
            self.vendors,
            named=self.named,
            jobs=self.jobs,
        )


def verdict(report: Report) -> Verdict:
    """The state of a proof (``app.verify_report.Report``)."""
    accounts = len(report.differences)
    docs = report.documents
    named = []
    if extras := report.extras_headline():
        named.append(extras)
    if report.sales_tax is not None and not report.sales_tax.ok:
        named.append(report.sales_tax.named)
    if report.classes is not None and not report.classes.ok:
        named.append("the profit and loss by class differs")
    if docs is not None and (docs.count_differences or docs.unowned_lots):
        named.append("the invoices and bills differ")
    if docs is not None and docs.unlisted:  # (QuickBooks' own two reports)
        named.append(docs.unlisted_words())
    elif docs is not None and any(c.step == "map" for c in docs.causes):  # (owner_cause)
        named.append("no invoices or bills were made: A/R or A/P retyped or merged away (Map step)")
    checks = sum(1 for c in report.checks if not c.ok) + len(named)
    owners = docs.allocated if docs is not None else ()
    jobs = sum(1 for kind, o in owners if kind == "customer" and ":" in o)
    customers = sum(1 for kind, _o in owners if kind == "customer") - jobs
    vendors = len(owners) - customers - jobs
    if report.ok:
        balances = [r for r in report.quickbooks_rows if r.basis != "history"]
        only_lines = bool(report.rows) and not balances
        said = LINES_ONLY if only_lines else OWN_HISTORY if report.own_figures else ""
        return Verdict("matches", named=(said,) if said else ())
    if report.rows and not accounts and not checks and owners:
        assert docs is not None
        causes = {c.cause.split(":")[0] for c in docs.causes}
        why = next(iter(causes)) if len(causes) == 1 else "see each one's probable cause"
        return Verdict("allocated", 0, 0, customers, vendors, why, jobs=jobs)
    return Verdict("attention", accounts, checks, customers, vendors, named=tuple(named), jobs=jobs)


def colour(state: str, named: tuple[str, ...] | list[str] = ()) -> str:
    """A verdict's colour on every page (``Verdict.colour``)."""
    if state == "matches":
        return "warn" if LINES_ONLY in named or OWN_HISTORY in named else "ok"
    return "warn" if state == "allocated" else "error"


def words(
    state: str,
    accounts: int = 0,
    checks: int = 0,
    customers: int = 0,
    vendors: int = 0,
    *,
    named: tuple[str, ...] | list[str] = (),
    jobs: int = 0,
) -> str:
    """The verdict in words: "Matches QuickBooks to the cent", "Ledger matches; open items of 2
    vendors allocated differently", "Needs your attention: 3 accounts differ" (``named``: the
    parts ``checks`` counts besides the other checks, said by name)."""
    if state == "matches":
        return next((n for n in named if n in (LINES_ONLY, OWN_HISTORY)), MATCHES)
    owners = " and ".join(
        plural(n, noun)
        for n, noun in ((customers, "customer"), (jobs, "job"), (vendors, "vendor"))
        if n
    )
    if state == "allocated":
        return f"Ledger matches; open items of {owners} allocated differently"
    parts = []
    if accounts:
        parts.append(differ(accounts, "account"))
    if checks > len(named):
        parts.append(differ(checks - len(named), "other check", "other checks"))
    parts += [n for n in named if n]
    if owners:
        parts.append(f"open items of {owners} differ")
    if not parts:
        return "Needs your attention: nothing could be compared with QuickBooks"
    return "Needs your attention: " + "; ".join(parts)
