"""``enumerate.runtime.allocator``: inside the block freed memory stays in the process and the next
array reuses it; at its end it is handed back, and outside a freed array goes back at once.
Inside ``without_huge_pages`` numpy's large arrays are not eligible for transparent huge pages
(the kernel's own account of each mapping, ``/proc/self/smaps``), outside they are again.

Both run in a fresh interpreter (``_fresh``): in a pytest worker the arrays and allocator
settings of the tests run before them decide where glibc puts an array and whether its
mapping is already marked for huge pages, which would make them fail now and then."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from enumerate.runtime.allocator import (
    HUGE_PAGE_VARIABLE,
    _huge_page_switch,
    reusing_freed_memory,
    without_huge_pages,
)

MB = 2**20
SIZE = 128 * MB  # far above glibc's largest mmap threshold (32 MB)


def _resident() -> int:
    """Bytes resident in this process now (Linux)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize()


def _touch(n: int) -> np.ndarray:
    return np.ones(n, dtype=np.uint8)  # every page written


FRESH = "PAIGOW_TEST_FRESH"


def _fresh(name: str) -> bool:
    """Run this file's test ``name`` alone in a new interpreter and check that it passed (or
    was skipped); True when this process is that interpreter and must run it itself."""
    if os.environ.get(FRESH) == name:
        return True
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         f"{__file__}::{name}"],
        env={**os.environ, FRESH: name}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    if " skipped" in done.stdout and " passed" not in done.stdout:
        pytest.skip(f"skipped in a fresh interpreter: {done.stdout.strip().splitlines()[-1]}")
    return False


def test_freed_memory_is_kept_and_reused_inside_the_block_only() -> None:
    if not _fresh("test_freed_memory_is_kept_and_reused_inside_the_block_only"):
        return
    if not Path("/proc/self/statm").exists():
        pytest.skip("needs /proc (Linux)")
    with reusing_freed_memory() as told:
        if not told:
            pytest.skip("the C library is not glibc")
        a = _touch(SIZE)
        with_a = _resident()
        del a
        kept = _resident()
        b = _touch(SIZE // 2)  # smaller: small objects may have taken the start of a's block
        with_b = _resident()
        del b
    after = _resident()
    c = _touch(SIZE)
    del c
    outside = _resident()
    assert with_a - kept < SIZE // 4, "the freed array left the process inside the block"
    assert with_b - kept < SIZE // 8, "the second array did not reuse the first one's pages"
    assert kept - after > SIZE // 2, "the kept memory was not handed back at the block's end"
    assert outside - after < SIZE // 4, "outside the block a freed array stayed resident"


def test_disabled_block_changes_nothing() -> None:
    with reusing_freed_memory(enabled=False) as told:
        assert told is False


THP_MODE = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _eligible(arr: np.ndarray) -> bool:
    """Whether the kernel may back the middle of ``arr`` with huge pages (THPeligible)."""
    at = arr.ctypes.data + arr.nbytes // 2
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and ":" not in head:  # a mapping's first line: start-end perms ...
            start, end = (int(x, 16) for x in head.split("-"))
            inside = start <= at < end
        elif inside and head == "THPeligible:":
            return line.split()[1] == "1"
    raise AssertionError("the array's mapping is not in /proc/self/smaps")


def test_numpy_asks_for_no_huge_pages_inside_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    if not _fresh("test_numpy_asks_for_no_huge_pages_inside_the_block"):
        return
    # only where huge pages are given on request can numpy's request be seen
    if not THP_MODE.exists() or "[madvise]" not in THP_MODE.read_text():
        pytest.skip("transparent huge pages are not given on request (madvise) here")
    monkeypatch.delenv(HUGE_PAGE_VARIABLE, raising=False)
    switch = _huge_page_switch()
    assert switch is not None, "numpy has no huge-page switch"
    before = switch(True)  # numpy's default on Linux, whatever this process was told
    try:
        with without_huge_pages() as told:
            assert told is True
            inside = np.ones(SIZE // 2, dtype=np.uint8)
        outside = np.ones(SIZE // 2, dtype=np.uint8)
        assert not _eligible(inside), "an array made inside the block may get huge pages"
        assert _eligible(outside), "numpy's own setting was not restored after the block"
    finally:
        switch(before)


def test_a_users_choice_of_huge_pages_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HUGE_PAGE_VARIABLE, "1")
    with without_huge_pages() as told:
        assert told is False
