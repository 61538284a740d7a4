"""The one setting that resolves a finding (``Problem.fix``, ``Row.fix``), in each front end's
words: the wizard names its Map step's options, the command line its flags. Nothing else words
them, so a wizard user never reads a command-line flag."""

from __future__ import annotations

from typing import Literal

Fix = Literal[
    "",
    "opening_balances",
    "fiscal_year_start",
    "export_date",
    "files",
    "history_gap",  # a stretch no file covers: add its files, or start from the balances alone
    "balances_only",
    "repeated",  # in the files twice; "same_day": exported again, the same day
    "same_day",
    "accept_cut",
    "date_order",  # a file's dates read in the order other files disprove
    "currency",
    "account_map",  # a report's account label to place in the chart
    "chart",  # report labels that only a chart of accounts tells apart
    "remove",  # a file none of the readers could read: leave it out
    "cutover_date",  # only the balances, on another day than QuickBooks' figures
    "account_type",  # an account without a GnuCash type
    "unknown_account",  # a change (a flag, a plan's rule, a Map step change) naming no account
    "merge_crossed",  # a merge across the balance-sheet line (``Account.crossed``)
    "book_rule_gone",  # an update: the book's own change names an account the exports lack
]
Audience = Literal["cli", "wizard"]
Step = Literal["files", "map"]  # the wizard step where a finding's setting is made

WORDS: dict[Audience, dict[Fix, str]] = {
    "cli": {
        "opening_balances": "add --opening-balances",
        "fiscal_year_start": "give --fiscal-year-start MM-DD",
        "export_date": "give --export-date YYYY-MM-DD, the day the lists were exported",
        "files": "check that every transaction file is given",
        "history_gap": "give the transaction files that cover that period",
        "balances_only": "start the book from QuickBooks' balances alone with --balances-only "
        "YYYY-MM-DD (the transactions before that day are then left out)",
        "repeated": "give each transaction file once, each holding its report once (export "
        "again a file that holds a report twice)",
        "same_day": "export the lists and the transaction report again, the same day, from the "
        "company's file as it is now, and give those",
        "accept_cut": "export it again by date range (a year at a time) and give every file, or "
        "add --accept-truncated {file} if the cut is expected",
        "date_order": "give --date-order with that file's order, dmy or mdy (every file given is "
        "then read so)",
        "currency": "give --currency with an ISO code such as USD",
        "account_map": "map it to a chart account with account_map in a plan file (--plan)",
        "chart": "give the IIF lists export too, or give each label its own account with "
        "account_map in a plan file (--plan)",
        "remove": "leave this file out (if a QuickBooks export was meant, give that instead)",
        "cutover_date": "give --balances-only the day of QuickBooks' figures",
        "unknown_account": "write the account's full name as the files spell it (Parent:Child) "
        "in --type or the plan file {plan}, or give the file that lists it",
        "merge_crossed": "leave that merge out of the plan file, or merge into an account of "
        "its kind (retype one of them first)",
        "book_rule_gone": "give the lists export that names that account; if QuickBooks deleted "
        "it since the last run, convert the exports into a new book (this one keeps its change)",
    },
    "wizard": {
        "opening_balances": "tick “an opening-balance transaction” on the Map step",
        "fiscal_year_start": "set “Fiscal year starts” on the Map step",
        "export_date": "set “Export date” on the Map step to the day the lists were exported",
        "files": "check on the Files step that every transaction file is there",
        "history_gap": "add the transaction files that cover that period on the Files step",
        "balances_only": "choose “Only the balances, on a cutover date” on the Map step (the "
        "book then starts from QuickBooks' balances on that day, without the transactions "
        "before it)",
        "repeated": "check on the Files step that no file is there twice, and export again a "
        "file that holds a report twice",
        "same_day": "export the lists and the transaction report again, the same day, from the "
        "company's file as it is now, and replace them on the Files step",
        "accept_cut": "export it again by date range (a year at a time) and upload every file",
        "date_order": "set that file's date order on the Files step",
        "currency": "set “Currency” on the Map step to an ISO code such as USD",
        "account_map": "choose its account under “Report accounts to place” on the Map step",
        "chart": "add the lists export on the Files step (in QuickBooks: File › Utilities › "
        "Export › Lists to IIF Files)",
        "remove": "remove it on the Files step (if a QuickBooks export was meant, add that "
        "instead)",
        "cutover_date": "set “Cutover date” on the Map step to the day of QuickBooks' figures",
        "account_type": "on the Map step, choose “Change…” beside it in “The GnuCash accounts” "
        "and pick its GnuCash type",
        "unknown_account": "choose “undo” beside the change under “Your changes” on the Map "
        "step, or add the file that lists the account again on the Files step",
        "merge_crossed": "choose “undo” beside that merge under “Your changes” on the Map step, "
        "or merge into an account of its kind (change one of their types first)",
        "book_rule_gone": "add the lists export that names that account; if QuickBooks deleted "
        "it since the last run, start a new migration with these exports (this book keeps its "
        "change)",
    },
}


# The findings resolved on the Files step (a file to add or export again); every other setting
# is on the Map step.
FILES_STEP: frozenset[Fix] = frozenset(
    {"files", "history_gap", "accept_cut", "chart", "remove", "same_day", "date_order"}
)
# A fix with a second way out, said after it ("…, or …"): a history with a gap is made whole by
# its missing files, or left out for a book from QuickBooks' balances alone; a book with no
# history at all starts from the balances, or is given its transaction files.
OR_ELSE: dict[Fix, Fix] = {"history_gap": "balances_only", "balances_only": "files"}


def ways(fix: Fix) -> tuple[Fix, ...]:
    """The settings that each resolve ``fix`` on their own: itself, then its other way out."""
    if not fix:
        return ()
    return (fix, OR_ELSE[fix]) if fix in OR_ELSE else (fix,)


def step(fix: Fix) -> Step | None:
    """The wizard step that holds the setting resolving ``fix``; None when nothing is set."""
    if not fix:
        return None
    return "files" if fix in FILES_STEP else "map"


def parts(fix: Fix, audience: Audience, file: str = "", plan: str = "") -> list[tuple[Fix, str]]:
    """Each way out of ``fix`` and its words for ``audience`` (a page links each to its
    ``step``). ``file``: the file the finding is about, for words that name it; ``plan``: the
    plan file given (the command line's ``--plan``), for words that name it."""
    said = ((way, WORDS[audience].get(way, "")) for way in ways(fix))
    return [
        (way, w.replace("{file}", file or "FILE").replace("{plan}", plan or "(--plan)"))
        for way, w in said
        if w
    ]


def action(fix: Fix, audience: Audience, file: str = "", plan: str = "") -> str:
    """ "add --opening-balances"; "" when there is nothing to set. A fix with two ways out says
    both ("…, or …")."""
    return ", or ".join(w for _, w in parts(fix, audience, file, plan))


def with_fix(message: str, fix: Fix, audience: Audience, file: str = "", plan: str = "") -> str:
    """The message followed by what to do about it, if anything."""
    what = action(fix, audience, file, plan)
    return f"{message}; to fix: {what}" if what else message
