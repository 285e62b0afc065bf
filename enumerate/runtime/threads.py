"""Loops over many independent items run by a plain numba kernel in threads of this process.

A kernel ``kernel(lo, hi, *args)`` compiled with ``nogil=True`` handles the items
``lo <= i < hi`` and writes its results into arrays it is given; ``over_ranges`` cuts
``range(n)`` into chunks and runs them on one thread per core. This does what numba's
``parallel=True`` and ``prange`` would, without their cost: numba's parallel compilation of a
kernel takes several times as long as the plain one, paid on every fresh checkout, and in every
process for a house-way kernel numba cannot cache (a way of the user's module without a kernel
of its own: ``enumerate.houseways.apply``).

>>> import numpy as np
>>> from numba import njit
>>> @njit(nogil=True)
... def squares(lo, hi, out):
...     for i in range(lo, hi):
...         out[i] = i * i
>>> out = np.zeros(10, dtype=np.int64)
>>> over_ranges(squares, 10, out)
>>> out.tolist()
[0, 1, 4, 9, 16, 25, 36, 49, 64, 81]
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def cores() -> int:
    """Threads to run: ``$PAIGOW_THREADS`` if set (a child process that works beside another
    takes one), else one per core of the machine."""
    env = os.environ.get("PAIGOW_THREADS", "").strip()
    if env.isdigit() and int(env) >= 1:
        return int(env)
    return os.cpu_count() or 1


def over_ranges(kernel: Callable[..., Any], n: int, *args: Any, jobs: int | None = None,
                chunks_per_job: int = 4) -> None:  # fmt: skip
    """``kernel(lo, hi, *args)`` over ``range(n)`` in chunks, on ``jobs`` threads (default one
    per core); several chunks per thread, so that a thread whose chunks run faster takes more
    of them. The first error a chunk raises is raised here.

    The kernel is first called on the empty range in this thread, so that numba compiles it
    (or loads it from its cache) once, before the threads start."""
    kernel(0, 0, *args)
    jobs = jobs or cores()
    pieces = max(1, min(n, jobs * chunks_per_job))
    bounds = [n * i // pieces for i in range(pieces + 1)]
    if pieces == 1 or jobs == 1:
        for lo, hi in itertools.pairwise(bounds):
            kernel(lo, hi, *args)
        return
    with ThreadPoolExecutor(min(jobs, pieces), thread_name_prefix="range") as pool:
        for future in [pool.submit(kernel, lo, hi, *args)
                       for lo, hi in itertools.pairwise(bounds)]:  # fmt: skip
            future.result()
