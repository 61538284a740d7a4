"""What a file found cut (at QuickBooks' export cap, or stopping before its end: the readers'
``truncated`` findings) means for its ledger: an error unless the user accepts the cut
(``ReadOptions.truncated_ok``); accepted, a warning, the file marked ``cut``, and the
transactions the cut fell inside left out but named.
"""

from __future__ import annotations

from dataclasses import replace

from app.coverage import quiet_days
from app.model import FileInfo, Ledger, Problem, ReadOptions


def checked(ledger: Ledger, options: ReadOptions) -> Ledger:
    """A file's ledger with its quiet stretch measured and a cut (at the export cap, or a file
    that stops early: ``FileInfo.stops_early``) decided: an error unless the user accepts the
    cut (``ReadOptions.truncated_ok``); then a warning, the file marked ``cut`` and its last
    transaction, when it does not balance, not imported (the cut fell inside it) but named."""
    if not ledger.files or not ledger.transactions:
        return ledger
    info = replace(ledger.files[0], quiet=quiet_days(t.date for t in ledger.transactions))
    cut = [p for p in ledger.problems if p.topic == "truncated"]
    if not cut:
        return replace(ledger, files=(info, *ledger.files[1:]))
    last = info.last_date.isoformat() if info.last_date else ""
    end = max(ledger.transactions, key=lambda t: t.source.line)  # (the cut may fall inside it)
    if info.stops_early == "sections":  # a report grouped by account cut short
        return ledger_cut(ledger, info, cut, accepted=options.truncated_ok)
    if not options.truncated_ok:
        problems = tuple(
            replace(
                p,
                severity="error",
                message=f"{p.message}: its history stops on {last}, and what follows "
                + ("it in the file" if info.layout.startswith("iif") else "in the report's period")
                + " is missing",
                fix="accept_cut",
            )
            if p in cut
            else p
            for p in ledger.problems
        )
        read = ledger.transactions  # (the last, cut inside, is the cut's: not said again)
        kept = tuple(t for t in read if t is not end) if end.total else read
        return replace(
            ledger, transactions=kept, problems=problems, files=(info, *ledger.files[1:])
        )
    txns, extra = list(ledger.transactions), []
    if end.total:
        txns.remove(end)
        extra.append(
            Problem(
                end.source,
                f"the last transaction ({end.kind_label or 'transaction'} of "
                f"{end.date.isoformat()}"
                + (f", Trans # {end.ref}" if end.ref else "")
                + f", {len(end.splits)} of its lines) is cut off "
                + ("where the file stops" if info.stops_early else "by the export cap")
                + ": not imported; it lies in the period the proof names as missing",
                "warning",
                topic="truncated",
            )
        )
    info = replace(info, cut=True)
    problems = tuple(
        replace(p, message=f"{p.message}; accepted as cut: its history stops on {last}")
        if p in cut
        else p
        for p in ledger.problems
    )
    return replace(ledger, transactions=tuple(txns), problems=(*problems, *extra), files=(info,))


def ledger_cut(ledger: Ledger, info: FileInfo, cut: list[Problem], *, accepted: bool) -> Ledger:
    """A General Ledger that stops early: its transactions whose lines do not balance (their
    other lines were in the sections past the cut) are left out, said once with the cut (not
    one error each). An error even when the cut is accepted: the sections past the cut hold
    lines of every year, so no period of the history is whole."""
    kept = tuple(t for t in ledger.transactions if not t.total)
    held = len(ledger.transactions) - len(kept)
    also = f"; the {held:,} that do not balance are left out" if held else ""
    anyway = (
        " (it cannot be taken as cut: the account sections past where it stops hold lines "
        "of every year)"
        if accepted
        else ""
    )
    problems = tuple(
        replace(
            p,
            severity="error",
            topic="",  # (the wizard offers no "convert it anyway" for it)
            message=f"{p.message}: the account sections after where it stops are missing"
            f"{also}; export it again (by date range, a year at a time, if it is large) and "
            f"give every file{anyway}",
        )
        if p in cut
        else p
        for p in ledger.problems
    )
    return replace(ledger, transactions=kept, problems=problems, files=(info,))
