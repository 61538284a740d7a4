"""IIF list rows → model records: accounts, terms, and the lists GnuCash has no place for.

The lists read are ``_READ``'s (ACCNT, CUST, VEND, EMP, TERMS, CLASS: ``app.classes``, INVITEM
and SALESTAXCODE: ``iif.items``, BUD: ``iif.budgets``); every other list (other names, ...)
becomes a ``NotImported`` entry, and a keyword nobody knows is listed under its own name. Name
lists are composed in ``app.readers.iif.names`` (its docstring: how addresses and notes are built).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from app.business import BillTerm, Customer, Employee, Vendor
from app.classes import SplitClass, class_name
from app.extras import BudgetLine
from app.items import Item, TaxCode
from app.model import Account, NotImported, Role
from app.quickbooks import ACCOUNT_TYPES, ROLES
from app.readers.iif.budgets import budget_line
from app.readers.iif.items import ItemsReader
from app.readers.iif.names import Names, amount, currency_of, flag
from app.readers.iif.rows import Reading, Row
from app.readers.private import quoted, typed_masked
from app.source import Source
from app.words import plural

# keyword → (list name, column holding the record's name, why GnuCash gets nothing)
NOT_IMPORTED = MappingProxyType(
    {
        "OTHERNAME": ("Other names", "NAME", "GnuCash has no other-name list (payees only)"),
        "CTYPE": ("Customer types", "NAME", "GnuCash has no customer types (kept in notes)"),
        "VTYPE": ("Vendor types", "NAME", "GnuCash has no vendor types (kept in notes)"),
        "JOBTYPE": ("Job types", "NAME", "GnuCash has no job types (kept in job notes)"),
        "INVITEM": (
            "Items",
            "NAME",
            "GnuCash has no item list: each line keeps its item, the list goes to items.csv",
        ),
        "INVMEMO": ("Customer messages", "NAME", "GnuCash has no customer messages"),
        "PAYMETH": ("Payment methods", "NAME", "GnuCash has no payment methods"),
        "SHIPMETH": ("Shipping methods", "NAME", "GnuCash has no shipping methods"),
        "TODO": ("To-do notes", "DESC", "GnuCash has no to-do list"),
        "SALESREP": ("Sales reps", "ASSOCIATEDNAME", "GnuCash has no sales reps (kept in notes)"),
        "PRICELEVEL": ("Price levels", "NAME", "GnuCash has no price levels"),
        "SALESTAXCODE": ("Sales tax codes", "CODE", "GnuCash has no sales tax codes"),
        "TAXCODE": ("Tax codes", "NAME", "tax codes are not imported"),
        "SUPERFUND": ("Superannuation funds", "NAME", "GnuCash has no payroll"),
        "CUSTNAMEDICT": ("Custom field labels", "LABEL", "used to label custom fields in notes"),
        "CUSTITEMDICT": (
            "Custom field labels",
            "LABEL",
            "labels item fields; GnuCash has no items",
        ),
        "QB ONLINE": ("Online banking settings", "ACCNT", "bank connection data is never imported"),
        "QBP EMPLOYEE": ("Employee payroll settings", "NAME", "GnuCash has no payroll"),
        "TIMEACT": ("Time tracking", "NAME", "GnuCash has no time tracking"),
        "TIMERHDR": ("Time tracking", "COMPANYNAME", "GnuCash has no time tracking"),
        "NONPOSTING": (
            "Non-posting accounts",
            "NAME",
            "nothing posts to them (estimates, purchase orders)",
        ),
    }
)
UNKNOWN_REASON = "not a QuickBooks list qb2gnucash knows"
# Rows belonging to the record above them, not listed on their own.
SUB_RECORDS = ("CUSTOMPI", "HOURLYPI", "LOCALPI")


def unknown_list(keyword: str) -> bool:
    """``keyword``'s rows are of a list qb2gnucash does not know (ENDGRP and the like apart):
    neither read (``Lists.add``'s table), nor listed as not imported by name, nor a row of the
    record above it; ``Lists._other`` lists its name alone, masked as a memo is."""
    return keyword not in _KNOWN and not keyword.startswith("END")


@dataclass(frozen=True, slots=True)
class ListsResult:
    accounts: tuple[Account, ...]
    customers: tuple[Customer, ...]
    vendors: tuple[Vendor, ...]
    employees: tuple[Employee, ...]
    terms: tuple[BillTerm, ...]
    not_imported: tuple[NotImported, ...]
    chart: bool
    items: tuple[Item, ...] = ()
    tax_codes: tuple[TaxCode, ...] = ()
    budget_lines: tuple[BudgetLine, ...] = ()
    classes: tuple[SplitClass, ...] = ()

    def counts(self) -> list[tuple[str, int]]:
        pairs = [
            ("Accounts", len(self.accounts)),
            ("Customers", len(self.customers)),
            ("Jobs", sum(len(c.jobs) for c in self.customers)),
            ("Vendors", len(self.vendors)),
            ("Employees", len(self.employees)),
            ("Bill terms", len(self.terms)),
            ("Items", len(self.items)),
            ("Budget lines", len(self.budget_lines)),
            ("Classes", len(self.classes)),
            ("Not imported", len(self.not_imported)),
        ]
        return [(k, n) for k, n in pairs if n]


class Lists:
    """Collects list rows in file order; customers and jobs are joined at the end."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.accounts: list[Account] = []
        self.account_lines: dict[str, int] = {}
        self.account_folds: dict[str, str] = {}  # full name casefolded → the first so written
        self.customer_rows: list[Row] = []
        self.vendors: list[Vendor] = []
        self.employees: list[Employee] = []
        self.terms: list[BillTerm] = []
        self.not_imported: list[NotImported] = []
        self.budget_lines: list[BudgetLine] = []
        self.classes: dict[str, SplitClass] = {}
        self.labels: dict[tuple[str, int], str] = {}  # (CUST/VEND/EMP, n) → CUSTFLDn's label
        self.group: tuple[str, Source, int] | None = None  # open item group: name, source, members
        self.chart = False
        self.names = Names(reading, self.labels)
        self.catalogue = ItemsReader(reading)

    def add(self, row: Row) -> None:
        kw = row.keyword
        if kw in ("ENDGRP", "ENDTAX"):
            self._close_group()
        elif (read := _READ.get(kw)) is not None:
            if kw in ("VEND", "EMP", "TERMS") and not row.get("NAME"):
                self.reading.error(row.source, f"expected a NAME on this {kw} row (got “”)")
            else:
                read(self, row)
        elif not (kw == "HDR" or kw in SUB_RECORDS or kw.startswith("END")):
            self._other(row)  # (ENDCUSTNAMEDICT, ENDQBPEMP...: nothing to close)

    def _chart_row(self, row: Row) -> None:
        self.chart = True
        self._account(row)

    def _customer_row(self, row: Row) -> None:
        self.customer_rows.append(row)  # (joined with their jobs at the end)

    def _vendor_row(self, row: Row) -> None:
        self.vendors.append(self.names.vendor(row))

    def _employee_row(self, row: Row) -> None:
        self.employees.append(self.names.employee(row))

    def _item_row(self, row: Row) -> None:
        self.catalogue.item(row)
        self._item(row)

    def _tax_code_row(self, row: Row) -> None:
        self.catalogue.code(row)
        self._other(row)

    def _budget_row(self, row: Row) -> None:
        if line := budget_line(self.reading, row):
            self.budget_lines.append(line)

    def finish(self) -> ListsResult:
        if self.group is not None:
            self.reading.warn(self.group[1], "item group not closed by ENDGRP/ENDTAX")
            self._close_group()
        self.catalogue.close()
        return ListsResult(
            accounts=tuple(self.accounts),
            customers=self.names.customers(self.customer_rows),
            vendors=tuple(self.vendors),
            employees=tuple(self.employees),
            terms=tuple(self.terms),
            not_imported=tuple(self.not_imported),
            chart=self.chart,
            items=tuple(self.catalogue.items.values()),
            tax_codes=tuple(self.catalogue.codes.values()),
            budget_lines=tuple(self.budget_lines),
            classes=tuple(self.classes.values()),
        )

    # --- helpers ---

    def _bool(self, row: Row, col: str) -> bool | None:
        return flag(self.reading, row, col)

    def _amount(self, row: Row, col: str) -> Decimal | None:
        return amount(self.reading, row, col)

    def _int(self, row: Row, *cols: str) -> int:
        for col in cols:
            if row.has(col) and row.get(col):
                text = row.get(col)
                try:
                    return int(Decimal(text.rstrip("%")))
                except ArithmeticError:
                    self.reading.error(
                        row.source, f"{col}: expected a whole number (got {quoted(text)})"
                    )
                    return 0
        return 0

    def _skip(self, kw: str, name: str, source: Source) -> None:
        what, _, reason = NOT_IMPORTED[kw]
        self.not_imported.append(NotImported(what, name, reason, source))

    # --- accounts ---

    def _account(self, row: Row) -> None:
        raw = row.get("NAME")
        levels = [part.strip() for part in raw.split(":")]
        if not raw or any(not part for part in levels):
            self.reading.error(
                row.source, f"expected an account name like Parent:Child (got {quoted(raw)})"
            )
            return
        full_name = ":".join(levels)
        code = row.get("ACCNTTYPE").upper()
        if code == "NONPOSTING":
            self._skip("NONPOSTING", full_name, row.source)
            return
        if full_name in self.account_lines:
            line = self.account_lines[full_name]
            self.reading.warn(
                row.source,
                f"account {quoted(full_name)} is listed twice (first at line {line}); the "
                "first is kept",
            )
            return
        folded = full_name.casefold()
        if (other := self.account_folds.setdefault(folded, full_name)) != full_name:
            self.reading.warn(  # (hunt 20: two accounts in the book, nothing said)
                row.source,
                f"account {quoted(full_name)} differs from {quoted(other)} (line "
                f"{self.account_lines[other]}) only in capitals: both are kept, apart, as "
                "written; if they are one account, merge one into the other",
            )
        self.account_lines[full_name] = row.source.line
        self.accounts.append(
            Account(
                full_name=full_name,
                type=ACCOUNT_TYPES.get(code),
                source=row.source,
                kind_label=code,
                description=row.text("DESC"),
                code=row.get("ACCNUM"),
                hidden=bool(self._bool(row, "HIDDEN")),
                role=ROLES.get(row.get("EXTRA").upper(), Role.NONE),
                balance=self._amount(row, "OBAMOUNT") if row.has("OBAMOUNT") else None,
                currency=currency_of(row),
            )
        )

    # --- classes ---

    def _class(self, row: Row) -> None:
        """A CLASS row: its NAME is the full name (``Parent:Child``)."""
        name = class_name(row.get("NAME"))
        if not name:
            self.reading.warn(row.source, "a CLASS row without a NAME was skipped")
            return
        if name in self.classes:
            first = self.classes[name].source.line
            self.reading.warn(
                row.source,
                f"class {quoted(name)} is listed twice (first at line {first}); the first is kept",
            )
            return
        self.classes[name] = SplitClass(name, row.source, bool(self._bool(row, "HIDDEN")))

    # --- terms ---

    def _term(self, row: Row) -> None:
        kind = row.get("TERMSTYPE") or "0"
        discount = self._amount(row, "DISCPER") or Decimal(0)
        if kind == "1":
            term = BillTerm(
                name=row.get("NAME"),
                source=row.source,
                kind="proximo",
                due_days=self._int(row, "DAYOFMONTHDUE", "DUEDAYS"),
                discount_days=self._int(row, "DISCDAYOFMONTH", "DISCDAYS"),
                discount=discount,
                cutoff=self._int(row, "DATEMINDAYS", "MINDAYS"),
                hidden=bool(self._bool(row, "HIDDEN")),
            )
        else:
            if kind != "0":
                self.reading.warn(
                    row.source, f"expected TERMSTYPE 0 or 1 (got {quoted(kind)}): read as 0 (days)"
                )
            term = BillTerm(
                name=row.get("NAME"),
                source=row.source,
                kind="days",
                due_days=self._int(row, "STDDUEDAYS", "DUEDAYS"),
                discount_days=self._int(row, "STDDISCDAYS", "DISCDAYS"),
                discount=discount,
                hidden=bool(self._bool(row, "HIDDEN")),
            )
        self.terms.append(term)

    # --- not imported ---

    def _item(self, row: Row) -> None:
        if self.group is not None:  # a member of the open group / sales-tax group
            name, source, members = self.group
            self.group = (name, source, members + 1)
            return
        if row.get("INVITEMTYPE").upper() in ("GRP", "STAX"):
            self.group = (row.get("NAME"), row.source, 0)
            return
        self._skip("INVITEM", row.get("NAME"), row.source)

    def _close_group(self) -> None:
        self.catalogue.close()
        if self.group is None:
            return
        name, source, members = self.group
        self.group = None
        what, _, reason = NOT_IMPORTED["INVITEM"]
        group = f"a group of {plural(members, 'item')}" if members else "a group, no items listed"
        self.not_imported.append(NotImported(what, f"{name} ({group})", reason, source))

    def _other(self, row: Row) -> None:
        kw = row.keyword
        if kw in ("CUSTNAMEDICT", "CUSTITEMDICT"):
            if not row.get("LABEL"):
                return  # an unused custom-field slot
            if kw == "CUSTNAMEDICT":
                self.labels.update(field_labels(self.reading, row))
        if kw in NOT_IMPORTED:
            _, col, _ = NOT_IMPORTED[kw]
            name = row.get(col) or row.get("NAME") or _first(row)
            self._skip(kw, name, row.source)
            return
        name = typed_masked(row.get("NAME") or _first(row))  # (a list of typed text, perhaps)
        self.not_imported.append(NotImported(kw, name, UNKNOWN_REASON, row.source))


# the lists read, each by its method of ``Lists``
_READ = MappingProxyType(
    {
        "ACCNT": Lists._chart_row,
        "CUST": Lists._customer_row,
        "VEND": Lists._vendor_row,
        "EMP": Lists._employee_row,
        "TERMS": Lists._term,
        "CLASS": Lists._class,
        "INVITEM": Lists._item_row,
        "SALESTAXCODE": Lists._tax_code_row,
        "BUD": Lists._budget_row,
    }
)
# the records read (the transactions' by ``iif.transactions``), or listed as not imported by
# name, or rows of the record above them; any other is a list qb2gnucash does not know
_KNOWN = frozenset({"HDR", "TRNS", "SPL", *_READ, *SUB_RECORDS, *NOT_IMPORTED})


def field_labels(reading: Reading, row: Row) -> dict[tuple[str, int], str]:
    """What a ``CUSTNAMEDICT`` row labels: (CUST/VEND/EMP, n) → CUSTFLDn's label (INDEX 0 labels
    CUSTFLD1, for the lists whose flag is Y [inferred, FORMATS 3.1])."""
    label, index = row.get("LABEL"), row.get("INDEX")
    if not label or not index.isdigit():
        return {}
    lists = (("CUST", "CUSTOMER"), ("VEND", "VENDOR"), ("EMP", "EMPLOYEE"))
    return {(kw, int(index) + 1): label for kw, col in lists if flag(reading, row, col)}


def _first(row: Row) -> str:
    return next((v.strip() for v in row.cells if v.strip()), "")
