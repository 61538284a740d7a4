"""Numbers that never leave the readers: text shaped like a Social Security number or a bank
account number, wherever a cell is quoted (a message naming a cell it could not read, a file's
first row), kept (``ssn_masked``: the copy of a file no reader understands, a vendor's tax ID)
or suspected (a sensitive cell found empty while a cell near it holds such a number: the row's
cells moved).

The shapes: an SSN as 123-45-6789, 123 45 6789 or 123.45.6789; in a message, also a run of 9
digits or more (an SSN written 123456789, a bank account or routing number) that is no part of a
decimal number (an amount keeps its digits: 123456789.00; a date, 20240131, has 8). Each digit of
such text is masked with "•". Pure.

What is not done, measured on ordinary files (hunt 12): a 9-digit ZIP, a phone number written
without separators, a loan number as an account's description or a part number shaped 3-2-4 are
no SSN or bank number: the rules below look for the dashed SSN next to an empty SSN cell, and a
bank number only under a flag or count column, never anywhere. In a memo, typed by a person,
an SSN written out and a number right after the word naming it ("acct 0012345678") are masked
(``typed_masked``), and the reader says where (``readers.typed``).
"""

from __future__ import annotations

import re

from app import words

MASK = "•"
# a column of an SSN (in a name list; its neighbours may hold a phone or a ZIP)
SSN_COLUMN = re.compile(r"\bssn|(?<![a-z])ss ?(no\b|#|num)|\bsoc(ial)?\.? ?sec", re.IGNORECASE)
# a column named for such a number (an SSN, a tax file number, a bank account or routing number)
SENSITIVE_HEADER = re.compile(
    rf"{SSN_COLUMN.pattern}|tax file|\btfn\b|taxpayer|\btin\b|\brouting\b|\baba\b|\bach\b"
    r"|\biban\b|\bswift\b|\bbsb\b|bank ?(acc|account|no|num)|direct ?deposit",
    re.IGNORECASE,
)

# (not inside a longer number, nor the integer part of a decimal amount)
_SSN = r"\d{3}[-. ]\d{2}[-. ]\d{4}"
PRIVATE = re.compile(rf"(?<![\d.,])(?:{_SSN}|\d{{9,}})(?![\d]|[.,]\d)")
_SSN_SHAPE = re.compile(rf"(?<![\d.,])(?:{_SSN})(?![\d]|[.,]\d)")
_SSN_ONLY = re.compile(rf"\s*{_SSN}\s*|\s*\d{{9}}\s*")
_DASHED = re.compile(r"\s*\d{3}-\d{2}-\d{4}\s*")
_BANK = re.compile(r"\d{8,17}")


# typed by a person into a memo (``typed_masked``): an SSN written out (123-45-6789), or an SSN,
# bank account or routing number after the word naming it ("SSN 123 45 6789", "Account #:
# 0012 3456 78", "routing/acct 021000021/0012345678"), 8 digits or more in all (not a date
# 20210131), or a payment card's number (4401 2233 4455 6677: 15 or 16 digits passing Luhn's
# check, after any word); its digits may already be masked (the kept copy the wizard reads)
_N = r"[\d•]"
_WORD = (
    r"(?i:(?:\b(?:ssn|soc(?:ial)?\.? ?sec(?:urity)?|tin|sin|tfn|tax ?file|bsb|acct|account|a/c"
    r"|routing|rtn|aba|iban|dda|bank|direct ?deposit)\b|\bss ?#)\.?"
    r"(?:\s*(?:no|num|number|to)\b\.?)?[\s:#=./-]{0,4})"
)
_NUMBER = rf"{_N}{{3}}\s*[-. ]\s*{_N}{{2}}\s*[-. ]\s*{_N}{{4}}|{_N}{{2,}}(?:[ -]{_N}+){{0,5}}"
TYPED = re.compile(
    rf"(?<![\w•-]){_N}{{3}}-{_N}{{2}}-{_N}{{4}}(?![\w•-])"
    rf"|(?P<word>{_WORD})(?P<num>(?:{_NUMBER})(?:\s*/\s*(?:{_NUMBER}))*)(?![\w•@])"
    rf"|(?<![\w•-])(?P<card>[3-6•](?:[\s-]?{_N}){{14,15}})(?![\w•-])"
)
_DAY = re.compile(r"(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])")
# after a word, what is no bank number: a span of years, a phone number (3-3-4); after TIN, an
# employer's tax number (12-3456789: kept, as a vendor's tax ID is)
_SPARED = re.compile(r"(19|20)\d\d ?- ?(19|20)\d\d|\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}")
_EIN = re.compile(r"\d\d-\d{7}")
_SERIAL = re.compile(  # (no card: a device's number)
    r"(?i)\b(imei|meid|esn|serial|s/n)\b(?:\s*(?:no|num|number)\b\.?)?[\s:#.]*$"
)


def _typed(m: re.Match[str]) -> bool:
    """Whether a match of ``TYPED`` is such a number: 8 digits or more, not a date, a span of
    years or a phone number; a card number passes the card numbers' own check (Luhn's) or is
    masked already, and follows no word naming a device's number (an IMEI passes Luhn's)."""
    if m["card"]:
        return _card(m["card"]) and not _SERIAL.search(m.string[max(0, m.start() - 16) : m.start()])
    if m["num"] and (
        _SPARED.fullmatch(number := m["num"].strip())
        or (_EIN.fullmatch(number) and m["word"].lstrip().lower().startswith("tin"))
    ):
        return False
    digits = re.sub(r"\D", "", m[0].replace(MASK, "0"))
    return len(digits) > 8 or (len(digits) == 8 and _DAY.fullmatch(digits) is None)


def _card(text: str) -> bool:
    """A payment card's number (15 or 16 digits, the last one the check digit of Luhn's
    formula), or one masked already (•)."""
    if MASK in text:
        return not any(c.isdigit() for c in text)
    digits = [int(c) for c in reversed(text) if c.isdigit()]
    if len(digits) not in (15, 16):
        return False
    return sum(_DOUBLED[d] if k % 2 else d for k, d in enumerate(digits)) % 10 == 0


_DOUBLED = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # a digit doubled, its two digits added


def holds_typed(text: str) -> bool:
    """Whether ``text`` holds what ``typed_masked`` masks (or masked already)."""
    return any(_typed(m) for m in TYPED.finditer(text))


def typed_numbers(text: str) -> set[str]:
    """The parts of ``text`` that ``typed_masked`` masks, as they are written."""
    return {m[0] for m in TYPED.finditer(text) if _typed(m)}


# what any such text holds, lower-cased (a scan of a whole file in a fraction of ``TYPED``'s
# time: a keyword is a literal; a dashed SSN starts at its first dash)
_MAYBE = re.compile(
    r"-[\d•]{2}-[\d•]{4}|(?:ssn|ss ?#|sec|tin|acct|account|a/c|routing|rtn|aba|iban|dda|bank"
    r"|deposit|sin|tfn|tax ?file|bsb)[^\n\d]{0,16}[\d•]{2}|[3-6•](?:[\s-]?[\d•]){14}"
)


def maybe_typed(text: str) -> bool:
    """Whether ``text`` (a whole file, or every memo of one) may hold what ``TYPED`` finds:
    False is sure, True is to be looked at."""
    return _MAYBE.search(text.lower()) is not None


def typed_masked(text: str) -> str:
    """A memo with each SSN or bank number typed into it masked (``TYPED``); the rest, a
    phone (3-3-4), a ZIP+4, a date, an invoice or a loan number following no such word, kept as
    typed (an invoice number written 3-2-4 is masked: it has an SSN's shape)."""
    return TYPED.sub(lambda m: digits_masked(m[0]) if _typed(m) else m[0], text)


def masked(text: str) -> str:
    """``text`` with the digits of every SSN- or bank-number-shaped part masked (a message):
    9 digits or more in one run, or in groups a space or a dash apart (a card, a bank number
    as people write them: 4111 1111 1111 1111, 0012 3456 78)."""
    return _GROUPED.sub(_digits_masked, PRIVATE.sub(lambda m: digits_masked(m[0]), text))


_GROUPED = re.compile(r"(?<![\d.,])\d+(?:[ -]\d+)+(?![\d]|[.,]\d)")


def grouped(text: str) -> bool:
    """``text`` holds 9 digits or more in groups a space or a dash apart (a card, a bank number
    as people write them; no amount, date or phone number is written so)."""
    return any(_digits_masked(m) != m[0] for m in _GROUPED.finditer(text))


def _digits_masked(m: re.Match[str]) -> str:
    """Nine digits or more masked, a phone number (3-3-4) apart."""
    if sum(c.isdigit() for c in m[0]) < 9 or _SPARED.fullmatch(m[0]):
        return m[0]
    return digits_masked(m[0])


def digits_masked(text: str) -> str:
    """``text`` with every digit masked: a line broken off a note, which may hold anything (a
    card, an account number after any word)."""
    return re.sub(r"\d", MASK, text)


def typed_cell(cell: str) -> str:
    """An IIF cell as ``typed_masked`` masks it, its ``\\n`` read as the line break QuickBooks
    writes so (a note's second line: "Direct deposit:\\nAcct 0012345678"); only digits
    change."""
    if "\\n" not in cell:
        return typed_masked(cell)
    plain = cell.replace("\\n", "\n")
    at = [i for i in range(len(cell)) if not (i > 0 and cell[i - 1 : i + 1] == "\\n")]
    if len(at) != len(plain):  # (never: each escape is two characters read as one)
        return typed_masked(cell)
    out = list(cell)
    for k, (was, now) in enumerate(zip(plain, typed_masked(plain), strict=True)):
        if was != now:
            out[at[k]] = now
    return "".join(out)


def ssn_masked(text: str) -> str:
    """``text`` with every SSN written out (123-45-6789, spaced or dotted) masked: a kept copy's
    cells, where a long number is a Trans #, an amount or a reference, read as it is."""
    return _SSN_SHAPE.sub(lambda m: digits_masked(m[0]), text)


def quoted(text: str, at_most: int = 0) -> str:
    """A cell as a message quotes it (``app.words.quoted``): its text, stripped and masked, then
    cut to ``at_most`` characters ("..." after; masked first: a number cut short looks like
    none)."""
    shown = masked((text or "").strip())
    return words.quoted(shown[:at_most] + "..." if 0 < at_most < len(shown) else shown)


def ssn_shaped(text: str) -> bool:
    """The whole cell is an SSN (dashed, spaced, dotted, or 9 digits)."""
    return _SSN_ONLY.fullmatch(text) is not None


def number_shaped(text: str) -> bool:
    """The whole cell is a bank account number: 8 to 17 digits and nothing else (a phone
    number, written with spaces, dashes or brackets, is not one)."""
    return _BANK.fullmatch(text.strip()) is not None


def tax_id(text: str) -> str:
    """A vendor's tax ID as the book keeps it: an employer number (12-3456789) as it is; one
    shaped like an SSN (a sole proprietor's 1099 ID is their Social Security number) masked,
    which the book never holds."""
    return masked(text) if ssn_shaped(text) else text.strip()


def ssn_cell(cell: str) -> bool:
    """The cell is an SSN written 123-45-6789 and nothing else: what a sensitive cell moved next
    to an empty SSN cell looks like (a phone has 3-3-4 digits, a ZIP+4 5-4)."""
    return _DASHED.fullmatch(cell) is not None
