"""Printable pages written by the command line (``convert-many``): the same Jinja2 templates the
wizard uses for standalone pages (``templates/jobs/audit_report.html``, the verification report
of an audit pack) and the batch's own summary (``templates/many/summary.html``), rendered
without Flask, with the filters they use (money, count, plural)."""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2

from app.model import money
from app.words import plural

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _count(n: int) -> str:
    return f"{n:,}"


@functools.cache
def _environment() -> jinja2.Environment:
    """Once per process: templates are read-only, so the environment holds no state of ours."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
    )
    env.filters.update(money=money, count=_count, plural=plural)
    return env


def render(template: str, **context: object) -> str:
    """``template`` (a path under templates/) filled in with ``context``."""
    return _environment().get_template(template).render(**context)
