"""Plain English: counts with their noun in the right number, articles, and what an import's
phase says."""

from __future__ import annotations

import pytest

from app.words import article, differ, plural, progress


@pytest.mark.parametrize(
    ("n", "word", "said"),
    [
        (1, "transaction", "1 transaction"),
        (0, "transaction", "0 transactions"),
        (2000, "transaction", "2,000 transactions"),
        (2, "entry", "2 entries"),
        (3, "tax", "3 taxes"),
        (2, "file with problems", "2 files with problems"),
        (2, "day", "2 days"),
    ],
)
def test_plural(n, word, said):
    assert plural(n, word) == said


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("asset account", "an asset account"),
        ("bank account", "a bank account"),
        ("expense account", "an expense account"),
        ("income account", "an income account"),
        ("A/R account", "an A/R account"),
        ("A/P account", "an A/P account"),
        ("Other Current Asset account", "an Other Current Asset account"),
        ("Liability account", "a Liability account"),
        ("unit", "a unit"),
        ("Equity account", "an Equity account"),
        ("Credit Card account", "a Credit Card account"),
        ("IIF file", "an IIF file"),
        ("CSV file", "a CSV file"),
        ("XML file", "an XML file"),
    ],
)
def test_article(word, said):
    assert article(word) == said


def test_progress_names_what_it_does_and_counts_what_it_counts():
    checking = progress("checking", 0, 1)
    assert checking == "Checking the accounts and transactions before writing them"
    assert progress("transactions", 2000, 3000) == (
        "Writing the transactions (transactions written: 2,000 of 3,000)"
    )
    assert progress("saving", 1, 1) == "Saving the book"
    assert progress("documents", 0, 1) == "Writing the invoices, bills and payments"
    assert progress("reading files", 0, 0) == "Reading your QuickBooks files"
    assert progress("something new", 3, 9) == "Something new"
    assert "Checking:" not in checking


def test_differ_agrees_the_verb_with_the_count():
    assert differ(1, "account") == "1 account differs"
    assert differ(2_000, "account") == "2,000 accounts differ"
    assert differ(1, "balance", count=False) == "balance differs"
    assert differ(3, "balance", count=False) == "balances differ"
    assert differ(2, "bill term", "bill terms") == "2 bill terms differ"
