"""Why a count or date of the proof differs, and what to do about it (``app.verify``'s checks),
in a bookkeeper's words and GnuCash's menus.

What can make each check differ (tried with the engine: tests/test_check_causes.py):

- **A first conversion** writes the book, checks in GnuCash before saving that every account
  holds exactly its lines and balance and that GnuCash made no account of its own
  (``app.gnc.transactions.check``), saves it and reads it straight back: nobody can touch it in
  between, and every date QuickBooks' files can hold (1900 to 9999) comes back as written. A
  count or date that differs there is the book changed in saving or reading it back (GnuCash,
  or a fault of qb2gnucash): said so, with "write the book again" and "please report this".
- **An update** (docs/UPDATE.md) reads a book the user has worked on in GnuCash since it was
  written. What the user made there alone (``apart``, ``app.made_here``: transactions,
  accounts, customers, jobs, vendors, employees, billing terms) is out of the counts and dates
  and said apart, so what differs is QuickBooks': deleted or renamed in QuickBooks since (the
  book keeps it), or changed in GnuCash: a transaction entered unbalanced gets GnuCash's own
  line in an Imbalance account (a line without an account: an Orphan account), voiding marks
  lines voided, one of QuickBooks' given another date moves a date; and a book written on a
  computer set to a time zone far from this one's reads every date a day off (GnuCash keeps a
  date as a moment of its day, 10:59 UTC). Without ``apart`` what was made there is counted,
  and said to be. Changes held from QuickBooks and edits made in GnuCash to QuickBooks'
  transactions are said by the update itself (``app.update_run``).

``explain`` gives each failing ``Check`` its ``cause``, its ``todo`` and ``again`` (writing the
book again may cure it), and names what differs in ``detail`` where the check had nothing there.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from app.book import BookSnapshot, engine_made
from app.lists import list_names
from app.made_here import MadeHere, book_names
from app.model import Ledger
from app.verify_report import Check
from app.words import GNUCASH_TYPES, plural, plural_of, some

SAVED = (
    "qb2gnucash checks the book before GnuCash saves it and reads it straight back, so GnuCash "
    "changed it in saving or reading it: please report this"
)
SINCE = "since qb2gnucash last wrote the book"
GONE = "deleted or renamed in QuickBooks since (the book keeps them)"
STRAYS = "see the check of Imbalance and Orphan accounts"
FLAG = "Opening Balance"  # the Edit Account dialog's check box
# each list: (its words, GnuCash's menu that lists the book's, how one made by mistake is undone)
LISTS = {
    "customers": ("customer", "Business › Customer › Find Customer", "make it inactive"),
    "jobs": ("job", "Business › Customer › Find Job", "make it inactive"),
    "vendors": ("vendor", "Business › Vendor › Find Vendor", "make it inactive"),
    "employees": ("employee", "Business › Employee › Find Employee", "make it inactive"),
    "terms": ("billing term", "Business › Billing Terms Editor", "delete it"),
}
ARCHIVE = (
    "the archive book does not hold what its history does (its own report: "
    f"archive-report.csv in the audit pack): {SAVED}"
)
CARRIED = (
    "the working book's opening balances are not the archive's closing balances (carried.csv "
    f"in the audit pack): {SAVED}"
)


def explain(
    checks: Sequence[Check],
    ledger: Ledger,
    snap: BookSnapshot,
    *,
    update: bool = False,
    apart: MadeHere | None = None,
) -> tuple[Check, ...]:
    """``checks`` with each failing one's probable cause and what to do. ``update``: the book
    was in the user's hands since qb2gnucash wrote it (an update's proof); ``apart``: what the
    user made there alone, left out of ``snap`` (``app.made_here``): what stays is
    QuickBooks'."""
    lines = next((_by(c) for c in checks if c.name == "splits"), 0)
    return tuple(c if c.ok else _explained(c, ledger, snap, update, lines, apart) for c in checks)


def _explained(  # noqa: PLR0917
    c: Check, ledger: Ledger, snap: BookSnapshot, update: bool, lines: int, apart: MadeHere | None
) -> Check:
    """``lines``: how many more transaction lines the book holds than the files."""
    name = c.name
    if name == "splits not reconciled" and lines:  # lines entered there are not reconciled
        return _marks_of_lines(c, lines, update)
    if name == "accounts":
        return _accounts(c, ledger, snap, update, gone=apart is not None)
    if name in ("transactions", "splits"):
        return _lines(c, ledger, snap, update)
    if name.startswith("splits "):
        return _marks(c, name.removeprefix("splits "), update)
    if name in LISTS:
        listed = (list(list_names(ledger)[name]), list(book_names(snap)[name]))
        return _names(c, listed, update, gone=apart is not None and apart.lists is not None)
    if name == "Imbalance/Orphan accounts":
        return _strays(c, snap, update)
    if name == "account numbers used twice":
        return _codes(c, update)
    if name == "opening-balance account":
        return _flag(c, update)
    if name in ("first transaction date", "last transaction date"):
        return _dates(c, ledger, snap, update, moved=apart is not None)
    return c


def book_only(account: str, *, update: bool = False) -> str:
    """The probable cause of a balance in an account the book alone has (a row of its own)."""
    if engine_made(account):
        return f"GnuCash's own account for amounts it could not place ({STRAYS})"
    if update:
        return f"an account made in GnuCash {SINCE}: what it holds is not in QuickBooks' files"
    return f"an account no file has: {SAVED}"


def sub_accounts(c: Check, *, update: bool = False) -> Check:
    """The check that every line is in its class's sub-account (app.classes_proof)."""
    if c.ok:
        return c
    cause = "lines in another class's sub-account than the class QuickBooks gave them"
    if update:
        todo = "move each back in GnuCash, or leave it: the account's total is the same"
        return _said(c, f"{cause}: moved in GnuCash {SINCE}", todo)
    return _said(c, f"{cause}: {SAVED}", again=True)


def _said(c: Check, cause: str, todo: str = "", *, again: bool = False, detail: str = "") -> Check:
    return replace(c, cause=cause, todo=todo, again=again, detail=c.detail or detail)


def _apart(extra: Sequence[str], missing: Sequence[str]) -> str:
    """What differs, named: "in the book only: A, B; not in the book: C"."""
    parts = [f"in the book only: {some(extra, 5)}"] if extra else []
    parts += [f"not in the book: {some(missing, 5)}"] if missing else []
    return "; ".join(parts)


def _by(c: Check) -> int:
    """How many more the book holds than the files (negative: fewer)."""
    if isinstance(c.book, int) and isinstance(c.input, int):
        return c.book - c.input
    return 0


def _accounts(c: Check, ledger: Ledger, snap: BookSnapshot, update: bool, *, gone: bool) -> Check:
    """``gone``: those made in GnuCash alone are out of ``snap``: the others are QuickBooks'."""
    mine = [a.full_name for a in ledger.accounts]
    book = [b.full_name for b in snap.accounts]
    extra = sorted(set(book) - set(mine))
    missing = sorted(set(mine) - set(book))
    made = [n for n in extra if engine_made(n)]
    own = [n for n in extra if n not in made]
    detail = _apart(extra, missing)
    if missing:
        cause = f"{plural(len(missing), 'account')} of QuickBooks' files not in the book: "
        if update:
            cause += f"deleted in GnuCash {SINCE}"
            return _said(c, cause, "write a new book from the QuickBooks files", detail=detail)
        return _said(c, cause + SAVED, again=True, detail=detail)
    strays = f"GnuCash made {some(made, 5)} itself ({STRAYS})" if made else ""
    if own and gone:
        cause = f"{some(own, 5)} of QuickBooks' earlier exports not in these: {GONE}"
        todo = "one QuickBooks deleted can be deleted in GnuCash once empty (Edit › Delete Account)"
        return _said(c, "; ".join(w for w in (cause, strays) if w), todo, detail=detail)
    if own and update:
        cause = (
            f"{some(own, 5)} made in GnuCash {SINCE}: QuickBooks has no such account, so each is "
            "compared above as expected at 0.00"
        )
        todo = (
            "nothing to correct if they are yours; one made by mistake can be deleted in "
            "GnuCash (select it on the Accounts tab, then Edit › Delete Account)"
        )
        return _said(c, "; ".join(w for w in (cause, strays) if w), todo, detail=detail)
    if own:
        cause = f"the book holds {plural(len(own), 'account')} no file has: {SAVED}"
        return _said(c, "; and ".join(w for w in (strays, cause) if w), again=True, detail=detail)
    return _said(c, strays, _stray_todo(made), again=not update, detail=detail)


def _line_counts(ledger: Ledger, snap: BookSnapshot) -> list[tuple[str, int]]:
    """(account, the book's lines less the files'), for every account where they differ."""
    mine: Counter[str] = Counter()
    for t in ledger.transactions:
        mine.update(s.account for s in t.splits)
    book = Counter({b.full_name: b.splits for b in snap.accounts})
    return [(a, book[a] - mine[a]) for a in sorted(set(mine) | set(book)) if book[a] != mine[a]]


def _lines(c: Check, ledger: Ledger, snap: BookSnapshot, update: bool) -> Check:
    what = "transaction" if c.name == "transactions" else "transaction line"
    many = plural_of(what) if c.name == "transactions" else "transaction lines"
    by = _by(c)
    where = _line_counts(ledger, snap)
    detail = "lines in the book less the files': " + some((f"{a} {d:+,}" for a, d in where), 5)
    detail = detail if where else ""
    if by > 0:
        cause = f"the book holds {plural(by, what, many)} more than the files"
        if update:
            cause += f": entered or changed in GnuCash {SINCE}"
            todo = "look in GnuCash at the registers of the accounts named: they show them"
            return _said(c, cause, todo, detail=detail)
        cause += f" (GnuCash adds a line of its own to balance a transaction): {SAVED}"
        return _said(c, cause, again=True, detail=detail)
    cause = f"{plural(-by, what, many)} of the files not in the book"
    if update:
        cause += f": deleted in GnuCash {SINCE}"
        todo = "enter them again in GnuCash, or write a new book from the QuickBooks files"
        return _said(c, cause, todo, detail=detail)
    return _said(c, f"{cause}: {SAVED}", again=True, detail=detail)


def _marks(c: Check, state: str, update: bool) -> Check:
    if not update:
        cause = (
            "QuickBooks' cleared, reconciled and voided marks did not come back as written: "
            + SAVED
        )
        return _said(c, cause, again=True)
    if state == "voided":
        cause = f"transactions voided or unvoided in GnuCash {SINCE}"
        todo = (
            "if that was a mistake, select the transaction in its register in GnuCash and "
            "choose Actions › Unvoid Transaction (or Void Transaction)"
        )
    else:
        cause = f"lines cleared, reconciled or unmarked in GnuCash {SINCE}"
        todo = (
            "nothing to correct if you reconciled in GnuCash: these marks change no balance "
            "(the R column of an account's register shows them)"
        )
    return _said(c, f"{cause}; QuickBooks' files mark them otherwise", todo)


def _marks_of_lines(c: Check, lines: int, update: bool) -> Check:
    """The count of lines not reconciled when the book holds more or fewer lines than the
    files."""
    more = "more" if lines > 0 else "fewer"
    cause = (
        f"the book holds {plural(abs(lines), 'transaction line', 'transaction lines')} {more} "
        "than the files (see their count), and lines not reconciled are among them"
    )
    if update:
        cause += f" (or lines were cleared, reconciled or voided in GnuCash {SINCE})"
        return _said(c, cause, "see the count of transaction lines")
    return _said(c, f"{cause}: {SAVED}", again=True)


def _names(c: Check, names: tuple[list[str], list[str]], update: bool, *, gone: bool) -> Check:
    """``gone``: those made in GnuCash alone are out of the book's: the others are
    QuickBooks'."""
    mine, book = Counter(names[0]), Counter(names[1])
    detail = _apart(sorted((book - mine).elements()), sorted((mine - book).elements()))
    word, where, undo = LISTS[c.name]
    by = _by(c)
    if by > 0 and gone:
        cause = f"named in QuickBooks' earlier exports, not in these: {GONE}"
        return _said(c, cause, f"nothing to correct if so; or {undo} in {where}", detail=detail)
    if by > 0 and update:
        cause = f"made in GnuCash {SINCE}; QuickBooks' files do not have them"
        todo = f"nothing to correct if they are yours; one made by mistake: {undo} in {where}"
        return _said(c, cause, todo, detail=detail)
    if by > 0:
        cause = f"the book holds {plural(by, word)} more than the files: {SAVED}"
        return _said(c, cause, again=True, detail=detail)
    cause = f"{plural(-by, word)} of the files not in the book ({where} lists the book's)"
    if update:
        todo = "make it again in GnuCash, with the name QuickBooks gives it"
        return _said(c, f"{cause}: removed in GnuCash {SINCE}", todo, detail=detail)
    return _said(c, f"{cause}: {SAVED}", again=True, detail=detail)


def _strays(c: Check, snap: BookSnapshot, update: bool) -> Check:
    made = [b.full_name for b in snap.accounts if engine_made(b.full_name)]
    cause = (
        "GnuCash puts into an Imbalance account the amount that balances a transaction whose "
        "debits and credits differ, and into an Orphan account a line that has no account; "
    )
    if update:
        cause += f"such a transaction was entered or changed in GnuCash {SINCE}"
        return _said(c, cause, _stray_todo(made))
    cause += (
        "qb2gnucash balances every transaction it writes and checks that GnuCash made no such "
        "account before saving the book, so GnuCash made it in saving or reading the book "
        "back: please report this"
    )
    return _said(c, cause, _stray_todo(made), again=True)


def _stray_todo(made: Sequence[str]) -> str:
    first = made[0] if made else "the Imbalance account"
    return (
        f"in GnuCash, open {first} on the Accounts tab: each line there belongs to a "
        "transaction to correct (give its amount the right account); then delete the empty "
        "account (Edit › Delete Account)"
    )


def _codes(c: Check, update: bool) -> Check:
    cause = (
        "one account number is on two accounts of the book, so one QuickBooks account became "
        "two (each balance is then wrong, their sum right)"
    )
    todo = (
        "in GnuCash, give one of them its own number (select it on the Accounts tab, "
        "Edit › Edit Account, Account Code), or move its transactions into the other"
    )
    if update:
        return _said(c, f"{cause}: an account made or edited in GnuCash {SINCE}", todo)
    return _said(c, f"{cause}: {SAVED}", todo, again=True)


def _flag(c: Check, update: bool) -> Check:
    want = str(c.input or "")
    has = [n for n in str(c.book or "").split(", ") if n]
    steps = []
    if want and want not in has:
        steps.append(f"select {want} on the Accounts tab, Edit › Edit Account, tick {FLAG}")
    off = [n for n in has if n != want]
    if off:
        steps.append(f"untick {FLAG} on {', '.join(off)}")
    todo = "in GnuCash, " + "; ".join(steps) if steps else ""
    cause = "GnuCash's Opening Balance mark (on the equity account opening balances go to) "
    if update:
        return _said(c, f"{cause}was moved in GnuCash {SINCE}", todo)
    return _said(c, f"{cause}did not come back as written: {SAVED}", todo, again=True)


def _dates(c: Check, ledger: Ledger, snap: BookSnapshot, update: bool, *, moved: bool) -> Check:
    """``moved``: the transactions made in GnuCash alone are out of the book's dates."""
    dates = [t.date for t in ledger.transactions]
    shifts = {
        _days(min(dates, default=None), snap.first_date),
        _days(max(dates, default=None), snap.last_date),
    }
    if shifts in ({1}, {-1}):  # every date a day off: read in another time zone than written
        after = shifts == {1}
        cause = (
            f"every date reads one day {'later' if after else 'earlier'}: the book was written "
            "on a computer set to a time zone far from this one's (GnuCash keeps each date as a "
            "moment of its day, 10:59 UTC, which is already the day "
            f"{'after' if after else 'before'} in a time zone 11 hours or more from UTC)"
        )
        return _said(c, cause, "open the book on a computer set to the time zone it was written in")
    files, book = c.input, c.book
    first = c.name.startswith("first")
    if not isinstance(files, dt.date) or not isinstance(book, dt.date):
        cause = "the files hold no transaction" if files is None else "the book holds none at all"
        return _said(c, cause if update else f"{cause}: {SAVED}", again=not update)
    if book < files if first else book > files:
        what = "QuickBooks' transactions" if update and moved else "transactions"
        cause = (
            f"the book holds {what} dated before QuickBooks' first ({files}), from {book}"
            if first
            else f"the book holds {what} dated after QuickBooks' last ({files}), up to {book}"
        )
        if not update:
            return _said(c, f"{cause}: {SAVED}", again=True)
        if moved:  # (those made in GnuCash alone are left out: one of QuickBooks' moved)
            todo = "find it in GnuCash (Edit › Find, by its date) and give it QuickBooks' date"
            return _said(c, f"{cause}: given another date in GnuCash {SINCE}", todo)
        cause += (
            f": entered in GnuCash {SINCE} (the figures above leave them out: QuickBooks' are "
            "from its export)"
        )
        return _said(c, cause, "nothing to correct if you entered them")
    which = "first" if first else "last"
    cause = f"QuickBooks' {which} transaction ({files}) is not in the book on that day"
    if not update:
        return _said(c, f"{cause}: {SAVED}", again=True)
    cause += f": deleted or given another date in GnuCash {SINCE}"
    todo = "find it in GnuCash (Edit › Find, by its date or number) and give it its date again"
    return _said(c, cause, todo)


def _days(files: dt.date | None, book: dt.date | None) -> int:
    """Days from the files' date to the book's (0 when either is missing)."""
    return (book - files).days if files and book else 0


def retyped(types: tuple[str, str], update: bool) -> str:
    """Why an account's type in the book (``types``: QuickBooks', the book's) is not QuickBooks'."""
    quickbooks, book = (GNUCASH_TYPES.get(t, t.title()) for t in types)
    said = f"the type is {quickbooks} in QuickBooks, {book} in GnuCash"
    if update:
        return (
            f"{said}: QuickBooks changed it after the book was written (GnuCash's reports file "
            "the account under another heading); GnuCash changes a type only within its group "
            "(Edit Account): across it, convert into a new book, or move its transactions to a "
            "new account of QuickBooks' type"
        )
    return f"{said}: the book gave it another type than the plan's; write the book again"
