"""A ledger as text: the canonical, readable dump the golden files of the parser and mapping tests
hold (``to_text``)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from enum import Enum

from app.model import Ledger
from app.source import Source


def to_text(ledger: Ledger) -> str:
    """The canonical, readable dump of a ledger used by golden files: one record per line,
    nested records indented, only fields that differ from their defaults, sources as file:line."""
    out: list[str] = []
    for f in fields(ledger):
        value = getattr(ledger, f.name)
        if isinstance(value, tuple):
            if not value and f.name in _SINCE_GOLDENS:
                continue  # a newer list, printed only when it holds something
            out.append(f"# {f.name} ({len(value)})")
            for item in value:
                _dump(item, 0, out)
        elif value != f.default:
            out.append(f"# {f.name}: {_scalar(value)}")
    return "\n".join(out) + "\n"


_SINCE_GOLDENS = frozenset(
    {
        "open_items",
        "items",
        "tax_codes",
        "tax_liability",
        "budget_lines",
        "year_ends",
        "statements",
        "memorized",
        "classes",
    }
)
# FileInfo.layout is its kind's code (kind is printed); FileInfo.quiet is derived from the dates
_NOT_DUMPED = frozenset({"layout", "quiet"})


def _scalar(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_scalar(v) for v in value) + ")"
    return str(value)


def _dump(record: object, depth: int, out: list[str]) -> None:
    head: list[str] = [type(record).__name__]
    nested: list[object] = []
    where = ""
    for f in fields(record):  # type: ignore[arg-type]
        value = getattr(record, f.name)
        if f.name == "source":
            where = f" @{value}" if value else ""
            continue
        if f.name in _NOT_DUMPED:
            continue
        if value == f.default and f.name not in ("full_name", "name", "account", "value", "date"):
            continue
        if isinstance(value, tuple) and value and is_dataclass(value[0]):
            nested.extend(value)
        elif isinstance(value, Source):
            head.append(f"{f.name}={value}")
        elif is_dataclass(value):
            head.append(f"{f.name}={_inline(value)}")
        else:
            head.append(f"{f.name}={_scalar(value)}")
    out.append("  " * depth + " ".join(head) + where)
    for item in nested:
        _dump(item, depth + 1, out)


def _inline(record: object) -> str:
    parts = [
        f"{f.name}={_scalar(getattr(record, f.name))}"
        for f in fields(record)  # type: ignore[arg-type]
        if getattr(record, f.name) != f.default
    ]
    return "{" + " ".join(parts) + "}"
