"""Step 3, Map: the account plan (rules, reparenting, report accounts to resolve, currency,
format, cutover) edited as data; every change re-renders the map region with the resulting
GnuCash tree. The plan downloads and uploads as the JSON file ``run.py convert --plan`` takes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast

from flask import Blueprint, Response, request

from app import foreign, postgres, postgres_check
from app.as_of import as_of_words
from app.currency import is_known, unknown
from app.errors import MappingError, MigrationError
from app.model import AccountType, Ledger
from app.pages.archive import archive_view, wants_version
from app.pages.chart import account_rows
from app.pages.mapping import (
    TYPE_WORDS,
    change_made_parent,
    check_parent,
    describe,
    made_parents,
    made_row,
    merge_choices,
    new_parent,
    new_problems,
    parent_choices,
    refuse_breaking,
    row_of,
    tree_balance,
    tree_problems,
    tree_rows,
    where_it_moves,
    with_checked,
)
from app.plan import (
    BookFormat,
    ClassesMode,
    Cutover,
    CutoverMode,
    DocumentsMode,
    Plan,
    Rule,
    RuleKind,
    SalesTaxMode,
    day_hint,
    month_day,
    name_fault,
    parse_day,
    plan_from_bytes,
    plan_from_json,
    target_word,
)
from app.quickbooks import account_type
from app.web.context import fragment, installed, migration, passwords, render, runner, views
from app.words import quoted

bp = Blueprint("mapping", __name__, url_prefix="/m/<mid>")
CURRENCY = re.compile(r"[A-Z]{3}")
TYPES = tuple(t.value for t in AccountType)  # what "retype" takes
PLAN_MB = 64  # what a plan file may hold (of a 100,000-account chart: a few MB)


def _context(plan: Plan | None = None, status_message: str = "") -> dict:
    m = migration()
    plan = plan or m.plan()
    view = views().view(m, plan)
    chart_only = replace(view.resolved, transactions=())
    tree = tree_rows(view.prepared.outline)
    return {
        "m": m,
        "plan": plan,
        "view": view,
        "tree": tree,
        "made_parents": made_parents(tree, plan),
        "tree_balance": tree_balance(view.prepared.outline),
        "type_words": TYPE_WORDS,
        "tree_problems": tree_problems(chart_only, plan),
        "errors": view.prepared.errors,
        "accounts": account_rows(chart_only),
        "unresolved": view.unresolved,
        "chart": [a.full_name for a in view.resolved.accounts],
        "status_message": status_message,
        "describe": describe,
        "types": TYPES,
        "as_of": view.prepared.outline.as_of,
        "as_of_words": as_of_words(view.prepared.outline.as_of),
        "postgres_available": postgres.driver_present(),
        "password_kept": passwords().get(m.id) is not None,
        "foreign": foreign.found(view.resolved, plan.currency),
        "archive": archive_view(
            view.prepared,
            plan,
            installed().get() if wants_version(view.prepared, plan) else None,
        ),
    }


def _show(plan: Plan | None = None, message: str = "", status: int = 200) -> tuple[str, int]:
    return render("mapping/page.html", "mapping/_map.html", status, **_context(plan, message))


def _save(plan: Plan, message: str) -> tuple[str, int]:
    plan = plan_from_json(plan.to_json(), "plan")  # the plan file's own checks
    migration().save_plan(plan)
    return _show(plan, message)


@bp.get("/map")
def page() -> tuple[str, int]:
    return _show()


# the form field holding each change's new value: a name typed, or a choice from a list
FIELDS = {"rename": "target", "move": "parent", "merge": "merge", "retype": "type"}


def _rule_from_form() -> Rule:
    kind = request.form.get("kind", "")
    account = request.form.get("account", "")
    chosen = request.form.get(FIELDS.get(kind, "target"))
    target = (chosen if chosen is not None else request.form.get("target") or "").strip()
    target = target or request.form.get("name", "").strip()
    if kind == "move" and target == "(top level)":
        target = ""
    target = _type_of(target) if kind == "retype" else target
    return Rule(cast(RuleKind, kind), account, target)  # checked with the plan's rules when saved


def _type_of(word: str) -> str:
    """A typed account type as GnuCash names it (``bank``, ``Other Current Asset`` → BANK,
    ASSET); a word that is no type is said to be one the user can correct."""
    kind = account_type(word)
    if kind is None:
        raise MappingError(
            f"{quoted(word)} is not an account type; choose one of the list ({', '.join(TYPES)})."
        )
    return kind.value


@bp.post("/map/rules")
def add_rule() -> tuple[str, int]:
    m = migration()
    rule = _rule_from_form()
    resolved = views().view(m).resolved
    if rule.account not in {a.full_name for a in resolved.accounts}:
        raise MappingError("Choose the QuickBooks account to change from the list.")
    plan = m.plan()
    refuse_breaking(resolved, plan, rule)
    said = "; ".join(filter(None, (describe(rule), _moves(resolved, plan, rule))))
    return _save(plan.with_rule(rule), f"Saved: {said}.")


def _moves(resolved: Ledger, plan: Plan, rule: Rule) -> str:
    return where_it_moves(replace(resolved, transactions=()), plan, rule)


@bp.post("/map/rules/<int:index>/delete")
def delete_rule(index: int) -> tuple[str, int]:
    plan, gone = migration().plan().without_rule(index, request.form.get("rule"))
    return _save(plan, f"Undone: {describe(gone)}.")


@bp.get("/map/edit")
def edit_row() -> tuple[str, int]:
    """Click to edit: one row of the resulting tree as a small form (name and type); ``path``:
    a parent made on the Map step (its name and place)."""
    m = migration()
    account, path = request.args.get("account", ""), request.args.get("path")
    rows = tree_rows(views().view(m).prepared.outline)
    row = row_of(rows, account) if path is None else made_row(rows, m.plan(), path)
    if chosen := request.args.get("type"):  # the type chosen in the form: its lists follow
        row = replace(row, type=AccountType(_type_of(chosen)))
    return fragment(
        "mapping/_tree_row_form.html",
        row=row,
        account=account,
        path=path,
        types=TYPES,
        type_words=TYPE_WORDS,
        parents=parent_choices(rows, row),
        merges=merge_choices(rows, row, account),
    )


@bp.post("/map/edit")
def save_row() -> tuple[str, int]:
    m = migration()
    account = request.form.get("account", "")
    view = views().view(m)
    rows = tree_rows(view.prepared.outline)
    plan, done = m.plan(), []
    name, type_ = request.form.get("name", "").strip(), request.form.get("type", "").strip()
    if (path := request.form.get("path")) is not None:  # a parent made on this step
        under = request.form.get("parent", path.rpartition(":")[0])
        return _save(*change_made_parent(rows, plan, path, name, under))
    row = row_of(rows, account)
    type_ = _type_of(type_) if type_ else ""
    if name and name != row.name:
        plan = with_checked(view.resolved, plan, Rule("rename", account, name))
        done.append(describe(Rule("rename", account, name)))
    if type_ and (row.type is None or type_ != row.type.value):
        retype = Rule("retype", account, type_)
        done.append(describe(retype))
        done.append(_moves(view.resolved, plan, retype))
        plan = with_checked(view.resolved, plan, retype)
    parent = request.form.get("parent")  # chosen in the list, or the row it was dropped on
    if parent is not None:
        check_parent(rows, row, parent, AccountType(type_) if type_ else None)
    if made := request.form.get("new_parent", "").strip():  # a new account, under the one chosen
        parent = new_parent(parent or "", made)
    if parent is not None and parent != row.full_name.rpartition(":")[0]:
        move = Rule("move", account, parent)
        done.append(describe(move))
        plan = with_checked(view.resolved, plan, move)
    if into := request.form.get("merge", ""):
        merge = Rule("merge", account, into)
        done.append(describe(merge))
        plan = with_checked(view.resolved, plan, merge)
    done = [d for d in done if d]
    return _save(plan, ("Saved: " + "; ".join(done) + ".") if done else "Nothing changed.")


@bp.post("/map/check")
def check_rule() -> tuple[str, int]:
    """Inline validation of the rule being typed: what it would break in the tree."""
    m = migration()
    try:
        rule = _rule_from_form()
    except MappingError as exc:  # said beside the field, as it is typed
        return fragment("mapping/_rule_check.html", messages=[exc.message])
    messages: list[str] = []
    note = ""  # a valid retype's new place, when the plan reparents
    if (why := name_fault(rule)) and rule.target:
        messages.append(f"The {target_word(rule)} {why}.")
    elif rule.account and rule.target:
        plan = m.plan()
        resolved = views().view(m, plan).resolved
        try:
            messages = [p.message for p in new_problems(resolved, plan, rule)]
            note = "" if messages else _moves(resolved, plan, rule)
        except MappingError as exc:
            messages.append(exc.message)
    return fragment("mapping/_rule_check.html", messages=messages, note=note)


@bp.post("/map/archive")
def archive_setting() -> tuple[str, int]:
    """The archive option (its own small form): the split day in the plan, or none."""
    f, plan = request.form, migration().plan()
    day = ""
    if f.get("split"):
        try:
            day = parse_day(f.get("split_at", "")).isoformat()
        except ValueError:
            raise MappingError(
                "The working book's first day is a date like 2024-01-01 (the start of a fiscal "
                "year is usual)."
            ) from None
    said = f"Saved: an archive book and a working book from {day}." if day else "Saved: one book."
    return _save(replace(plan, cutover=replace(plan.cutover, split_at=day)), said)


@bp.post("/map/settings")
def settings() -> tuple[str, int]:
    f = request.form
    currency = f.get("currency", "USD").strip().upper()
    if not CURRENCY.fullmatch(currency):
        raise MappingError(
            f"The currency must be a three-letter ISO code like USD (got {quoted(currency)})."
        )
    if not is_known(currency):
        words = unknown(currency)
        raise MappingError(f"{words[0].upper()}{words[1:]}.")
    cutover = Cutover(
        mode=cast(CutoverMode, f.get("mode", "full")),  # checked with the plan's rules
        date=_day(f.get("date", ""), "cutover date") if f.get("mode") == "balances_only" else "",
        opening_balances=bool(f.get("opening_balances")),
        fiscal_year_start=_month_day(f.get("fiscal_year_start", "")),
        ytd_to_retained=bool(f.get("ytd_to_retained")),
        export_date=_export_date(f.get("export_date", ""), f.get("export_date_guess", "")),
        split_at=migration().plan().cutover.split_at,  # (its own form: archive_setting)
    )
    if cutover.mode == "balances_only" and not cutover.date:
        raise MappingError("Balances only needs a cutover date: the day the GnuCash book starts.")
    plan = migration().plan()
    plan = replace(
        plan,
        reparent=bool(f.get("reparent")),
        currency=currency,
        format=cast(BookFormat, f.get("format", "xml")),  # checked with the plan's rules
        database=_database(f.get("format", "xml"), plan.database),
        cutover=cutover,
        documents=cast(DocumentsMode, f.get("documents", plan.documents)),  # the plan's rules
        foreign_as_home=bool(f.get("foreign_as_home")),
        sales_tax=cast(SalesTaxMode, f.get("sales_tax", plan.sales_tax)),  # the plan's rules
        classes=cast(ClassesMode, f.get("classes", plan.classes)),  # the plan's rules
    )
    return _save(plan, "Settings saved.")


def _database(fmt: str, before: str) -> str:
    """The plan's PostgreSQL database as the settings form leaves it (its own form sets it:
    ``test_database``); another format keeps the address for later, not the password."""
    if fmt != "postgres":
        passwords().forget(migration().id)
    elif not postgres.driver_present():
        raise MappingError(postgres.NO_DRIVER)
    return before


@bp.post("/map/database")
def test_database() -> tuple[str, int]:
    """The database's own form: its address saved in the plan, the password typed kept in
    memory only, and the connection tested with them (else with the kept password): the Map
    step says what writing the book there would do, or why it cannot."""
    m, f = migration(), request.form
    plan, typed = m.plan(), f.get("database", "").strip()
    ok, said = False, ""
    try:
        if not postgres.driver_present():
            raise MappingError(postgres.NO_DRIVER)
        address = postgres.parse_address(typed)
        if password := f.get("db_password", ""):
            passwords().keep(m.id, password)
        if address.url != plan.database:
            plan = replace(plan, database=address.url)
            m.save_plan(plan)
        last = runner().book(m)
        ours = last is not None and last.job.database == address.url
        said = postgres_check.connection_words(address, passwords().get(m.id), ours)
        ok, typed = True, address.url
    except MigrationError as exc:  # an address that is no address, a server that says no
        said = exc.message[0].upper() + exc.message[1:]
    context = _context(plan) | {"database_test": (ok, said), "database_typed": typed}
    return render("mapping/page.html", "mapping/_map.html", **context)


def _export_date(text: str, guess: str) -> str:
    """The export date typed; the prefilled guess left as it was stays a guess ("")."""
    return "" if text.strip() == guess.strip() else _day(text, "export date")


def _day(text: str, what: str) -> str:
    """A day typed in a date field, as YYYY-MM-DD ("" stays ""); said when it is none."""
    try:
        return parse_day(text).isoformat() if text.strip() else ""
    except ValueError:
        said = f"{quoted(text.strip())}{day_hint(text)}"
        raise MappingError(f"The {what} is a date like 2024-01-02 (got {said}).") from None


def _month_day(text: str) -> str:
    try:
        return month_day(text)  # "" = read from QuickBooks' figures
    except ValueError:
        raise MappingError(
            f"The fiscal year start is a month and day like 01-01 or 07-01 (got {quoted(text)})."
        ) from None


@bp.post("/map/resolve")
def resolve_label() -> tuple[str, int]:
    m = migration()
    label, target, plan = request.form.get("label", ""), request.form.get("target", ""), m.plan()
    if label not in {*plan.account_map, *(u.label for u in views().view(m).unresolved)}:
        raise MappingError(f"No file has a report account {quoted(label)}; reload the page.")
    if target:
        account_map = {**plan.account_map, label: target}
        message = f"{quoted(label)} goes to {quoted(target)}."
    else:
        account_map = {k: v for k, v in plan.account_map.items() if k != label}
        message = f"{quoted(label)} is open again."
    return _save(replace(plan, account_map=account_map), message)


@bp.get("/plan.json")
def download_plan() -> Response:
    return Response(
        migration().plan().to_json(),
        mimetype="application/json",
        headers={"Content-Disposition": "attachment; filename=qb2gnucash-plan.json"},
    )


@bp.post("/plan")
def upload_plan() -> tuple[str, int]:
    f = request.files.get("plan")
    if f is None or not f.filename:
        raise MappingError("Choose a plan file (.json, saved from this page) to upload.")
    data = f.stream.read(PLAN_MB * 1024 * 1024 + 1)  # (a plan over 2 MiB was cut: hunt 20)
    if len(data) > PLAN_MB * 1024 * 1024:
        raise MappingError(f"{f.filename} is over {PLAN_MB} MB: choose the plan saved here")
    plan = plan_from_bytes(data, f.filename, strict=True)
    return _save(plan, f"Plan loaded from {f.filename}.")
