"""Every template filter: how the wizard shows money, problems and file names."""

from __future__ import annotations

from flask import Flask, g

from app.fixes import with_fix
from app.model import Problem, money


def problem(p: Problem) -> str:
    """A finding as the wizard says it: place, message and what to do on which step."""
    return with_fix(str(p), p.fix, "wizard")


def shown(text: object) -> str:
    """A file name, a problem or a place with each upload's stored name replaced by the name the
    user gave it (the page escapes the result like any text)."""
    out = str(text)
    m = g.get("migration")
    if m is None or not out:
        return out
    if "shown_names" not in g:  # once per request: a page may show hundreds of problems
        g.shown_names = sorted(m.display_names().items(), key=lambda kv: -len(kv[0]))
    for stored, given in g.shown_names:
        out = out.replace(stored, given)
    return out


def setup_filters(app: Flask) -> None:
    for f in (money, problem, shown):
        app.add_template_filter(f)
