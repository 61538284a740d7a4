"""The wizard's sample company ("Use a sample company" on the home page, issue 27, item 8): a
small company made by the project's own generator, written once into ``app/sample/`` (``make
sample``: ``python -m tests.support.sample app/sample``) so the app never imports the tests.
Deterministic: tests/test_web_sample.py writes it again and compares every byte."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.companygen import Company, make_company

TRANSACTIONS = 150
SEED = 27
STATEMENT = "Checking"  # the account whose last reconciliation the sample carries


def sample_company() -> Company:
    return make_company(TRANSACTIONS, seed=SEED, documents=True)


def write_sample(folder: Path) -> list[Path]:
    """The exports a bookkeeper would make, in the order the wizard adds them (their names
    must be those of app/sample.py's FILES)."""
    company = sample_company()
    folder.mkdir(parents=True, exist_ok=True)
    return [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_journal_csv(folder / "journal.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
        company.write_reconciliation_csv(
            folder / "reconciliation.csv", [company.statement(STATEMENT)]
        ),
    ]


if __name__ == "__main__":
    for path in write_sample(Path(sys.argv[1] if len(sys.argv) > 1 else "app/sample")):
        print(path)
