"""The parsed-result cache: keyed on the files and the plan, one parse for concurrent requests."""

from __future__ import annotations

import os

from app.plan import Rule
from app.store import Store
from app.web.cache import ViewCache
from tests.support.web import add


def test_parsed_results_are_cached_on_files_and_plan(tmp_path):
    store, views = Store(tmp_path), ViewCache()
    m = store.create()
    add(m, "lists.iif")
    add(m, "txns.iif")
    first = views.view(m)
    assert views.view(m) is first
    assert len(first.prepared.ledger.transactions) == 2
    m.save_plan(m.plan().with_rule(Rule("rename", "Checking", "Bank")))
    renamed = views.view(m)
    assert renamed is not first
    assert renamed.parsed is first.parsed  # a plan edit does not re-read the files
    assert renamed.prepared.ledger.account("Bank") is not None
    path = m.uploads_dir / "txns.iif"
    path.write_bytes(
        path.read_bytes().replace(b"-25.00", b"-26.00").replace(b"\t25.00", b"\t26.00")
    )
    os.utime(path, ns=(1, 1))
    changed = views.view(m)
    assert changed.parsed is not first.parsed
    assert changed.prepared.ledger.transactions[0].splits[0].value == -26


def test_concurrent_requests_parse_once(tmp_path, monkeypatch):
    import threading

    from app import pipeline

    store, views = Store(tmp_path), ViewCache()
    m = store.create()
    add(m, "lists.iif")
    calls = []
    real = pipeline.read

    def slow_read(paths, plan, unread=(), seen=None):
        calls.append(1)
        threading.Event().wait(0.3)
        return real(paths, plan, unread, seen)

    monkeypatch.setattr(pipeline, "read", slow_read)
    results = []
    together = threading.Barrier(4)  # the four requests arrive at once, not one after another

    def request() -> None:
        together.wait(timeout=10)
        results.append(views.parsed(m))

    threads = [threading.Thread(target=request) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len(results) == 4 and all(r is results[0] for r in results)


def test_map_edits_never_push_out_another_migrations_parse(tmp_path):
    """Three migrations open, many plan edits in the last: coming back to the first costs no
    parse (its parsed and resolved results are kept apart from the views edits make)."""
    store, views = Store(tmp_path), ViewCache()
    migrations = [store.create() for _ in range(3)]
    for m in migrations:
        add(m, "lists.iif")
        add(m, "txns.iif")
    first = [views.view(m) for m in migrations]
    m = migrations[-1]
    for i in range(8):
        m.save_plan(m.plan().with_rule(Rule("rename", "Checking", f"Bank {i}")))
        assert views.view(m).prepared.ledger.account(f"Bank {i}") is not None
    again = views.view(migrations[0])
    assert again.parsed is first[0].parsed and again.resolved is first[0].resolved
    assert views.view(migrations[1]).parsed is first[1].parsed


def test_a_kept_parse_is_out_of_the_collectors_reach(tmp_path):
    """The wizard keeps parses alive between requests: the cyclic collector is not made to
    walk them again at every full collection (a pause of 0.3-0.7 s at 100k in a Map edit);
    they are still freed by reference counting when the cache drops them."""
    import gc
    import weakref

    store, views = Store(tmp_path), ViewCache()
    m = store.create()
    add(m, "lists.iif")
    add(m, "txns.iif")
    parsed = views.parsed(m)
    walked = {id(o) for o in gc.get_objects()}
    assert id(parsed.transactions) not in walked and id(parsed.accounts) not in walked
    gone = weakref.ref(views.view(m).prepared)  # a later stage is not frozen: freed as usual
    views.forget(m)
    gc.collect()
    assert gone() is None
