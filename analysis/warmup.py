"""Compiling the numba kernels of ``paigow reports`` ahead of the steps that run them.

A fresh checkout compiles every kernel the first time it runs it (about a minute of one core
for the whole report; numba then keeps the machine code in its cache beside the sources), and
a step compiles its kernels before it can start them: on a fresh checkout that minute is
spent in series with the work. So ``paigow reports`` on a large deck first starts this module
in a child process at the lowest CPU priority. The child writes the same reports for a small
deck into a throwaway folder: that runs every kernel of the report with the argument types of
the real run (the same tables, read the same way from a cache folder of its own), so their
machine code lands in numba's cache, mostly before the main process asks for it and on core
time the main process leaves idle (its serial stretches). A kernel the main process reaches
first it compiles itself, as it always did. Nothing the child makes is read by the main
process but numba's cache, which keys machine code by source file and argument types.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from enumerate.rules import Deck

DECK = "23579JQA:cd+joker"  # 17 cards: every step of the report, in a few seconds of work
ENV_OFF = "PAIGOW_NO_WARMUP"  # set (to anything) to start no child


@dataclass
class Warmup:
    """The child process and its folder."""

    process: subprocess.Popen[bytes]
    folder: Path

    def stop(self) -> None:
        """End the child if it is still running and remove its folder."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def start(deck: Deck, ways: list[str]) -> Warmup | None:
    """Start the child for a report on ``deck`` with house ways ``ways``; None when the deck
    is no larger than the child's own (compiling is then the report's work anyway) or when
    ``PAIGOW_NO_WARMUP`` is set."""
    if os.environ.get(ENV_OFF) or deck.size <= Deck.parse(DECK).size:
        return None
    folder = Path(tempfile.mkdtemp(prefix="paigow-warmup-"))
    env = {**os.environ, "PAIGOW_CACHE_DIR": str(folder / "cache")}
    process = subprocess.Popen(
        [sys.executable, "-m", "analysis.warmup", str(folder / "reports"), ",".join(ways)],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return Warmup(process, folder)


def main(argv: list[str]) -> int:
    """The child: the reports of ``DECK`` into ``argv[0]``, house ways ``argv[1]``."""
    os.nice(19)  # the main process's work comes first
    from analysis.reports import build_reports

    build_reports(argv[0], Deck.parse(DECK), ways=argv[1].split(","), log=lambda _m: None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
