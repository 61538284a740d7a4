"""Account labels as printed in reports → full names of the chart of accounts.

A report cell may hold ``Utilities:Gas``, ``7751 · Gas and Electric``, ``6200 - Automobile:6210 -
Fuel``, a bare account number (IIF SPL rows can carry ACCNUM instead of a name), ``Checking (Main
account)`` or just the leaf name. Each label is resolved once, in this order: the plan's
``account_map``, exact full name, number prefix (by code, then by name), bare number (by code), a
trailing ``(…)`` stripped, then a unique leaf or partial path. Ambiguous and unknown labels become
one error per label: never a catch-all account.

Without a chart of accounts (reports only), the accounts are created from the labels: number
prefixes become codes, ``:`` the hierarchy (missing parents are created as placeholders), the type
comes from the report's Account Type column, else stays None for the user to choose.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from operator import attrgetter

from app.account_labels import NUMBER, ChartIndex, parents, parse_label, prefix_code
from app.model import Account, Ledger, Problem, Role, Split, Transaction
from app.quickbooks import ACCOUNT_TYPES, TYPE_WORDS, builtin_account, created_warning
from app.source import Source, line_list
from app.words import quoted

_SPLIT_FIELDS = tuple(f.name for f in fields(Split))
_SPLIT_REST = attrgetter(*_SPLIT_FIELDS[1:])  # every field after ``account``, in order
_ACCOUNT = attrgetter("account")
_TXN_FIELDS = tuple(f.name for f in fields(Transaction))
_TXN_REST = attrgetter(*_TXN_FIELDS[2:])  # every field after ``date`` and ``splits``
assert _TXN_FIELDS[:2] == ("date", "splits"), "renamed() builds transactions positionally"
assert _SPLIT_FIELDS[0] == "account", "with_account() builds splits positionally"


def with_account(split: Split, account: str) -> Split:
    """``replace(split, account=account)``, twice as fast (run on every split of a history)."""
    return Split(account, *_SPLIT_REST(split))


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A report label that names no single chart account: for the Map step."""

    label: str
    candidates: tuple[str, ...]  # chart accounts it could be (empty: unknown)
    sources: tuple[Source, ...]  # every line using it
    mapped_to: str = ""  # an account_map target that is not in the chart

    @property
    def problem(self) -> Problem:
        where = line_list(self.sources)
        if self.mapped_to:
            text = (
                f"account {quoted(self.label)} is placed in {quoted(self.mapped_to)}, which is "
                "not in the "
                f"chart of accounts ({where})"
            )
        elif self.candidates:
            shown = ", ".join(self.candidates[:5]) + (", ..." if len(self.candidates) > 5 else "")
            text = f"account {quoted(self.label)} ({where}) is ambiguous ({shown})"
        elif not self.label.strip():
            text = empty_account(self.sources)
        else:
            text = f"account {quoted(self.label)} ({where}) is not in the chart of accounts"
        return Problem(self.sources[0], text, fix="account_map")


def empty_account(sources: tuple[Source, ...]) -> str:
    """An account cell left empty: which lines, and what to do."""
    return (
        f"the account cell is empty ({line_list(sources)}): every line of a transaction needs "
        "its account; fill it in QuickBooks and export again"
    )


def _labels(ledger: Ledger) -> dict[str, list[Split]]:
    labels: dict[str, list[Split]] = defaultdict(list)
    for t in ledger.transactions:
        for s in t.splits:
            labels[s.account].append(s)
    return labels


@dataclass(frozen=True, slots=True)
class _Found:
    names: dict[str, str]  # label → chart full name, where they differ
    open_: list[Unresolved]
    created: dict[str, Account]  # QuickBooks' built-in accounts the chart lacks, by full name
    warnings: list[Problem]


def _lookup(ledger: Ledger, labels: dict[str, list[Split]], account_map: dict[str, str]) -> _Found:
    """Against the chart: label → full name where it differs, and the labels left open."""
    index = ChartIndex(ledger.accounts)
    names: dict[str, str] = {}
    open_: list[Unresolved] = []
    created: dict[str, Account] = {}
    warnings: list[Problem] = []
    for label, splits in labels.items():
        where = tuple(s.source for s in splits)
        if label in account_map:
            target = account_map[label]
            if target in index.full:
                names[label] = target
            else:
                open_.append(Unresolved(label, (), where, mapped_to=target))
            continue
        found = index.find(label)
        full, code, _ = parse_label(label)
        made = None if found else created.get(full) or builtin_account(full, code, where[0])
        if len(found) == 1:
            if found[0] != label:
                names[label] = found[0]
        elif made is not None:
            created[made.full_name] = made
            warnings.append(created_warning(made, label, line_list(where)))
            if made.full_name != label:
                names[label] = made.full_name
        else:
            open_.append(Unresolved(label, tuple(found), where))
    return _Found(names, open_, created, warnings)


def unresolved(ledger: Ledger, account_map: dict[str, str]) -> list[Unresolved]:
    """The labels of a parsed ledger that ``resolve`` cannot place (none without a chart)."""
    if not ledger.chart:
        return []
    return _lookup(ledger, _labels(ledger), account_map).open_


def resolve(ledger: Ledger, account_map: dict[str, str]) -> Ledger:
    """A new ledger whose splits name chart accounts; problems added for labels left alone."""
    labels = _labels(ledger)
    if not ledger.chart:
        return _infer(ledger, labels, account_map)
    found = _lookup(ledger, labels, account_map)
    return replace(
        ledger,
        accounts=(*ledger.accounts, *found.created.values()),
        transactions=renamed(ledger.transactions, found.names),
        problems=(*ledger.problems, *found.warnings, *(u.problem for u in found.open_)),
    )


def renamed(
    transactions: tuple[Transaction, ...], names: Mapping[str, str]
) -> tuple[Transaction, ...]:
    """``transactions`` with every split's account renamed by ``names`` (old → new); those
    without such a split are kept as they are (the same objects). Fast: it runs on a whole
    history at each Map change."""
    if not names:
        return transactions
    keep = names.keys().isdisjoint
    get = names.get
    return tuple(
        t
        if keep(map(_ACCOUNT, t.splits))
        else Transaction(
            t.date,
            tuple(with_account(s, get(a := s.account, a)) for s in t.splits),
            *_TXN_REST(t),
        )
        for t in transactions
    )


def _infer(ledger: Ledger, labels: dict[str, list[Split]], account_map: dict[str, str]) -> Ledger:
    """No chart: one account per distinct label (after the plan's account_map)."""
    made: dict[str, Account] = {a.full_name: a for a in ledger.accounts}
    names: dict[str, str] = {}
    aliases, problems = _by_code(ledger.accounts, labels, account_map)
    for label, splits in labels.items():
        target = account_map.get(label)
        if target is None and not label.strip():
            problems.append(
                Problem(splits[0].source, empty_account(tuple(s.source for s in splits)))
            )
            continue
        if target is not None:
            full, code, description = target.strip(), "", ""
        else:
            full, code, description = parse_label(label)
            full = aliases.get(label, full)
        old = made.get(full)
        if old is not None and code and old.code and code != old.code:
            problems.append(  # two numbered accounts with one leaf name: never merged silently
                Problem(
                    splits[0].source,
                    f"account {quoted(label)} ({line_list(s.source for s in splits)}) and account "
                    f"number {old.code} would both be {quoted(full)} without a chart of accounts",
                    fix="chart",
                )
            )
            continue
        names[label] = full
        kinds = list(dict.fromkeys(s.account_type_label.strip() for s in splits))
        kinds = [k for k in kinds if k]
        codes = (c for k in kinds if (c := TYPE_WORDS.get(k.casefold())))
        known = list(dict.fromkeys((ACCOUNT_TYPES[c], c) for c in codes))
        if len(known) > 1:
            problems.append(
                Problem(
                    splits[0].source,
                    f"account {quoted(label)} has several account types in the report "
                    f"({', '.join(kinds)}); the first is used",
                    "warning",
                )
            )
        kind_type, kind_label = known[0] if known else (None, kinds[0] if kinds else "")
        builtin = None if kind_type else builtin_account(full, code, splits[0].source)
        if builtin is not None:  # the report gives no type, QuickBooks' own name does
            kind_type, kind_label = builtin.type, builtin.kind_label
        if old is None or old.placeholder:
            made[full] = Account(
                full_name=full,
                type=kind_type,
                source=splits[0].source,
                kind_label=kind_label,
                code=code,
                description=description,
                role=builtin.role if builtin else Role.NONE,
            )
        else:  # another label of the same account: fill in what it lacked
            if old.type is None and kind_type:
                old = replace(old, type=kind_type, kind_label=kind_label)
            made[full] = replace(old, code=old.code or code)
        own_path = target is None and parse_label(label)[0] == full  # not another label's
        _add_parents(made, full, label if own_path else "")
    accounts = tuple(sorted(made.values(), key=lambda a: a.full_name.split(":")))
    renames = {k: v for k, v in names.items() if k != v}
    return replace(
        ledger,
        accounts=accounts,
        transactions=renamed(ledger.transactions, renames),
        problems=(*ledger.problems, *problems),
    )


def _add_parents(made: dict[str, Account], full: str, label: str) -> None:
    """The missing parents of ``full`` as placeholders, numbered from ``label``'s levels (""
    when the path is not the label's own)."""
    for parent, child in parents(full):
        code = prefix_code(label, parent) if label else ""
        if parent not in made:
            made[parent] = Account(
                full_name=parent,
                type=made[child].type,
                source=made[child].source,
                kind_label=made[child].kind_label,
                placeholder=True,
                code=code,
            )
        elif code and made[parent].placeholder and not made[parent].code:
            made[parent] = replace(made[parent], code=code)


def _by_code(
    accounts: tuple[Account, ...], labels: dict[str, list[Split]], account_map: dict[str, str]
) -> tuple[dict[str, str], list[Problem]]:
    """No chart: one account number is one account, across every file. A number used with one
    leaf name under several paths (``6210 · Fuel``, ``6200 · Automobile:6210 · Fuel``) is the
    deepest path; a bare number (Reckon's Pay Cheque and Transfer exports print ``1222``) is the
    account its number names elsewhere (a trial balance row, another file's ``1222 · Cheque
    Account``). One number with two names is an error naming both places, never two accounts.
    Returns label → full name where that differs from the label's own, and the problems."""
    named: dict[str, dict[str, Source]] = defaultdict(dict)  # code → full name → first place
    for a in accounts:
        if a.code.strip():
            named[a.code.strip()].setdefault(a.full_name, a.source)
    numbered = {
        label: parse_label(label)
        for label in labels
        if label not in account_map and label.strip() and parse_label(label)[1]
    }
    for label, (full, code, _) in numbered.items():
        if not NUMBER.fullmatch(label):
            named[code].setdefault(full, labels[label][0].source)
    chosen, problems = _one_per_number(named)
    aliases: dict[str, str] = {}
    for label, (full, code, _) in numbered.items():
        if code not in chosen or chosen[code] == full:
            continue
        aliases[label] = chosen[code]
        if NUMBER.fullmatch(label):
            problems.append(
                Problem(
                    labels[label][0].source,
                    f"account number {code} ({line_list(s.source for s in labels[label])}) is "
                    f"taken as {quoted(chosen[code])}, the account that number names at "
                    f"{named[code][chosen[code]]}",
                    "warning",
                )
            )
    return aliases, problems


def _one_per_number(
    named: dict[str, dict[str, Source]],
) -> tuple[dict[str, str], list[Problem]]:
    """code → the one full name it stands for; an error per code naming two accounts."""
    chosen: dict[str, str] = {}
    problems: list[Problem] = []
    for code, fulls in named.items():
        deepest = max(fulls, key=lambda f: f.count(":"))
        if all(deepest == f or deepest.endswith(":" + f) for f in fulls):
            chosen[code] = deepest
            continue
        places = ", ".join(f"{quoted(full)} ({where})" for full, where in fulls.items())
        problems.append(
            Problem(
                next(iter(fulls.values())),
                f"account number {code} names several accounts: {places}; one number is one "
                "account",
                fix="chart",
            )
        )
    return chosen, problems
