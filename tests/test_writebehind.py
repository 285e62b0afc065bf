"""Writes behind the caller (``enumerate.runtime.writebehind``): they run on threads inside a block,
the block waits for them, and their errors are raised, not lost."""

from __future__ import annotations

import threading

import pytest

from enumerate.runtime.writebehind import write_behind, writes_behind


def test_outside_a_block_a_write_runs_at_once_on_the_callers_thread():
    seen = []
    write_behind(lambda: seen.append(threading.current_thread()))
    assert seen == [threading.current_thread()]


def test_a_block_runs_its_writes_on_other_threads_and_waits_for_them():
    started = threading.Event()
    release = threading.Event()
    seen = []

    def write():
        started.set()
        release.wait(10)
        seen.append(threading.current_thread())

    with writes_behind():
        write_behind(write)
        assert started.wait(10)  # it runs while the block goes on
        assert seen == []
        release.set()
    assert len(seen) == 1 and seen[0] is not threading.current_thread()


def test_a_failed_write_is_raised_when_the_block_ends():
    with pytest.raises(OSError, match="disk full"), writes_behind():
        write_behind(lambda: (_ for _ in ()).throw(OSError("disk full")))


def test_the_blocks_own_error_wins_and_its_writes_still_end():
    done = []
    with pytest.raises(KeyError), writes_behind():
        write_behind(lambda: done.append(1))
        write_behind(lambda: (_ for _ in ()).throw(OSError("disk full")))
        raise KeyError("the block's")
    assert done == [1]


def test_a_held_block_starts_its_writes_at_go_or_at_its_end():
    done = []
    with writes_behind(held=True) as writes:
        write_behind(lambda: done.append("first"))
        assert done == []
        writes.go()
        writes.threads[0].join()
        assert done == ["first"]
        write_behind(lambda: done.append("second"))  # after go(): at once
    with writes_behind(held=True):
        write_behind(lambda: done.append("third"))  # never released: started at the end
    assert done == ["first", "second", "third"]
