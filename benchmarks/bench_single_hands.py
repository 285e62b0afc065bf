"""Check: for 10 random full-deck player hands (seeded), the engine restricted to the hand
equals the brute-force loop over its 53,524,680 dealer hands (every count)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np


def main() -> None:
    from enumerate.bruteforce import one_player_hand
    from enumerate.cards import Hand
    from enumerate.engine import build_keys
    from enumerate.engine.pairs.run import run_for_hands
    from enumerate.houseways import get_way
    from enumerate.rules import Rules
    from enumerate.tables import hand_table

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    table = hand_table()
    way = get_way("gli")
    keys = build_keys(table, way)
    rng = np.random.default_rng(20261130)
    hands = [sorted(rng.choice(53, size=7, replace=False).tolist()) for _ in range(n)]
    rows = [table.row_of(Hand.from_ids(h).cards) for h in hands]
    t0 = time.perf_counter()
    engine = run_for_hands(table, keys, rows)
    print(f"engine, {n} hands: {time.perf_counter() - t0:.1f} s", flush=True)
    ok = 0
    for h, r in zip(hands, rows, strict=True):
        t0 = time.perf_counter()
        brute = one_player_hand(Hand.from_ids(h).cards, Rules(), way, way, keys.dealer_class_bits)
        same = brute == engine[r]
        ok += same
        secs = time.perf_counter() - t0
        print(
            f"{Hand.from_ids(h)!s:<22} brute force {secs:5.1f} s  "
            f"win {int(brute.br_win.sum()):>10,} push {int(brute.br_push.sum()):>10,}  "
            f"blind win {int(brute.blind_win.sum()):>10,}  equal: {same}",
            flush=True,
        )
    print(f"{ok}/{n} hands: engine == brute force")
    if ok != n:
        sys.exit(1)


if __name__ == "__main__":
    main()
