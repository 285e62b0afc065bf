"""How the process gets and gives back memory, for the passes that allocate, free and allocate
again arrays of gigabytes (Linux; elsewhere these do nothing).

glibc maps every large block (numpy's big arrays) on its own and unmaps it when it is freed.
On a virtual machine that reports free pages to its host (virtio free page reporting, as on
the machines this project is measured on), the host takes such pages away a couple of seconds
later, and the next array placed there pays 2 to 3 s of system time per gigabyte to get them
back. ``reusing_freed_memory`` keeps what is freed inside the process for the next
allocation instead: the levels alone took 37.9 s instead of 46.3 s, and ``paigow reports``
with it around the whole run spent 63 s of system time instead of 100 s (8m16s, not 9m12s).

The price is memory: a block freed in the middle of the heap is reused only by one that fits in
it, so a step's peak can grow (the optimal strategy's from 5.79 to 5.99 GB, when its tables were
larger). The report left that step out until 2026-12-04; now that the step peaks lower, it is in
too: the full-deck per-hand table alone, levels cached, in turn with and without, 104.4 and
113.1 s against 117.2 and 115.0 s (system time 11.4 and 12.6 s against 15.7 and 13.5 s), its
peak 5.90 GB against 5.69-5.74 GB; a fresh clone's report peaked at 5.38 GB.

numpy asks Linux for transparent huge pages (2 MB) for every array of 4 MB or more. On the same
virtual machines a huge page first touched costs several times what its 512 small pages do:
writing a fresh 3 GB array took 6.7 to 22.4 s of system time with them and 1.3 to 1.7 s
without (three fresh processes each, alternating), and a ``perf`` profile of ``paigow
reports`` put about 107 CPU-s in the kernel's page clearing (``clear_page_erms``). Nor do they
pay it back in the kernels: the full-deck per-hand table alone, the levels in the page cache,
two pairs run in turn, took 207.9 and 212.5 s without them against 227.9 and 215.0 s with
(system time 34.9 and 16.8 s against 48.4 and 40.5 s; its level 0, where 2.8 GB of counts
are first written, 14.9 and 3.3 s against 13.4 and 12.2 s). ``without_huge_pages`` turns
numpy's request off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable, Iterator, MutableMapping
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


HUGE_PAGE_VARIABLE = "NUMPY_MADVISE_HUGEPAGE"  # numpy's documented switch, read at its import


def no_huge_pages_by_default(env: MutableMapping[str, str]) -> None:
    """Tell a numpy not yet imported with ``env`` (this process's ``os.environ`` or a child's)
    to ask for no huge pages, unless the user chose already.

    >>> env = {HUGE_PAGE_VARIABLE: "1"}
    >>> no_huge_pages_by_default(env); env
    {'NUMPY_MADVISE_HUGEPAGE': '1'}
    """
    env.setdefault(HUGE_PAGE_VARIABLE, "0")


def _huge_page_switch() -> Callable[[bool], bool] | None:
    """The function numpy's import applies ``NUMPY_MADVISE_HUGEPAGE`` with (it returns the
    previous setting); numpy 2 keeps it in ``numpy._core``, numpy 1 in ``numpy.core``."""
    import numpy as np

    core = getattr(np, "_core", None) or getattr(np, "core", None)
    return getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)


@contextmanager
def without_huge_pages() -> Iterator[bool]:
    """Inside the block numpy allocates its large arrays without asking for transparent huge
    pages; at its end it asks again if it did before. Yields whether numpy was told: not when
    the user chose with ``NUMPY_MADVISE_HUGEPAGE`` (kept), nor when this numpy has no switch.

    >>> with without_huge_pages() as told:
    ...     told in (True, False)
    True
    """
    switch = None if HUGE_PAGE_VARIABLE in os.environ else _huge_page_switch()
    if switch is None:
        yield False
        return
    before = bool(switch(False))
    try:
        yield True
    finally:
        switch(before)
