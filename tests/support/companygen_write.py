"""Writers for ``tests.support.companygen``: each reproduces one QuickBooks export as on disk.

CSV reports are QuickBooks' Excel/CSV exports (docs/FORMATS.md, "CSV reports"): a leading unnamed
column, title rows (company, report name, date range), a header row, amounts with thousands commas
(quoted by the CSV quoting because of the comma), zero amounts as empty cells, Total/TOTAL rows.
Account labels: full names in the Find export and IIF files, ``NNNN · Leaf`` in the Journal,
Transaction Detail and General Ledger reports. In cp1252 files the ✓ mark (not in that code page) is
written ``X``. IIF files quote a field holding a comma, as QuickBooks does."""

from __future__ import annotations

import csv
import datetime as dt
import functools
import gc
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.companygen_data import BANK_NUMBERS

if TYPE_CHECKING:
    from tests.support.companygen import Company, Txn

ZERO = Decimal(0)


def no_gc(func):
    """Run ``func`` with the cyclic collector paused: hundreds of thousands of new lists and no
    cycles, where the collector only costs time (halves the writers' time at 100k)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        collecting = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if collecting:
                gc.enable()

    return wrapper


CREDIT_NATURED = frozenset({"AP", "CCARD", "OCLIAB", "LTLIAB", "EQUITY", "INC", "EXINC"})
IIF_TYPES = {
    "Invoice": "INVOICE",
    "Payment": "PAYMENT",
    "Deposit": "DEPOSIT",
    "Bill": "BILL",
    "Bill Pmt -Check": "CHECK",
    "Check": "CHECK",
    "Credit Card Charge": "CREDIT CARD",
    "Paycheck": "CHECK",
    "General Journal": "GENERAL JOURNAL",
    "Transfer": "TRANSFER",
    "Credit Memo": "CREDIT MEMO",
    "Credit": "BILL REFUND",
    "Sales Tax Payment": "CHECK",
}


def money(v: Decimal) -> str:
    return f"{v:,.2f}"


def _cell(v: Decimal) -> str:
    return f"{v:,.2f}" if v else ""


def _dates(order: str, padded: bool = True):
    """A memoised date formatter for ``order`` ("mdy"/"dmy")."""
    cache: dict[dt.date, str] = {}
    if padded:
        pattern = "%m/%d/%Y" if order == "mdy" else "%d/%m/%Y"

        def fmt(d: dt.date) -> str:
            s = cache.get(d)
            if s is None:
                s = cache[d] = d.strftime(pattern)
            return s
    else:

        def fmt(d: dt.date) -> str:
            s = cache.get(d)
            if s is None:
                a, b = (d.month, d.day) if order == "mdy" else (d.day, d.month)
                s = cache[d] = f"{a}/{b}/{d.year}"
            return s

    return fmt


def _range(company: Company) -> str:
    txns = company.history
    first, last = txns[0].date, txns[-1].date
    return f"{first:%B} {first.day}, {first.year} through {last:%B} {last.day}, {last.year}"


def _marks(encoding: str) -> dict[str, str]:
    return {"✓": "X"} if encoding.lower().replace("-", "") == "cp1252" else {}


def _write_csv(path: Path, rows: list[list[str]], encoding: str) -> Path:
    path = Path(path)
    with path.open("w", encoding=encoding, newline="") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows(rows)
    return path


def _titles(company: Company, report: str, width: int) -> list[list[str]]:
    pad = [""] * (width - 1)
    return [[company.name, *pad], [report, *pad], [_range(company), *pad], [""] * width]


@no_gc
def write_find_csv(
    company: Company,
    path: Path,
    *,
    date_order="mdy",
    encoding="utf-8",
    split: bool = False,
    by_type: bool = False,
) -> Path:
    """Edit > Find > Advanced export: one row per split, running Balance back to 0.00. With
    ``split``, a Split column as QuickBooks fills it there: the first row names the other side
    (or ``-SPLIT-`` for 3 lines or more), each later row the first row's account. With
    ``by_type``, each day's transactions sorted by their type (the Find window sorts by the
    column clicked), so look-alike neighbours there need not be neighbours by Trans #."""
    fmt = _dates(date_order, padded=False)
    marks = _marks(encoding)
    head = ["", "Type", "Date", "Num", "Name", "Account", "Memo", "Clr", "Amount", "Balance"]
    if split:
        head.insert(6, "Split")
    if company.classed:  # the Class column a user adds to the Find window's export
        head.append("Class")
    rows = [head]
    add = rows.append
    txns = company.history
    if by_type:
        txns = sorted(txns, key=lambda t: (t.date, t.type))
    for t in txns:
        day = fmt(t.date)
        balance = ZERO
        first = t.splits[0][0]
        for i, (account, amount, memo, clr) in enumerate(t.splits):
            balance += amount
            who = t.names[i] if t.names else t.name
            row = ["", t.type, day, t.num, who, account, memo, marks.get(clr, clr),
                   _cell(amount), money(balance)]  # fmt: skip
            if split:
                other = first if i else t.splits[1][0] if len(t.splits) == 2 else "-SPLIT-"
                row.insert(6, other)
            if company.classed:
                row.append(t.class_of(i))
            add(row)
    return _write_csv(path, rows, encoding)


@no_gc
def write_journal_csv(company: Company, path: Path, *, date_order="mdy", encoding="utf-8") -> Path:
    """Reports > Journal: Debit/Credit, transaction fields on the first row, totals row per
    transaction (both columns filled) then a blank row, a final TOTAL row. No Clr column."""
    fmt = _dates(date_order)
    label = _labels(company)
    header = ["", "Trans #", "Type", "Date", "Num", "Adj", "Name", "Memo", "Account", "Debit",
              "Credit"]  # fmt: skip
    if company.classed:  # the Class column a user adds (Customize Report > Display)
        header.insert(9, "Class")
    rows = _titles(company, "Journal", len(header))
    rows.append(header)
    add = rows.append
    blank = [""] * len(header)
    grand = ZERO
    for t in company.history:
        first = True
        debit = ZERO
        for i, (account, amount, memo, _clr) in enumerate(t.splits):
            who = t.names[i] if t.names else t.name
            d = _cell(amount) if amount > 0 else ""
            c = _cell(-amount) if amount < 0 else ""
            if amount > 0:
                debit += amount
            cls = [t.class_of(i)] if company.classed else []
            if first:
                add(["", f"{t.trans_no:,}", t.type, fmt(t.date), t.num, "", who, memo,
                     label[account], *cls, d, c])  # fmt: skip
                first = False
            else:
                add(["", "", "", "", "", "", who, memo, label[account], *cls, d, c])
        pad = [""] if company.classed else []
        add(["", "", "", "", "", "", "", "", "", *pad, money(debit), money(debit)])
        add(blank)
        grand += debit
    pad = [""] if company.classed else []
    add(["TOTAL", "", "", "", "", "", "", "", "", *pad, money(grand), money(grand)])
    return _write_csv(path, rows, encoding)


def _labels(company: Company) -> dict[str, str]:
    return company.labels()


def _other_side(t: Txn, i: int, label: dict[str, str]) -> str:
    if len(t.splits) == 2:
        return label[t.splits[1 - i][0]]
    return "-SPLIT-"


@no_gc
def write_transaction_detail_csv(
    company: Company, path: Path, *, date_order="mdy", encoding="utf-8", bare_numbers=False
) -> Path:
    """Custom Transaction Detail: one full row per split, Debit/Credit and signed Amount,
    running Balance, Account Type words; a final TOTAL row. ``bare_numbers``: as Reckon's
    Spend Money and Transfer exports print it, the Account column holds the account's number
    alone (``1204``) while the Split column names accounts in full (``1204 · Leaf``), as
    QuickBooks fills it: on a transaction's first row the other side (``-SPLIT-`` for 3 lines
    or more), on each later row the first row's account."""
    from tests.support.companygen import TYPE_WORDS

    fmt = _dates(date_order)
    marks = _marks(encoding)
    label = _labels(company)
    shown = label
    if bare_numbers:
        shown = {a[0]: a[2] or label[a[0]] for a in company.accounts}
    words = {a[0]: TYPE_WORDS[a[1]] for a in company.accounts}
    header = ["", "Trans #", "Type", "Date", "Num", "Name", "Memo", "Account", "Class", "Clr",
              "Split", "Debit", "Credit", "Amount", "Balance", "Account Type"]  # fmt: skip
    if company.items:  # the columns a user adds: Item, Qty, Sales Price, tax code and amount
        header += ["Item", "Qty", "Sales Price", "Sales Tax Code", "Tax Amount"]
    rows = _titles(company, "Custom Transaction Detail Report", len(header))
    rows.append(header)
    add = rows.append
    total = ZERO
    for t in company.history:
        no = f"{t.trans_no:,}"
        day = fmt(t.date)
        balance = ZERO
        for i, (account, amount, memo, clr) in enumerate(t.splits):
            balance += amount
            if amount > 0:
                total += amount
            other = _other_side(t, i, label)
            if bare_numbers and i and len(t.splits) > 2:
                other = label[t.splits[0][0]]  # later rows name the first row's account
            row = ["", no, t.type, day, t.num, t.names[i] if t.names else t.name, memo,
                   shown[account], t.class_of(i), marks.get(clr, clr), other,
                   _cell(amount) if amount > 0 else "", _cell(-amount) if amount < 0 else "",
                   _cell(amount), money(balance), words[account]]  # fmt: skip
            if company.items:
                row += _item_cells(t.items[i] if t.items else None)
            add(row)
    add(["TOTAL", *[""] * 10, money(total), money(total), "0.00", "0.00", "",
         *([""] * 5 if company.items else [])])  # fmt: skip
    return _write_csv(path, rows, encoding)


@no_gc
def write_general_ledger_csv(
    company: Company, path: Path, *, date_order="mdy", encoding="utf-8"
) -> Path:
    """General Ledger: grouped by account with nested account header rows (one indentation
    column per level), each split once under its own account, Split = the other side or
    -SPLIT-, Debit/Credit, running Balance (natural sign), Total rows, a final TOTAL row."""
    fmt = _dates(date_order)
    marks = _marks(encoding)
    label = _labels(company)
    types = {a[0]: a[1] for a in company.accounts}
    depth = max(a[0].count(":") for a in company.accounts) + 1
    cols = ["Trans #", "Type", "Date", "Num", "Adj", "Name", "Memo", "Clr", "Split", "Debit",
            "Credit", "Balance"]  # fmt: skip
    if company.classed:  # the Class column a user adds (Customize Report > Display)
        cols.insert(8, "Class")
    width = depth + len(cols)
    rows = _titles(company, "General Ledger", width)
    rows.append([""] * depth + cols)
    start = company.history[0].date
    opening: dict[str, Decimal] = dict.fromkeys(types, ZERO)
    lines: dict[str, list[tuple[Txn, int]]] = {a: [] for a in types}
    for t in company.transactions:
        for i, s in enumerate(t.splits):
            if t.date < start:
                opening[s[0]] += s[1]
            else:
                lines[s[0]].append((t, i))

    def sign(account: str) -> int:
        return -1 if types[account] in CREDIT_NATURED else 1

    def section(account: str) -> tuple[Decimal, Decimal, Decimal] | None:
        """Rows for ``account`` and its children; (debits, credits, ending balance)."""
        level = account.count(":")
        children = [a for a in types if a.rpartition(":")[0] == account]
        if not lines[account] and not opening[account] and not children:
            return None
        head = [""] * width
        head[level] = label[account]
        at = len(rows)
        rows.append(head)
        s = sign(account)
        balance = opening[account] * s
        if opening[account]:
            head[-1] = money(balance)
        debits = credits = ZERO
        for t, i in lines[account]:
            _acc, amount, memo, clr = t.splits[i]
            balance += amount * s
            if amount > 0:
                debits += amount
            else:
                credits -= amount
            cls = [t.class_of(i)] if company.classed else []
            rows.append([""] * depth + [f"{t.trans_no:,}", t.type, fmt(t.date), t.num, "",
                         t.name_of(i), memo, marks.get(clr, clr), *cls, _other_side(t, i, label),
                         _cell(amount) if amount > 0 else "",
                         _cell(-amount) if amount < 0 else "", money(balance)])  # fmt: skip
        for child in children:
            sub = section(child)
            if sub:
                debits, credits, balance = debits + sub[0], credits + sub[1], balance + sub[2]
        if len(rows) == at + 1 and not opening[account]:
            del rows[at]  # a parent with nothing under it
            return None
        total = [""] * width
        total[level] = f"Total {label[account]}"
        total[-3:] = [money(debits), money(credits), money(balance)]
        rows.append(total)
        return debits, credits, balance

    debit_sum = credit_sum = ZERO
    for account in types:
        if ":" not in account:
            sub = section(account)
            if sub:
                debit_sum, credit_sum = debit_sum + sub[0], credit_sum + sub[1]
    rows.append(["TOTAL", *[""] * (width - 4), money(debit_sum), money(credit_sum), ""])
    return _write_csv(path, rows, encoding)


def _number(v: Decimal | None) -> str:
    return "" if v is None else f"{v:,f}"


def _item_cells(line) -> list[str]:
    """Item, Qty, Sales Price, Sales Tax Code, Tax Amount of a report row."""
    if line is None:
        return ["", "", "", "", ""]
    tax = "" if line.tax_amount is None else money(line.tax_amount)
    return [line.item, _number(line.quantity), _number(line.price), line.code, tax]


def _iif_item(line, amount: Decimal) -> list[str]:
    """QNTY (negative on an invoice line, as QuickBooks writes it), PRICE, INVITEM, TAXABLE,
    EXTRA, TAXCODE, TAXAMOUNT of an SPL row."""
    if line is None:
        return [""] * 7
    qty = "" if line.quantity is None else _number(-line.quantity if amount < 0 else line.quantity)
    taxable = "" if line.taxable is None else "Y" if line.taxable else "N"
    tax = "" if line.tax_amount is None else money(line.tax_amount)
    extra = "AUTOSTAX" if line.auto_tax else ""
    return [qty, _number(line.price), line.item, taxable, extra, line.code, tax]


def _iif_field(value: str) -> str:
    if any(ch in value for ch in ',"\t'):
        return '"' + value.replace('"', '""') + '"'
    return value


def _iif(path: Path, rows: list[list[str]], encoding: str) -> Path:
    path = Path(path)
    out = []
    for row in rows:
        line = "\t".join(row)
        if "," in line or '"' in line:  # rare: quote only the fields that need it
            line = "\t".join(map(_iif_field, row))
        out.append(line)
    text = "\r\n".join(out) + "\r\n"
    path.write_bytes(text.encode(encoding))
    return path


@no_gc
def write_transactions_iif(
    company: Company, path: Path, *, date_order="mdy", encoding="utf-8"
) -> Path:
    """An IIF TRNS/SPL/ENDTRNS file of the history (CLEAR=Y only for reconciled ✓ splits)."""
    fmt = _dates(date_order, padded=False)
    cols = ["TRNSTYPE", "DATE", "ACCNT", "NAME", "CLASS", "AMOUNT", "DOCNUM", "MEMO", "CLEAR"]
    more = ["QNTY", "PRICE", "INVITEM", "TAXABLE", "EXTRA", "TAXCODE", "TAXAMOUNT"]
    if not company.items:
        more = []
    rows = [["!TRNS", "TRNSID", *cols], ["!SPL", "SPLID", *cols, *more], ["!ENDTRNS"]]
    add = rows.append
    for t in company.history:
        kind = IIF_TYPES[t.type]
        day = fmt(t.date)
        for i, (account, amount, memo, clr) in enumerate(t.splits):
            row = ["SPL" if i else "TRNS", "" if i else str(t.trans_no), kind, day, account,
                   t.names[i] if t.names else t.name, t.class_of(i),
                   money(amount), t.num, memo, "Y" if clr == "✓" else "N"]  # fmt: skip
            if more and i:
                row += _iif_item(t.items[i] if t.items else None, amount)
            add(row)
        add(["ENDTRNS"])
    return _iif(path, rows, encoding)


ACCNT = (
    "NAME REFNUM TIMESTAMP ACCNTTYPE OBAMOUNT DESC ACCNUM SCD BANKNUM EXTRA HIDDEN DELCOUNT USEID"
)
CUST = ("NAME REFNUM TIMESTAMP BADDR1 BADDR2 BADDR3 BADDR4 BADDR5 SADDR1 SADDR2 SADDR3 SADDR4 "
        "SADDR5 PHONE1 PHONE2 FAXNUM EMAIL NOTE CONT1 CONT2 CTYPE TERMS TAXABLE SALESTAXCODE LIMIT "
        "RESALENUM REP TAXITEM NOTEPAD SALUTATION COMPANYNAME FIRSTNAME MIDINIT LASTNAME JOBDESC "
        " JOBTYPE JOBSTATUS JOBSTART JOBPROJEND JOBEND HIDDEN DELCOUNT PRICELEVEL")  # fmt: skip
VEND = ("NAME REFNUM TIMESTAMP PRINTAS ADDR1 ADDR2 ADDR3 ADDR4 ADDR5 VTYPE CONT1 CONT2 PHONE1 "
        "PHONE2 FAXNUM EMAIL NOTE TAXID LIMIT TERMS NOTEPAD SALUTATION COMPANYNAME FIRSTNAME "
        "MIDINIT LASTNAME 1099 HIDDEN DELCOUNT")  # fmt: skip
EMP = ("NAME REFNUM TIMESTAMP INIT ADDR1 ADDR2 ADDR3 ADDR4 ADDR5 CITY STATE ZIP SSNO PHONE1 "
       "PHONE2 EMAIL NOTE NOTEPAD FIRSTNAME MIDINIT LASTNAME SALUTATION "
       "HIDDEN DELCOUNT")  # fmt: skip
OTHERNAME = ("NAME REFNUM TIMESTAMP BADDR1 BADDR2 BADDR3 BADDR4 BADDR5 PHONE1 PHONE2 FAXNUM "
             "EMAIL NOTE CONT1 CONT2 NOTEPAD SALUTATION COMPANYNAME FIRSTNAME MIDINIT LASTNAME "
             "HIDDEN DELCOUNT")  # fmt: skip
TERMS = ("NAME REFNUM TIMESTAMP DISCPER STDDUEDAYS STDDISCDAYS DAYOFMONTHDUE DISCDAYOFMONTH "
         "DATEMINDAYS TERMSTYPE HIDDEN")  # fmt: skip
CLASS = "NAME REFNUM TIMESTAMP HIDDEN DELCOUNT"


def _section(rows: list[list[str]], key: str, header: str, records: list[dict[str, str]]) -> None:
    names = header.split()
    rows.append([f"!{key}", *names])
    for rec in records:
        rows.append([key, *(rec.get(n, "") for n in names)])


def write_trial_balance_csv(
    company: Company, path: Path, *, encoding: str = "utf-8", as_of: dt.date | None = None
) -> Path:
    """Reports > Accountant & Taxes > Trial Balance as QuickBooks exports it: a leading unnamed
    column holding the labels (``6900 · Utilities:6910 · Gas``), title rows with "As of <export
    date>" (or ``as_of``), Debit/Credit columns, zero rows left out, a TOTAL row. Figures:
    ``trial_balance(as_of)``."""
    numbers = {a[0]: a[2] for a in company.accounts}

    def label(full: str) -> str:
        levels = full.split(":")
        paths = (":".join(levels[: i + 1]) for i in range(len(levels)))
        return ":".join(
            f"{numbers[p]} · {leaf}" if numbers.get(p) else leaf
            for p, leaf in zip(paths, levels, strict=True)
        )

    day = as_of or company.export_date
    rows = [
        ["", company.name, "", ""],
        ["", "Trial Balance", "", ""],
        ["", f"As of {day:%B} {day.day}, {day.year}", "", ""],
        ["", "", "Debit", "Credit"],
    ]
    debits = credits = ZERO
    for name, value in company.trial_balance(as_of).items():
        if value:
            rows.append(["", label(name), money(value) if value > 0 else "",
                         money(-value) if value < 0 else ""])  # fmt: skip
            debits += max(value, ZERO)
            credits += max(-value, ZERO)
    rows.append(["TOTAL", "", money(debits), money(credits)])
    return _write_csv(path, rows, encoding)


@no_gc
def write_lists_iif(company: Company, path: Path) -> Path:
    """A "Lists to IIF" export: HDR, ACCNT (OBAMOUNT = trial balance; the bank accounts with a
    fake BANKNUM), CUST, VEND, EMP (with a fake SSNO), OTHERNAME, TERMS, CLASS: neither fake
    number may ever reach a book, a page, a log or a stored copy."""
    stamp = "1546300800"
    rows = [
        ["!HDR", "PROD", "VER", "REL", "IIFVER", "DATE", "TIME", "ACCNTNT", "ACCNTNTSPLITTIME"],
        ["HDR", "QuickBooks Pro", "Version 28.0D", "Release R9P", "1",
         company.export_date.isoformat(), stamp, "N", "0"],
    ]  # fmt: skip
    if not company.hdr:
        del rows[:]
    tb = company.trial_balance()
    ref = iter(range(1, 10**6))

    home = company.home_currency  # multicurrency: ACCNT and CUST CURRENCY, VEND NAMECURRENCY

    def rec(name: str, **kw: str) -> dict[str, str]:
        return {"NAME": name, "REFNUM": str(next(ref)), "TIMESTAMP": stamp, "HIDDEN": "N",
                "DELCOUNT": "0", **kw}  # fmt: skip

    def cur(kind: str, name: str) -> dict[str, str]:
        word = company.currencies.get((kind, name), home)
        return {"NAMECURRENCY" if kind == "vendor" else "CURRENCY": word} if home else {}

    _section(rows, "ACCNT", ACCNT + " CURRENCY" * bool(home), [
        rec(n, ACCNTTYPE=t, OBAMOUNT=money(tb[n]), ACCNUM=num, SCD="0", EXTRA=extra,
            HIDDEN="Y" if n in company.hidden else "N", USEID="N", BANKNUM=BANK_NUMBERS.get(n, ""),
            **cur("account", n))
        for n, t, num, extra in company.accounts
    ])  # fmt: skip
    terms = [t[0] for t in company.terms]
    customers = []
    for i, name in enumerate(company.customers):
        top = name.split(":")[0]
        last, _, first = top.partition(", ")
        customers.append(rec(name, BADDR1=top, BADDR2=f"{100 + i} Oak St",
                             BADDR3="Bayshore, CA 94326", PHONE1=f"415-555-{1000 + i}",
                             TERMS=terms[i % len(terms)], TAXABLE="Y", FIRSTNAME=first,
                             LASTNAME=last if first else "",
                             JOBDESC="Job" if ":" in name else "",
                             **cur("customer", top)))  # fmt: skip
        if company.items:
            from tests.support.companygen_tax import customer_fields

            customers[-1].update(customer_fields(name))
    _section(rows, "CUST", CUST + " CURRENCY" * bool(home), customers)
    _section(rows, "VEND", VEND + " NAMECURRENCY" * bool(home), [
        rec(v, PRINTAS=v, ADDR1=v, ADDR2=f"{20 + i} Main St", ADDR3="Middlefield, CA 94482",
            TERMS=terms[i % len(terms)], TAXID=f"12-34567{i:02d}" if i % 3 == 0 else "",
            **{"1099": "Y" if i % 4 == 0 else "N"}, **cur("vendor", v))
        for i, v in enumerate(company.vendors)
    ])  # fmt: skip
    _section(rows, "EMP", EMP, [
        rec(n, ADDR1=n, ADDR2="331 Poplar Rd", CITY="Bayshore", STATE="CA", ZIP="94326",
            SSNO=ssn, FIRSTNAME=n.split()[0], LASTNAME=n.split()[-1])
        for n, ssn in company.employees
    ])  # fmt: skip
    _section(rows, "OTHERNAME", OTHERNAME, [rec(n) for n in company.other_names])
    _section(rows, "TERMS", TERMS, [
        rec(n, DISCPER=disc, STDDUEDAYS=str(due), STDDISCDAYS=str(dd), DAYOFMONTHDUE="31",
            DISCDAYOFMONTH="10", DATEMINDAYS="5", TERMSTYPE="0")
        for n, disc, due, dd in company.terms
    ])  # fmt: skip
    _section(rows, "CLASS", CLASS, [rec(n) for n in company.classes])
    if company.items:
        from tests.support.companygen_tax import lists_sections

        lists_sections(company, rows, rec)
    if company.budgets:
        from tests.support.companygen_years import bud_section

        rows += bud_section(company)
    return _iif(path, rows, "utf-8")
