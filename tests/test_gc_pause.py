"""The collector pause around the pipeline's bulk phases restores what it found."""

import gc

import pytest

from app.gc_pause import paused


def test_paused_turns_the_collector_off_and_back_on():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():  # nested: the inner block must not turn it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_restores_the_collector_after_an_exception():
    with pytest.raises(ValueError), paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_paused_leaves_a_collector_that_was_off_off():
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_made_and_kept_frees_the_making_s_cycles_and_freezes_its_result():
    import weakref

    from app.gc_pause import made_and_kept

    class Node:
        pass

    dropped: list = []

    def make() -> list[Node]:
        assert not gc.isenabled()  # made with the collector paused
        cycle = Node()
        cycle.me = cycle  # garbage of the making, held only by itself
        dropped.append(weakref.ref(cycle))
        return [Node() for _ in range(1000)]

    before = gc.get_freeze_count()
    try:
        kept = made_and_kept(make)
        assert gc.isenabled()
        assert dropped[0]() is None  # collected before the freeze, not kept for ever
        assert gc.get_freeze_count() >= before + len(kept)  # the result out of reach
        assert gc.get_count()[0] < 100  # nothing left for a young collection to walk
    finally:
        gc.unfreeze()
