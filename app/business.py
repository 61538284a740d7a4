"""The business records, in GnuCash's words: bill terms, customers (with their jobs), vendors,
employees and their addresses, and the open items of an Open Invoices / Unpaid Bills report.
Parsers make them, ``app.model.Ledger`` holds them, ``app.gnc.business`` writes them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from app.source import Source

TermKind = Literal["days", "proximo"]


@dataclass(frozen=True, slots=True)
class Address:
    name: str = ""
    lines: tuple[str, ...] = ()  # at most 4 are kept by GnuCash
    phone: str = ""
    fax: str = ""
    email: str = ""


@dataclass(frozen=True, slots=True)
class BillTerm:
    """GnuCash bill term. kind "days": due/discount after N days; "proximo": due on a day of
    the next month (``due_days`` is then the day of month, ``cutoff`` the cut-off day)."""

    name: str
    source: Source
    kind: TermKind = "days"
    due_days: int = 0
    discount_days: int = 0
    discount: Decimal = Decimal(0)  # percent, e.g. Decimal("1.0") for 1 %
    cutoff: int = 0
    description: str = ""
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    source: Source
    description: str = ""
    notes: str = ""
    active: bool = True
    terms: str = ""  # its own, QuickBooks' (its documents fall due by them); "": its customer's


@dataclass(frozen=True, slots=True)
class Customer:
    name: str
    source: Source
    billing: Address = Address()
    shipping: Address = Address()
    notes: str = ""
    active: bool = True
    terms: str = ""  # BillTerm name
    credit_limit: Decimal | None = None
    taxable: bool | None = None
    jobs: tuple[Job, ...] = ()
    currency: str = ""  # QuickBooks' currency of the customer and its jobs, when told
    tax_item: str = ""  # the sales tax item or group QuickBooks charges the customer
    tax_code: str = ""  # the customer's sales tax code (Tax, Non...)


@dataclass(frozen=True, slots=True)
class Vendor:
    name: str
    source: Source
    address: Address = Address()
    notes: str = ""
    active: bool = True
    terms: str = ""
    tax_id: str = ""
    eligible_1099: bool = False
    currency: str = ""  # QuickBooks' currency of the vendor, when told
    tax_item: str = ""  # where QuickBooks has one (VAT/GST editions): the default on bills


@dataclass(frozen=True, slots=True)
class Employee:
    name: str
    source: Source
    address: Address = Address()
    notes: str = ""
    active: bool = True


# an open-items report's layout (``FileInfo.layout``) → the side it lists
REPORT_SIDES = {"open invoices": "customer", "unpaid bills": "vendor"}


@dataclass(frozen=True, slots=True)
class OpenItem:
    """One detail row of an Open Invoices / Unpaid Bills Detail report: what was still open of
    a document (or unapplied of a payment or credit) on the report's date. ``open`` is signed as
    the report prints it: what the customer owes us / what we owe the vendor is positive."""

    owner_kind: Literal["customer", "vendor"]
    owner: str  # customer (or Customer:Job) or vendor full name
    kind_label: str  # the report's Type: Invoice, Payment, Credit Memo, Bill, Bill Pmt -Check...
    date: dt.date
    open: Decimal
    source: Source
    num: str = ""
    ref: str = ""  # Trans #, when the report shows it
    due: dt.date | None = None
    terms: str = ""
    aging: int | None = None  # the report's Aging: days past due on its date (None: blank)
