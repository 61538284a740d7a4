"""The business lists: bill terms, customers (with their jobs), vendors and employees, written
through the bindings' business wrappers and read back as ``BookTerm`` / ``BookOwner``
(piecash's ``business/``). What GnuCash has no field for goes to ``Writer.not_written``."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from app.book import BookOwner, BookTerm
from app.business import Address, Job
from app.errors import BookWriteError
from app.gnc.bindings import (
    C,
    GncAddress,
    GncBillTerm,
    GncCustomer,
    GncEmployee,
    GncJob,
    GncNumeric,
    GncVendor,
    Query,
)
from app.gnc.context import Writer
from app.gnc.engine import Engine, LayoutError, bill_terms
from app.gnc.numeric import at_unit, exact, to_decimal
from app.gnc.owner_names import Names
from app.model import Ledger
from app.words import quoted

log = logging.getLogger(__name__)


def write(w: Writer, ledger: Ledger) -> dict[str, int]:
    """Terms first (owners point at them), then customers and jobs, vendors, employees; the
    counts for ``WriteStats``."""
    _write_terms(w, ledger)
    jobs = _write_customers(w, ledger)
    _write_vendors(w, ledger)
    _write_employees(w, ledger)
    return {
        "terms": len(w.terms),
        "customers": len(ledger.customers),
        "jobs": jobs,
        "vendors": len(ledger.vendors),
        "employees": len(ledger.employees),
    }


def _write_terms(w: Writer, ledger: Ledger) -> None:
    for term in ledger.terms:
        if term.kind not in ("days", "proximo"):
            raise BookWriteError(
                f"{term.source}: term {quoted(term.name)} kind {quoted(term.kind)}"
            )
        bt = GncBillTerm(w.book)
        bt.BeginEdit()
        bt.SetName(term.name)
        bt.SetDescription(term.description or term.name)
        proximo = term.kind == "proximo"
        bt.SetType(C.GNC_TERM_TYPE_PROXIMO if proximo else C.GNC_TERM_TYPE_DAYS)
        bt.SetDueDays(term.due_days)
        bt.SetDiscountDays(term.discount_days)
        bt.SetDiscount(GncNumeric(*exact(term.discount)))
        if proximo:
            bt.SetCutoff(term.cutoff)
        bt.CommitEdit()
        if term.hidden:
            w.not_written.append(f"term {term.name}: hidden flag (no such field)")
        w.terms[term.name] = bt


def _term(w: Writer, name: str, where: object) -> GncBillTerm | None:
    if name and name not in w.terms:
        raise BookWriteError(f"{where}: terms {quoted(name)} are not in the terms list")
    return w.terms.get(name)


def _next_id(w: Writer, book_i: int, counter: str) -> str:
    """The book counter's next id; numbered here ("000001"...) on an engine without the
    counter function (GnuCash's own next id may then repeat one)."""
    got = w.engine.next_id(book_i, counter)
    if got is None:
        w.own_ids[counter] += 1
        got = f"{w.own_ids[counter]:06d}"
    return got


def _write_customers(w: Writer, ledger: Ledger) -> int:
    """The customers and their jobs; the number of jobs."""
    book, book_i = w.book, w.book.get_instance()
    jobs = 0
    for cust in ledger.customers:
        c = GncCustomer(book, C.gncCustomerNextID(book_i), w.currency, cust.name)
        c.BeginEdit()
        _address(c.GetAddr(), cust.billing)
        _address(c.GetShipAddr(), cust.shipping)
        taxable = {None: "", True: "Taxable: yes", False: "Taxable: no"}[cust.taxable]
        c.SetNotes(_join(cust.notes, taxable))
        c.SetActive(cust.active)
        if bt := _term(w, cust.terms, cust.source):
            c.SetTerms(bt)
        if cust.credit_limit is not None:
            c.SetCredit(GncNumeric(*at_unit(cust.credit_limit, w.places, cust.source)))
        c.CommitEdit()
        w.owners["customer", cust.name] = c
        for job in cust.jobs:
            _write_job(w, c, cust.name, job)
            jobs += 1
    return jobs


def write_jobs(w: Writer, ledger: Ledger, wanted: set[str]) -> int:
    """The jobs named in ``wanted`` (``Customer:Job``) of customers the book already has
    (``w.owners``) that it does not have yet: an update's new jobs; how many were written."""
    done = 0
    for cust in ledger.customers:
        owner = w.owners.get(("customer", cust.name))
        for job in cust.jobs:
            full = f"{cust.name}:{job.name}"
            if owner is not None and full in wanted and ("customer", full) not in w.owners:
                _write_job(w, owner, cust.name, job)
                done += 1
    return done


def _write_job(w: Writer, customer: object, name: str, job: Job) -> None:
    j = GncJob(w.book, _next_id(w, int(w.book.get_instance()), "gncJob"), customer, job.name)
    j.BeginEdit()
    j.SetReference(job.description)
    j.SetActive(job.active)
    j.CommitEdit()
    w.owners["customer", f"{name}:{job.name}"] = j
    if job.notes:
        w.not_written.append(f"job {name}:{job.name}: notes (no such field)")


def _write_vendors(w: Writer, ledger: Ledger) -> None:
    book, book_i = w.book, w.book.get_instance()
    for vend in ledger.vendors:
        v = GncVendor(book, C.gncVendorNextID(book_i), w.currency, vend.name)
        v.BeginEdit()
        _address(v.GetAddr(), vend.address)
        v.SetNotes(
            _join(
                vend.notes,
                f"Tax ID: {vend.tax_id}" if vend.tax_id else "",
                "Eligible for 1099: yes" if vend.eligible_1099 else "",
            )
        )
        v.SetActive(vend.active)
        if bt := _term(w, vend.terms, vend.source):
            v.SetTerms(bt)
        v.CommitEdit()
        w.owners["vendor", vend.name] = v


def _write_employees(w: Writer, ledger: Ledger) -> None:
    book_i = w.book.get_instance()
    for emp in ledger.employees:
        e_id = _next_id(w, int(book_i), "gncEmployee")
        e = GncEmployee(w.book, e_id, w.currency, emp.name)
        e.BeginEdit()
        _address(e.GetAddr(), emp.address, name=emp.name)  # the address name IS the name
        e.SetActive(emp.active)
        e.CommitEdit()
        if emp.notes:
            w.not_written.append(f"employee {emp.name}: notes (no such field)")


def _address(addr: GncAddress, a: Address, name: str | None = None) -> None:
    lines = list(a.lines[:3])
    if len(a.lines) > 3:  # GnuCash has four lines: keep the rest on the last one
        lines.append(", ".join(a.lines[3:]))
    addr.SetName(a.name if name is None else name)
    for setter, text in zip(
        (addr.SetAddr1, addr.SetAddr2, addr.SetAddr3, addr.SetAddr4), lines, strict=False
    ):
        setter(text)
    addr.SetPhone(a.phone)
    addr.SetFax(a.fax)
    addr.SetEmail(a.email)


def _join(*parts: str) -> str:
    return "\n".join(p for p in parts if p)


# ---------------------------------------------------------------- reading back


def read(engine: Engine, book) -> dict[str, Any]:
    """The book's customers, vendors, employees and terms, as ``BookSnapshot`` fields: each
    customer, vendor and job by its name as QuickBooks has it (``owner_names.Names``)."""
    names = Names(engine, book)
    return {
        "customers": _read_owners(names, book, "gncCustomer", GncCustomer),
        "vendors": _read_owners(names, book, "gncVendor", GncVendor),
        "employees": _read_owners(names, book, "gncEmployee", GncEmployee),
        "terms": _read_terms(engine, book),
    }


def _address_tuple(addr: GncAddress) -> tuple[str, ...]:
    """(name, addr1..4, phone, fax, email), or () when all are empty."""
    fields = tuple(
        (getter() or "")
        for getter in (
            addr.GetName,
            addr.GetAddr1,
            addr.GetAddr2,
            addr.GetAddr3,
            addr.GetAddr4,
            addr.GetPhone,
            addr.GetFax,
            addr.GetEmail,
        )
    )
    return fields if any(fields) else ()


def _read_owners(names: Names, book, kind: str, cls) -> tuple[BookOwner, ...]:
    query = Query()
    query.search_for(kind)
    query.set_book(book)
    owners = []
    for inst in query.run():
        o = cls(instance=inst)
        terms = o.GetTerms() if kind != "gncEmployee" else None
        named = [
            (names.of(int(j), C.gncJobGetName(j) or ""), C.gncJobGetName(j) or "")
            for j in (C.gncCustomerGetJoblist(inst, True) if kind == "gncCustomer" else ())
        ]
        credit = o.GetCredit() if kind == "gncCustomer" else None
        now = o.GetName() or ""
        name = names.of(int(inst), now)
        owners.append(
            BookOwner(
                id=o.GetID(),
                name=name,
                here=now if name != now else "",
                jobs_here=tuple(sorted((a, b) for a, b in named if a != b)),
                active=bool(o.GetActive()),
                notes=(o.GetNotes() or "") if kind != "gncEmployee" else "",
                terms=(terms.GetName() or "") if terms else "",
                address=_address_tuple(o.GetAddr()),
                ship_address=_address_tuple(o.GetShipAddr()) if kind == "gncCustomer" else (),
                credit_limit=to_decimal(credit) if credit is not None else None,
                jobs=tuple(sorted(a for a, _ in named)),
            )
        )
    query.destroy()
    return tuple(sorted(owners, key=lambda o: o.id))


def _read_terms(engine: Engine, book) -> tuple[BookTerm, ...]:
    try:
        rows = bill_terms(engine, int(book.get_instance()))
    except LayoutError as exc:  # the bindings' own path only reaches terms in use
        log.warning("bill terms read through customers and vendors only: %s", exc)
        rows = _terms_in_use(book)
    out = []
    for name, kind, due, disc_days, num, den, cutoff in rows:
        proximo = kind == C.GNC_TERM_TYPE_PROXIMO
        out.append(
            BookTerm(
                name=name,
                kind="proximo" if proximo else "days",
                due_days=due,
                discount_days=disc_days,
                discount=Decimal(num) / Decimal(den) if den else Decimal(0),
                cutoff=cutoff,
            )
        )
    return tuple(sorted(out, key=lambda t: t.name))


def _terms_in_use(book) -> list[tuple[str, int, int, int, int, int, int]]:
    """``bill_terms`` rows for the terms that customers and vendors refer to (typed objects
    from the bindings; a term nobody uses is not reachable this way)."""
    seen: dict[str, tuple[str, int, int, int, int, int, int]] = {}
    for kind, cls in (("gncCustomer", GncCustomer), ("gncVendor", GncVendor)):
        query = Query()
        query.search_for(kind)
        query.set_book(book)
        for inst in query.run():
            t = cls(instance=inst).GetTerms()
            if t is not None and t.GetName() not in seen:
                d = t.GetDiscount()
                seen[t.GetName()] = (
                    t.GetName() or "",
                    t.GetType(),
                    t.GetDueDays(),
                    t.GetDiscountDays(),
                    d.num(),
                    d.denom(),
                    t.GetCutoff(),
                )
        query.destroy()
    return list(seen.values())
