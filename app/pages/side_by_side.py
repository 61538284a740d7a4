"""The Download step's (and the audit pack's) side by side: QuickBooks' trial balance next to
GnuCash's, line by line, as a Balance Sheet and a Profit and Loss with each parent's subtotal;
each customer's and vendor's aging, QuickBooks against GnuCash; the reconciliation of A/R and
A/P; and the proof's verdict (``app.proof_state``). Plain JSON for ``out/result.json``.

Money is shown as GnuCash's account tree shows it (``SIGN_NOTE``): an account's usual balance
is positive, a debit for an asset or an expense, a credit for a liability, equity or income;
a balance on the other side has a minus sign. The difference is GnuCash's figure minus
QuickBooks' in that same sense. An account with no QuickBooks balance (only in the transaction
files) has its transaction lines in QuickBooks' column; a total that holds such accounts counts
them (``lines_accounts``), so the page says so beside it. No Flask here."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from app.documents.aging import BUCKETS, totals
from app.documents.proof import DocumentsProof
from app.fixes import action, parts, step
from app.model import Fix, Ledger, plain
from app.pages.chart import AccountRow, account_rows
from app.proof_state import verdict
from app.verify_report import Report, Row, causes, pointer
from app.words import usual_sign

ZERO = Decimal(0)
SIGN_NOTE = (
    "Money is shown as GnuCash shows it in its account tree: each account's usual balance is "
    "positive, a debit for assets and expenses, a credit for liabilities, equity and income "
    "(so A/P, loans, equity and income are positive, as in QuickBooks' Balance Sheet and "
    "Profit & Loss); a balance on the other side has a minus sign. Difference is GnuCash "
    "minus QuickBooks, in the same sense; ✓ means equal to the cent."
)
SECTIONS = (
    ("Balance Sheet", (("asset", "Assets"), ("liability", "Liabilities"), ("equity", "Equity"))),
    (
        "Profit and Loss (this fiscal year)",
        (("income", "Income"), ("expense", "Expenses")),
    ),
)
NO_FIX = "Nothing on these pages changes it"
FIELD = {  # the Map step's control for a fix: its anchor there
    "export_date": "#export-date",
    "fiscal_year_start": "#settings",
    "opening_balances": "#settings",
    "currency": "#settings",
    "account_map": "#unresolved",
    "balances_only": "#mode-balances-only",
    "cutover_date": "#cutover-date",
    "account_type": "#tree",
}


def state_data(report: Report) -> dict[str, object]:
    said = verdict(report)
    return {
        "state": said.state,
        "words": said.words(),
        "why": said.why,
        "class": said.colour,
    }


def _figures(qb: Decimal, gnc: Decimal, s: int, lines: int = 0) -> dict[str, object]:
    """A line's figures; ``lines``: how many of the accounts in a total have no QuickBooks
    balance, so that their transaction lines stand in QuickBooks' column (said beside it)."""
    return {
        "quickbooks": plain(s * qb),
        "gnucash": plain(s * gnc),
        "difference": plain(s * (gnc - qb)),
        "ok": qb == gnc,
        "lines_accounts": lines,
    }


def _no_balance(rows: list[Row]) -> int:
    """How many of ``rows`` have no QuickBooks balance and transaction lines that add to
    something (compared in its place; an empty parent made for the tree adds nothing, said
    nothing)."""
    return sum(1 for r in rows if r.basis == "history" and (r.lines or r.gnucash_balance))


def ways(fix: Fix) -> list[dict[str, str]]:
    """Each way out of a difference: its words and the step and field that hold it (a link)."""
    out = []
    for way, said in parts(fix, "wizard"):
        where = step(way) or ""
        out.append({"action": said, "step": where, "field": FIELD.get(way, "") * (where == "map")})
    return out


def _fix(r: Row, shared: bool = False) -> dict[str, object]:
    """A difference's cause and its controls: a link to the step and field of each way out, or
    "Nothing on these pages changes it" said plainly. ``shared``: the cause is said once above
    the table (``causes_data``), the row keeps its first words (``pointer``)."""
    where = step(r.fix)
    return {
        "cause": r.cause,
        "pointer": pointer(r.cause) if shared else "",
        "action": action(r.fix, "wizard") or f"{NO_FIX}: please report it",
        "step": where or "",
        "field": FIELD.get(r.fix, "") if where == "map" else "",
        "ways": ways(r.fix),
    }


def causes_data(report: Report) -> list[dict[str, object]]:
    """The probable causes of the differing accounts, each once with how many accounts it is
    theirs and its ways out: said above the table."""
    return [
        {"cause": c, "count": n, "action": action(f, "wizard"), "ways": ways(f)}
        for c, f, n in causes(report.differences)
    ]


def _account_line(r: Row, name: str, code: str, depth: int, shared: bool) -> dict[str, object]:
    return (
        {
            "kind": "account",
            "full": r.account,
            "name": name,
            "code": code,
            "depth": depth,
            "quickbooks_account": _renamed(r),
            "basis": r.basis,
            "created": r.created,
            "counted": r.counted,  # retyped across the balance-sheet line: QuickBooks' family
            "family": r.family,
            "book_total": plain(usual_sign(r.family) * r.book_total),
            # a parent made for the tree, holding nothing of its own: a heading, no figures
            "heading": r.created == "parent" and r.ok and not r.lines and not r.gnucash_balance,
        }
        | _figures(r.quickbooks_balance, r.gnucash_balance, usual_sign(r.family))
        | ({} if r.ok else _fix(r, shared))
        | ({"ok": False} if r.types else {})  # (another type: the figures alone may agree)
    )


def _renamed(r: Row) -> str:
    """QuickBooks' name of a row's account where the book calls it otherwise (renamed, or
    several merged); "" where only its place in the tree changed (the tree shows its place)."""
    qb = r.quickbooks_account
    if not qb or (" + " not in qb and qb.rpartition(":")[2] == r.account.rpartition(":")[2]):
        return ""
    return qb


def _group(
    tree: list[AccountRow], rows: dict[str, Row], family: str, shared: set[tuple[str, Fix]]
) -> list[dict[str, object]]:
    """A family's lines in tree order, each parent's "Total ..." line after its subaccounts;
    ``shared``: the causes (and fixes) said once above the table."""
    s = usual_sign(family)
    lines: list[dict[str, object]] = []
    parents: list[tuple[str, str, int, list[Row]]] = []  # still open: name, its rows
    # (a top account holding the whole family, GnuCash's standard tree's "Equity": its total is
    # the group's, said once; before its net income, it read as a second "Total Equity")
    whole = sum(1 for a in tree if rows[a.full_name].family == family)

    def close(depth: int) -> None:
        while parents and parents[-1][2] >= depth:
            full, name, d, under = parents.pop()
            if lines[-1].get("full") != full and len(under) < whole:  # it had subaccounts
                total = {"kind": "total", "name": f"Total {name}", "depth": d}
                lines.append(total | _total(under, s))

    for a in tree:
        r = rows[a.full_name]
        if r.family != family:
            continue
        close(a.depth)
        for parent in parents:
            parent[3].append(r)
        parents.append((a.full_name, a.name, a.depth, [r]))
        lines.append(_account_line(r, a.name, a.code, a.depth, (r.cause, r.fix) in shared))
    close(0)
    return lines


def _total(rows: list[Row], s: int) -> dict[str, object]:
    q = sum((r.quickbooks_balance for r in rows), ZERO)
    g = sum((r.gnucash_balance for r in rows), ZERO)
    return _figures(q, g, s, _no_balance(rows))


def trial_balance(ledger: Ledger, report: Report) -> list[dict[str, object]]:
    """The sections (Balance Sheet, then Profit and Loss), each a list of groups (Assets...)
    with their lines in the chart's tree order: an account's line ("account"), after a
    parent's subaccounts its "Total ..." line (itself and everything under it), the group's
    total; the Balance Sheet's equity has this year's net income, as QuickBooks shows it, and
    the Profit and Loss ends on it (``net``: income less expenses, a profit positive).
    The book's accounts beside QuickBooks' chart (GnuCash's Imbalance, Orphan) come last."""
    rows = {r.account: r for r in report.rows}
    shared = {(c, f) for c, f, n in causes(report.differences) if n > 1}
    tree = [a for a in account_rows(ledger) if a.full_name in rows]
    known = {a.full_name for a in tree}
    # this year's net income: income less expenses, debit positive
    # (an account retyped across the line counts where QuickBooks counts it: ``Row.counted``)
    pnl = [r for r in report.rows if (r.counted or r.family) in ("income", "expense")]
    out: list[dict[str, object]] = []
    for title, families in SECTIONS:
        section = []
        for family, label in families:
            lines = _group(tree, rows, family, shared)
            mine = [r for r in report.rows if r.family == family and r.account in known]
            if family == "equity" and any(
                sum((getattr(r, side) for r in pnl), ZERO)
                for side in ("quickbooks_balance", "gnucash_balance")
            ):
                net_line = {"kind": "net", "name": "Net Income (this fiscal year)", "depth": 0}
                lines.append(net_line | _total(pnl, usual_sign(family)))
                mine += pnl
            section.append({"label": label, "lines": lines} | _total(mine, usual_sign(family)))
        # (the Profit and Loss ends on its bottom line, as QuickBooks' does: hunt 23 L4)
        # (an account retyped across the balance-sheet line counts where QuickBooks counts
        # it, so the groups above need not add up to it: said beside it, hunt 27)
        crossed = sum(1 for r in report.rows if r.counted and r.counted != r.family)
        net = (
            {"label": "Net Income", "crossed": crossed} | _total(pnl, usual_sign("income"))
            if families[0][0] == "income"
            else None
        )
        out.append({"title": title, "groups": section, "net": net})
    others = [r for r in report.rows if r.account not in known]
    if others:
        label = "Accounts the book holds beside QuickBooks' (expected at 0.00)"
        lines = [_account_line(r, r.account, "", 0, (r.cause, r.fix) in shared) for r in others]
        group = {"label": label, "lines": lines} | _total(others, 1)
        out.append({"title": "Not in QuickBooks' chart", "groups": [group]})
    return out


def open_items(proof: DocumentsProof | None, as_of: dt.date | None) -> dict[str, object] | None:
    """Aging per customer (job) and vendor, QuickBooks against GnuCash, with each difference's
    cause and what to do; the reconciliation of A/R and A/P. None without documents."""
    if proof is None:
        return None
    sides = []
    flagged = set(proof.allocated)  # (its aging, or a document open by another amount)
    for kind, label in (("customer", "Customers (A/R)"), ("vendor", "Vendors (A/P)")):
        rows = [r for r in proof.aging if r.owner_kind == kind]
        rec = next((r for r in proof.reconciliation if r.owner_kind == kind), None)
        if not rows and rec is None:
            continue
        qb_total, gnc_total = totals(rows, kind)
        lines = []
        for r in rows:
            cause = proof.cause_of(kind, r.owner)
            lines.append(
                {
                    "owner": r.owner,
                    "quickbooks": [plain(v) for v in r.quickbooks] if r.quickbooks else None,
                    "gnucash": [plain(v) for v in r.gnucash],
                    "quickbooks_total": plain(sum(r.quickbooks, ZERO)) if r.quickbooks else None,
                    "gnucash_total": plain(sum(r.gnucash, ZERO)),
                    "ok": (kind, r.owner) not in flagged,
                    "totals_only": r.totals_only,
                    "cause": cause.cause if cause else "",
                    "action": cause.action if cause else "",
                    "step": cause.step if cause else "",
                }
            )
        sides.append(
            {
                "kind": kind,
                "label": label,
                "reported": qb_total is not None,
                "totals_only": any(r.totals_only for r in rows),
                "rows": lines,
                "differ": sum(1 for r in rows if (kind, r.owner) in flagged),
                "quickbooks_totals": [plain(v) for v in qb_total] if qb_total else None,
                "gnucash_totals": [plain(v) for v in gnc_total],
                "quickbooks_total": plain(sum(qb_total, ZERO)) if qb_total else None,
                "gnucash_total": plain(sum(gnc_total, ZERO)),
                "reconciliation": [rec.quickbooks_line(), rec.gnucash_line()] if rec else [],
                # QuickBooks' report and trial balance disagree (``DocumentsProof.unlisted``)
                "unlisted": rec is not None and rec in proof.unlisted,
                "mapped": rec is not None and rec.mapped,  # (the Map step's doing)
                "no_lot": plain(rec.gnucash_no_lot) if rec else "0.00",
            }
        )
    return {
        "buckets": list(BUCKETS),
        "sides": sides,
        "ok": not proof.allocated and not proof.unlisted,
        "unlisted": proof.unlisted_said(),
        "as_of": as_of.isoformat() if as_of else "",
    }
