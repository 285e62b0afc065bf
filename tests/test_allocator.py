"""``enumerate.allocator``: inside the block freed memory stays in the process and the next
array reuses it; at its end it is handed back, and outside a freed array goes back at once."""

from __future__ import annotations

import resource
from pathlib import Path

import numpy as np
import pytest

from enumerate.allocator import reusing_freed_memory

MB = 2**20
SIZE = 128 * MB  # far above glibc's largest mmap threshold (32 MB)


def _resident() -> int:
    """Bytes resident in this process now (Linux)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize()


def _touch(n: int) -> np.ndarray:
    return np.ones(n, dtype=np.uint8)  # every page written


def test_freed_memory_is_kept_and_reused_inside_the_block_only() -> None:
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
