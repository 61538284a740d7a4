"""Numbers that never leave the readers: text shaped like a Social Security number or a bank
account number, wherever a cell is quoted (a message naming a cell it could not read, a file's
first row, a cleared mark), kept (the copy of a file no reader understands) or suspected (a
sensitive cell found empty while its neighbour holds such a number: the row's cells moved).

The shapes: an SSN as 123-45-6789, 123 45 6789 or 123.45.6789; a run of 8 digits or more, or
of 9 or more spaced or dashed (an SSN written 123456789, a bank account or routing number), that
is no part of a decimal number (an amount keeps its digits: 123456789.00). Each digit of such text
is masked with "•". A phone number (10 digits) is masked too where it is quoted: a message never
needs it. Pure.
"""

from __future__ import annotations

import re

MASK = "•"
# a column named for such a number (an SSN, a tax file number, a bank account or routing number)
SENSITIVE_HEADER = re.compile(
    r"ssn|ss ?(no|#|num)|soc(ial)?\.? ?sec|tax file|tfn|taxpayer|\btin\b|routing|\baba\b|\bach\b"
    r"|iban|swift|bsb|bank ?(acc|account|no|num)|direct ?deposit|(checking|savings) ?acc",
    re.IGNORECASE,
)

# (not inside a longer number, nor the integer part of a decimal amount)
_SSN = r"\d{3}[-. ]\d{2}[-. ]\d{4}"
_RUN = r"\d{8,}|\d(?:[- ]?\d){8,}"  # (a date, 2024-01-31, has 8 digits: not one)
PRIVATE = re.compile(rf"(?<![\d.,])(?:{_SSN}|{_RUN})(?![\d]|[.,]\d)")
_SSN_ONLY = re.compile(rf"\s*{_SSN}\s*|\s*\d{{9}}\s*")


def masked(text: str) -> str:
    """``text`` with the digits of every SSN- or bank-number-shaped part masked."""
    return PRIVATE.sub(lambda m: re.sub(r"\d", MASK, m[0]), text)


def quoted(text: str) -> str:
    """A cell as a message quotes it: ``repr`` of its text, stripped and masked."""
    return repr(masked((text or "").strip()))


def ssn_shaped(text: str) -> bool:
    """The whole cell is an SSN (dashed, spaced, dotted, or 9 digits)."""
    return _SSN_ONLY.fullmatch(text) is not None


def number_shaped(text: str) -> bool:
    """The whole cell is a bank account number: 8 to 17 digits and nothing else (a phone
    number, written with spaces, dashes or brackets, is not one)."""
    return _BANK.fullmatch(text.strip()) is not None


_BANK = re.compile(r"\d{8,17}")


def tax_id(text: str) -> str:
    """A vendor's tax ID as the book keeps it: an employer number (12-3456789) as it is; one
    shaped like an SSN (a sole proprietor's 1099 ID is their Social Security number) masked,
    which the book never holds."""
    return masked(text) if ssn_shaped(text) else text.strip()


def ssn_cell(cell: str) -> bool:
    """The cell is an SSN written 123-45-6789 (or with spaces or dots) and nothing else: never
    anything else in a QuickBooks export; checked on every cell of a lists or IIF file, so
    cheaply first."""
    text = cell.strip()
    return len(text) == 11 and text[3] in "-. " and text[6] in "-. " and ssn_shaped(text)
