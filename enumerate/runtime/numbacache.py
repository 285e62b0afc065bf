"""numba's cache on disk, shared by processes that compile at the same time.

numba keeps a compiled function in two kinds of files of its cache folder: an index (the
signatures compiled, and the data file of each) and numbered data files. A save reads the
index, adds its entry under the first free number, writes the index, then the data file. Two
processes saving two signatures of one function at once can both take the same number, and
the index one of them leaves then names the other's code, which numba would load for the wrong
argument types. So ``paigow reports`` and its child process (``analysis.report.ahead``) used
to compile into two cache folders, and each compiled what the other had compiled already.

``lock_cache_files`` makes every save and load of this process hold a lock on the folder's
lock file (``flock``): exclusive while it saves, shared while it loads. Two processes that
both call it can share one cache folder: each sees the other's entries whole, and a kernel
one of them compiled the other loads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

LOCK_NAME = "paigow-numba.lock"  # in each cache folder numba writes


@contextmanager
def _locked(folder: str, mode: int) -> Iterator[None]:
    """Hold ``flock(mode)`` on the lock file of ``folder``; no lock where it cannot be made
    (numba then reads or writes as it would alone)."""
    import fcntl

    try:
        fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def lock_cache_files() -> bool:
    """From now on, numba's cache files are saved and loaded under the lock of their folder.
    Returns whether it could be done: not where there is no ``flock`` (Windows) or where
    numba's cache has not the shape described above (then compile into separate folders).

    >>> lock_cache_files() in (True, False)
    True
    """
    try:
        import fcntl

        from numba.core import caching
    except ImportError:
        return False
    files = getattr(caching, "IndexDataCacheFile", None)
    if files is None or not all(callable(getattr(files, name, None)) for name in ("save", "load")):
        return False
    if getattr(files, "_paigow_locked", False):
        return True

    def locking(method: Callable[..., Any], mode: int) -> Callable[..., Any]:
        def under_lock(self: Any, *args: Any) -> Any:
            folder = getattr(self, "_cache_path", None)
            if not isinstance(folder, str):
                return method(self, *args)
            with _locked(folder, mode):
                return method(self, *args)

        under_lock.__doc__ = method.__doc__
        return under_lock

    files.save = locking(files.save, fcntl.LOCK_EX)
    files.load = locking(files.load, fcntl.LOCK_SH)
    files._paigow_locked = True
    return True
