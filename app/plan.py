"""The user's edits as data: a plan saved as JSON, used by the wizard and `run.py convert --plan`.

Rules name accounts by their source full name (as parsed, e.g. QuickBooks ``Utilities:Gas``), so a
plan stays valid however the other rules change the tree:
- ``rename``: target = the new leaf name (no ``:``);
- ``move``: target = the new parent's full name in the resulting GnuCash tree ("" = top level);
- ``merge``: target = the source full name of the account that receives this one's splits;
- ``retype``: target = a GnuCash account type (``BANK``, ``EXPENSE``...).
``account_map`` sends an unresolved report label (unknown or ambiguous account cell) to a source
full name. ``files`` holds per-file reading options (date order, hand-mapped CSV columns, a cut at
the export cap accepted).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal, get_args

from app.errors import MappingError
from app.fileio import write_text
from app.model import AccountType, DateOrderCode, ReadOptions
from app.plan_reader import CUTOVER, FILE, RULE, TOP, Reader, no_text
from app.postgres import parse_address
from app.words import one_of, quoted

RuleKind = Literal["rename", "move", "merge", "retype"]
BookFormat = Literal["xml", "sqlite", "postgres"]
CutoverMode = Literal["full", "balances_only"]
DocumentsMode = Literal["all", "open", "none"]
SalesTaxMode = Literal["tables", "lines"]
ClassesMode = Literal["accounts", "memo", "none"]
# a change in QuickBooks that an update held (docs/UPDATE.md): take QuickBooks' version, or
# keep the book's
HeldChoice = Literal["quickbooks", "book"]
HELD_CHOICES: tuple[HeldChoice, ...] = get_args(HeldChoice)
RULE_KINDS: tuple[RuleKind, ...] = get_args(RuleKind)
FORMATS: tuple[BookFormat, ...] = get_args(BookFormat)
CUTOVER_MODES: tuple[CutoverMode, ...] = get_args(CutoverMode)
DOCUMENTS_MODES: tuple[DocumentsMode, ...] = get_args(DocumentsMode)
SALES_TAX_MODES: tuple[SalesTaxMode, ...] = get_args(SalesTaxMode)
CLASSES_MODES: tuple[ClassesMode, ...] = get_args(ClassesMode)
_DAY = re.compile(r"\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*")
FIRST_YEAR, LAST_YEAR = 1901, 2099  # the dates QuickBooks Desktop takes
_MONTH_DAY = re.compile(r"\s*(\d{1,2})[-/](\d{1,2})\s*")


def parse_day(text: str) -> dt.date:
    """A YYYY-MM-DD date (cutover, export date; 2024-1-5 and 2024/01/05 too, never a day
    before its month); ValueError saying what was expected."""
    m = _DAY.fullmatch(text)
    try:
        if not m:
            raise ValueError
        day = dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise ValueError(
            f"expected a date YYYY-MM-DD (got {quoted(text)}{day_hint(text)})"
        ) from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:  # (hunt 24: year 1 saved, then every page a 500)
        raise ValueError(
            f"expected a date in the years {FIRST_YEAR}-{LAST_YEAR}, as QuickBooks has them "
            f"(got {quoted(text)})"
        )
    return day


_SLASHED = re.compile(r"\s*(\d{1,2})[/.](\d{1,2})[/.](\d{4})\s*")


def day_hint(text: str) -> str:
    """For a day written the American or the European way where only one reading is a date
    (12/31/2023, 31.12.2023): ": for that day write 2023-12-31"; "" otherwise (01/02/2024
    could be either, and is never guessed)."""
    m = _SLASHED.fullmatch(text)
    if not m:
        return ""
    a, b, year = int(m[1]), int(m[2]), int(m[3])
    found = set()
    for month, day in ((a, b), (b, a)):
        try:
            found.add(dt.date(year, month, day))
        except ValueError:
            pass
    return f": for that day write {found.pop().isoformat()}" if len(found) == 1 else ""


def month_day(text: str) -> str:
    """A fiscal year start as "MM-DD" ("7-1" and "07/01" too; February 29 is a real start);
    "" stays "" (read from QuickBooks' figures). ValueError saying what was expected."""
    if not text.strip():
        return ""
    m = _MONTH_DAY.fullmatch(text)
    try:
        if not m:
            raise ValueError
        dt.date(2000, int(m[1]), int(m[2]))  # a leap year accepts every real MM-DD
    except ValueError:
        raise ValueError(
            f"expected a month and day MM-DD, e.g. 07-01 (got {quoted(text)})"
        ) from None
    return f"{int(m[1]):02d}-{int(m[2]):02d}"


@dataclass(frozen=True, slots=True)
class Rule:
    kind: RuleKind
    account: str
    target: str

    @property
    def key(self) -> str:
        """The change as a page names it in a form (its undo: the one shown, not its place)."""
        return f"{self.kind}|{self.account}|{self.target}"


@dataclass(frozen=True, slots=True)
class Cutover:
    """``full``: all history (``opening_balances`` posts what history does not explain);
    ``balances_only``: one opening transaction on ``date`` from the source trial balance
    (``ytd_to_retained`` folds this year's income/expense into retained earnings)."""

    mode: CutoverMode = "full"
    date: str = ""  # YYYY-MM-DD, balances_only
    opening_balances: bool = False
    fiscal_year_start: str = ""  # MM-DD; "" = read from QuickBooks' figures, else January 1st
    ytd_to_retained: bool = False
    export_date: str = ""  # YYYY-MM-DD: the day of the lists export, when no file says it
    # YYYY-MM-DD: the history before it in an archive book, a working book from it (app.archive)
    split_at: str = ""


@dataclass(frozen=True, slots=True)
class FileOptions:
    date_order: DateOrderCode = ""  # "": detect
    columns: dict[str, str] = field(default_factory=dict)
    # The file is cut at QuickBooks' export cap and the user says that is expected: converted,
    # the proof naming the missing period (else a file that looks cut is an error).
    truncated_ok: bool = False

    def read_options(self) -> ReadOptions:
        return ReadOptions(
            date_order=self.date_order or None,
            columns=tuple(sorted(self.columns.items())),
            truncated_ok=self.truncated_ok,
        )


@dataclass(frozen=True, slots=True)
class Plan:
    rules: tuple[Rule, ...] = ()
    reparent: bool = False
    currency: str = "USD"
    format: BookFormat = "xml"
    # with format "postgres", the wizard's database: postgres://USER@HOST:PORT/DB (never a
    # password; the command line takes it from -o instead)
    database: str = ""
    account_map: dict[str, str] = field(default_factory=dict)
    files: dict[str, FileOptions] = field(default_factory=dict)
    cutover: Cutover = Cutover()
    # invoices, bills, credit notes and payments as GnuCash documents: every one, only those
    # still open (the rest stay plain transactions), or none (the GL alone)
    documents: DocumentsMode = "all"
    # accounts and names QuickBooks keeps in another currency: converted at their home-currency
    # values (else such a company is refused; app.foreign)
    foreign_as_home: bool = False
    # sales tax items and groups as GnuCash tax tables on the invoices (QuickBooks' tax kept as
    # plain lines where GnuCash's own figure would differ by a cent), or as plain lines only
    sales_tax: SalesTaxMode = "tables"
    # QuickBooks' classes (docs/CLASSES.md): a sub-account per class under each income and
    # expense account, on each split (memo prefix and slot), or not carried (said so)
    classes: ClassesMode = "memo"
    # bringing a book up to date: a held change's key (``app.keys``) → the user's decision
    held: dict[str, HeldChoice] = field(default_factory=dict)

    def with_rule(self, rule: Rule) -> Plan:
        """A new plan where ``rule`` replaces any earlier rule of the same kind on that account."""
        kept = tuple(r for r in self.rules if (r.kind, r.account) != (rule.kind, rule.account))
        return replace(self, rules=(*kept, rule))

    def without_rule(self, index: int, shown: str | None = None) -> tuple[Plan, Rule]:
        """The plan without its change at ``index`` (``shown``: the ``Rule.key`` the page
        showed there: a stale tab's undo took away another change, hunt 24), and that change;
        MappingError when it is not there."""
        rules = list(self.rules)
        if shown is not None:  # (found by what it is: another tab's undo moved it, hunt 25)
            index = next((i for i, r in enumerate(rules) if r.key == shown), -1)
        if not 0 <= index < len(rules):
            raise MappingError("That change is no longer in the plan; the page was out of date.")
        gone = rules.pop(index)
        return replace(self, rules=tuple(rules)), gone

    def with_parent_path(self, old: str, new: str) -> Plan:
        """A new plan where every move into ``old``, or into an account under it, goes to
        ``new`` instead: a parent made on the Map step (a move's new account), renamed or
        moved with everything under it."""

        def moved(target: str) -> str:
            target = target.strip()
            inside = target == old or target.startswith(old + ":")
            return new + target[len(old) :] if inside else target

        rules = (replace(r, target=moved(r.target)) if r.kind == "move" else r for r in self.rules)
        return replace(self, rules=tuple(rules))

    def file_options(self, filename: str) -> ReadOptions:
        return self.files.get(filename, FileOptions()).read_options()

    def to_json(self) -> str:
        data = asdict(self)
        data["rules"] = [asdict(r) for r in self.rules]
        return json.dumps(data, indent=2, sort_keys=True) + "\n"


def plan_from_json(text: str, origin: str = "plan", *, strict: bool = False) -> Plan:
    """Parse and check a plan; errors name what is wrong. Every value must have its setting's
    type (a wrong one was turned into another: ``"reparent": "false"`` read as on, a rule's
    ``null`` target as an account named "None"); ``strict`` (a plan the user gives) refuses
    a setting the program does not know too (a typo, ``"rulez"``, dropped every rule)."""
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError as exc:
        raise MappingError(  # (not Python's words, "Expecting value": hunt 28)
            f"{origin}:{exc.lineno}: not valid JSON (at column {exc.colno}): not a plan file "
            "saved by qb2gnucash, or edited since"
        ) from None
    except RecursionError:
        raise MappingError(f"{origin}: not a plan (its JSON is nested too deeply)") from None
    except ValueError:  # (Python's own limit: an integer of more than 4,300 digits)
        raise MappingError(f"{origin}: not a plan (it holds a number too long to read)") from None
    if where := no_text(data):
        raise MappingError(
            f"{origin}: {where} holds a character that is no text (a lone UTF-16 surrogate, "
            "written \\ud800 to \\udfff in JSON); correct the plan file, or save it again from "
            "the Map step"
        )
    read = Reader(origin, strict)
    data = read.object(data, "", TOP)
    if "currency" in data:  # (as --currency reads it: "eur" is EUR)
        data["currency"] = data["currency"].strip().upper()
    cut = read.object(data.get("cutover", {}), "cutover", CUTOVER)
    files = {}
    for name, options in read.object(data.get("files", {}), "files", None).items():
        o = read.object(options, f"files.{name}", FILE)
        columns = read.texts(o.get("columns", {}), f"files.{name}.columns")
        files[name] = FileOptions(o.get("date_order", ""), columns, o.get("truncated_ok", False))
    rules = []
    for n, given in enumerate(data.get("rules", []), 1):
        r = read.object(given, f"rules[{n}]", RULE, required=True)
        # a rename's new name is composed (NFC); a merge's or move's target names an account as
        # the files write it (hunt 16: a decomposed "Café" composed named no account)
        target = unicodedata.normalize("NFC", r["target"]) if r["kind"] == "rename" else r["target"]
        rules.append(Rule(r["kind"], r["account"], target))
    for what in ("account_map", "held"):
        data[what] = read.texts(data.get(what, {}), what)
    plan = Plan(
        rules=tuple(rules),
        files=files,
        cutover=Cutover(**cut),
        **{k: v for k, v in data.items() if k not in ("rules", "files", "cutover")},
    )
    _check(plan, origin, strict)
    return plan


# direction embeddings, overrides and isolates, and the byte-order mark: they make a name read
# otherwise than it is (a joiner, which emoji and Persian words need, is a name's own)
_HIDING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")


def target_word(rule: Rule) -> str:
    """What a rule's target is called in a message: a rename's "new name", a move's "new
    parent"."""
    return "new parent" if rule.kind == "move" else "new name"


def name_fault(rule: Rule) -> str:
    """Why a rename's new name (or a move's new parent path) cannot be an account's, "" when
    it can: empty, ':' inside a name (it separates levels), a control character (a NUL cuts
    the name where GnuCash stores it; a tab or line break hides in every list)."""
    if rule.kind not in ("rename", "move"):
        return ""
    name = rule.target
    if rule.kind == "rename" and not name.strip():
        return "must not be empty"
    if len(name) > 500:
        return "must be at most 500 characters long"
    if rule.kind == "rename" and ":" in name:
        return "must not contain “:” (GnuCash puts it between the levels of a name)"
    if rule.kind == "move" and name.strip() and not all(p.strip() for p in name.split(":")):
        return "must name every level (Parent:Child, nothing empty between two “:”)"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "must not contain a control character (a tab, a line break, a NUL)"
    if any(unicodedata.category(c) in ("Cs", "Zl", "Zp") or c in _HIDING for c in name):
        return (
            "must not contain an invisible character that changes how text reads (a line "
            "separator, a direction override, a byte-order mark, a lone half of a character)"
        )
    if rule.kind == "rename" and name != name.strip():
        return "must not begin or end with a space (it would stand beside the name without one)"
    return ""


def _check(plan: Plan, origin: str, strict: bool) -> None:
    """Each setting one of its values; a new name's fault refused in a plan the user gives (in
    a plan saved here by an earlier version it is a problem of the Map step, where the change is
    listed to undo: the migration kept opening, hunt 16)."""
    types = {t.value for t in AccountType}
    for r in plan.rules:
        if r.kind not in RULE_KINDS:
            raise MappingError(
                f"{origin}: unknown rule kind {quoted(r.kind)} (expected {one_of(RULE_KINDS)})"
            )
        if r.kind == "retype" and r.target not in types:
            raise MappingError(
                f"{origin}: unknown account type {quoted(r.target)} for {quoted(r.account)}"
            )
        if strict and (why := name_fault(r)):
            raise MappingError(
                f"{origin}: {target_word(r)} {quoted(r.target)} for {quoted(r.account)} {why}"
            )
    if plan.format not in FORMATS:
        raise MappingError(
            f"{origin}: format must be {one_of(FORMATS)} (got {quoted(plan.format)})"
        )
    _check_database(plan.database, origin)
    if plan.cutover.mode not in CUTOVER_MODES:
        said = f"{origin}: cutover mode must be {one_of(CUTOVER_MODES)}"
        raise MappingError(f"{said} (got {quoted(plan.cutover.mode)})")
    for name, value, allowed in (
        ("documents", plan.documents, DOCUMENTS_MODES),
        ("sales_tax", plan.sales_tax, SALES_TAX_MODES),
        ("classes", plan.classes, CLASSES_MODES),
    ):
        if value not in allowed:
            raise MappingError(f"{origin}: {name} must be {one_of(allowed)} (got {quoted(value)})")
    _check_days(plan.cutover, origin)
    _check_held(plan, origin)
    for name, fo in plan.files.items():
        if fo.date_order not in ("", "mdy", "dmy"):
            raise MappingError(f"{origin}: date order for {name} must be mdy or dmy")


def _check_days(cut: Cutover, origin: str) -> None:
    """The cutover's fiscal year start and split day are well formed."""
    if cut.fiscal_year_start:
        try:
            month_day(cut.fiscal_year_start)
        except ValueError as exc:
            raise MappingError(f"{origin}: fiscal year start: {exc}") from None
    if cut.split_at:
        try:
            parse_day(cut.split_at)
        except ValueError as exc:
            raise MappingError(f"{origin}: split_at: {exc}") from None


def _check_held(plan: Plan, origin: str) -> None:
    for key, choice in plan.held.items():
        if choice not in HELD_CHOICES:
            raise MappingError(f"{origin}: held change {key}: expected {one_of(HELD_CHOICES)}")


def _check_database(address: str, origin: str) -> None:
    """A plan's database address is well formed and holds no password."""
    if address:
        try:
            parse_address(address)
        except MappingError as exc:
            raise MappingError(f"{origin}: database: {exc.message}") from None


def load_plan(path: Path, *, strict: bool = False) -> Plan:
    """The plan in ``path``; ``strict``: ``plan_from_json``."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise MappingError(f"{path}: cannot read the plan ({exc.strerror})") from None
    return plan_from_bytes(data, str(path), strict=strict)


def plan_from_bytes(data: bytes, origin: str, *, strict: bool = False) -> Plan:
    """A plan file's bytes (UTF-8, a byte-order mark allowed) as ``plan_from_json`` reads it."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise MappingError(
            f"{origin}: not a plan saved by qb2gnucash (its text is not UTF-8); save it again "
            "from the Map step, or as UTF-8"
        ) from None
    return plan_from_json(text, origin, strict=strict)


def save_plan(plan: Plan, path: Path) -> None:
    """Atomically: a crash never leaves half a plan."""
    write_text(path, plan.to_json())
