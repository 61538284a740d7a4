"""IIF list rows → model records: accounts, customers (with jobs), vendors, employees, terms.

Every other list (other names, classes, items, ...) becomes a ``NotImported`` entry; a keyword
nobody knows is listed under its own name. Composition rules (documented for the writer):

- Address: ``name`` is the first address cell (BADDR1 / ADDR1; for vendors PRINTAS, else the
  vendor name), ``lines`` the rest; ``\\n`` inside a cell starts a new line; more than 4 lines are
  folded into the 4th with ", " (GnuCash keeps 4); a first line equal to the name is dropped.
- Notes: one "Label: value" line per QuickBooks field GnuCash has no place for (NOTEPAD text first,
  then account no., contacts, second phone, type, rep, tax code, custom fields named from
  CUSTNAMEDICT). Sensitive columns never get here (blanked in ``iif.Row``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from app.model import (
    Account,
    AccountType,
    Address,
    BillTerm,
    Customer,
    Employee,
    Job,
    NotImported,
    Role,
    Source,
    Vendor,
)
from app.values import parse_amount, parse_bool

if TYPE_CHECKING:
    from app.iif import Reading, Row

ACCOUNT_TYPES = {
    "BANK": AccountType.BANK,
    "AR": AccountType.RECEIVABLE,
    "CCARD": AccountType.CREDIT,
    "AP": AccountType.PAYABLE,
    "OCASSET": AccountType.ASSET,
    "FIXASSET": AccountType.ASSET,
    "OASSET": AccountType.ASSET,
    "OCLIAB": AccountType.LIABILITY,
    "LTLIAB": AccountType.LIABILITY,
    "EQUITY": AccountType.EQUITY,
    "INC": AccountType.INCOME,
    "EXINC": AccountType.INCOME,
    "COGS": AccountType.EXPENSE,
    "EXP": AccountType.EXPENSE,
    "EXEXP": AccountType.EXPENSE,
}
ROLES = {
    "OPENBAL": Role.OPENING_BALANCE,
    "RETEARNINGS": Role.RETAINED_EARNINGS,
    "SALESTAX": Role.SALES_TAX,
    "UNDEPOSIT": Role.UNDEPOSITED,
}
# keyword → (list name, column holding the record's name, why GnuCash gets nothing)
NOT_IMPORTED = {
    "OTHERNAME": ("Other names", "NAME", "GnuCash has no other-name list (payees only)"),
    "CLASS": ("Classes", "NAME", "GnuCash has no classes"),
    "CTYPE": ("Customer types", "NAME", "GnuCash has no customer types (kept in notes)"),
    "VTYPE": ("Vendor types", "NAME", "GnuCash has no vendor types (kept in notes)"),
    "JOBTYPE": ("Job types", "NAME", "GnuCash has no job types (kept in job notes)"),
    "INVITEM": ("Items", "NAME", "GnuCash has no item list"),
    "INVMEMO": ("Customer messages", "NAME", "GnuCash has no customer messages"),
    "PAYMETH": ("Payment methods", "NAME", "GnuCash has no payment methods"),
    "SHIPMETH": ("Shipping methods", "NAME", "GnuCash has no shipping methods"),
    "TODO": ("To-do notes", "DESC", "GnuCash has no to-do list"),
    "BUD": ("Budgets", "ACCNT", "budgets are not imported"),
    "SALESREP": ("Sales reps", "ASSOCIATEDNAME", "GnuCash has no sales reps (kept in notes)"),
    "PRICELEVEL": ("Price levels", "NAME", "GnuCash has no price levels"),
    "SALESTAXCODE": ("Sales tax codes", "CODE", "GnuCash has no sales tax codes"),
    "TAXCODE": ("Tax codes", "NAME", "tax codes are not imported"),
    "SUPERFUND": ("Superannuation funds", "NAME", "GnuCash has no payroll"),
    "CUSTNAMEDICT": ("Custom field labels", "LABEL", "used to label custom fields in notes"),
    "CUSTITEMDICT": ("Custom field labels", "LABEL", "labels item fields; GnuCash has no items"),
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
UNKNOWN_REASON = "not a QuickBooks list qb2gnucash knows"
# Rows belonging to the record above them, not listed on their own.
SUB_RECORDS = ("CUSTOMPI", "HOURLYPI", "LOCALPI")
JOB_STATUS = {"1": "Pending", "2": "Awarded", "3": "In progress", "4": "Closed", "5": "Not awarded"}


@dataclass(frozen=True, slots=True)
class ListsResult:
    accounts: tuple[Account, ...]
    customers: tuple[Customer, ...]
    vendors: tuple[Vendor, ...]
    employees: tuple[Employee, ...]
    terms: tuple[BillTerm, ...]
    not_imported: tuple[NotImported, ...]
    chart: bool

    def counts(self) -> list[tuple[str, int]]:
        pairs = [
            ("Accounts", len(self.accounts)),
            ("Customers", len(self.customers)),
            ("Jobs", sum(len(c.jobs) for c in self.customers)),
            ("Vendors", len(self.vendors)),
            ("Employees", len(self.employees)),
            ("Bill terms", len(self.terms)),
            ("Not imported", len(self.not_imported)),
        ]
        return [(k, n) for k, n in pairs if n]


class Lists:
    """Collects list rows in file order; customers and jobs are joined at the end."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.accounts: list[Account] = []
        self.account_lines: dict[str, int] = {}
        self.customer_rows: list[Row] = []
        self.vendors: list[Vendor] = []
        self.employees: list[Employee] = []
        self.terms: list[BillTerm] = []
        self.not_imported: list[NotImported] = []
        self.labels: dict[tuple[str, int], str] = {}  # (CUST/VEND/EMP, n) → CUSTFLDn's label
        self.group: tuple[str, Source, int] | None = None  # open item group: name, source, members
        self.chart = False

    def add(self, row: Row) -> None:
        kw = row.keyword
        if kw == "HDR" or kw in SUB_RECORDS:
            return
        if kw in ("ENDGRP", "ENDTAX"):
            self._close_group()
        elif kw.startswith("END"):
            return  # ENDCUSTNAMEDICT, ENDQBPEMP...: nothing to close
        elif kw == "ACCNT":
            self.chart = True
            self._account(row)
        elif kw == "CUST":
            self.customer_rows.append(row)
        elif kw == "VEND":
            self.vendors.append(self._vendor(row))
        elif kw == "EMP":
            self.employees.append(self._employee(row))
        elif kw == "TERMS":
            self._term(row)
        elif kw == "INVITEM":
            self._item(row)
        else:
            self._other(row)

    def finish(self) -> ListsResult:
        if self.group is not None:
            self.reading.warn(self.group[1], "item group not closed by ENDGRP/ENDTAX")
            self._close_group()
        return ListsResult(
            accounts=tuple(self.accounts),
            customers=self._customers(),
            vendors=tuple(self.vendors),
            employees=tuple(self.employees),
            terms=tuple(self.terms),
            not_imported=tuple(self.not_imported),
            chart=self.chart,
        )

    # --- helpers ---

    def _bool(self, row: Row, col: str) -> bool | None:
        try:
            return parse_bool(row.get(col))
        except ValueError as exc:
            self.reading.warn(row.source, f"{col}: {exc}")
            return None

    def _amount(self, row: Row, col: str) -> Decimal | None:
        try:
            return parse_amount(row.get(col))
        except ValueError as exc:
            self.reading.error(row.source, f"{col}: {exc}")
            return None

    def _int(self, row: Row, *cols: str) -> int:
        for col in cols:
            if row.has(col) and row.get(col):
                text = row.get(col)
                try:
                    return int(Decimal(text.rstrip("%")))
                except ArithmeticError:
                    self.reading.error(row.source, f"{col}: expected a whole number (got {text!r})")
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
                row.source, f"expected an account name like Parent:Child (got {raw!r})"
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
                f"account {full_name!r} is listed twice (first at line {line}); the first is kept",
            )
            return
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
            )
        )

    # --- names ---

    def _custom(self, row: Row) -> list[str]:
        out = []
        for i in range(1, 16):
            value = row.text(f"CUSTFLD{i}")
            if value:
                label = self.labels.get((row.keyword, i), f"Custom field {i}")
                out.append(f"{label}: {value}")
        return out

    def _customer_notes(self, row: Row) -> list[str]:
        rep = row.get("REP").split(":")[0]
        return [
            row.text("NOTEPAD"),
            *_labelled(
                ("Account no.", row.get("NOTE")),
                ("Contact", row.get("CONT1")),
                ("Alt. contact", row.get("CONT2")),
                ("Alt. phone", row.get("PHONE2")),
                ("Customer type", row.get("CTYPE")),
                ("Sales rep", rep),
                ("Sales tax code", row.get("SALESTAXCODE")),
                ("Tax item", row.get("TAXITEM")),
                ("Resale no.", row.get("RESALENUM")),
                ("Price level", row.get("PRICELEVEL")),
            ),
            *self._custom(row),
        ]

    def _customers(self) -> tuple[Customer, ...]:
        """Top-level CUST rows are customers; ``A:B`` rows are job ``B`` of customer ``A``
        (deeper ``A:B:C`` is job ``B:C`` of ``A``: GnuCash jobs do not nest). A job's notes keep
        only what differs from its customer's row."""
        tops: dict[str, Customer] = {}
        top_rows: dict[str, Row] = {}
        job_rows: list[tuple[str, str, Row]] = []
        for row in self.customer_rows:
            name = row.get("NAME")
            parent, _, job = (part.strip() for part in name.partition(":"))
            if not parent or (":" in name and not job):
                self.reading.error(row.source, f"expected a name like Customer:Job (got {name!r})")
            elif job:
                job_rows.append((parent, job, row))
            elif parent in tops:
                self.reading.warn(
                    row.source, f"customer {parent!r} is listed twice; the first is kept"
                )
            else:
                tops[parent], top_rows[parent] = self._customer(row, parent), row
        jobs: dict[str, list[Job]] = {}
        for parent, job, row in job_rows:
            if parent not in tops:
                self.reading.warn(
                    row.source,
                    f"job {job!r} of customer {parent!r}, which has no CUST row: "
                    "customer created from the name",
                )
                tops[parent] = Customer(name=parent, source=row.source)
            jobs.setdefault(parent, []).append(self._job(row, job, top_rows.get(parent)))
        return tuple(replace(c, jobs=tuple(jobs.get(n, ()))) for n, c in tops.items())

    def _customer(self, row: Row, name: str) -> Customer:
        return Customer(
            name=name,
            source=row.source,
            billing=_address(
                row,
                "BADDR",
                row.get("BADDR1"),
                name,
                phone=row.get("PHONE1"),
                fax=row.get("FAXNUM"),
                email=row.get("EMAIL"),
            ),
            shipping=_address(row, "SADDR", row.get("SADDR1"), name),
            notes=_join(self._customer_notes(row)),
            active=not self._bool(row, "HIDDEN"),
            terms=row.get("TERMS"),
            credit_limit=self._amount(row, "LIMIT"),
            taxable=self._bool(row, "TAXABLE"),
        )

    def _job_lines(self, row: Row) -> list[str]:
        status = row.get("JOBSTATUS")
        billing = _address(row, "BADDR", row.get("BADDR1"), "")
        shipping = _address(row, "SADDR", row.get("SADDR1"), "")
        return [
            *_labelled(
                ("Job type", row.get("JOBTYPE")),
                ("Job status", f"{JOB_STATUS[status]} ({status})" if status in JOB_STATUS else ""),
                ("Start", row.get("JOBSTART")),
                ("Projected end", row.get("JOBPROJEND")),
                ("End", row.get("JOBEND")),
                ("Bill to", _flat(billing)),
                ("Ship to", _flat(shipping)),
                ("Phone", row.get("PHONE1")),
                ("Fax", row.get("FAXNUM")),
                ("Email", row.get("EMAIL")),
                ("Terms", row.get("TERMS")),
                ("Credit limit", row.get("LIMIT")),
                ("Taxable", row.get("TAXABLE")),
            ),
            *self._customer_notes(row),
        ]

    def _job(self, row: Row, name: str, parent: Row | None) -> Job:
        known = set(self._job_lines(parent)) if parent is not None else set()
        return Job(
            name=name,
            source=row.source,
            description=row.text("JOBDESC"),
            notes=_join([line for line in self._job_lines(row) if line not in known]),
            active=not self._bool(row, "HIDDEN"),
        )

    def _vendor(self, row: Row) -> Vendor:
        name = row.get("NAME")
        print_as = row.get("PRINTAS") or name
        notes = [
            row.text("NOTEPAD"),
            *_labelled(
                ("Account no.", row.get("NOTE")),
                ("Contact", row.get("CONT1")),
                ("Alt. contact", row.get("CONT2")),
                ("Alt. phone", row.get("PHONE2")),
                ("Vendor type", row.get("VTYPE")),
                ("Credit limit", row.get("LIMIT")),
                ("Tax ID", row.get("TAXID")),
                ("1099", "Y" if self._bool(row, "1099") else ""),
            ),
            *self._custom(row),
        ]
        return Vendor(
            name=name,
            source=row.source,
            address=_address(
                row,
                "ADDR",
                print_as,
                name,
                phone=row.get("PHONE1"),
                fax=row.get("FAXNUM"),
                email=row.get("EMAIL"),
            ),
            notes=_join(notes),
            active=not self._bool(row, "HIDDEN"),
            terms=row.get("TERMS"),
            tax_id=row.get("TAXID"),
            eligible_1099=bool(self._bool(row, "1099")),
        )

    def _employee(self, row: Row) -> Employee:
        name = row.get("NAME")
        state_zip = " ".join(p for p in (row.get("STATE"), row.get("ZIP")) if p)
        city = ", ".join(p for p in (row.get("CITY"), state_zip) if p)
        address = _address(
            row,
            "ADDR",
            row.get("ADDR1"),
            name,
            phone=row.get("PHONE1"),
            email=row.get("EMAIL"),
            extra=city,
        )
        notes = [
            row.text("NOTEPAD"),
            *_labelled(
                ("Note", row.text("NOTE")),
                ("Initials", row.get("INIT")),
                ("Alt. phone", row.get("PHONE2")),
            ),
            *self._custom(row),
        ]
        return Employee(
            name=name,
            source=row.source,
            address=address,
            notes=_join(notes),
            active=not self._bool(row, "HIDDEN"),
        )

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
                    row.source, f"expected TERMSTYPE 0 or 1 (got {kind!r}): read as 0 (days)"
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
        if self.group is None:
            return
        name, source, members = self.group
        self.group = None
        what, _, reason = NOT_IMPORTED["INVITEM"]
        self.not_imported.append(NotImported(what, name, f"{reason} (group of {members})", source))

    def _other(self, row: Row) -> None:
        kw = row.keyword
        if kw in ("CUSTNAMEDICT", "CUSTITEMDICT"):
            label = row.get("LABEL")
            if not label:
                return  # an unused custom-field slot
            if kw == "CUSTNAMEDICT" and row.get("INDEX").isdigit():
                # INDEX 0 labels CUSTFLD1, for the lists whose flag is Y [inferred, FORMATS 3.1]
                for entity, col in (("CUST", "CUSTOMER"), ("VEND", "VENDOR"), ("EMP", "EMPLOYEE")):
                    if self._bool(row, col):
                        self.labels[entity, int(row.get("INDEX")) + 1] = label
        if kw in NOT_IMPORTED:
            _, col, _ = NOT_IMPORTED[kw]
            name = row.get(col) or row.get("NAME")
            if kw == "BUD" and row.get("STARTDATE"):
                name = (
                    f"{name} ({row.get('PERIOD').lower() or 'period'} from {row.get('STARTDATE')})"
                )
            self._skip(kw, name, row.source)
            return
        first = row.get("NAME") or next((v for v in row.cells if v.strip()), "").strip()
        self.not_imported.append(NotImported(kw, first, UNKNOWN_REASON, row.source))


def _labelled(*pairs: tuple[str, str]) -> list[str]:
    return [f"{label}: {value}" for label, value in pairs if value]


def _join(parts: list[str]) -> str:
    return "\n".join(p for p in parts if p)


def _flat(address: Address) -> str:
    return ", ".join(p for p in (address.name, *address.lines) if p)


def _address(
    row: Row,
    prefix: str,
    name: str,
    fallback: str,
    *,
    phone: str = "",
    fax: str = "",
    email: str = "",
    extra: str = "",
) -> Address:
    """Cells PREFIX1..PREFIX5 as lines; a first line repeating ``name`` is dropped; ``name``
    empty → ``fallback``; ``extra`` (an employee's city line) is added unless already there."""
    lines: list[str] = []
    for i in range(1, 6):
        lines.extend(part.strip() for part in row.text(f"{prefix}{i}").split("\n") if part.strip())
    if extra and _norm(extra) not in {_norm(x) for x in lines}:
        lines.append(extra)
    if lines and _norm(lines[0]) == _norm(name):
        lines.pop(0)
    if not lines and not (phone or fax or email):
        return Address()
    if len(lines) > 4:  # GnuCash keeps 4 lines: fold the rest into the last, losing nothing
        lines[3:] = [", ".join(lines[3:])]
    return Address(name=name or fallback, lines=tuple(lines), phone=phone, fax=fax, email=email)


def _norm(text: str) -> str:
    return " ".join(text.replace(",", " ").split()).casefold()
