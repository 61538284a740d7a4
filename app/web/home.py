"""Home: start a migration, reopen or delete an earlier one."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, url_for
from werkzeug.wrappers import Response

from app.web import migration, store

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    runner = current_app.extensions["jobs"]
    rows = [(m, [p.name for p in m.files()], runner.get(m)) for m in store().all()]
    return render_template("home.html", rows=rows)


@bp.post("/m")
def create() -> Response:
    m = store().create()
    return redirect(url_for("files.page", mid=m.id), 303)


@bp.post("/m/<mid>/delete")
def delete() -> Response:
    m = migration()
    current_app.extensions["jobs"].cancel(m)
    store().delete(m)
    return redirect(url_for("home.index"), 303)
