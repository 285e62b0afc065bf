"""Small helpers for benchmark scripts: timed steps and a closing figure table; checks that
make the script exit non-zero when one fails."""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


class Steps:
    """Collects (step, seconds, note) rows and prints them as a table."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[tuple[str, float, str]] = []
        self.start = time.perf_counter()

    @contextmanager
    def step(self, name: str, note: str = "") -> Iterator[dict[str, Any]]:
        info: dict[str, Any] = {"note": note}
        t = time.perf_counter()
        yield info
        self.rows.append((name, time.perf_counter() - t, str(info["note"])))
        print(f"  {name}: {self.rows[-1][1]:.2f} s {info['note']}", flush=True)

    def run(self, name: str, fn: Callable[[], T], note: str = "") -> T:
        with self.step(name, note):
            return fn()

    def report(self) -> None:
        wall = time.perf_counter() - self.start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\n{self.title}  (cores: {os.cpu_count()})")
        width = max(len(r[0]) for r in self.rows)
        for name, secs, note in self.rows:
            print(f"  {name:<{width}}  {secs:8.2f} s  {note}")
        print(f"  {'total wall':<{width}}  {wall:8.2f} s")
        print(f"  {'peak memory (RSS)':<{width}}  {peak:8.0f} MB")


class Checks:
    """The checks a benchmark prints; ``finish()`` exits with status 1, naming every failed
    check, when one of them failed."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed: list[str] = []

    def check(self, name: str, condition: object, detail: str = "") -> bool:
        """Print ``name: detail: ok`` (or ``FAILED``) and record whether ``condition`` holds
        (a ``bool`` or a numpy one)."""
        ok = bool(condition)
        print(f"  {name}: {detail + ': ' if detail else ''}{'ok' if ok else 'FAILED'}",
              flush=True)  # fmt: skip
        if ok:
            self.passed += 1
        else:
            self.failed.append(f"{name}: {detail}" if detail else name)
        return ok

    def finish(self) -> None:
        if self.failed:
            print(f"\n{len(self.failed)} of {self.passed + len(self.failed)} checks FAILED:",
                  file=sys.stderr)  # fmt: skip
            for f in self.failed:
                print(f"  {f}", file=sys.stderr)
            sys.exit(1)
        print(f"\nall {self.passed} checks passed")
