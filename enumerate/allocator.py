"""How the C allocator gives memory back to the system, for the passes that allocate, free and
allocate again arrays of gigabytes (glibc only; elsewhere these do nothing).

glibc maps every large block (numpy's big arrays) on its own and unmaps it when it is freed.
On a virtual machine that reports free pages to its host (virtio free page reporting, as on
the machines this project is measured on), the host takes such pages away a couple of seconds
later, and the next array placed there pays 2 to 3 s of system time per gigabyte to get them
back. ``reusing_freed_memory`` keeps what is freed inside the process for the next
allocation instead: the levels alone took 37.9 s instead of 46.3 s, and ``paigow reports``
with it around the whole run spent 63 s of system time instead of 100 s (8m16s, not 9m12s).

The price is memory: a block freed in the middle of the heap is reused only by one that fits in
it, so a step's peak can grow (the optimal strategy's from 5.79 to 5.99 GB). The report leaves
that step out (73 s of system time, 5.89 GB).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

# glibc's mallopt parameters (malloc.h) and the defaults restored after a block
_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
_DEFAULT_TRIM_THRESHOLD = 128 * 1024
_DEFAULT_MMAP_MAX = 65536
_KEEP_TRIM_THRESHOLD = 2**31 - 1  # mallopt takes an int: about 2 GB of free heap top kept


@cache
def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc (it has ``mallopt`` and ``malloc_trim``)."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    libc = ctypes.CDLL(name)
    if not (hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim")):
        return None
    return libc


def trim() -> None:
    """Give the free pages of the C allocator's heaps back to the system (``malloc_trim``)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


@contextmanager
def reusing_freed_memory(enabled: bool = True) -> Iterator[bool]:
    """Inside the block, every allocation comes from the C heap and what is freed stays there
    for the next one; at its end the defaults return and the heap's free pages are given back
    (``trim``). Yields whether the allocator could be told (glibc, ``enabled``).

    >>> with reusing_freed_memory(enabled=False) as told:
    ...     told
    False
    """
    libc = _glibc() if enabled else None
    told = bool(libc is not None and libc.mallopt(_M_MMAP_MAX, 0)
                and libc.mallopt(_M_TRIM_THRESHOLD, _KEEP_TRIM_THRESHOLD))  # fmt: skip
    try:
        yield told
    finally:
        if libc is not None:
            libc.mallopt(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)
            libc.mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM_THRESHOLD)
            trim()
