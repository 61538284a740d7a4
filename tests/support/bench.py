"""``make bench``: speed and memory of the conversion, as ratios against baselines measured in
the same run on the same machine. Prints one table. Not a test: nothing here asserts.

Every measurement runs in a fresh child process (``python -m tests.support.bench _child
KIND ...``), so GnuCash's process-global state and memory never carry over, and its peak RSS is
its own.
Sizes: BENCH_SMALL (default 10,000 transactions) and BENCH_LARGE (default 100,000);
BENCH_MANY (default 20x2000: companies x transactions) for ``convert-many`` against
``run.py convert`` on each company one after another. The PostgreSQL rows write into a
throw-away server (tests/support/pgserver.py, fsync on as a real one) started for them.
"""

from __future__ import annotations

import csv
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SEED_SIZE = 2_000  # the seed's writer is quadratic: measured at a size it finishes quickly
CSV_TARGET_MB = 30


def _child_result(seconds: dict[str, float], about: str = "") -> None:
    """The measurement's result; its peak the larger of this process's and its children's (the
    writer's child process, ``app.gnc.apart``: the two never hold their books at once)."""
    peak = max(
        resource.getrusage(who).ru_maxrss / 1024  # KiB → MiB
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    print(json.dumps({"seconds": seconds, "peak_mb": peak, "about": about}))


def _cpu() -> float:
    """This process's CPU seconds (user + system), with its finished children's (the writer's
    child process): on a VM whose two cores are shared, far steadier than the wall clock, which
    counts the time other processes held the cores."""
    return sum(
        r.ru_utime + r.ru_stime
        for r in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    )


def _company_files(n: int, out: Path) -> dict[str, Path]:
    from tests.support.companygen import make_company

    company = make_company(transactions=n, seed=7, years=max(1, n // 10_000))
    return {
        "lists": company.write_lists_iif(out / "lists.iif"),
        "detail": company.write_transaction_detail_csv(out / "transaction_detail.csv"),
    }


def _document_files(documents: int, out: Path) -> None:
    """A company with about ``documents`` invoices, bills and credit notes (38 % of its
    transactions) and payments applied to them, with both open-items reports."""
    from tests.support.companygen import make_company

    n = documents * 100 // 38
    company = make_company(transactions=n, seed=7, years=max(1, n // 10_000), documents=True)
    company.write_lists_iif(out / "lists.iif")
    company.write_transaction_detail_csv(out / "transaction_detail.csv")
    company.write_open_invoices_csv(out / "open_invoices.csv")
    company.write_unpaid_bills_csv(out / "unpaid_bills.csv")


def _tax_files(invoices: int, out: Path) -> None:
    """A company with about ``invoices`` invoices of 3 item lines and sales tax each (24 % of
    its transactions), with documents (payments applied, credit memos, bills)."""
    from tests.support.companygen import make_company

    n = invoices * 100 // 24
    company = make_company(
        transactions=n, seed=7, years=max(1, n // 10_000), documents=True, items=True,
        item_lines=3,
    )  # fmt: skip
    company.write_lists_iif(out / "lists.iif")
    company.write_transaction_detail_csv(out / "transaction_detail.csv")


def _update_files(n: int, added: int, out: Path) -> None:
    """A company of ``n`` + ``added`` transactions exported twice: after its first ``n``
    (march/) and at its end (june/), a lists IIF and a Transaction Detail each."""
    from dataclasses import replace

    from tests.support.companygen import make_company

    company = make_company(transactions=n + added, seed=7, years=max(1, n // 10_000))
    first = replace(
        company, transactions=company.transactions[:n], exported=company.transactions[n - 1].date
    )
    for name, c in (("march", first), ("june", company)):
        (out / name).mkdir()
        c.write_lists_iif(out / name / "lists.iif")
        c.write_transaction_detail_csv(out / name / "transaction_detail.csv")


def _prepared(folder: Path):
    from app import pipeline
    from app.plan import Plan

    plan = Plan()
    parsed = pipeline.read([folder / "lists.iif", folder / "transaction_detail.csv"], plan)
    prepared = pipeline.prepare(parsed, plan)
    if prepared.errors:
        raise SystemExit("bench input has problems:\n" + "\n".join(map(str, prepared.errors[:5])))
    return plan, prepared


def _split_day(folder: Path):
    """The plan and the day the Map step suggests splitting the history at (its last fiscal
    year start); what was read to find it let go before the split run reads the files again."""
    from app import archive

    plan, prepared = _prepared(folder)
    history = prepared.history.transactions if prepared.history is not None else ()
    return plan, archive.suggested_day(prepared.outline.as_of, history)


def child(kind: str, folder: Path) -> None:
    """One measurement in this (fresh) process."""
    t: dict[str, float] = {}
    about = ""
    if kind == "bare_write":  # the floor: only the GnuCash write of an already prepared ledger
        from app import gnc

        _plan, prepared = _prepared(folder)
        t0, c0 = time.perf_counter(), _cpu()
        gnc.write_book(prepared.ledger, folder / "bare.gnucash", overwrite=True)
        t["write"] = time.perf_counter() - t0
        t["cpu write"] = _cpu() - c0
    elif kind == "seed_write":  # how the seed wrote: wrapper objects, one commit per account insert
        _plan, prepared = _prepared(folder)
        t0 = time.perf_counter()
        _seed_write(prepared.ledger, folder / "seed.gnucash")
        t["write"] = time.perf_counter() - t0
    elif kind == "split":  # run.py convert --split-at (last fiscal year start) --archive
        from dataclasses import replace

        from app import pipeline, split_write

        t0, c0 = time.perf_counter(), _cpu()
        plan, day = _split_day(folder)  # (as a user reads it on the Map step, before the run)
        if day is None:  # (a history of one year: nothing to split; said in the table)
            print(json.dumps({"seconds": {"total": 0.0, "working txns": -1}, "peak_mb": 0.0}))
            return
        plan = replace(plan, cutover=replace(plan.cutover, split_at=day.isoformat()))
        parsed = pipeline.read([folder / "lists.iif", folder / "transaction_detail.csv"], plan)
        prepared = pipeline.prepare(parsed, plan)
        done = split_write.write(
            prepared, folder / "working.gnucash", folder / "archive.gnucash", plan, overwrite=True
        )
        if not done.ok:
            raise SystemExit("bench split: a book failed its proof")
        t["total"] = time.perf_counter() - t0
        t["cpu total"] = _cpu() - c0
        t["working txns"] = len(done.working.written.transactions)
    elif kind == "convert":  # the whole pipeline, as run.py convert runs it
        from app import pipeline
        from app.gnc.engine import engine_version

        t0, c0 = time.perf_counter(), _cpu()
        plan, prepared = _prepared(folder)
        t["read+prepare"] = time.perf_counter() - t0
        t1, c1 = time.perf_counter(), _cpu()
        t["cpu read+prepare"] = c1 - c0
        from app import gnc

        saved: list[tuple[float, float]] = []  # when the read-back began (the writer's child
        read_book = gnc.read_book  # process ended: its CPU counted by then)

        def timed_read(*args, **kwargs):
            saved.append((time.perf_counter(), _cpu()))
            return read_book(*args, **kwargs)

        gnc.read_book = timed_read  # (this child process's own copy of the module)
        outcome = pipeline.write(prepared, folder / "out.gnucash", plan, overwrite=True)
        t2, c2 = time.perf_counter(), _cpu()
        back, cpu_back = saved[0]
        t["write"] = back - t1
        t["readback+verify"] = t2 - back
        t["cpu write"], t["cpu readback+verify"] = cpu_back - c1, c2 - cpu_back
        t["cpu total"] = c2 - c0
        if not outcome.report.ok:
            raise SystemExit("bench book failed verification")
        stats, snap = outcome.stats, outcome.snapshot
        about = (
            f"GnuCash {'.'.join(map(str, engine_version()))}, Python {sys.version.split()[0]}; "
            f"split-list detacher: write {'on' if stats.detached else 'off'}, "
            f"read-back {'on' if snap.detached_load else 'off'}; the book written "
            f"{'in a child process' if stats.apart else 'in the same process'}"
        )
        t["total"] = time.perf_counter() - t0
        from app.pages.download import result_data

        t3 = time.perf_counter()  # the Download step's data, side by side: once, by the worker
        result_data(prepared, outcome)
        t["proof page data"] = time.perf_counter() - t3
    elif kind == "documents":  # the GL write, then the documents pass on it (same book)
        from app import gnc, pipeline
        from app.documents import derive
        from app.documents.allocate import allocate
        from app.plan import Plan

        plan = Plan()
        files = [*sorted(folder.glob("*.csv")), folder / "lists.iif"]
        prepared = pipeline.prepare(pipeline.read(files, plan), plan)
        docs = derive(prepared.ledger)
        allocation = allocate(docs)
        counts: dict[str, int] = {}
        stats = gnc.write_book(
            prepared.ledger,
            folder / "docs.gnucash",
            overwrite=True,
            after=lambda w: counts.update(gnc.write_documents(w, docs, allocation)),
        )
        seconds = dict(stats.seconds)
        t["gl"], t["documents"] = seconds["transactions"], seconds["documents"]
        t["count"] = sum(v for k, v in counts.items() if k not in ("payment", "link"))
        about = f"{counts}"
    elif kind in ("sqlite_write", "pg_write"):  # the SQL backends' write of one prepared ledger
        from contextlib import nullcontext

        from app import gnc
        from app.postgres import parse_address, placed

        _plan, prepared = _prepared(folder)
        sqlite = kind == "sqlite_write"
        address = None if sqlite else parse_address(os.environ["BENCH_PG_URL"])
        with placed(address) if address else nullcontext(folder / "sql.gnucash") as target:
            t0 = time.perf_counter()  # (the database made by placed() beforehand)
            fmt = "sqlite" if sqlite else "postgres"
            stats = gnc.write_book(prepared.ledger, target, fmt=fmt, overwrite=True)
            t["write"] = time.perf_counter() - t0
        t["save"] = dict(stats.seconds)["save"]
    elif kind == "tax_documents":  # the GL write, then tax tables + documents with items
        from app import gnc, pipeline
        from app.plan import Plan

        plan = Plan()
        files = [folder / "lists.iif", folder / "transaction_detail.csv"]
        prepared = pipeline.prepare(pipeline.read(files, plan), plan)
        docs, st = prepared.documents, prepared.sales_tax
        ledger = prepared.ledger
        counts: dict[str, int] = {}
        refused: list[str] = []

        def after(w) -> None:
            tables = gnc.write_sales_tax(w, st)
            counts.update(
                gnc.write_documents_with_tax(w, docs.docs, docs.allocation, st, tables, refused)
            )

        stats = gnc.write_book(ledger, folder / "tax.gnucash", overwrite=True, after=after)
        seconds = dict(stats.seconds)
        t["gl"], t["documents"] = seconds["transactions"], seconds["documents"]
        t["invoices"] = counts.get("invoice", 0)
        t["taxed"] = st.taxed_lines
        about = f"{counts}, refused {len(refused)}"
    elif kind == "update_base":  # (not measured) the first export's book, for the two below
        from app import pipeline
        from app.plan import Plan

        plan = Plan()
        files = sorted((folder / "march").iterdir())
        prepared = pipeline.prepare(pipeline.read(files, plan), plan)
        pipeline.write(prepared, folder / "base.gnucash", plan, overwrite=True)
    elif kind == "load_save":  # GnuCash's own load and Save As of that book: the baseline
        import ctypes

        from app.gnc import bindings
        from app.gnc.bindings import Session, SessionOpenMode
        from app.gnc.session import load

        engine = bindings.engine()
        t0 = time.perf_counter()
        old, new = Session(), Session()
        old.begin("xml://" + str(folder / "base.gnucash"), SessionOpenMode.SESSION_READ_ONLY)
        load(old, folder / "base.gnucash", None)
        t["load"] = time.perf_counter() - t0
        new.begin("xml://" + str(folder / "saved.gnucash"), SessionOpenMode.SESSION_NEW_STORE)
        new.swap_data(old)
        engine.log_disable()
        engine.lib.qof_book_mark_session_dirty.argtypes = [ctypes.c_void_p]
        engine.lib.qof_book_mark_session_dirty(int(new.book.get_instance()))  # (else no save)
        new.save()
        new.end()
        old.end()
        t["total"] = time.perf_counter() - t0
    elif kind == "update":  # run.py convert --update: the later export into that book
        import shutil

        from app import update_run

        book = folder / "updated.gnucash"
        shutil.copy(folder / "base.gnucash", book)
        t0 = time.perf_counter()
        outcome = update_run.bring_up_to_date(sorted((folder / "june").iterdir()), book)
        t["total"] = time.perf_counter() - t0
        t["added"] = len(outcome.work.add)
        t["saved"] = (folder / "saved.gnucash").stat().st_size
        if outcome.report is None or not outcome.report.ok:
            raise SystemExit("bench update failed its proof")
    elif kind == "csv_reader":  # the floor for reading: decode + csv.reader, nothing else
        path = folder / "big.csv"
        t0, c0 = time.perf_counter(), _cpu()
        text = path.read_bytes().decode("utf-8")
        rows = sum(1 for _ in csv.reader(text.splitlines()))
        t["read"] = time.perf_counter() - t0
        t["cpu read"] = _cpu() - c0
        t["rows"] = rows
    elif kind == "qbcsv":
        from app.model import ReadOptions
        from app.readers import qbcsv

        t0, c0 = time.perf_counter(), _cpu()
        ledger = qbcsv.parse(folder / "big.csv", ReadOptions())
        t["read"] = time.perf_counter() - t0
        t["cpu read"] = _cpu() - c0
        t["rows"] = sum(len(x.splits) for x in ledger.transactions)
    elif kind == "wizard":  # the wizard's server time for the pages a bookkeeper waits on
        t = _wizard(folder)
    elif kind == "search":  # the Preview's transaction search, against one plain `in` pass
        from app.pages import preview

        _plan, prepared = _prepared(folder)
        t0 = time.perf_counter()
        index = preview.SearchIndex(prepared.ledger.transactions)
        t["index"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        plain = sum(1 for text in index.texts if "rent" in text)
        t["plain"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        page = preview.txn_page(index, "rent 1 2", sort="-amount")
        t["search"] = time.perf_counter() - t0
        t["matches"], t["plain matches"] = page.matches, plain
    else:
        raise SystemExit(f"unknown measurement {kind}")
    _child_result(t, about)


def _wizard(folder: Path) -> dict[str, float]:
    """Upload, first Preview (the parse), Preview again, Map, one rename on the Map step, Map
    again, reparenting on (a change of every account's name), then the Import and Preview
    pages of that plan; then the import itself (its worker, not timed) and, once it is done, the
    job panel the Import step polls and the Download step with its proof: each request's time
    through Flask's test client (the server's time, no network)."""
    from app import create_app
    from tests.support.web import HX, new_migration, signed_in, soup, wait_done

    with tempfile.TemporaryDirectory(prefix="qb2gnucash-bench-wizard-") as instance:
        app = create_app({"TESTING": True, "INSTANCE_PATH": instance})
        client = signed_in(app)
        prefix, csrf = new_migration(client)
        t: dict[str, float] = {}

        def timed(name: str, call) -> None:
            t0 = time.perf_counter()
            r = call()
            t[name] = time.perf_counter() - t0
            if r.status_code >= 400:
                raise SystemExit(f"wizard bench: {name} answered {r.status_code}")

        files = [(folder / n).open("rb") for n in ("lists.iif", "transaction_detail.csv")]
        data = {"files": [(f, Path(f.name).name) for f in files]}
        timed("upload", lambda: client.post(f"{prefix}/files", data=data, headers=csrf | HX))
        timed("first preview", lambda: client.get(f"{prefix}/preview"))
        timed("preview again", lambda: client.get(f"{prefix}/preview"))
        gc.collect()
        t["resident after preview"] = _resident_mib()  # the server holding the migration
        timed("map", lambda: client.get(f"{prefix}/map"))
        leaf = next(
            a.full_name
            for a in app.extensions["views"]
            .view(app.extensions["store"].open(prefix.rsplit("/", 1)[1]))
            .resolved.accounts
            if a.type is not None and ":" not in a.full_name
        )
        rule = {"account": leaf, "kind": "rename", "target": leaf + " (renamed)"}
        timed(
            "map rename", lambda: client.post(f"{prefix}/map/rules", data=rule, headers=csrf | HX)
        )
        timed("map again", lambda: client.get(f"{prefix}/map"))
        whole = {"reparent": "1", "currency": "USD", "format": "xml", "mode": "full"}
        timed(
            "map reparent",  # every account moves: every transaction's splits renamed
            lambda: client.post(f"{prefix}/map/settings", data=whole, headers=csrf | HX),
        )
        timed("import page", lambda: client.get(f"{prefix}/import"))
        timed("preview, changed plan", lambda: client.get(f"{prefix}/preview"))
        timed("import start", lambda: client.post(f"{prefix}/import", headers=csrf | HX))
        if not wait_done(client, prefix, timeout=900).select_one("#to-download"):
            raise SystemExit("wizard bench: the import did not end with a book")
        timed("job panel, done", lambda: client.get(f"{prefix}/job", headers=HX))
        timed("download", lambda: client.get(f"{prefix}/download"))
        page = soup(client.get(f"{prefix}/download"))
        if page.select("#checks li.differs"):
            raise SystemExit("wizard bench: the import's proof differs")
        app.extensions["jobs"].shutdown()
        return t


def _resident_mib() -> float:
    """This process's resident memory now (not its peak), in MiB: Linux's /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("bench: no VmRSS in /proc/self/status")


def _seed_write(ledger, path: Path) -> None:
    """The seed's pattern: bindings wrapper objects, journal on, accounts not held in edit."""
    from app.gnc import bindings  # first: it sets the environment gnucash needs

    assert bindings.C  # (importing gnucash bare crashed the interpreter on 5.10)
    from gnucash import GncNumeric, Session, SessionOpenMode, Split, Transaction
    from gnucash import gnucash_core_c as C
    from gnucash.gnucash_core import Account

    C.gnc_set_account_separator(":")
    session = Session("xml://" + str(path), SessionOpenMode.SESSION_NEW_OVERWRITE)
    book = session.book
    usd = book.get_table().lookup("CURRENCY", "USD")
    root = book.get_root_account()
    accounts = {}
    for a in sorted(ledger.accounts, key=lambda a: a.full_name.count(":")):
        acc = Account(book)
        acc.BeginEdit()
        acc.SetName(a.name)
        acc.SetType(getattr(C, "ACCT_TYPE_" + a.type.value))
        acc.SetCommodity(usd)
        accounts.get(a.parent_name, root).append_child(acc)
        acc.CommitEdit()
        accounts[a.full_name] = acc
    for txn in ledger.transactions:
        t = Transaction(book)
        t.BeginEdit()
        t.SetCurrency(usd)
        t.SetDate(txn.date.day, txn.date.month, txn.date.year)
        t.SetNum(txn.num)
        t.SetDescription(txn.description)
        for s in txn.splits:
            sp = Split(book)
            sp.SetParent(t)
            sp.SetAccount(accounts[s.account])
            n, d = s.value.as_integer_ratio()
            sp.SetValue(GncNumeric(n, d))
            sp.SetAmount(GncNumeric(n, d))
            sp.SetMemo(s.memo)
        t.CommitEdit()
    session.save()
    session.end()


def _split_rows(split: dict, convert: dict, n: int) -> list[tuple[str, str, str]]:
    """The archive and working book's row, and its ratio to the one-book convert."""
    total, one = split["seconds"]["total"], convert["seconds"]["total"]
    working = int(split["seconds"]["working txns"])
    return [
        (
            f"convert {n:,} txns split at its last fiscal year start (--split-at)",
            f"{total:.1f} s",
            f"archive and working book ({working:,} txns), both proven; "
            f"peak {split['peak_mb']:.0f} MiB",
        ),
        (f"RATIO split / convert at {n:,}", f"{total / one:.2f}x", "two books, both read back"),
    ]


def _run(kind: str, folder: Path, env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.support.bench", "_child", kind, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )
    if proc.returncode != 0:
        raise SystemExit(f"{kind} in {folder} failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _big_csv(folder: Path) -> tuple[Path, float]:
    """A Transaction Detail CSV of about CSV_TARGET_MB megabytes."""
    from tests.support.companygen import make_company

    path = folder / "big.csv"
    n = 60_000
    for _ in range(4):
        make_company(transactions=n, seed=11, years=8).write_transaction_detail_csv(path)
        mb = path.stat().st_size / 2**20
        if mb >= CSV_TARGET_MB * 0.9:
            break
        n = int(n * CSV_TARGET_MB / mb) + 1000
    return path, path.stat().st_size / 2**20


def _many(base: Path, companies: int, size: int) -> tuple[float, float, int]:
    """``companies`` company folders of ``size`` transactions: the time of ``run.py convert``
    on each, one after another, and of one ``run.py convert-many`` (default --jobs: the
    cores); and the jobs it used."""
    from app.cli_many import default_jobs
    from tests.support.companygen import make_company

    clients = base / "many"
    for i in range(companies):
        company = make_company(size, seed=500 + i)
        folder = clients / f"Company {i:02d}"
        folder.mkdir(parents=True)
        company.write_lists_iif(folder / "lists.iif")
        company.write_transaction_detail_csv(folder / "transaction_detail.csv")
    run = [sys.executable, str(ROOT / "run.py")]
    t0 = time.perf_counter()
    for folder in sorted(clients.iterdir()):
        files = [str(folder / "lists.iif"), str(folder / "transaction_detail.csv")]
        out = base / f"one-{folder.name}.gnucash"
        subprocess.run([*run, "convert", *files, "-o", str(out)], check=True, capture_output=True)
    one_by_one = time.perf_counter() - t0
    t0 = time.perf_counter()
    many = [*run, "convert-many", str(clients), "-o", str(base / "many-out")]
    proc = subprocess.run(many, capture_output=True, text=True, check=False)
    side_by_side = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"convert-many failed:\n{proc.stdout}\n{proc.stderr}")
    return one_by_one, side_by_side, default_jobs()


def _postgres(folders: dict[int, Path], sizes: tuple[int, ...]) -> dict[int, dict]:
    """The SQLite and the PostgreSQL write of each size, on a throw-away durable server."""
    from tests.support.pgserver import PASSWORD, PgServer, missing

    if why := missing():
        print(f"PostgreSQL rows skipped: {why}")
        return {}
    server = PgServer.start(durable=True)
    try:
        out = {}
        for i, n in enumerate(sizes):
            env = {"BENCH_PG_URL": server.url(f"bench_{i}"), "PGPASSWORD": PASSWORD}
            out[n] = {k: _run(k, folders[n], env) for k in ("sqlite_write", "pg_write")}
        return out
    finally:
        server.stop()


def against(value: float, limit: float, unit: str = "x") -> str:
    """ "target <= 3.0x: met" (or "NOT met"): a measured figure beside its target."""
    shown = f"{limit:g}{unit}" if unit == "x" else f"{limit:g} {unit}"
    return f"target <= {shown}: {'met' if value <= limit else 'NOT met'}"


def _load() -> str:
    """The machine's load average (this VM is shared: the ratios are measured in one run)."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    small = int(os.environ.get("BENCH_SMALL", "10000"))
    large = int(os.environ.get("BENCH_LARGE", "100000"))
    rows: list[tuple[str, str, str]] = []
    loads = [_load()]
    with tempfile.TemporaryDirectory(prefix="qb2gnucash-bench-") as tmp:
        base = Path(tmp)
        folders = {}
        for n in dict.fromkeys((SEED_SIZE, small, large)):  # a size given twice: made once
            folders[n] = base / f"n{n}"
            folders[n].mkdir()
            _company_files(n, folders[n])
        r = {n: {k: _run(k, folders[n]) for k in ("bare_write", "convert")} for n in (small, large)}
        split = _run("split", folders[large])  # the archive and the working book
        seed = _run("seed_write", folders[SEED_SIZE])
        bare_seed = _run("bare_write", folders[SEED_SIZE])
        doc_sizes = [int(x) for x in os.environ.get("BENCH_DOCS", "1000,10000").split(",")]
        docs = {}
        for n in doc_sizes:
            (base / f"d{n}").mkdir()
            _document_files(n, base / f"d{n}")
            docs[n] = _run("documents", base / f"d{n}")
        tax_size = int(os.environ.get("BENCH_TAX", "10000"))
        (base / "tax").mkdir()
        _tax_files(tax_size, base / "tax")
        tax = _run("tax_documents", base / "tax")
        wizard = {n: _run("wizard", folders[n]) for n in (small, large)}
        search = {n: _run("search", folders[n]) for n in (small, large)}
        pg = _postgres(folders, (SEED_SIZE, small))
        many_n, many_size = (int(x) for x in os.environ.get("BENCH_MANY", "20x2000").split("x"))
        one_by_one, side_by_side, jobs = _many(base, many_n, many_size)
        upd_n, upd_added = (
            int(x) for x in os.environ.get("BENCH_UPDATE", f"{large}+1000").split("+")
        )
        (base / "update").mkdir()
        _update_files(upd_n, upd_added, base / "update")
        _run("update_base", base / "update")
        baseline = _run("load_save", base / "update")
        updated = _run("update", base / "update")
        _big, mb = _big_csv(base)
        reader = _run("csv_reader", base)
        ours = _run("qbcsv", base)

    def sec(x: dict, key: str = "total") -> float:
        return x["seconds"][key]

    for n in (small, large):
        c, b = r[n]["convert"], r[n]["bare_write"]
        rows.append(
            (
                f"convert {n:,} txns (parse + write + read-back + verify)",
                f"{sec(c):.1f} s",
                f"peak {c['peak_mb']:.0f} MiB, CPU {sec(c, 'cpu total'):.1f} s",
            )
        )
        for phase in ("read+prepare", "write", "readback+verify"):
            cpu = f"CPU {sec(c, 'cpu ' + phase):.1f} s"
            rows.append((f"  of which {phase}", f"{sec(c, phase):.1f} s", cpu))
        rows.append(
            (
                "  then the Download step's side by side (trial balance, aging), once",
                f"{sec(c, 'proof page data'):.2f} s",
                "target <= 0.2 s",
            )
        )
        rows.append(
            (
                f"bare linear write {n:,} txns (baseline)",
                f"{sec(b, 'write'):.1f} s",
                f"peak {b['peak_mb']:.0f} MiB, CPU {sec(b, 'cpu write'):.1f} s",
            )
        )
    c_large, c_small = r[large]["convert"], r[small]["convert"]
    b_large = r[large]["bare_write"]
    whole = sec(c_large) / sec(b_large, "write")
    rows.append(
        (
            "RATIO convert / bare write at " + f"{large:,}",
            f"{whole:.2f}x",
            against(whole, 3.0),
        )
    )
    unproven = (sec(c_large) - sec(c_large, "readback+verify")) / sec(b_large, "write")
    rows.append(
        (
            "RATIO (convert without read-back) / bare write at " + f"{large:,}",
            f"{unproven:.2f}x",
            against(unproven, 2.0),
        )
    )
    bare_cpu = sec(b_large, "cpu write")
    whole_cpu = sec(c_large, "cpu total") / bare_cpu
    unproven_cpu = (sec(c_large, "cpu total") - sec(c_large, "cpu readback+verify")) / bare_cpu
    rows.append(
        (f"  the same by CPU time at {large:,}", f"{whole_cpu:.2f}x", against(whole_cpu, 3.0))
    )
    rows.append(
        ("  without read-back, by CPU time", f"{unproven_cpu:.2f}x", against(unproven_cpu, 2.0))
    )
    rows.append(
        (
            f"RATIO convert {large:,} / convert {small:,}",
            f"{sec(c_large) / sec(c_small):.2f}x",
            f"linear = {large / small:.0f}x, target <= 11x",
        )
    )
    rows.append(
        (
            f"RATIO read-back {large:,} / read-back {small:,}",
            f"{sec(c_large, 'readback+verify') / sec(c_small, 'readback+verify'):.2f}x",
            f"linear = {large / small:.0f}x",
        )
    )
    peak = c_large["peak_mb"]
    rows.append((f"peak memory convert {large:,}", f"{peak:.0f} MiB", against(peak, 1024, "MiB")))
    if split["seconds"]["working txns"] < 0:
        rows.append((f"convert {large:,} txns split (--split-at)", "-", "one year: no split"))
    else:
        rows.extend(_split_rows(split, c_large, large))
    rows.append((f"seed's writer {SEED_SIZE:,} txns", f"{sec(seed, 'write'):.2f} s", "quadratic"))
    rows.append(
        (
            f"RATIO seed's writer / bare write at {SEED_SIZE:,}",
            f"{sec(seed, 'write') / sec(bare_seed, 'write'):.1f}x",
            "",
        )
    )
    rows.append(
        (
            f"csv.reader alone on a {mb:.0f} MB Transaction Detail CSV (baseline)",
            f"{sec(reader, 'read'):.2f} s",
            f"{int(reader['seconds']['rows']):,} rows",
        )
    )
    rows.append(
        (
            f"qbcsv.parse on the same {mb:.0f} MB file",
            f"{sec(ours, 'read'):.2f} s",
            f"{int(ours['seconds']['rows']):,} splits",
        )
    )
    csv_ratio = sec(ours, "read") / sec(reader, "read")
    rows.append(("RATIO qbcsv / csv.reader", f"{csv_ratio:.2f}x", against(csv_ratio, 2.0)))
    csv_cpu = sec(ours, "cpu read") / sec(reader, "cpu read")
    rows.append(("  the same by CPU time", f"{csv_cpu:.2f}x", against(csv_cpu, 2.0)))
    for n, w in wizard.items():
        steps = ("upload", "first preview", "preview again", "map", "map rename", "map again")
        later = ("map reparent", "import page", "preview, changed plan", "import start")
        for step in (*steps, *later, "job panel, done", "download"):
            target = "target <= 0.5 s (0.2 s)" if step != "upload" else "parses, with progress"
            rows.append((f"wizard {n:,} txns: {step}", f"{sec(w, step):.2f} s", target))
        held = sec(w, "resident after preview")
        rows.append(
            (
                f"wizard server {n:,} txns after Preview",
                f"{held:.0f} MiB resident",
                against(held, 400, "MiB"),
            )
        )
    for n, x in search.items():
        rows.append(
            (
                f"preview search, 3 words + sort, {n:,} txns",
                f"{sec(x, 'search'):.3f} s",
                f"{int(x['seconds']['matches']):,} found; target <= 0.5 s (index built once: "
                f"{sec(x, 'index'):.2f} s)",
            )
        )
    rows.append(
        (
            f"RATIO search / one plain `in` pass at {large:,}",
            f"{sec(search[large], 'search') / sec(search[large], 'plain'):.1f}x",
            "three words, date forms, sort",
        )
    )
    rows.append(
        (
            f"RATIO search {large:,} / search {small:,}",
            f"{sec(search[large], 'search') / sec(search[small], 'search'):.2f}x",
            f"linear = {large / small:.0f}x",
        )
    )
    for d in docs.values():
        got = int(d["seconds"]["count"])
        rows.append((f"GL write, {got:,} documents' company", f"{sec(d, 'gl'):.2f} s", ""))
        rows.append(
            (
                f"documents pass, {got:,} documents (adopt + payments + links)",
                f"{sec(d, 'documents'):.2f} s",
                f"{sec(d, 'documents') / sec(d, 'gl'):.2f}x the GL write, target <= 1.5x",
            )
        )
    if len(docs) > 1:
        lo, hi = min(docs), max(docs)
        rows.append(
            (
                f"RATIO documents pass {hi:,} / {lo:,}",
                f"{sec(docs[hi], 'documents') / sec(docs[lo], 'documents'):.2f}x",
                f"linear = {hi / lo:.0f}x",
            )
        )
    rows.append(
        (
            f"convert {many_n} companies of {many_size:,} txns one after another (baseline)",
            f"{one_by_one:.1f} s",
            "run.py convert each",
        )
    )
    rows.append(
        (
            f"convert-many of the same {many_n} companies (--jobs {jobs})",
            f"{side_by_side:.1f} s",
            "with their reports and audit packs",
        )
    )
    ratio = side_by_side / one_by_one
    rows.append(("RATIO convert-many / one after another", f"{ratio:.2f}x", "target <= 0.6x"))
    for n, sql in pg.items():
        for k, label in (("sqlite_write", "SQLite"), ("pg_write", "PostgreSQL")):
            save = f"of which save {sec(sql[k], 'save'):.1f} s"
            rows.append((f"{label} write {n:,} txns", f"{sec(sql[k], 'write'):.1f} s", save))
    if small in pg:
        w = {k: sec(pg[small][k], "write") for k in ("sqlite_write", "pg_write")}
        ratio = w["pg_write"] / w["sqlite_write"]
        rows.append((f"RATIO PostgreSQL / SQLite write at {small:,}", f"{ratio:.2f}x", "<= 3x"))
    if small in pg and SEED_SIZE in pg and small != SEED_SIZE:
        lo, hi = sec(pg[SEED_SIZE]["pg_write"], "write"), sec(pg[small]["pg_write"], "write")
        linear = f"linear = {small / SEED_SIZE:.0f}x"
        rows.append(
            (f"RATIO PostgreSQL write {small:,} / {SEED_SIZE:,}", f"{hi / lo:.2f}x", linear)
        )
    got = int(tax["seconds"]["invoices"])
    rows.append(
        (f"GL write, {got:,} invoices' company (3 item lines + tax)", f"{sec(tax, 'gl'):.2f} s", "")
    )
    rows.append(
        (
            f"documents pass with tax tables and items, {got:,} invoices",
            f"{sec(tax, 'documents'):.2f} s",
            f"{sec(tax, 'documents') / sec(tax, 'gl'):.2f}x the GL write, target <= 1.5x",
        )
    )
    rows.append(
        (
            f"GnuCash's own load + save of a {upd_n:,}-txn book (baseline)",
            f"{sec(baseline):.1f} s",
            f"of which load {sec(baseline, 'load'):.1f} s",
        )
    )
    added = int(updated["seconds"]["added"])
    rows.append(
        (
            f"update adding {added:,} txns to it (read exports + write + read-back + proof)",
            f"{sec(updated):.1f} s",
            f"peak {updated['peak_mb']:.0f} MiB",
        )
    )
    rows.append(
        (
            f"RATIO update / load + save at {upd_n:,}",
            f"{sec(updated) / sec(baseline):.2f}x",
            "target <= 2x",
        )
    )
    width = max(len(a) for a, _, _ in rows)
    print(r[large]["convert"]["about"])
    print(f"load average (1, 5, 15 min): at the start {loads[0]}, at the end {_load()}")
    print(f"{'measurement':<{width}}  {'value':>10}  note")
    print("-" * (width + 40))
    for a, b, c in rows:
        print(f"{a:<{width}}  {b:>10}  {c}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["_child"]:
        child(sys.argv[2], Path(sys.argv[3]))
    else:
        main()
