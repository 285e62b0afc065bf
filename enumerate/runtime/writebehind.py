"""Cache writes that finish while the caller goes on: inside a ``writes_behind()`` block,
``write_behind(write)`` runs ``write`` on a thread of its own, at once or, in a block opened
with ``held=True``, once the block's ``go()`` is called; leaving the block starts what is
still held, waits for every write and raises the first error one met.

The report writes the per-hand table (about 1.5 GB of Parquet, a long write on one core) while the
banking step, on one core, prices the optimal banker from the same table in memory; it holds the
write through the optimal strategies before it, whose temporaries (about 1.5 GB) bring the run to
its peak. A write keeps alive what it refers to until it ends: the per-hand write refers to the
table and two columns, not to the engine keys (about 0.8 GB, which would raise the run's peak). The
lab step writes the per-dealer table (about 1 GB) while it prices it. A write is atomic
(``cache.replace_atomic``): until it ends a reader finds the old file or none, never a part of the
new one. Outside a block a write runs at once, so a caller that may exit right after it (a command,
a test) never leaves one unfinished.

>>> done = []
>>> with writes_behind(held=True) as writes:
...     write_behind(lambda: done.append("written"))
...     held = list(done)
...     writes.go()
>>> held, done
([], ['written'])
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Writes:
    """The writes of an open block, the ones still held and the errors they met."""

    def __init__(self, held: bool) -> None:
        self.held = held
        self.queued: list[Callable[[], None]] = []
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []

    def add(self, write: Callable[[], None]) -> None:
        self.queued.append(write)
        if not self.held:
            self.go()

    def go(self) -> None:
        """Start the writes held so far, and every later one at once."""
        self.held = False
        for write in self.queued:
            thread = threading.Thread(target=self._run, args=(write,),
                                      name="paigow-write-behind")  # fmt: skip
            thread.start()
            self.threads.append(thread)
        self.queued.clear()

    def _run(self, write: Callable[[], None]) -> None:
        try:
            write()
        except BaseException as err:  # raised again when the block ends
            self.errors.append(err)

    def wait(self, raising: bool = True) -> None:
        self.go()
        for thread in self.threads:
            thread.join()
        if raising and self.errors:
            raise self.errors[0]


_open: list[Writes] = []  # the blocks open, innermost last


def write_behind(write: Callable[[], None]) -> None:
    """``write()`` on a thread when a ``writes_behind()`` block is open, else now."""
    if _open:
        _open[-1].add(write)
    else:
        write()


@contextmanager
def writes_behind(held: bool = False) -> Iterator[Writes]:
    """A block whose ``write_behind`` calls run on threads (with ``held``, from its ``go()``
    on); leaving it starts what is held, waits for them all and raises the first error a
    write met (when the block itself raised, its error)."""
    writes = Writes(held)
    _open.append(writes)
    failed = True
    try:
        yield writes
        failed = False
    finally:
        _open.remove(writes)
        writes.wait(raising=not failed)
