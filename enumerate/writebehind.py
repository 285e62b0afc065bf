"""Cache writes that finish while the caller goes on: inside a ``writes_behind()`` block,
``write_behind(write)`` runs ``write`` on a thread of its own; leaving the block waits for
every such write and raises the first error one met.

The report writes the per-hand table (about 1.5 GB of Parquet, 8-10 s on one core) while
the optimal strategies and the banking page are priced from the same table in memory. A
write is atomic (``cache.replace_atomic``): until it ends a reader finds the old file or
none, never a part of the new one. Outside a block a write runs at once, so a caller that
may exit right after it (a command, a test) never leaves one unfinished.

>>> done = []
>>> with writes_behind():
...     write_behind(lambda: done.append("written"))
>>> done
['written']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class _Writes:
    """The writes of an open block and the errors they met."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []

    def start(self, write: Callable[[], None]) -> None:
        def run() -> None:
            try:
                write()
            except BaseException as err:  # raised again when the block ends
                self.errors.append(err)

        thread = threading.Thread(target=run, name="paigow-write-behind")
        thread.start()
        self.threads.append(thread)

    def wait(self, raising: bool = True) -> None:
        for thread in self.threads:
            thread.join()
        if raising and self.errors:
            raise self.errors[0]


_open: list[_Writes] = []  # the blocks open, innermost last


def write_behind(write: Callable[[], None]) -> None:
    """``write()`` on a thread when a ``writes_behind()`` block is open, else now."""
    if _open:
        _open[-1].start(write)
    else:
        write()


@contextmanager
def writes_behind() -> Iterator[None]:
    """A block whose ``write_behind`` calls run on threads; leaving it waits for them all
    and raises the first error a write met (when the block itself raised, its error)."""
    writes = _Writes()
    _open.append(writes)
    failed = True
    try:
        yield
        failed = False
    finally:
        _open.remove(writes)
        writes.wait(raising=not failed)
