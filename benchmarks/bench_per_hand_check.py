"""Check: for 10 random full-deck hands (seeded), every non-dominated setting's
exact win / loss counts from the per-hand engine equal a brute-force loop over the hand's
53,524,680 dealer hands (each dealer hand set by the house way from its own cards)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np


def main() -> None:
    from enumerate.bruteforce import all_dealer_keys, settings_by_brute_force
    from enumerate.cards import Hand
    from enumerate.engine import build_keys
    from enumerate.engine.perhand.table import run_per_hand
    from enumerate.houseways import get_way
    from enumerate.rules import Rules
    from enumerate.tables import hand_table
    from enumerate.vocabulary import DealerEvent

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    # queen-high pai gow and nine-high low hand: the blind variants' dealer classes
    flags = int(DealerEvent.QUEEN_HIGH | DealerEvent.NINE_HIGH_LOW)
    table = hand_table()
    way = get_way("gli")
    keys = build_keys(table, way, flag_mask=flags)
    rng = np.random.default_rng(6)
    hands = [sorted(rng.choice(53, size=7, replace=False).tolist()) for _ in range(n)]
    rows = [table.row_of(Hand.from_ids(h).cards) for h in hands]
    t0 = time.perf_counter()
    per = run_per_hand(table, keys, rows=rows)
    print(f"per-hand engine, {n} hands: {time.perf_counter() - t0:.1f} s", flush=True)
    t0 = time.perf_counter()
    dealer = all_dealer_keys(Rules(), way, flags)
    print(f"dealer keys of all 154,143,080 hands: {time.perf_counter() - t0:.1f} s", flush=True)
    ok = 0
    for h, r in zip(hands, rows, strict=True):
        sl = per.points(r)
        points = list(zip(per.point_high[sl].tolist(), per.point_low[sl].tolist(), strict=True))
        t0 = time.perf_counter()
        win, loss, total = settings_by_brute_force(
            Hand.from_ids(h).cards, points, dealer, keys.dealer_class_bits
        )
        same = (
            np.array_equal(win, per.win[sl])
            and np.array_equal(loss, per.loss[sl])
            and np.array_equal(total, per.total[r])
        )
        ok += same
        print(f"{Hand.from_ids(h)!s:<22} {len(points):>2} settings, brute force "
              f"{time.perf_counter() - t0:5.1f} s, equal: {same}", flush=True)  # fmt: skip
    print(f"{ok}/{n} hands: per-hand engine == brute force for every setting")
    if ok != n:
        sys.exit(1)


if __name__ == "__main__":
    main()
