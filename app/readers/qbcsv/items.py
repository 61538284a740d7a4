"""A CSV report's item columns (Item, Qty, Sales Price / Rate, Tax Code, and Reckon's Tax Amount /
GST: ``header.ITEM_ROLES``) → the row's ``ItemLine``. Read only where the report has them; never
required. A cell that is not a number is a warning and reads as not given (the row's amount,
which is what the books hold, is read as always)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from app.items import ItemLine
from app.readers.values import parse_amount

Warn = Callable[[int, str], None]
_LABELS = {"qty": "Qty", "price": "Sales Price / Rate", "tax_amount": "Tax Amount"}


class ItemCells:
    """Turns a row's item cells into an ItemLine; equal cells share one object."""

    def __init__(self, warn: Warn) -> None:
        self.warn = warn
        self.seen: dict[tuple[str, ...], ItemLine | None] = {}

    def line(self, cells: tuple[str, ...], at: int) -> ItemLine | None:
        """``cells`` in ITEM_ROLES order (item, qty, price, tax code, tax amount)."""
        known = self.seen.get(cells, False)
        if known is not False:
            return known  # type: ignore[return-value]
        item, qty, price, code, tax = (c.strip() for c in cells)
        problems: list[str] = []
        percent = price.endswith("%")
        made = ItemLine(
            item=item,
            quantity=self._number("qty", qty, problems),
            price=None if percent else self._number("price", price, problems),
            percent=self._number("price", price, problems) if percent else None,
            tax_code=code,
            tax_amount=self._number("tax_amount", tax, problems),
        )
        got = made or None
        for p in problems:
            self.warn(at, p)
        if not problems:  # a cell that warned warns on each of its rows
            self.seen[cells] = got
        return got

    @staticmethod
    def _number(role: str, text: str, problems: list[str]) -> Decimal | None:
        try:
            return parse_amount(text)
        except ValueError as exc:
            problems.append(f"{_LABELS[role]}: {exc}; not read (the row's amount is)")
            return None
