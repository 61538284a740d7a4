"""Control characters out of everything a file's ledger would put in the book, with a warning.

Names of accounts, customers, jobs, vendors, employees and terms, descriptions, memos, notes,
addresses: every text of every record a reader made goes through ``values.without_controls``
(GnuCash writes a control character as "?"; none is ever meant). Done once per file, right after
its reader, and only when the file holds one at all (a scan of its bytes), so the readers' own
loops stay as they are. One warning per kind of text (the account names, the memos...) lists
the lines; the texts themselves are not quoted (an employee's notes may be personal).
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from app.model import Ledger, Problem
from app.readers.values import CONTROL, decode, without_controls
from app.source import Source, line_list

# Every byte but the C0 controls and DEL (UTF-8 and cp1252 alike), and the C1 controls in UTF-8:
# deleting the first from a file's bytes and searching the second take milliseconds for 30 MB.
_NOT_C0 = bytes(range(0x20, 0x7F)) + b"\t\n\r" + bytes(range(0x80, 0x100))
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
_UTF16 = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_LISTS = ("accounts", "transactions", "customers", "vendors", "employees", "terms")
_MORE = ("not_imported", "open_items")
_WORDS = {
    "Account": "account",
    "Transaction": "transaction",
    "Split": "split",
    "Customer": "customer",
    "Job": "job",
    "Vendor": "vendor",
    "Employee": "employee",
    "BillTerm": "terms",
    "NotImported": "list entry",
    "OpenItem": "open item",
}
_FIELDS = {
    "full_name": "name",
    "kind_label": "type",
    "account": "account",
    "account_type_label": "account type",
    "billing": "billing address",
    "shipping": "shipping address",
    "num": "number",
    "ref": "Trans #",
}


def has_controls(path: Path) -> bool:
    data = path.read_bytes()
    if data.startswith(_UTF16):
        return CONTROL.search(decode(data)[0]) is not None
    return bool(data.translate(None, _NOT_C0)) or _C1_UTF8.search(data) is not None


def visible(path: Path, ledger: Ledger) -> Ledger:
    """``ledger`` (read from ``path``) with no control character in any text, and a warning
    for each kind of text that had one."""
    if not has_controls(path):
        return ledger
    found: dict[str, tuple[set[str], list[Source]]] = {}
    changes: dict[str, Any] = {
        name: tuple(_record(r, found) for r in getattr(ledger, name)) for name in (*_LISTS, *_MORE)
    }
    if not found:
        return ledger
    return dataclasses.replace(ledger, **changes, problems=(*ledger.problems, *_warnings(found)))


def _record(obj: Any, found: dict[str, tuple[set[str], list[Source]]]) -> Any:
    """``obj`` (a record with a ``source``) with its texts cleaned, its own and those of its
    addresses, splits and jobs."""
    source = obj.source
    kind = _WORDS.get(type(obj).__name__, type(obj).__name__)
    new = _texts(obj, kind, source, found)
    for name in ("splits", "jobs"):
        parts = getattr(obj, name, None)
        if parts:
            cleaned = tuple(_record(p, found) for p in parts)
            if any(a is not b for a, b in zip(cleaned, parts, strict=True)):
                new[name] = cleaned
    return dataclasses.replace(obj, **new) if new else obj


def _texts(
    obj: Any, kind: str, source: Source, found: dict[str, tuple[set[str], list[Source]]]
) -> dict[str, Any]:
    """The changed fields of ``obj``: its strings, tuples of strings and addresses."""
    new: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        label = f"{kind} {_FIELDS.get(f.name, f.name.replace('_', ' '))}"
        if isinstance(value, str):
            text, codes = without_controls(value)
            if codes:
                new[f.name] = text
                _note(found, label, codes, source)
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            pairs = [without_controls(v) for v in value]
            codes = ", ".join(c for _, c in pairs if c)
            if codes:
                new[f.name] = tuple(t for t, _ in pairs)
                _note(found, label, codes, source)
        elif type(value).__name__ == "Address":
            inner = _texts(value, label, source, found)
            if inner:
                new[f.name] = dataclasses.replace(value, **inner)
    return new


def _note(
    found: dict[str, tuple[set[str], list[Source]]], label: str, codes: str, source: Source
) -> None:
    seen, sources = found.setdefault(label, (set(), []))
    seen.update(codes.split(", "))
    sources.append(source)


def _warnings(found: dict[str, tuple[set[str], list[Source]]]) -> Iterable[Problem]:
    for label, (codes, sources) in found.items():
        yield Problem(
            sources[0],
            f"invisible control characters ({', '.join(sorted(codes))}) removed from the "
            f"{label} at {line_list(sources)}; a GnuCash book cannot show them",
            "warning",
        )
