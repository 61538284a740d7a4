"""IIF ``INVITEM`` and ``SALESTAXCODE`` rows → the item catalogue and the sales tax codes.

The item list comes under two headers (docs/SALES-TAX.md, "What QuickBooks exports"): the
main one (``NAME ... ACCNT ASSETACCNT COGSACCNT QNTY VALUE PRICE COST TAXABLE SALESTAXCODE ...
TAXVEND PREFVEND ...``) for plain items and sales tax items (``COMPTAX``: rate in PRICE as
``6.5%``, agency in TAXVEND, liability account in ACCNT), and the group header for item groups
(``GRP`` ... ``ENDGRP``) and sales tax groups (``STAX``, its ``COMPTAX`` members listed by name,
closed by ``ENDTAX``). A member row names an item listed before; its own cells are not a second
definition.

The rows are still counted under "not imported" by ``app.readers.iif.lists`` (GnuCash has no
item list); this module only keeps what they say.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from app.items import Item, TaxCode
from app.readers.iif.rows import Reading, Row, flag
from app.readers.private import quoted
from app.readers.values import parse_amount


class ItemsReader:
    """Collects items (groups with their members) and tax codes in file order."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.items: dict[str, Item] = {}
        self.codes: dict[str, TaxCode] = {}
        self.group: Item | None = None  # the open group
        self.members: list[str] = []

    # --- rows ---

    def item(self, row: Row) -> None:
        name = row.get("NAME")
        kind = row.get("INVITEMTYPE").upper()
        if self.group is not None:
            self.members.append(name)
            if self.group.kind == "STAX" and kind and kind != "COMPTAX":
                self.reading.warn(
                    row.source,
                    f"sales tax group {quoted(self.group.name)} lists {quoted(name)}, a {kind} "
                    "item, not a sales tax item",
                )
            return
        if not name:
            self.reading.warn(row.source, "an INVITEM row without a NAME (not read)")
            return
        item = self._read(row, name, kind)
        if kind in ("GRP", "STAX"):
            self.group, self.members = item, []
            return
        self._keep(item)

    def close(self) -> None:
        """ENDGRP / ENDTAX (or the end of the file): the open group gets its members."""
        if self.group is not None:
            self._keep(replace(self.group, members=tuple(self.members)))
        self.group, self.members = None, []

    def code(self, row: Row) -> None:
        code = row.get("CODE")
        if not code:
            return
        taxable = flag(self.reading, row, "TAXABLE")
        if code in self.codes:
            self.reading.warn(
                row.source, f"sales tax code {quoted(code)} is listed twice; first kept"
            )
            return
        self.codes[code] = TaxCode(
            code=code,
            taxable=bool(taxable),
            source=row.source,
            description=row.text("DESC"),
            item=row.get("TAXITEM") or row.get("ITEM"),
            hidden=bool(flag(self.reading, row, "HIDDEN")),
        )

    # --- helpers ---

    def _keep(self, item: Item) -> None:
        if item.name in self.items:
            first = self.items[item.name].source
            self.reading.warn(
                item.source, f"item {quoted(item.name)} is listed twice (first at {first})"
            )
            return
        self.items[item.name] = item

    def _number(self, row: Row, col: str) -> Decimal | None:
        try:
            return parse_amount(row.get(col))
        except ValueError as exc:
            self.reading.warn(row.source, f"{col}: {exc}; not read")
            return None

    def _read(self, row: Row, name: str, kind: str) -> Item:
        price_text = row.get("PRICE")
        price = self._number(row, "PRICE")
        rate = None
        if price_text.endswith("%"):
            price, rate = None, price
        return Item(
            name=name,
            kind=kind,
            source=row.source,
            description=row.text("DESC"),
            purchase_description=row.text("PURCHASEDESC"),
            sales_account=_account(row.get("ACCNT")),
            asset_account=_account(row.get("ASSETACCNT")),
            cogs_account=_account(row.get("COGSACCNT")),
            price=price,
            rate=rate,
            cost=self._number(row, "COST"),
            quantity=self._number(row, "QNTY") if kind not in ("GRP", "STAX") else None,
            stock_value=self._number(row, "VALUE"),
            taxable=flag(self.reading, row, "TAXABLE") if row.get("TAXABLE") else None,
            tax_code=row.get("SALESTAXCODE") or row.get("TAXCODE"),
            tax_agency=row.get("TAXVEND"),
            preferred_vendor=row.get("PREFVEND"),
            hidden=bool(flag(self.reading, row, "HIDDEN")),
        )


def _account(label: str) -> str:
    """An IIF account cell as a chart full name (levels trimmed)."""
    return ":".join(part.strip() for part in label.split(":")) if label else ""
