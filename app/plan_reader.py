"""A plan's JSON read value by value (``plan.plan_from_json``): each value of its setting's type,
named where it is not; a setting the program does not know refused when the user gives the plan.
Pure."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from app.errors import MappingError
from app.words import quoted

_WORDS = {
    str: "a text in quotes",
    bool: "true or false",
    list: "a list [...]",
    dict: "an object {...}",
}
TOP: dict[str, type] = {
    "rules": list, "reparent": bool, "currency": str, "format": str, "database": str,
    "account_map": dict, "files": dict, "cutover": dict, "documents": str,
    "foreign_as_home": bool, "sales_tax": str, "classes": str, "held": dict,
}  # fmt: skip
CUTOVER: dict[str, type] = {
    "mode": str, "date": str, "opening_balances": bool, "fiscal_year_start": str,
    "ytd_to_retained": bool, "export_date": str, "split_at": str,
}  # fmt: skip
FILE: dict[str, type] = {"date_order": str, "columns": dict, "truncated_ok": bool}
RULE: dict[str, type] = {"kind": str, "account": str, "target": str}


@dataclass(frozen=True, slots=True)
class Reader:
    """A plan's JSON read value by value: each of its setting's type, named where it is not."""

    origin: str
    strict: bool

    def value(self, value: object, want: type, where: str) -> object:
        if type(value) is not want:  # (bool is no int here, nor a number a text)
            shown = json.dumps(value, ensure_ascii=False)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise MappingError(
                f"{self.origin}: {where} must be {_WORDS[want]} (got {shown}); correct the plan "
                "file, or save it again from the Map step"
            )
        return value

    def object(
        self, value: object, where: str, fields: dict[str, type] | None, *, required: bool = False
    ) -> dict:
        """``value`` as an object of ``fields`` (None: any keys), each checked; one the program
        does not know refused when strict (ignored otherwise: a plan of an older version)."""
        found = self.value(value, dict, where or "the plan")
        assert isinstance(found, dict)
        if fields is None:
            return found
        out = {}
        for key, item in found.items():
            if key not in fields:
                if self.strict:
                    known = ", ".join(sorted(fields))
                    raise MappingError(
                        f"{self.origin}: unknown setting {quoted(key)}"
                        + (f" in {where}" if where else "")
                        + f" (expected one of: {known}); correct the plan file"
                    )
                continue
            out[key] = self.value(item, fields[key], f"{where}.{key}" if where else key)
        if required and (missing := [k for k in fields if k not in out]):
            raise MappingError(f"{self.origin}: {where} has no {', '.join(missing)}")
        return out

    def texts(self, value: Any, where: str) -> dict[str, str]:
        """``value`` as an object of any keys whose values are all texts."""
        found = self.object(value, where, None)
        return {key: str(self.value(item, str, f"{where}.{key}")) for key, item in found.items()}


def no_text(value: Any, where: str = "") -> str:
    """Where a plan's JSON holds a text that is none: a lone surrogate (``"\\ud800"``), which
    no page, file or book can hold (hunt 20: saved, then every Map page a 500); "" if nowhere.
    Named as the reader names a setting ("rules[2].account"), never quoting such a text."""
    if isinstance(value, str):
        return (where or "the plan") if _SURROGATE.search(value) else ""
    if isinstance(value, list):
        named = [(f"{where}[{n}]", item) for n, item in enumerate(value, 1)]
    elif isinstance(value, dict):
        if any(_SURROGATE.search(key) for key in value):
            return f"a name in {where or 'the plan'}"
        named = [(f"{where}.{key}" if where else key, item) for key, item in value.items()]
    else:
        return ""
    return next((found for at, item in named if (found := no_text(item, at))), "")


_SURROGATE = re.compile("[\ud800-\udfff]")
