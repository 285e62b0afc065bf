"""Benchmark: ``paigow reports`` from an empty cache folder, as on a fresh clone (every table
built: hand and way tables, the levels, two full-deck engine runs, the per-dealer table of the
house-way lab and its 28 readings, the per-hand table of the optimal strategy).

Budget: 5 minutes wall and 6 GB peak memory on 2 cores. Prints the time and the
peak memory after each step (from the command's own log) and the whole process's wall time and
peak RSS; exits 1 when the command fails. PAIGOW_BENCH_DECK runs a smaller deck (e.g.
``TJQKA:cdh+joker``, to try the script).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks

BUDGET_SECONDS = 300
BUDGET_MB = 6 * 1024


def main() -> None:
    deck = os.environ.get("PAIGOW_BENCH_DECK", "full")
    scratch = Path(tempfile.mkdtemp(prefix="paigow-reports-"))
    env = {**os.environ, "PAIGOW_CACHE_DIR": str(scratch / "cache")}
    paigow = Path(sys.executable).with_name("paigow")
    cmd = [str(paigow), "reports", "--out", str(scratch / "reports"), "--deck", deck]
    print(f"$ PAIGOW_CACHE_DIR={scratch / 'cache'} {' '.join(cmd[1:])}", flush=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)  # fmt: skip
    assert proc.stdout is not None
    steps = []
    for line in proc.stdout:
        print(f"    {line.rstrip()}", flush=True)
        # a step's line: "[<elapsed> s] <step>: <seconds> s (peak memory so far <MB> MB, now
        # <MB> MB)"
        m = re.match(r"(?:\[ *[0-9.]+ s\] )?(.+): ([0-9.]+) s \(peak memory so far ([0-9,]+) MB",
                     line.strip())  # fmt: skip
        if m:
            steps.append((m[1], float(m[2]), int(m[3].replace(",", ""))))
    _, raw, usage = os.wait4(proc.pid, 0)
    proc.returncode = status = os.waitstatus_to_exitcode(raw)
    wall = time.perf_counter() - t0
    peak = usage.ru_maxrss / 1024
    files = sum(1 for _ in (scratch / "reports").glob("*")) if status == 0 else 0
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"\npaigow reports, deck {deck}, empty cache  (cores: {os.cpu_count()})")
    for name, secs, mb in steps:
        print(f"  {name:<22} {secs:8.1f} s   peak so far {mb:>7,} MB")
    print(f"  {'total wall':<22} {wall:8.1f} s   (budget {BUDGET_SECONDS} s: "
          f"{'met' if wall <= BUDGET_SECONDS else 'NOT met'})")  # fmt: skip
    print(f"  {'peak memory (RSS)':<22} {peak:8.0f} MB  (budget {BUDGET_MB} MB: "
          f"{'met' if peak <= BUDGET_MB else 'NOT met'})")  # fmt: skip
    checks = Checks()
    checks.check("paigow reports exits 0", status == 0, f"exit status {status}")
    checks.check("reports written", files > 0, f"{files} files")
    checks.finish()


if __name__ == "__main__":
    main()
