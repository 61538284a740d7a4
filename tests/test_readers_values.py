"""Number, date and flag forms as QuickBooks and spreadsheets write them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from app.readers.values import date_order, decode, parse_amount, parse_bool, parse_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"1,234.56"', "1234.56"),
        ("3,999.50", "3999.50"),
        ("-35", "-35"),
        ("-869.5", "-869.5"),
        ("(300.00)", "-300.00"),
        ("300.00-", "-300.00"),
        ("--3.00", "-3.00"),
        ("$1,000", "1000"),
        ("-$1,000.25", "-1000.25"),
        ("$-1,000", "-1000"),
        ("6.5%", "6.5"),
        ("-10.0%", "-10.0"),
        ("12", "12"),
        (" 0.00 ", "0.00"),
        ("1,000,000", "1000000"),
        ("1 234.56", "1234.56"),  # (thousands a space apart, no-break or narrow too: hunt 21)
        ("1\xa0234.56", "1234.56"),
        ("-1\u202f234\u202f567.00", "-1234567.00"),
    ],
)
def test_amount_forms(text: str, expected: str) -> None:
    value = parse_amount(text)
    assert isinstance(value, Decimal)
    assert value == Decimal(expected)
    assert str(value) == expected  # the scale written is kept: no float on the way


@pytest.mark.parametrize("text", ["", " ", '""'])
def test_empty_amount_is_none(text: str) -> None:
    assert parse_amount(text) is None


@pytest.mark.parametrize(
    "text", ["abc", "12,34", "1.234,56", "1,2345.00", "1..2", "#REF!", "1 2 3", "1 23"]
)
def test_bad_amounts_say_what_was_expected(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected an amount like 1,234.56 \(got "):
        parse_amount(text)


@pytest.mark.parametrize("text", ["-1234.56-", "(-5.00)", "(5.00-)", "-$-5.00", "--5.00-", "+-5"])
def test_an_amount_with_two_signs_is_refused_not_given_one(text: str) -> None:
    """Two signs cancelled each other (``-1234.56-`` read +1234.56, ``(-5.00)`` +5.00) or
    not (``-$-5.00`` read -5.00): each a guess (hunt 20)."""
    with pytest.raises(ValueError, match=r"expected an amount with one sign \(got "):
        parse_amount(text)


@pytest.mark.parametrize(
    ("text", "order", "expected"),
    [
        ("7/16/1998", "mdy", dt.date(1998, 7, 16)),
        ("7/16/98", "mdy", dt.date(1998, 7, 16)),
        ("01/05/2024", "mdy", dt.date(2024, 1, 5)),
        ("1/11/6", "mdy", dt.date(2006, 1, 11)),
        ("2026-12-15", "mdy", dt.date(2026, 12, 15)),
        ("25/12/2024", "dmy", dt.date(2024, 12, 25)),
        ("01/05/2024", "dmy", dt.date(2024, 5, 1)),
        ("4-20-92", "mdy", dt.date(1992, 4, 20)),
    ],
)
def test_date_forms(text: str, order: str, expected: dt.date) -> None:
    assert parse_date(text, order) == expected


def test_two_digit_year_pivot() -> None:
    assert parse_date("1/1/79") == dt.date(2079, 1, 1)
    assert parse_date("1/1/80") == dt.date(1980, 1, 1)
    assert parse_date("1/1/79", pivot=70) == dt.date(1979, 1, 1)


@pytest.mark.parametrize("text", ["", "0/0/0"])
def test_no_date(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize("text", ["13/1/2024", "2/30/2024", "yesterday"])
def test_bad_dates(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected a date like M/D/YYYY \(got "):
        parse_date(text)


def test_booleans() -> None:
    assert parse_bool("Y") is True
    assert parse_bool("n") is False
    assert parse_bool("") is None
    with pytest.raises(ValueError, match="expected Y or N"):
        parse_bool("maybe")


def test_decode_order() -> None:
    assert decode("\ufeffcafé".encode()) == ("café", "utf-8-sig")
    assert decode("café".encode()) == ("café", "utf-8")
    assert decode(b"\x93quoted\x94 1000 \xb7 Checking") == ("“quoted” 1000 · Checking", "cp1252")


def test_the_one_date_order_rule():
    from app.readers.values import date_order

    assert (date_order([("1/2/2024", 1)]).order, date_order([("1/2/2024", 1)]).ambiguous) == (
        "mdy",
        True,
    )
    dmy = date_order([("1/2/2024", 1), ("13/2/2024", 2)])
    assert (dmy.order, dmy.ambiguous, dmy.dmy) == ("dmy", False, ("13/2/2024", 2))
    mdy = date_order([("2/13/2024", 5)])
    assert (mdy.order, mdy.ambiguous, mdy.mdy) == ("mdy", False, ("2/13/2024", 5))
    mixed = date_order([("13/2/2024", 3), ("2/13/2024", 4)])
    assert (
        mixed.mixed
        and mixed.order == "mdy"
        and (mixed.dmy, mixed.mdy)
        == (
            ("13/2/2024", 3),
            ("2/13/2024", 4),
        )
    )
    given = date_order([("1/2/2024", 1)], "dmy")  # the user's choice wins, proofs still found
    assert (given.order, given.ambiguous) == ("dmy", False)
    assert date_order([("not a date", 1), ("", 2)]).ambiguous


@pytest.mark.parametrize("text", ["1/2/0019", "1/2/0001", "0019-01-02", "2/1/019", "1/1/1899"])
def test_years_of_3_or_4_digits_are_read_as_written_and_early_ones_refused(text: str) -> None:
    with pytest.raises(
        ValueError, match=r"is before 1900: a year of 3 or 4 digits is read as written"
    ):
        parse_date(text)


def test_only_2_digit_years_use_the_pivot() -> None:
    assert parse_date("1/2/19") == dt.date(2019, 1, 2)
    assert parse_date("1/2/6") == dt.date(2006, 1, 2)
    assert parse_date("1/2/1900") == dt.date(1900, 1, 2)
    assert parse_date("2/1/19", "dmy", pivot=10) == dt.date(1919, 1, 2)


@pytest.mark.parametrize(
    "text",
    [
        "99999999999999999.99",
        "1000000000000000",
        "-1,000,000,000,000,000.00",
        "(1000000000000000.00)",
    ],
)
def test_amounts_gnucash_cannot_hold_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected an amount under 1,000,000,000,000,000 \(got "):
        parse_amount(text)


def test_the_largest_amount_under_the_limit_is_read() -> None:
    assert parse_amount("-999,999,999,999,999.99") == Decimal("-999999999999999.99")
    assert parse_amount("999999999999999") == Decimal("999999999999999")


def test_a_short_plain_amount_is_always_under_the_limit() -> None:
    """The CSV fast paths skip parse_amount for plain amounts of up to SHORT_AMOUNT characters."""
    from app.readers.values import MAX_AMOUNT, SHORT_AMOUNT

    assert Decimal("9" * SHORT_AMOUNT) < MAX_AMOUNT


def test_without_controls() -> None:
    from app.readers.values import without_controls

    assert without_controls("Gas Co") == ("Gas Co", "")
    assert without_controls("Gas\x07 C\x1bo\x07") == ("Gas Co", "U+0007, U+001B")
    assert without_controls("a\tb\nc\r\x7f\x85\x9f") == ("a\tb\nc\r", "U+007F, U+0085, U+009F")
    assert without_controls("Café · 4000 € “x”") == ("Café · 4000 € “x”", "")


def test_utf16_without_a_bom_is_text_not_binary() -> None:
    from app.readers.values import is_binary, utf16_without_bom

    text = "!ACCNT\tNAME\tACCNTTYPE\r\nACCNT\tCafé\tBANK\r\n"
    for codec in ("utf-16-le", "utf-16-be"):
        data = text.encode(codec)
        assert utf16_without_bom(data) == codec
        assert not is_binary(data)
        assert decode(data) == (text, codec)
    assert is_binary(b"\x00\x01\x02\x03GNU\xff\xfe\x00\x00" * 40)
    assert is_binary(b"!ACCNT\x00\tNAME")
    assert utf16_without_bom(b"plain text, no NUL") == ""


@pytest.mark.parametrize(
    ("lines", "delimiter"),
    [
        (["Date,Account,Amount", "2/1/2024,Checking,-25.00"], ","),
        (["Date\tAccount\tAmount", "2/1/2024\tChecking\t-25.00"], "\t"),
        (["Date;Account;Amount", "01.02.2024;Checking;-25,00"], ";"),
        (["Journal", "", "Date;Num;Account;Debit;Credit", "01.02.2024;1;Rent;1.250,00;"], ";"),
        (["Date,Memo,Account,Amount", '2/1/2024,"a; b; c",Checking,-25.00'], ","),
        (["Date,Memo,Amount", "2/1/2024,one;two,-25.00", "2/2/2024,x,1.00"], ","),
    ],
)
def test_delimiter_of(lines: list[str], delimiter: str) -> None:
    from app.readers.qbcsv.header import delimiter_of

    assert delimiter_of(lines) == delimiter


@pytest.mark.parametrize(
    ("others", "given", "mixed", "order"),
    [
        (1, "", False, "mdy"),  # one D/M/Y date among M/D/Y ones: a typo
        (1, "mdy", False, "mdy"),  # the same with the order given: still a typo, not a mix
        (3, "", False, "mdy"),
        (4, "", True, "mdy"),  # four are a block of the other order: the file mixes them
    ],
)
def test_a_few_dates_of_the_other_order_are_typos_more_are_a_mix(others, given, mixed, order):
    samples = [(f"{m}/{day}/2020", day) for m in (1, 2, 3) for day in range(13, 29)]  # 48 M/D/Y
    samples += [(f"{day}/9/2020", 100 + day) for day in range(13, 13 + others)]
    found = date_order(samples, given)
    assert (found.mixed, found.order) == (mixed, order)


@pytest.mark.parametrize(
    ("text", "order", "said"),
    [
        ("02/30/2024", "mdy", "February has no day 30, read M/D/YYYY"),
        ("31/4/2024", "dmy", "April has no day 31, read D/M/YYYY"),
        ("13/13/2024", "mdy", "there is no month 13, read M/D/YYYY"),
        ("2024-02-30", "mdy", "February has no day 30"),
    ],
)
def test_a_date_of_its_shape_but_no_such_day_says_why(text: str, order: str, said: str) -> None:
    """ "02/30/2024" was "expected a date like M/D/YYYY", though it has that shape (hunt 20)."""
    with pytest.raises(ValueError, match="expected a date like") as caught:
        parse_date(text, order)
    assert str(caught.value).endswith(f"(got “{text}”): {said}")
