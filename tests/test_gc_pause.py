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
