"""How the process gets and gives back memory, for the passes that allocate, free and allocate
again arrays of gigabytes (Linux; elsewhere these do nothing).

glibc maps every large block (numpy's big arrays) on its own and unmaps it when it is freed.
On a virtual machine that reports free pages to its host (virtio free page reporting), the
host soon takes such pages away, and the next array placed there pays system time, page by
page, to get them back. ``reusing_freed_memory`` keeps what is freed inside the process for
the next allocation instead, so the passes that free and allocate arrays of gigabytes in turn
(building the levels, and a whole ``paigow reports`` run) spend far less time in the kernel.

The price is memory: a block freed in the middle of the heap is reused only by one that fits in
it, so a step's peak can grow. ``paigow reports`` runs every step inside the block, the
optimal strategy's included, and gives the heap back between steps.

numpy asks Linux for transparent huge pages (2 MB) for every array of 4 MB or more. On the same
virtual machines a huge page first touched costs several times what its 512 small pages do
(the kernel clears it whole, ``clear_page_erms`` in a ``perf`` profile), and the kernels of
this project do not win that back: the per-hand table, for one, is slower with huge pages.
``without_huge_pages`` turns numpy's request off.
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
