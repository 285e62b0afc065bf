"""Benchmark: the interactive commands, whole-process wall time on a warm call.

Each command runs once to warm up (numba's on-disk caches, the five-card table), then
``$PAIGOW_BENCH_RUNS`` times (default 5) as a subprocess; the table gives the median wall time,
the peak resident memory of the runs (``os.wait4``, per child) and the budget. A command whose
tables are not cached is skipped with a note rather than left to build them for minutes (run
``make reports`` first). Exits 1 when a command fails (non-zero exit).

    python benchmarks/bench_cli.py            # every row
    python benchmarks/bench_cli.py hand set   # the rows whose command holds one of the words
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks

TIMEOUT = 600.0  # seconds: a run this long is building something, not answering


@dataclass(frozen=True)
class Row:
    """A command, its budget (wall seconds; None when none is set) and a check of the caches
    it needs (``missing()`` is None when they are there, else what is not)."""

    args: tuple[str, ...]
    budget: float | None
    missing: Callable[[], str | None] = lambda: None
    budget_mb: float | None = None  # peak memory, when the issue gives one

    @property
    def text(self) -> str:
        return "paigow " + shlex.join(self.args)


def _hand_table_missing() -> str | None:
    from enumerate.cache import is_current, provenance
    from enumerate.rules import Deck, Rules
    from enumerate.tables import cache_path

    deck, rules = Deck.full(), Rules()
    # the provenance hand_table() gives its file (enumerate/tables.py)
    prov = provenance("enumerate.tables", table="hands", deck=deck.key, rules=rules.key)
    return None if is_current(cache_path(deck, rules), prov) else "the full-deck hand table"


def _pair_counts_missing(variant_name: str) -> Callable[[], str | None]:
    def missing() -> str | None:
        # analysis.pricing.counts has no public "is it cached": its own look-up, without the build
        from analysis.games.variants import get_variant
        from analysis.pricing.counts import _cached_supersets, _provenance, cache_path
        from enumerate.cache import is_current
        from enumerate.houseways import get_way
        from enumerate.rules import Deck, Rules

        v = get_variant(variant_name)
        way, deck, rules = get_way(v.house_way), Deck.full(), Rules()
        masks = [v.flag_mask, *_cached_supersets(deck, rules, way, way, v.flag_mask)]
        cached = any(is_current(cache_path(deck, rules, way, way, m),
                                _provenance(deck, rules, way, way, m)) for m in masks)  # fmt: skip
        return None if cached else f"the pair counts of {variant_name}"

    return missing


def _per_hand_missing() -> str | None:
    if (what := _hand_table_missing()) is not None:
        return what
    from analysis.games.variants import get_variant
    from analysis.pricing.optimal import per_hand_flags, per_hand_sets
    from enumerate.engine.perhand.row import find_table
    from enumerate.houseways import get_way
    from enumerate.rules import Deck, Rules

    v = get_variant("traditional")
    found = find_table(Deck.full(), Rules(), get_way(v.house_way), per_hand_flags(v),
                       per_hand_sets(v))
    return None if found is not None else "the per-hand table of traditional"


BEST_HAND = "Ah Kd Qs 9c 7c 5h 2d"
ROWS = (
    Row(("hand", "As Ks Qs Js Ts 2c Jk"), 0.5),
    Row(("set", "Ks Kh 9c 7d 5h 3s 2c"), 0.5),
    Row(("analyze", "traditional"), 0.5, _pair_counts_missing("traditional")),
    Row(("best", BEST_HAND), 1.0, _per_hand_missing, 500),
    Row(("best", BEST_HAND, "--method", "direct"), 5.0, _hand_table_missing),
)


@dataclass(frozen=True)
class Run:
    wall: float  # seconds
    peak_mb: float  # peak resident memory of the process
    code: int  # exit code
    err: str  # its stderr


def _paigow() -> list[str]:
    script = Path(sys.executable).with_name("paigow")
    return [str(script)] if script.exists() else [sys.executable, "-m", "analysis"]


def run_once(argv: list[str]) -> Run:
    """One whole process: wall time, peak RSS (``os.wait4``: this child's own), exit code."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        timer = threading.Timer(TIMEOUT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        err.seek(0)
        text = err.read().decode(errors="replace")
    return Run(wall, usage.ru_maxrss / 1024, proc.returncode, text)  # ru_maxrss: KB on Linux


def main() -> None:
    runs = int(os.environ.get("PAIGOW_BENCH_RUNS", "5"))
    words = sys.argv[1:]
    rows = [r for r in ROWS if not words or any(w in r.text for w in words)]
    checks = Checks()
    table: list[tuple[str, str]] = []
    print(f"interactive commands: 1 warm-up, then {runs} runs each (cores: {os.cpu_count()})")
    for row in rows:
        missing = row.missing()
        if missing is not None:
            print(f"  {row.text}: skipped: {missing} not cached; run make reports first")
            table.append((row.text, f"skipped: {missing} not cached; run make reports first"))
            continue
        argv = [*_paigow(), *row.args]
        warm = run_once(argv)
        timed = [run_once(argv) for _ in range(runs)] if warm.code == 0 else []
        failed = next((r for r in [warm, *timed] if r.code != 0), None)
        last = failed.err.strip().splitlines()[-1:] if failed else []
        if not checks.check(f"{row.text} exits 0", failed is None,
                            f"exit {failed.code}: {' '.join(last)}" if failed else ""):  # fmt: skip
            table.append((row.text, "FAILED"))
            continue
        wall = statistics.median(r.wall for r in timed)
        peak = max(r.peak_mb for r in timed)
        budget = "-" if row.budget is None else f"{row.budget:.2f}"
        if row.budget_mb is not None:
            budget += f" {row.budget_mb:.0f}MB"
        ok = (row.budget is None or wall <= row.budget) and (row.budget_mb is None
                                                             or peak <= row.budget_mb)
        met = "-" if row.budget is None else ("met" if ok else "NOT met")
        table.append((row.text, f"{wall:8.2f} {peak:9.0f} {budget:>12} {met:>8}"))
    width = max(len(t) for t, _ in table)
    print(f"\n  {'command':<{width}} {'median s':>8} {'peak MB':>9} {'budget':>12} {'met':>8}")
    for text, cells in table:
        print(f"  {text:<{width}} {cells}")
    checks.finish()


if __name__ == "__main__":
    main()
