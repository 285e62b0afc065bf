"""Benchmark: the full-deck pair engine, best response and blind play, gli way, all dealer
classes, from an empty shard cache.

Budget: 45 s wall with both cores busy (the levels cached, as after any first run of
the deck), 6 GB, on 2 cores; the first run, which also builds the levels, is timed too.
PAIGOW_BENCH_FLAGS=0 runs one dealer class (a plain variant), the default (every dealer event)
all ten; PAIGOW_BENCH_DECK a smaller deck (e.g. ``TJQKA:cdh+joker``, to try the script).
Prints the time per inclusion-exclusion level, hand visits per second, and the closed-form
checks; exits 1 when a check fails.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps


def main() -> None:
    from enumerate.cards import Rank
    from enumerate.engine import build_keys, run_engine
    from enumerate.engine.pairs.shards import LevelStats
    from enumerate.houseways import get_way
    from enumerate.rules import Deck
    from enumerate.tables import hand_table
    from enumerate.vocabulary import (
        ALL_DEALER_EVENTS,
        N_PLAYER_CLASSES,
        PLAYER_ACE_HIGH_PAI_GOW,
        DealerEvent,
    )

    flag_mask = int(os.environ.get("PAIGOW_BENCH_FLAGS", str(ALL_DEALER_EVENTS)))
    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    checks = Checks()

    steps = Steps(f"pair engine, deck {deck.name}, gli, best response + blind + joint classes")
    table = steps.run("hand table (cache)", lambda: hand_table(deck))
    keys = steps.run("keys: way + frontier tables (cache)",
                     lambda: build_keys(table, get_way("gli"), flag_mask=flag_mask))  # fmt: skip
    print(f"    dealer classes: {keys.n_dealer_classes}")
    # an empty cache folder: the first run builds the levels (and keeps them there), the
    # second reads them back, as every later run of the deck does (the levels serve every
    # house way and flag mask); each run computes every shard
    scratch = Path(tempfile.mkdtemp(prefix="paigow-engine-"))
    os.environ["PAIGOW_CACHE_DIR"] = str(scratch)
    runs = (("engine, levels built (2 threads)", "cold"),
            ("engine, levels cached (2 threads)", "warm"))  # fmt: skip
    results = []
    for name, tag in runs:
        shutil.rmtree(scratch / "engine", ignore_errors=True)
        stats: dict[int, LevelStats] = {}
        cpu0, t0 = time.process_time(), time.perf_counter()
        counts = steps.run(name, lambda st=stats: run_engine(table, keys, progress=False,
                                                             stats=st))  # fmt: skip
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        results.append(counts)
        visits = sum(s.hand_visits for s in stats.values())
        print(f"\n  {tag}: level  orbits      hand visits   build s  shards s (thread-summed)")
        for k, s in sorted(stats.items()):
            print(f"  {k:>11}  {s.orbits:>9,}  {s.hand_visits:>15,}  {s.build_seconds:7.1f}"
                  f"  {s.shard_seconds:8.1f}")  # fmt: skip
        print(f"  hand visits: {visits:,} in {wall:.1f} s = {visits / wall / 1e6:.1f} M/s; "
              f"CPU {100 * cpu / wall:.0f}% of one core\n")  # fmt: skip
    shutil.rmtree(scratch, ignore_errors=True)
    checks.check("the run with the levels cached = the one that built them",
                 results[0] == results[1])  # fmt: skip
    n = deck.size
    others = comb(n - 7, 7)  # the hands of the other cards: C(46, 7) for the full deck
    deals = comb(n, 7) * others
    checks.check("total pairs", counts.total == deals,
                 f"{counts.total:,} (expected {deals:,})")  # fmt: skip
    # every player hand meets the C(n - 7, 7) dealer hands of the other cards
    pclass = table.seven_card_class.astype(np.int64)
    pclass[table.ace_high_pai_gow] = PLAYER_ACE_HIGH_PAI_GOW
    hands = np.zeros(N_PLAYER_CLASSES, dtype=np.int64)
    np.add.at(hands, pclass, table.orbit_size.astype(np.int64))
    by_player = counts.joint.sum(axis=1)
    checks.check("pairs by player class = hands of the class x C(n - 7, 7)",
                 by_player.tolist() == (hands * others).tolist())  # fmt: skip
    jacks = sum(
        int(counts.per_dealer_class[d])
        for d, bits in enumerate(keys.dealer_class_bits)
        if bits & DealerEvent.TWO_JACKS
    )
    if flag_mask & DealerEvent.TWO_JACKS:
        # dealer hands with two or more of the j jacks (none or one: C(n - j, 7) and
        # j C(n - j, 6)), each against C(n - 7, 7) player hands
        j = len(deck.suits) if Rank.JACK in deck.ranks else 0
        closed = (comb(n, 7) - comb(n - j, 7) - j * comb(n - j, 6)) * others
        checks.check("dealer two+ jacks", jacks == closed,
                     f"{jacks:,} (closed form {closed:,})")  # fmt: skip
    win, push, loss = (int(a.sum()) for a in (counts.br_win, counts.br_push, counts.br_loss))
    print(f"  best response: win {win:,} push {push:,} loss {loss:,}")
    bwin, bpush, bloss = (int(a.sum())
                          for a in (counts.blind_win, counts.blind_push, counts.blind_loss))
    print(f"  blind (gli vs gli): win {bwin:,} push {bpush:,} loss {bloss:,}")
    nonnegative = all((a >= 0).all() for a in (counts.blind_push, counts.br_loss))
    checks.check("pushes and losses are not negative", nonnegative)
    # seeing the dealer's setting, the player can always play the house way's own setting
    checks.check("best response wins >= blind wins, losses <= blind losses, by dealer class",
                 (counts.br_win >= counts.blind_win).all()
                 and (counts.br_loss <= counts.blind_loss).all())  # fmt: skip
    steps.report()
    checks.finish()


if __name__ == "__main__":
    main()
