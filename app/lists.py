"""The names of QuickBooks' lists in a ledger, as the book's record and the update key them
(docs/UPDATE.md): ``list_names`` per list, ``owner_keys`` as the book's owners are found."""

from __future__ import annotations

from app.model import Ledger

LISTS = ("customers", "jobs", "vendors", "employees", "terms")


def list_names(ledger: Ledger) -> dict[str, tuple[str, ...]]:
    """The names of ``ledger``'s lists (``LISTS``): a job as "Customer:Job"."""
    return {
        "customers": tuple(c.name for c in ledger.customers),
        "jobs": tuple(f"{c.name}:{j.name}" for c in ledger.customers for j in c.jobs),
        "vendors": tuple(v.name for v in ledger.vendors),
        "employees": tuple(e.name for e in ledger.employees),
        "terms": tuple(t.name for t in ledger.terms),
    }


def owner_keys(ledger: Ledger) -> list[tuple[str, str]]:
    """The exports' customers, jobs, vendors and employees keyed as an update finds the book's
    (``gnc.owner_names.owners``, ``gnc.existing.read_state``): ("customer", "Name"),
    ("customer", "Name:Job"), ("vendor", "Name"), ("employee", "Name")."""
    owners = [("customer", c.name) for c in ledger.customers]
    owners += [("customer", f"{c.name}:{j.name}") for c in ledger.customers for j in c.jobs]
    owners += [("vendor", v.name) for v in ledger.vendors]
    return owners + [("employee", e.name) for e in ledger.employees]
