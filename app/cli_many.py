"""``run.py convert-many DIR|manifest.csv -o OUTDIR``: many companies in one command, side by
side in worker processes (``--jobs N``, default the cores), each company in a process of its own
(app.many_worker: one that fails or crashes takes no other with it), a line per company as it
finishes and, on a terminal, an overall bar. OUTDIR gets one folder per company (its book, its
verification report, its audit pack; put in place only when its conversion has ended, so no
half-written folder is ever there) and the summary (app.many_summary). A company whose files and
plan are unchanged since its book was written is not converted again (app.many.unchanged).

Exit status: 0 every book matches QuickBooks; 1 some company could not be converted; 2 usage
errors (the command line, OUTDIR, a manifest that cannot be read); 3 with ``--strict`` when
some book differs from QuickBooks.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import selectors
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from app import cli, many, words
from app.cli_checks import unwritable
from app.errors import MappingError
from app.fileio import alive, read_json, write_json, write_text
from app.many import Company
from app.many_summary import Row, exit_status, headline, twins_line, with_twins
from app.many_summary import write as write_summary

ROOT = Path(__file__).resolve().parent.parent
REDRAW = 0.2  # seconds between redraws of the bar


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run.py convert-many",
        description="Convert many companies' QuickBooks exports into GnuCash books, side by side.",
        epilog="Plan options of run.py convert apply to every company: "
        + ", ".join(sorted(many.PLAN_OPTIONS - {"--accept-truncated", "--type"}))
        + ". A company's plan.json (or the manifest's plan column) comes first, these on top, "
        "a manifest row's options last.",
    )
    p.add_argument("source", type=Path, metavar="DIR|manifest.csv")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="OUTDIR")
    p.add_argument("-j", "--jobs", type=int, default=default_jobs(), help="companies at once")
    p.add_argument("--strict", action="store_true", help="exit 3 when any book differs")
    p.add_argument(
        "--force",
        action="store_true",
        help="convert every company again, even unchanged ones, and replace a book already in "
        "a company's database",
    )
    return p


def main(argv: Sequence[str]) -> int:
    p = parser()
    try:
        args, options = p.parse_known_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        problem = _usage_error(args, options)
        companies = [] if problem else many.discover(args.source, args.output)
    except MappingError as exc:
        problem = exc.message
    if problem:
        p.print_usage(sys.stderr)
        print(f"run.py convert-many: error: {problem}", file=sys.stderr)
        return 2
    args.output.mkdir(exist_ok=True)
    _clean_leftovers(args.output)
    companies = [many.with_plan(c, options, args.output) for c in companies]
    display = Display(len(companies), sys.stdout, sys.stdout.isatty())
    try:
        rows = Batch(args.output, args.jobs, args.force, display).run(companies)
    except KeyboardInterrupt:
        display.close()
        print("Stopped: the companies still running were not converted.", file=sys.stderr)
        return 130
    display.close()
    same = many.same_exports(companies)
    rows = with_twins(rows, same)
    write_summary(args.output, rows, str(args.source))
    print(headline(rows))
    if same:
        print(twins_line(same))
    print(f"Summary: {args.output / 'summary.html'} (and summary.csv)")
    return exit_status(rows, args.strict)


def _usage_error(args: argparse.Namespace, options: list[str]) -> str:
    """What is wrong with the command line, OUTDIR or the batch's plan options ("": nothing)."""
    if args.jobs < 1:
        return "--jobs takes a number of companies at once, 1 or more"
    for given in options:
        if given.startswith("-") and given.split("=")[0] not in many.PLAN_OPTIONS:
            return f"unrecognized argument {given} (see --help for the plan options)"
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            plan_args = cli.parser().parse_args([__file__, "-o", "x.gnucash", *options])
    except SystemExit:
        return stderr.getvalue().strip().splitlines()[-1].split("error: ", 1)[-1]
    if plan_args.format == "postgres":
        return (
            "a book in PostgreSQL per company: give each its address in a manifest's output column"
        )
    out: Path = args.output
    if out.exists() and not out.is_dir():
        return f"{out} is a file, not a folder"
    if not out.parent.is_dir():
        return f"folder {out.parent} does not exist"
    probe = out / "x" if out.is_dir() else out  # (the folder is made if it is not there)
    return unwritable(probe, "results") or ""


def _clean_leftovers(outdir: Path) -> None:
    """What a batch stopped by force left in OUTDIR (not a running one's): its staging folders
    removed, a company folder it had moved aside put back."""
    for left in outdir.glob(".*.*-*"):
        name, _, pid = left.name[1:].rpartition("-")
        output, _, kind = name.rpartition(".")
        if kind not in ("partial", "old") or not pid.isdigit() or alive(int(pid)):
            continue
        if kind == "old" and not (outdir / output).exists():
            left.rename(outdir / output)
        else:
            shutil.rmtree(left, ignore_errors=True)


@dataclass
class Running:
    """A company being converted: its worker, its staging folder, what it last said."""

    company: Company
    proc: subprocess.Popen
    staging: Path
    phase: str = "starting"
    done: int = 0
    total: int = 0
    buffer: bytes = b""
    started: float = field(default_factory=time.monotonic)

    def said(self, data: bytes) -> None:
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            with contextlib.suppress(ValueError, KeyError):
                news = json.loads(line)
                self.phase, self.done, self.total = news["phase"], news["done"], news["total"]


class Batch:
    """Runs the companies, at most ``jobs`` at once; each result put in place as it ends."""

    def __init__(self, outdir: Path, jobs: int, force: bool, display: Display) -> None:
        self.outdir, self.jobs, self.force, self.display = outdir, jobs, force, display

    def run(self, companies: Sequence[Company]) -> list[Row]:
        rows, waiting = [], []
        for c in companies:
            folder = self.outdir / c.output
            if c.problem:
                rows.append(self._not_started(c))
            elif not self.force and (changed := many.changed_since(c, folder)):
                kept = {"state": "kept", "company": c.name, "message": changed}
                rows.append(Row.of(kept, c.name, c.output, "kept"))  # (its folder as it is)
            elif not self.force and (earlier := many.unchanged(c, folder)) is not None:
                rows.append(Row.of(earlier, c.name, c.output, "unchanged"))
            else:
                waiting.append(c)
                continue
            self.display.finished(rows[-1])
        waiting.sort(key=lambda c: -sum(f.stat().st_size for f in c.files))  # biggest first
        running: list[Running] = []
        sel = selectors.DefaultSelector()
        try:
            while waiting or running:
                while waiting and len(running) < self.jobs:
                    r = self._start(waiting.pop(0))
                    sel.register(r.proc.stdout, selectors.EVENT_READ, r)  # type: ignore[arg-type]
                    running.append(r)
                for key, _ in sel.select(timeout=REDRAW):
                    r = key.data
                    data = os.read(key.fd, 65536)
                    if data:
                        r.said(data)
                    else:
                        sel.unregister(key.fileobj)
                        rows.append(self._finish(r))
                        running.remove(r)
                        self.display.finished(rows[-1])
                self.display.update(running)
        except BaseException:
            for r in running:
                r.proc.kill()
                r.proc.wait()
                shutil.rmtree(r.staging, ignore_errors=True)
            raise
        return rows

    def _staging(self, c: Company) -> Path:
        staging = self.outdir / f".{c.output}.partial-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        return staging

    def _start(self, c: Company) -> Running:
        staging = self._staging(c)
        assert c.plan is not None
        earlier = read_json(self.outdir / c.output / many.RESULT)
        ours = earlier.get("target") == c.target and earlier.get("state") in ("done", "differs")
        task = {
            "name": c.name,
            "files": [str(f.absolute()) for f in c.files],
            "plan": c.plan.to_json(),
            "plan_file": str(c.plan_file) if c.plan_file else "",  # (named in its fixes)
            "folder": str(staging.absolute()),
            "output": c.output,
            "book": c.book,
            "database": c.database.url if c.database else "",
            "target": c.target,
            "overwrite": self.force or ours,  # a book this batch wrote there before: replaced
        }
        with (staging / "conversion.log").open("wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "app.many_worker"],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
            )
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(task).encode())
        proc.stdin.close()
        return Running(c, proc, staging)

    def _finish(self, r: Running) -> Row:
        code = r.proc.wait()
        result = read_json(r.staging / many.RESULT)
        if not result:  # the worker died before it could say anything
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
            result = {
                "state": "failed",
                "company": r.company.name,
                "target": r.company.target,
                "message": f"the conversion process stopped ({how}) before it finished; "
                "conversion.log in its folder says what GnuCash reported",
                "seconds": round(time.monotonic() - r.started, 2),
            }
            write_json(r.staging / many.RESULT, result)
        book = r.staging / r.company.book if r.company.book else None
        if book is not None and result.get("state") in ("done", "differs") and book.is_file():
            result["book_sha256"] = many.book_hash(book)  # (a re-run: changed since? unchanged?)
            write_json(r.staging / many.RESULT, result)
        self._place(r.staging, r.company.output)
        return Row.of(result, r.company.name, r.company.output, "converted")

    def _not_started(self, c: Company) -> Row:
        """A company that could not even be started; its folder says so too (but when it
        shares that folder with another: then neither touches it)."""
        result = {"state": "failed", "company": c.name, "message": c.problem}
        if c.shared_output:
            return Row.of(result, c.name, "", "not started")
        staging = self._staging(c)
        write_json(staging / many.RESULT, result)
        write_text(staging / "problems.txt", c.problem + "\n")
        self._place(staging, c.output)
        return Row.of(result, c.name, c.output, "not started")

    def _place(self, staging: Path, output: str) -> None:
        """The staging folder becomes the company's folder (an earlier one removed)."""
        log = staging / "conversion.log"
        if log.is_file() and not log.stat().st_size:
            log.unlink()
        final = self.outdir / output
        old = self.outdir / f".{output}.old-{os.getpid()}"
        if final.exists():
            final.rename(old)
        staging.rename(final)
        shutil.rmtree(old, ignore_errors=True)


class Display:
    """A line per company as it finishes; on a terminal, under them, a live line per company
    being converted (what it is doing) and the overall bar, redrawn in place."""

    def __init__(self, total: int, out: TextIO, tty: bool) -> None:
        self.total, self.out, self.tty = total, out, tty
        self.count, self.last = 0, 0.0
        self.live: list[str] = []

    def finished(self, row: Row) -> None:
        self.count += 1
        live, self.live = self.live, []
        self._clear(len(live))
        print(f"[{self.count}/{self.total}] {row.company}: {_said(row)}", file=self.out)
        self.last = 0.0  # the live lines come back at the next update

    def update(self, running: Sequence[Running]) -> None:
        if not self.tty or time.monotonic() - self.last < REDRAW:
            return
        width = shutil.get_terminal_size((100, 20)).columns - 1
        filled = round(20 * self.count / max(1, self.total))
        lines = [
            f"  {r.company.name}: {words.progress(r.phase, r.done, r.total)}"[:width]
            for r in running
        ]
        lines.append(f"[{'#' * filled}{'-' * (20 - filled)}] {self.count}/{self.total} done")
        self._clear(len(self.live))
        self._draw(lines)

    def _draw(self, lines: list[str]) -> None:
        self.live = lines
        if self.tty and lines:
            print("\n".join(lines), end="", file=self.out, flush=True)
            self.last = time.monotonic()

    def _clear(self, drawn: int) -> None:
        """The live lines erased (the cursor is at the end of the last one)."""
        if self.tty and drawn:
            print("\r\033[K" + "\033[F\033[K" * (drawn - 1), end="", file=self.out)

    def close(self) -> None:
        self._clear(len(self.live))
        self.live = []


def _said(row: Row) -> str:
    if row.run == "unchanged":
        return f"{row.status}; unchanged since its book was written: not converted again"
    if row.state in ("failed", "kept"):
        return f"{row.status}: {row.message}"
    detail = (
        f"{words.plural(row.transactions, 'transaction')}, "
        f"{words.plural(row.accounts_match, 'account')} match, {row.seconds:.1f} s"
    )
    if row.state == "differs":
        return f"{row.status}: {row.message} ({detail})"
    return f"{row.status} ({detail})"
