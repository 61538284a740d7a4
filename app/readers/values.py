"""Text, number, date and flag values as QuickBooks and spreadsheets write them.

Shared by the IIF and CSV readers. Every function raises ``ValueError`` with a short
description of what was expected; the caller adds file and line.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Generic, Literal, TypeGuard, TypeVar

from app.readers.private import quoted

T = TypeVar("T")
DEFAULT_PIVOT = 80  # two-digit years: < 80 → 20xx, >= 80 → 19xx (qb-escape's choice)
# A year written with 3 or 4 digits is read as written; one before this is refused, never
# "corrected": 0019 or 0001 is a damaged cell or a year typed short, not 2019 or 2001.
MIN_YEAR = 1900
# GnuCash keeps an amount as a 64-bit count of the currency's smallest unit (at most
# 9,223,372,036,854,775,807: 92 quadrillion at cents, 9.2 quadrillion at mills), so an amount of
# a thousand trillion or more is refused when it is read: under it, every currency of up to 3
# decimals fits, with room for sums (app/validate.py checks the book's own currency too).
MAX_AMOUNT = Decimal(10) ** 15
SHORT_AMOUNT = 15  # a plain amount of at most this many characters is under MAX_AMOUNT

_CURRENCY = re.compile(r"[$€£¥]|\bUSD\b|\bA\$")
_NUMBER = re.compile(r"\d+(\.\d*)?|\.\d+")
_GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d*)?")  # commas only as thousands separators
_SPACED = re.compile(r"\d{1,3}(\s\d{3})+(\.\d*)?")  # (a space, no-break or narrow: \s)


BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode(data: bytes) -> tuple[str, str]:
    """Bytes → (text, encoding name): BOM, then UTF-16 without one, then strict UTF-8, then
    Windows-1252. Never raises: a file cut inside its last character (a copy cut short, or
    the first bytes only) loses that character, which the readers then find cut; one whose
    bytes do not follow the encoding its BOM says is read with U+FFFD where they do not, and
    refused by ``encoding_fault``."""
    if data.startswith(codecs.BOM_UTF8):
        body = data[len(codecs.BOM_UTF8) :]
        if (text := _utf8(body)) is not None:
            return text, "utf-8-sig"
        if not _mostly_utf8(body):  # Windows-1252 text behind a UTF-8 mark
            return _cp1252(body), "cp1252"
        return body.decode("utf-8", errors="replace"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        even = data[: len(data) - len(data) % 2]  # (cut inside its last character)
        return even.decode("utf-16", errors="replace"), "utf-16"
    bare = utf16_without_bom(data[:4096])
    if bare:
        return data.decode(bare, errors="replace"), bare
    if (text := _utf8(data)) is not None:
        return text, "utf-8"
    return _cp1252(data), "cp1252"


def _cp1252(data: bytes) -> str:
    # cp1252 leaves 5 bytes undefined: read as "?" rather than fail
    return data.decode("cp1252", errors="replace").replace("\ufffd", "?")


# a character UTF-8 writes in two to four bytes: Windows-1252 text holds none (but by chance)
_UTF8_CHARACTER = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
_HIGH = bytes(range(0x80, 0x100))


def _mostly_utf8(body: bytes) -> bool:
    """``body`` holds more UTF-8 characters than bytes over 0x7F that are none: UTF-8 text
    with a few Windows-1252 bytes among it (a hand edit), not Windows-1252 text where a pair of
    its letters happens to read as one UTF-8 character ("É’", bytes C9 92: hunt 21)."""
    high = len(body) - len(body.translate(None, _HIGH))
    characters = used = 0
    for m in _UTF8_CHARACTER.finditer(body):
        characters, used = characters + 1, used + len(m[0])
    return characters > high - used


def _utf8(data: bytes) -> str | None:
    """``data`` as UTF-8, but for a character cut at its very end (in text holding UTF-8
    characters before it); None when it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        cut = exc.end == len(data) and exc.reason == "unexpected end of data"
        if cut and _mostly_utf8(data[: exc.start]):  # (a last é of Windows-1252 is no cut)
            return data[: exc.start].decode("utf-8")
        return None


def encoding_fault(data: bytes) -> tuple[int, str] | None:
    """(line, why) when ``data`` starts with a byte-order mark its bytes do not follow: UTF-8
    text with Windows-1252 bytes among it (saved as UTF-8 by a spreadsheet, then edited in a
    program writing Windows-1252), a damaged UTF-16 file; None when they do (a character cut at
    the very end is a cut; Windows-1252 text throughout is read so: ``decode``)."""
    if data.startswith(codecs.BOM_UTF8):
        body, name = data[len(codecs.BOM_UTF8) :], "utf-8"
        said = "UTF-8"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        body, name = data[: len(data) - len(data) % 2], "utf-16"
        said = "UTF-16"
    else:
        return None
    try:
        body.decode(name)
    except UnicodeDecodeError as exc:
        if name == "utf-8" and (_utf8(body) is not None or not _mostly_utf8(body)):
            return None  # (cut in its last character; Windows-1252 text: ``decode``)
        line = body[: exc.start].decode(name, errors="replace").count("\n") + 1
        return line, (
            f"this line holds bytes that are not {said} text, though the file starts with "
            f"{said}'s byte-order mark: the file mixes two encodings (edited in another "
            f"program?) or is damaged; save it again as {said} (Excel: CSV UTF-8) or export it "
            "again from QuickBooks"
        )
    return None


def utf16_without_bom(head: bytes) -> str:
    """The codec ("utf-16-le" or "utf-16-be") when the first bytes are UTF-16 text written
    without a BOM (mostly Latin text: a NUL in most odd, or even, positions and almost none in
    the others); "" otherwise."""
    if len(head) < 8 or b"\x00" not in head:
        return ""
    even, odd = head[0::2], head[1::2]
    for high, low, name in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if high.count(0) > 0.6 * len(high) and low.count(0) <= 0.02 * len(low):
            return name
    return ""


def is_utf16(head: bytes) -> bool:
    """UTF-16 text, with or without a BOM."""
    return head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or bool(
        utf16_without_bom(head)
    )


def is_binary(head: bytes) -> bool:
    """The binary sniff every reader uses: a NUL byte in the first bytes of a file that is not
    UTF-16 text (which is full of NULs, with a BOM or without)."""
    return b"\x00" in head and not is_utf16(head)


# Control characters: C0 but tab and line ends, DEL, C1. Invisible in every program, and GnuCash
# writes each C0 one into a book as "?".
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def without_controls(text: str) -> tuple[str, str]:
    """``text`` without its control characters, and which were removed ("U+0007, U+001B"; ""
    when none was: then ``text`` itself comes back)."""
    found = CONTROL.findall(text)
    if not found:
        return text, ""
    codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(found))
    return CONTROL.sub("", text), codes


def clean(text: str | None) -> str:
    """Strip surrounding white space; a lone space (the kit's TRNSID " ") is empty."""
    return (text or "").strip()


def parse_amount(text: str) -> Decimal | None:
    """An amount as QuickBooks or a spreadsheet wrote it; None for an empty cell.

    Accepts quotes, thousands commas, currency symbols, a leading ``-`` or ``--``, parentheses,
    a trailing ``-`` (one of them: two signs are refused), integers, and percentages (``6.5%``
    → Decimal("6.5")). Refuses an amount of
    ``MAX_AMOUNT`` or more (GnuCash cannot hold it); a reader's own fast path may skip this
    function only for a plain amount of at most ``SHORT_AMOUNT`` characters.
    """
    s = clean(text).strip('"').strip()
    if not s:
        return None
    minus, plus = 0, False  # (each way of writing a sign: hunt 20, "-1234.56-" read +1234.56)
    if s.startswith("(") and s.endswith(")"):
        minus, s = minus + 1, s[1:-1].strip()
    if s.endswith("-") and len(s) > 1:
        minus, s = minus + 1, s[:-1].strip()
    if s.endswith("%"):
        s = s[:-1].strip()
    for _ in range(2):  # before the currency symbol and after it ("-$1,000", "$-1,000")
        if s.startswith(("-", "+")):
            minus, plus = minus + (s[0] == "-"), plus or s[0] == "+"
            s = s[2:] if s.startswith("--") else s[1:]  # (Excel's "--3.00" means -3.00)
        s = _CURRENCY.sub("", s).strip()
    if minus > 1 or (minus and plus):
        raise ValueError(f"expected an amount with one sign (got {quoted(text)}): write it once")
    if _SPACED.fullmatch(s):  # (thousands a space apart: "1 234.56", hunt 21; "1 2 3" no)
        s = re.sub(r"\s", "", s)
    if "," in s:
        if not _GROUPED.fullmatch(s):  # "12,34" is a decimal comma: never misread
            raise ValueError(f"expected an amount like 1,234.56 (got {quoted(text)})")
        s = s.replace(",", "")
    if not _NUMBER.fullmatch(s):  # ("1 2 3": digits apart are no amount)
        raise ValueError(f"expected an amount like 1,234.56 (got {quoted(text)})")
    value = _held(s, text)
    return -value if minus else value


def _held(digits: str, text: str) -> Decimal:
    """The unsigned ``digits`` of ``text`` as a Decimal, refused at ``MAX_AMOUNT`` or more."""
    try:
        value = Decimal(digits)
    except InvalidOperation as exc:  # pragma: no cover - guarded by the regex
        raise ValueError(f"expected an amount (got {quoted(text)})") from exc
    if value >= MAX_AMOUNT:
        raise ValueError(
            f"expected an amount under 1,000,000,000,000,000 (got {quoted(text)}): a GnuCash book "
            "cannot hold it"
        )
    return value


_DATE_SLASH = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{1,4})")
_DATE_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


def date_parts(text: str) -> tuple[int, int, int] | None:
    """The three numbers of a slash date, or None when the cell is not one."""
    m = _DATE_SLASH.fullmatch(clean(text))
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def parse_date(text: str, order: str = "mdy", pivot: int = DEFAULT_PIVOT) -> dt.date | None:
    """A date: M/D/YYYY (or D/M/YYYY with ``order="dmy"``), M/D/YY with ``pivot``, ISO
    YYYY-MM-DD. ``0/0/0`` and an empty cell are None."""
    s = clean(text)
    if not s or s in ("0/0/0", "0/0/00", "00/00/0000"):
        return None
    m = _DATE_ISO.fullmatch(s)
    month = day = 0
    try:
        if m:
            month, day = int(m[2]), int(m[3])
            return dt.date(full_year(m[1], pivot), month, day)
        m = _DATE_SLASH.fullmatch(s)
        if m is None:
            raise ValueError
        a, b = int(m[1]), int(m[2])
        month, day = (a, b) if order == "mdy" else (b, a)
        return dt.date(full_year(m[3], pivot), month, day)
    except ValueError as exc:
        want = "M/D/YYYY" if order == "mdy" else "D/M/YYYY"
        why = f": {exc}" if isinstance(exc, YearError) else ""
        if not why and month:  # (its shape, but no such day: hunt 20, "02/30/2024")
            why = f": {_no_such_day(month, day)}" + ("" if s[4:5] == "-" else f", read {want}")
        raise ValueError(f"expected a date like {want} (got {quoted(text)}){why}") from None


def _no_such_day(month: int, day: int) -> str:
    if not 1 <= month <= 12:
        return f"there is no month {month}"
    return f"{dt.date(2000, month, 1):%B} has no day {day}"


class YearError(ValueError):
    """A year of 3 or 4 digits before ``MIN_YEAR``."""


def full_year(text: str, pivot: int = DEFAULT_PIVOT) -> int:
    """A date's year as written: 1 or 2 digits go through ``pivot`` (``6`` → 2006, ``98`` →
    1998); 3 or 4 digits are the year itself, and one before ``MIN_YEAR`` is refused."""
    year = int(text)
    if len(text) <= 2:
        return year + (2000 if year < pivot else 1900)
    if year < MIN_YEAR:
        raise YearError(
            f"year {text} is before {MIN_YEAR}: a year of 3 or 4 digits is read as written "
            "(only 2-digit years are completed), so correct it in the file"
        )
    return year


@dataclass(frozen=True, slots=True)
class DateOrder(Generic[T]):
    """What the dates of one file say about their order; ``dmy``/``mdy`` are the first samples
    that prove each (a first field over 12 proves D/M/Y, a second over 12 M/D/Y). Where both
    are proved, the order of ten times as many distinct dates is the file's, and the others, at
    most three, are typos, each said where it cannot be read (``lone``); else the file mixes
    them."""

    order: Literal["mdy", "dmy"]
    ambiguous: bool  # nothing proved the order (and none was given): M/D/Y is assumed
    dmy: tuple[str, T] | None
    mdy: tuple[str, T] | None
    lone: bool = False  # both proved, one by so few dates that they are typos
    slashed: bool = True  # a date of the shape either order reads was seen (ISO has one order)

    @property
    def unsure(self) -> bool:
        """Dates read in an order nothing proved: what a file's reader says of it (its dates
        all ISO: nothing to be unsure of, hunt 25)."""
        return self.ambiguous and self.slashed

    @property
    def mixed(self) -> bool:
        """Both orders proved, neither by far the more: the file mixes them."""
        return self.dmy is not None and self.mdy is not None and not self.lone


def is_order(text: str | None) -> TypeGuard[Literal["mdy", "dmy"]]:
    return text in ("mdy", "dmy")


LONE = 10  # one order proved by this many times the other's distinct dates: those are typos,
TYPOS = 3  # when they are this few (more are a block of the other order, not typos)


def date_order(samples: Iterable[tuple[str, T]], given: str | None = "") -> DateOrder[T]:
    """The one date-order rule: the order ``given`` by the user, else D/M/Y when dates prove it
    and none (or ten times fewer) prove M/D/Y, else M/D/Y. Each sample is (date text, where it
    was found)."""
    dmy: tuple[str, T] | None = None
    mdy: tuple[str, T] | None = None
    proved: dict[str, bool | None] = {}  # distinct date text → proves D/M/Y, M/D/Y, neither
    either = False  # a date of the shape either order reads (an ISO date has one order)
    for text, where in samples:
        if text in proved:
            continue
        parts = date_parts(text)
        proved[text] = None
        if parts is None:
            continue
        either = True
        if parts[0] > 12:
            dmy = dmy or (text, where)
            proved[text] = True
        elif parts[1] > 12:
            mdy = mdy or (text, where)
            proved[text] = False
    days = sum(1 for v in proved.values() if v)
    months = sum(1 for v in proved.values() if v is False)
    fewer = min(days, months)
    lone = 0 < fewer <= TYPOS and max(days, months) >= LONE * fewer
    if is_order(given):
        return DateOrder(given, False, dmy, mdy, lone)
    order: Literal["mdy", "dmy"] = "dmy" if dmy and (not mdy or (lone and days > months)) else "mdy"
    return DateOrder(order, not dmy and not mdy, dmy, mdy, lone, either)


def parse_bool(text: str) -> bool | None:
    """Y/N (also Yes/No, True/False, 1/0); None for an empty cell."""
    s = clean(text).upper()
    if not s:
        return None
    if s in ("Y", "YES", "T", "TRUE", "1"):
        return True
    if s in ("N", "NO", "F", "FALSE", "0"):
        return False
    raise ValueError(f"expected Y or N (got {quoted(text)})")


def csv_fault(exc: Exception) -> str:
    """Python's ``csv.Error`` in a bookkeeper's words (its own name the limit and the flag)."""
    said = str(exc)
    if "field larger than field limit" in said:
        return (
            "a cell longer than 131,072 characters (a quote opened and never closed runs on to "
            "the end?)"
        )
    if "new-line character seen in unquoted field" in said:
        return "a line break inside a cell that is not in quotes"
    if "line contains NUL" in said:
        return "a NUL byte inside a line"
    if "expected after" in said:
        return "a quote inside a cell that is not doubled"
    return "its quotes do not pair up"


def unreadable(exc: Exception) -> str:
    """A CSV file the csv module cannot split, said as the readers say it."""
    return f"not a readable CSV file ({csv_fault(exc)})"
