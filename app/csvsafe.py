"""The CSV files the tool writes (the verification report, the documents report), made safe to
open in a spreadsheet.

A text cell that Excel, LibreOffice or Google Sheets would run as a formula, one starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return (OWASP's CSV injection list), gets a
leading apostrophe, so an account named ``=cmd|'/C calc'!A0`` is shown as the text it is. Numbers
(``-12.50``, ``+3``) are left as they are: amounts stay amounts. Cells are quoted as the csv
module quotes them (a comma, a quote or a line break inside), rows end with ``\\n``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


def neutral(text: str) -> str:
    """``text``, with an apostrophe in front when a spreadsheet would read it as a formula."""
    if text.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def cell(value: object) -> str:
    text = neutral(str(value))
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def line(cells: Iterable[object]) -> str:
    """One row, without its line end."""
    return ",".join(cell(c) for c in cells)


def text(rows: Iterable[Iterable[object]]) -> str:
    """A whole file: every row, each ended by ``\\n``."""
    return "".join(line(r) + "\n" for r in rows)
