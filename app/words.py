"""How the wizard and the command line say things in plain English: a count with its noun in the
right number (``plural``) and with its verb ("2 accounts differ": ``differ``), a noun with its
article (``article``) and what an import is doing (``progress``). No Flask here:
app.web.filters registers these as template filters."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

IRREGULAR = {
    "is": "are",
    "this": "these",
    "was": "were",
    "entry": "entries",
    "company": "companies",
}


# GnuCash's account types as its own account dialog names them (``AccountType`` values)
GNUCASH_TYPES: dict[str, str] = {
    "BANK": "Bank",
    "CASH": "Cash",
    "ASSET": "Asset",
    "RECEIVABLE": "A/Receivable",
    "CREDIT": "Credit Card",
    "LIABILITY": "Liability",
    "PAYABLE": "A/Payable",
    "EQUITY": "Equity",
    "INCOME": "Income",
    "EXPENSE": "Expense",
}

# The control accounts as a bookkeeper says them, by ``AccountType`` value, and the owners whose
# open documents each holds (one word for the proof, the aging, the balances-only openings)
CONTROLS: dict[str, str] = {"RECEIVABLE": "A/R", "PAYABLE": "A/P"}
CONTROL_OF: dict[str, str] = {"customer": "RECEIVABLE", "vendor": "PAYABLE"}


def plural(n: int, word: str, many: str = "") -> str:
    """``n`` things, with thousands separators and the noun in the right number: "1 transaction",
    "2,000 transactions", "0 problems"; ``many`` when the plural is not the word plus "s"."""
    return f"{n:,} {word if n == 1 else (many or plural_of(word))}"


def sales_documents(n: int, credits: int) -> str:
    """ "2 invoices", "1 credit memo", "3 invoices and credit memos": ``n`` customer documents
    of which ``credits`` are credit memos (never all called invoices)."""
    if not credits:
        return plural(n, "invoice")
    return plural(n, "credit memo") if credits == n else f"{n:,} invoices and credit memos"


def differ(n: int, word: str, many: str = "", *, count: bool = True) -> str:
    """The count, its noun and the verb agreeing: "1 account differs", "2 accounts differ";
    ``count=False`` leaves the number out ("balance differs", "balances differ")."""
    said = plural(n, word, many) if count else (word if n == 1 else many or plural_of(word))
    return f"{said} {'differs' if n == 1 else 'differ'}"


def plural_of(word: str) -> str:
    """The plural of a noun the wizard counts: "account" → "accounts", "entry" → "entries",
    "tax" → "taxes"; a phrase takes it on its first word ("file with problems")."""
    first, sep, rest = word.partition(" ")
    if first in IRREGULAR:
        many = IRREGULAR[first]
    elif first.endswith(("s", "x", "ch", "sh")):
        many = first + "es"
    elif first.endswith("y") and first[-2:-1] not in "aeiou":
        many = first[:-1] + "ies"
    else:
        many = first + "s"
    return many + sep + rest


def one_of(values: Iterable[str]) -> str:
    """ "xml, sqlite or postgres": the values a setting takes, as a message says them."""
    *most, last = [str(v) for v in values]
    return f"{', '.join(most)} or {last}" if most else last


def article(word: str) -> str:
    """The word with "a" or "an" before it: "an asset account", "a bank account", "an A/R
    account" (said "ay-are"), "a U.S. bank" (a capital letter read out by name takes "an" only for
    the letters whose name starts with a vowel sound)."""
    text = str(word).strip()
    if not text:
        return text
    head = text.split(" ", 1)[0]
    initialism = len(head) > 1 and head.replace("/", "").isupper()
    if initialism or (len(head) == 1 and head.isalpha()):
        an = head[0].upper() in "AEFHILMNORSX"
    else:
        an = head[0].lower() in "aeiou" and not head.lower().startswith(
            ("uni", "use", "usu", "one")
        )
    return f"{'an' if an else 'a'} {text}"


# What the import is doing in each phase (app.jobs.worker and app.gnc report these), and what its
# count counts: (the words, the counted thing and what is done to it), "" when it has no count.
PHASES: dict[str, tuple[str, str]] = {
    "starting": ("Starting the import", ""),
    "reading files": ("Reading your QuickBooks files", ""),  # then each file: ``reading``
    "checking": ("Checking the accounts and transactions before writing them", ""),
    "accounts": ("Writing the accounts", "accounts written"),
    "transactions": ("Writing the transactions", "transactions written"),
    "documents": ("Writing the invoices, bills and payments", ""),
    "saving": ("Saving the book", ""),
    "loading": ("Opening the written book again to check it", "transactions opened"),
    "reading": ("Reading the balances back from the book", "accounts read"),
    "verifying": ("Comparing every balance with QuickBooks", ""),
    "done": ("Finished", ""),
}


PHASE_NAMES = {  # a phase in two words, for the list under the import's bar (after the upload's)
    "reading files": "read the files for the book",
    "checking": "check before writing",
    "accounts": "accounts",
    "transactions": "transactions",
    "documents": "invoices and bills",
    "saving": "save",
    "loading": "reopen the book",
    "reading": "read it back",
    "verifying": "compare with QuickBooks",
}


def time_left(seconds: float | None) -> str:
    """ "about 40 s left", "about 3 min left"; "" when not known yet."""
    if seconds is None:
        return ""
    if seconds < 10:  # (a phase slower than its share sat on "about 5 s" for 15 s: hunt 28)
        return "a few seconds left"
    if seconds < 60:
        return f"about {round(seconds / 5) * 5} s left"
    return f"about {round(seconds / 60):,} min left"


def percent_left(percent: int, seconds: float | None) -> str:
    """Under a bar (the import's, the upload's): "62 % · about 40 s left", "3 %" while the
    time left is not known."""
    left = time_left(seconds)
    return f"{percent} %" + (f" · {left}" if left else "")


UPLOAD_PHASES = {  # the upload's phases (app.pages.upload), as its bar says them
    "sending": "Sending the files",
    "reading": "Reading the files",
    "checking": "Checking what the files hold",
    "preview": "Preparing the preview",
    "done": "Showing the files",
}
UPLOAD_PHASE_NAMES = {  # in a word or two, for the list under the upload's bar
    "sending": "send",
    "reading": "read",
    "checking": "check",
    "preview": "preview",
}


def reading(name: str, rows: int, n: int, of: int) -> str:
    """ "Reading journal.csv — 100,214 rows read (file 2 of 2)"."""
    return f"Reading {name} — {plural(rows, 'row')} read (file {n} of {of})"


def progress(phase: str, done: int = 0, total: int = 0) -> str:
    """ "Writing the transactions (transactions written: 2,000 of 3,000)": what a phase does and,
    when it counts something, how far it is. A step of one (0 of 1, 1 of 1) shows no count."""
    words, counted = PHASES.get(phase, (phase.capitalize(), ""))
    if not counted or total <= 1:
        return words
    return f"{words} ({counted}: {done:,} of {total:,})"


CHECK_WORDS = {  # the proof's names for its checks (app.verify), as a bookkeeper says them
    "splits": "transaction lines (GnuCash calls them splits)",
    "Imbalance/Orphan accounts": (
        "Imbalance and Orphan accounts (where GnuCash puts what it cannot place; none expected)"
    ),
    "account numbers used twice": "account numbers used by two accounts",
}
COUNT_WORDS = {"Splits": "Transaction lines (splits)"}  # a count's name (the readers' words)
ENCODING_WORDS = {  # a file's text encoding as Python names it → as a person reads it
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8",
    "cp1252": "Windows (Western European, 1252)",
    "utf-16": "UTF-16 (Unicode)",
    "utf-16-le": "UTF-16 (Unicode)",
    "utf-16-be": "UTF-16 (Unicode)",
}


def check_name(name: str) -> str:
    """A proof check's name as the command line, the Download step and the printed report say
    it: "transaction lines cleared", not "splits cleared"."""
    if name in CHECK_WORDS:
        return CHECK_WORDS[name]
    if name.startswith("splits "):  # "splits cleared", "splits not reconciled", ...
        return "transaction lines " + name.removeprefix("splits ")
    return name


def check_value(value: object) -> str:
    """A check's figure as said: counts with thousands separators, dates as YYYY-MM-DD,
    nothing as "none"."""
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def some(names: Iterable[str], shown: int = 8) -> str:
    """The first ``shown`` of ``names`` and how many more: "A, B, C and 4 more"."""
    names = list(names)
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def encoding_name(codec: str) -> str:
    """A text encoding as a person reads it: "UTF-8", "Windows (Western European, 1252)"."""
    return ENCODING_WORDS.get(codec.lower(), codec.upper())


def count_name(what: str) -> str:
    """A count's name as said ("Transaction lines (splits)" for the readers' "Splits")."""
    return COUNT_WORDS.get(what, what)


# GnuCash's account tree shows these families' accounts without a minus sign when they hold what
# they usually hold (a credit)
CREDIT_NORMAL = frozenset({"liability", "equity", "income"})


def usual_sign(family: str) -> int:
    """How GnuCash's account tree shows a debit-positive figure of an account of ``family``
    ("asset", "liability"...; "" when untyped): its usual balance positive (``money``'s sign)."""
    return -1 if family in CREDIT_NORMAL else 1


def quoted(value: object) -> str:
    """A name or a value as the user typed it or QuickBooks wrote it, between the quotation marks
    every message uses (“Checking”), not Python's ``'...'``; a character that prints nothing (a
    tab, a NUL) shown as its escape (“Ga\\ts”), as Python's would."""
    text = str(value)
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"“{text}”"
