"""Benchmark: derived rule cards of up to 30 rules on the full deck, each side, once the
per-hand and per-dealer tables are cached; then the cards priced again by the ordinary path.

Budget: a derivation up to 30 rules under 3 minutes on two cores and 6 GB (the whole process:
``/usr/bin/time`` in ``make bench``). The checks: the cards of 12 and 30 rules (or the most
found), written as card files and read back, priced by the ordinary path (the card's way table
and the per-hand table for a strategy, the per-dealer table for a dealer's way) give the same
exact house edge as the derivation's own sums; the curve never gets worse.

Environment: PAIGOW_BENCH_DECK (a smaller deck to try the script), PAIGOW_BENCH_SIDE
("strategy", default, or "way"), PAIGOW_BENCH_GAME (default traditional / face-up).
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import Checks, Steps  # noqa: E402

RULES = 30


def main() -> None:
    from analysis.derive import derive_strategy, derive_way
    from analysis.pricing.strategy import strategy_return_table
    from analysis.waylab.wayedge import price_dealer_way
    from enumerate.rules import Deck

    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    side = os.environ.get("PAIGOW_BENCH_SIDE", "strategy")
    game = os.environ.get("PAIGOW_BENCH_GAME", "traditional" if side == "strategy" else "face-up")
    steps = Steps(f"derived {side} cards, {game}, deck {deck.name}, up to {RULES} rules")
    checks = Checks()
    if side == "strategy":
        d = steps.run("derivation", lambda: derive_strategy(game, "gli", RULES, deck=deck))
    else:
        d = steps.run("derivation", lambda: derive_way(game, RULES, deck=deck))
    k = len(d.steps)
    for line in d.summary():
        print(f"  {line}")
    edges = [d.edge(n) for n in range(k + 1)]
    checks.check("the curve never gets worse",
                 all(d.sign * (b - a) > 0 for a, b in itertools.pairwise(edges)))
    for n in sorted({min(12, k), k}):
        card = d.card(n)
        if side == "strategy":
            t = steps.run(f"card of {n} rules, ordinary path",
                          lambda card=card: strategy_return_table(game, card, "gli", deck=deck))
        else:
            t = steps.run(f"card of {n} rules, ordinary path",
                          lambda card=card: price_dealer_way(game, card, deck=deck))
        checks.check(f"card of {n} rules", t.house_edge == d.edge(n),
                     f"{float(d.edge(n)) * 100:.4f}%")
    steps.report()
    checks.finish()


if __name__ == "__main__":
    main()
