"""The wizard's sample company ("Use a sample company" on the home page, issue 27, item 8): a
small company made by the project's own generator, written once into ``app/sample/`` (``make
sample``: ``python -m tests.support.sample app/sample``) so the app never imports the tests.
Deterministic: tests/test_web_sample.py writes it again and compares every byte.

Its bank accounts never go overdrawn: a bookkeeper trying the tool first reads Checking with a
credit balance as an error. The generator's history draws more out of Checking than it puts in,
so the sample alone opens its bank accounts with enough money (``in_the_black``); every other
generated company stays as the generator makes it."""

from __future__ import annotations

import sys
from dataclasses import replace
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path

from tests.support.companygen import Company, make_company

TRANSACTIONS = 150
SEED = 27
STATEMENT = "Checking"  # the account whose last reconciliation the sample carries
OPENING = "Opening balances"  # the generator's first transaction (its memo)
LINE = "Opening balance"  # the memo of each of its lines
EQUITY = "Opening Balance Equity"
CUSHION = Decimal(5000)  # about the lowest a bank account's balance goes
ROUND = Decimal(1000)  # an opening balance raised by whole thousands
CENT = Decimal("0.01")


def sample_company() -> Company:
    return in_the_black(make_company(TRANSACTIONS, seed=SEED, documents=True))


def lowest_balances(company: Company) -> dict[str, Decimal]:
    """Each bank account's lowest balance after each of its transactions, in the order of its
    register (by date, then as entered); 0.00 for one without any."""
    banks = [a[0] for a in company.accounts if a[1] == "BANK"]
    running = dict.fromkeys(banks, Decimal("0.00"))
    lowest: dict[str, Decimal] = {}
    for t in sorted(company.transactions, key=lambda t: (t.date, t.trans_no)):
        for account, value, *_ in t.splits:
            if account in running:
                running[account] += value
                lowest[account] = min(lowest.get(account, running[account]), running[account])
    return {a: lowest.get(a, Decimal("0.00")) for a in banks}


def in_the_black(company: Company) -> Company:
    """``company`` with each bank account that would go overdrawn opened with more money
    (against Opening Balance Equity, in the opening balances), by whole thousands leaving at
    least ``CUSHION`` at its lowest: a debit balance after every transaction, on the export's
    day too."""
    raise_by = {
        account: (-((low - CUSHION) / ROUND).to_integral_value(ROUND_FLOOR) * ROUND).quantize(CENT)
        for account, low in lowest_balances(company).items()
        if low < 0
    }
    if not raise_by:
        return company
    txns = list(company.transactions)
    i = next(i for i, t in enumerate(txns) if t.memo == OPENING)
    splits = list(txns[i].splits)
    for account, more in raise_by.items():
        at = next((j for j, s in enumerate(splits) if s[0] == account), None)
        if at is None:
            splits.insert(-1, (account, more, LINE, "✓"))
        else:
            name, value, memo, clr = splits[at]
            splits[at] = (name, value + more, memo, clr)
    at = next(j for j, s in enumerate(splits) if s[0] == EQUITY)
    name, value, memo, clr = splits[at]
    splits[at] = (name, value - sum(raise_by.values(), Decimal(0)), memo, clr)
    txns[i] = replace(txns[i], splits=splits)
    return replace(company, transactions=txns)


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


def tree_shown(company: Company, account: str, value: Decimal) -> str:
    """A debit-positive figure of ``account`` as GnuCash's account tree shows it (the Preview's
    chart and the Map step's tree): a credit-natured account's usual balance positive."""
    from app.model import money
    from tests.support.companygen_write import CREDIT_NATURED

    return money(-value if company.account_type(account) in CREDIT_NATURED else value)
