"""IIF name lists (CUST, VEND, EMP) → GnuCash customers with jobs, vendors and employees.

Composition rules (the writer and preview rely on them):

- Address: ``name`` is the first address cell (BADDR1 / ADDR1; for vendors PRINTAS, else the
  vendor name), ``lines`` the other cells; ``\\n`` inside a cell starts a new line; a first line
  repeating the name is dropped; more than 4 lines are folded into the 4th with ", " (GnuCash
  keeps 4). An employee's CITY/STATE/ZIP line is added unless an address line already says it.
- Notes: NOTEPAD text first, then one "Label: value" line per field GnuCash has no place for
  (account no. = QuickBooks NOTE, contacts CONT1/CONT2, second phone, customer/vendor type, sales
  rep, sales tax code, tax item, credit limit, tax ID, 1099, custom fields named from
  CUSTNAMEDICT). GnuCash has no contact field, so the contact lives in the notes and the address
  keeps QuickBooks' printed name.
- Jobs: ``Customer:Job`` rows; ``A:B:C`` is job "B:C" of A. A job's notes carry its job type,
  status, dates and every line that differs from its customer's (own ship-to address...).
- Sensitive columns never get here: ``rows.Row`` blanks them when the line is split.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from types import MappingProxyType

from app.business import Address, Customer, Employee, Job, Vendor
from app.readers.iif.rows import Reading, Row, amount, flag
from app.readers.private import SENSITIVE_HEADER, quoted, tax_id

# QuickBooks' job status list, in its order [inferred from Intuit's !CUST doc: 0 = none]
JOB_STATUS = MappingProxyType(
    {"1": "Pending", "2": "Awarded", "3": "In progress", "4": "Closed", "5": "Not awarded"}
)


def currency_of(row: Row) -> str:
    """The currency a multicurrency company's list row gives its account or name (CURRENCY, or
    NAMECURRENCY in some editions' name lists), "" when the export has none."""
    return row.get("CURRENCY") or row.get("NAMECURRENCY")


class Names:
    """Builds name records; ``labels`` ((CUST|VEND|EMP, n) → CUSTFLDn's label) fills as
    CUSTNAMEDICT rows are read."""

    def __init__(self, reading: Reading, labels: dict[tuple[str, int], str]) -> None:
        self.reading = reading
        self.labels = labels

    def _bool(self, row: Row, col: str) -> bool | None:
        return flag(self.reading, row, col)

    def _amount(self, row: Row, col: str) -> Decimal | None:
        return amount(self.reading, row, col)

    def _custom(self, row: Row) -> list[str]:
        out = []
        for i in range(1, 16):
            value = row.text(f"CUSTFLD{i}")
            label = self.labels.get((row.keyword, i), f"Custom field {i}")
            if value and not SENSITIVE_HEADER.search(label):  # (its QuickBooks label: an SSN...)
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

    def customers(self, rows: list[Row]) -> tuple[Customer, ...]:
        """Top-level CUST rows are customers; ``A:B`` rows are job ``B`` of customer ``A``
        (deeper ``A:B:C`` is job ``B:C`` of ``A``: GnuCash jobs do not nest). A job's notes keep
        only what differs from its customer's row."""
        tops: dict[str, Customer] = {}
        top_rows: dict[str, Row] = {}
        job_rows: list[tuple[str, str, Row]] = []
        for row in rows:
            name = row.get("NAME")
            parent, _, job = (part.strip() for part in name.partition(":"))
            if not parent or (":" in name and not job):
                self.reading.error(
                    row.source, f"expected a name like Customer:Job (got {quoted(name)})"
                )
            elif job:
                job_rows.append((parent, job, row))
            elif parent in tops:
                self.reading.warn(
                    row.source, f"customer {quoted(parent)} is listed twice; the first is kept"
                )
            else:
                tops[parent], top_rows[parent] = self._customer(row, parent), row
        jobs: dict[str, list[Job]] = {}
        for parent, job, row in job_rows:
            if parent not in tops:
                self.reading.warn(
                    row.source,
                    f"job {quoted(job)} of customer {quoted(parent)}, which has no CUST row: "
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
            currency=currency_of(row),
            tax_item=row.get("TAXITEM"),
            tax_code=row.get("SALESTAXCODE"),
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
            terms=row.get("TERMS"),
        )

    def vendor(self, row: Row) -> Vendor:
        name = row.get("NAME")
        print_as = row.get("PRINTAS") or name
        eligible_1099 = bool(self._bool(row, "1099"))
        notes = [
            row.text("NOTEPAD"),
            *_labelled(
                ("Account no.", row.get("NOTE")),
                ("Contact", row.get("CONT1")),
                ("Alt. contact", row.get("CONT2")),
                ("Alt. phone", row.get("PHONE2")),
                ("Vendor type", row.get("VTYPE")),
                ("Credit limit", row.get("LIMIT")),
            ),  # (its tax ID and 1099 flag: the writer says them, from ``tax_id`` and the flag)
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
            tax_id=tax_id(row.get("TAXID")),
            eligible_1099=eligible_1099,
            currency=currency_of(row),
        )

    def employee(self, row: Row) -> Employee:
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
