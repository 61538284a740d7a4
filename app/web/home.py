"""Home: start a migration, reopen or delete an earlier one."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from app import sample
from app.fileio import read_json
from app.pages import update as updated
from app.store import Migration
from app.web.context import migration, runner, store, views

bp = Blueprint("home", __name__)


def _given(m: Migration) -> list[str]:
    """The migration's files by the names the user gave them ("journal (1).csv", not the stored
    "journal_1.csv")."""
    names = m.display_names()
    return [names.get(p.name, p.name) for p in m.files()]


@bp.get("/")
def index() -> str:
    jobs = runner()
    rows = [
        (m, _given(m), jobs.get(m), m.size(), jobs.book(m))
        for m in store().all()
        if not m.untouched()  # nothing to go back to (a Start removes it a day later)
    ]
    # the ones that brought a book up to date: what they did, in place of an import's state
    done = {m.id: read_json(m.path / updated.FOLDER / updated.RESULT) for m, *_ in rows}
    states = {mid: updated.home_state(data) for mid, data in done.items() if data}
    return render_template(
        "home/index.html",
        rows=rows,
        updates=states,
        folder=store().root,
        sample=sample.DESCRIPTION,
    )


@bp.post("/m")
def create() -> Response:
    m = store().start()
    return redirect(url_for("files.page", mid=m.id), 303)


@bp.post("/sample")
def sample_company() -> Response:
    """A new migration holding the sample company's exports, to try the five steps on."""
    m = store().start()
    with store().exclusive(m):
        for path in sample.files():
            with path.open("rb") as f:
                m.save_upload(path.name, f)
    return redirect(url_for("files.page", mid=m.id), 303)


@bp.post("/m/<mid>/delete")
def delete() -> Response:
    m = migration()
    with store().exclusive(m):  # not while its import is being started (nor twice at once)
        runner().cancel(m)
        store().delete(m)
    views().forget(m)
    return redirect(url_for("home.index"), 303)
