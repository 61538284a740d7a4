"""Step 2, Preview: the chart, the transactions (searched, sorted and paginated here, on the
server), the name lists, what is not imported, and every problem linked to its rows.

Each table has its own order in the address, kept by every link of the other: ``?chart_sort=``
a key of the chart's (``chart.ACCOUNT_SORTS``), ``?sort=`` one of the transactions'
(``preview.TXN_SORTS``), "-" before it for descending; without it a table keeps its own order
(the chart as QuickBooks lists it, the transactions as in the files)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, request, url_for
from werkzeug.wrappers import Response

from app.pages import chart, preview
from app.pages.documents import documents_view
from app.pages.problems import problems_view
from app.pages.tax import tax_view
from app.web.cache import View
from app.web.context import is_htmx, migration, render, views

bp = Blueprint("preview", __name__, url_prefix="/m/<mid>")


def _page_number() -> int:
    try:
        return max(1, int(request.args.get("page", "1")))
    except ValueError:
        return 1


@bp.get("/preview")
def page() -> tuple[str, int]:
    m = migration()
    view = views().view(m)
    chart_sort = request.args.get("chart_sort", "")
    return render(
        "preview/page.html",
        "preview/_transactions.html",
        m=m,
        view=view,
        ledger=view.resolved,
        txns=_txns(view),
        chart_sort=chart_sort,
        account_columns=chart.account_columns(chart_sort),
        documents_mode=m.plan().documents,
        sales_tax_mode=m.plan().sales_tax,
        **shown(view, chart_sort),
    )


def shown(view: View, sort: str = "") -> dict:
    """The Preview's view models of ``view``, made once per view (the upload makes them, so
    the first Preview after it answers as quickly as the next); the chart's rows once per
    order asked for."""
    ledger = view.resolved
    models = view.page(
        "preview",
        lambda: {
            "problems": problems_view(view.prepared.problems, ledger, view.search),
            "not_imported": preview.not_imported(ledger),
            "counts": preview.counts(ledger),
            "documents": documents_view(view.prepared.overview),
            "tax": tax_view(view.prepared.tax_overview, ledger),
        },
    )
    rows = view.page(f"preview accounts {sort}", lambda: chart.account_rows(ledger, sort))
    return {**models, "accounts": rows}


@bp.get("/transactions")
def transactions() -> tuple[str, int, dict[str, str]] | Response:
    """The transactions region alone (active search and page links), with the Preview's
    address for it: pushed for a page (Back returns to the one before), replacing the current
    one for a search."""
    chart_sort = request.args.get("chart_sort", "")
    if not is_htmx():
        q, sort = request.args.get("q", ""), request.args.get("sort", "")
        args = _args(q, _page_number(), sort, chart_sort)
        return redirect(url_for("preview.page", **args, _anchor="transactions"))
    view = views().view(migration())
    txns = _txns(view)
    html, status = render(
        "preview/page.html", "preview/_transactions.html", txns=txns, chart_sort=chart_sort
    )
    # the address bar follows: a page turned is a step Back returns to, a search replaces it
    header = "HX-Push-Url" if "page" in request.args else "HX-Replace-Url"
    args = _args(txns.q, txns.page, txns.sort, chart_sort)
    return html, status, {header: url_for("preview.page", **args, _anchor="transactions")}


def _args(q: str, page: int, sort: str = "", chart_sort: str = "") -> dict[str, Any]:
    """The Preview's query for a search, a page and the two tables' orders, without what is
    the default."""
    pairs = (("q", q), ("page", page), ("sort", sort), ("chart_sort", chart_sort))
    return {k: v for k, v in pairs if v and v != 1}


def _txns(view: View) -> preview.TxnPage:
    chart = {a.full_name for a in view.resolved.accounts} if view.resolved.chart else None
    per_page = current_app.config["TRANSACTIONS_PER_PAGE"]
    q, page = request.args.get("q", ""), _page_number()
    orders = {f.date_order for f in view.resolved.files if f.date_order} or {"mdy"}
    sort = request.args.get("sort", "")
    return preview.txn_page(
        view.search, q, page, per_page, chart=chart, date_orders=orders, sort=sort
    )
