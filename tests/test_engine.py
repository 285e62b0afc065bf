"""The pair engine equals the plain double loop on small decks, every integer."""

from math import comb

import numpy as np
import pytest

from enumerate.bruteforce import pairs_by_brute_force
from enumerate.engine import build_keys, run_engine
from enumerate.engine.pairs.shards import plan_shards
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

# "23579JQA:cd+joker" has ace-high pai gows with and without the joker, queen-high pai gows,
# two jacks and nine-high low hands: every dealer class. The four-suit decks have suit orbits
# of size 24 (no smaller deck does): "JQKA:cdhs+joker" royal flushes with and without the
# joker, five aces, two jacks; "A234:cdhs+joker" the wheel (and its straight flush) made by
# the joker, five aces; "A2345:cdhs" natural wheels and wheel straight flushes (20 cards: its
# brute force is the slowest, so it runs one pair, both ways involved).
DECKS = [
    "A2345:cdh+joker", "TJQKA:cdh+joker", "89TJQKA:cd+joker", "9TJQKA:cdh", "89TJQK:cdh",
    "23579JQA:cd+joker", "JQKA:cdhs+joker", "A234:cdhs+joker",
]  # fmt: skip
LARGE_DECKS = ["A2345:cdhs"]
WAY_PAIRS = [("gli", "gli"), ("trump-plaza", "trump-plaza"), ("gli", "trump-plaza")]
CASES = [(d, *w) for d in DECKS for w in WAY_PAIRS] + [(d, "gli", "trump-plaza")
                                                        for d in LARGE_DECKS]  # fmt: skip


@pytest.fixture(scope="module", params=DECKS + LARGE_DECKS)
def deck_table(request):
    deck = Deck.parse(request.param)
    return deck, hand_table(deck, use_cache=False)


@pytest.mark.parametrize("deck_table,dealer,player", CASES, indirect=["deck_table"])
def test_engine_equals_brute_force(deck_table, dealer, player):
    deck, table = deck_table
    keys = build_keys(table, get_way(dealer), get_way(player))
    engine = run_engine(table, keys, use_cache=False, progress=False)
    brute = pairs_by_brute_force(
        deck, Rules(), get_way(dealer), get_way(player), keys.dealer_class_bits
    )
    assert engine.total == comb(deck.size, 7) * comb(deck.size - 7, 7)
    assert engine == brute
    assert (engine.blind_push >= 0).all() and (engine.br_loss >= 0).all()


def test_wheel_low_rules(tmp_path):
    deck = Deck.parse("A23456:cdh")
    rules = Rules(wheel="low")
    table = hand_table(deck, rules, use_cache=False)
    way = get_way("gli")
    keys = build_keys(table, way)
    assert run_engine(table, keys, use_cache=False, progress=False) == pairs_by_brute_force(
        deck, rules, way, way, keys.dealer_class_bits
    )


def test_shards_resume(tmp_path, monkeypatch):
    """A run that stopped after some shards resumes from them and gives the same integers."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("enumerate.engine.pairs.shards.VISITS_PER_SHARD", 2_000)
    deck = Deck.parse("TJQKA:cdh+joker")
    table = hand_table(deck)
    keys = build_keys(table, get_way("gli"))
    shards = plan_shards(table)
    assert len(shards) > 8
    full = run_engine(table, keys, progress=False)
    files = sorted((tmp_path / "engine" / keys.digest).glob("*.parquet"))
    assert len(files) == len(shards)
    for f in files[::2]:
        f.unlink()  # as if the run had stopped before these
    calls = []
    import enumerate.engine.pairs.run as run_mod

    real = run_mod.run_shard

    def counting(level, shard, table, keys):
        calls.append(shard)
        return real(level, shard, table, keys)

    monkeypatch.setattr(run_mod, "run_shard", counting)
    again = run_engine(table, keys, progress=False)
    assert again == full
    assert len(calls) == len(files[::2])

    # a run really stopped midway (here by its progress callback) resumes the same way
    for f in files:
        f.unlink()

    class Stop(Exception):
        pass

    def stop_after_three(done):
        if done.run == 0 and len(list(files[0].parent.glob("*.parquet"))) >= 3:
            raise Stop

    with pytest.raises(Stop):
        run_engine(table, keys, progress=False, on_shard=stop_after_three)
    saved = len(list(files[0].parent.glob("*.parquet")))
    assert saved == 3
    stats = {}
    assert run_engine(table, keys, progress=False, stats=stats) == full
    assert sum(s.shards for s in stats.values()) == len(shards) - saved


def test_player_selection_matches_brute_force():
    deck = Deck.parse("TJQKA:cdh+joker")
    table = hand_table(deck, use_cache=False)
    way = get_way("gli")
    keys = build_keys(table, way)
    row = 1234
    weight = np.zeros(len(table), dtype=np.int64)
    weight[row] = 1
    chosen = keys.with_player_weight(weight, "one class")
    engine = run_engine(table, chosen, use_cache=False, progress=False)
    # the class stands for every hand in its orbit
    from itertools import permutations

    rep = [int(c) for c in table.cards[row]]
    suits = [s.order for s in deck.suits]
    orbit = set()
    for perm in permutations(suits):
        m = dict(zip(suits, perm, strict=True))
        orbit.add(tuple(sorted(c if c == 52 else (c & ~3) | m[c & 3] for c in rep)))
    assert len(orbit) == table.orbit_size[row]
    brute = pairs_by_brute_force(
        deck, Rules(), way, way, keys.dealer_class_bits, player_hands=sorted(orbit)
    )
    assert engine == brute


def test_single_hands_match_brute_force():
    """run_for_hands gives one hand's counts against every dealer hand of the other cards."""
    from enumerate.engine.pairs.run import run_for_hands

    deck = Deck.parse("TJQKA:cdh+joker")
    table = hand_table(deck, use_cache=False)
    way = get_way("trump-plaza")
    keys = build_keys(table, way, use_cache=False)
    rows = [0, 77, 500, len(table) - 1]
    got = run_for_hands(table, keys, rows)
    for r in rows:
        hand = [int(c) for c in table.cards[r]]
        brute = pairs_by_brute_force(
            deck, Rules(), way, way, keys.dealer_class_bits, player_hands=[hand]
        )
        assert got[r] == brute
        assert got[r].total == comb(deck.size - 7, 7)


def testorder_by_high_is_a_stable_sort_at_every_size() -> None:
    """The three sorts of ``sort_by_high`` (insertion, radix, counting: the small test decks
    have few families large enough for the last two), through ``order_by_high``, against
    numpy's stable sort, at and around the sizes where one hands over to the next, ties and
    the largest id included."""
    from enumerate.engine.kernels.records import N_HIGH_MAX
    from enumerate.engine.kernels.sorting import (
        COUNTING_SORT_MIN,
        INSERTION_SORT_MAX,
        order_by_high,
    )

    rng = np.random.default_rng(3)
    sizes = (0, 1, 2, INSERTION_SORT_MAX, INSERTION_SORT_MAX + 1, 935, COUNTING_SORT_MIN - 1,
             COUNTING_SORT_MIN, COUNTING_SORT_MIN + 1001)  # fmt: skip
    for n in sizes:
        for top in (N_HIGH_MAX + 1, 40):  # ids of the whole range; a few ids, many ties
            highs = rng.integers(0, top, size=n + 5).astype(np.int64)
            highs[: min(n, 2)] = N_HIGH_MAX
            order = order_by_high(highs, n, np.empty(n, dtype=np.int64))
            assert order.tolist() == np.argsort(highs[:n], kind="stable").tolist()


def test_level_families_hold_every_hand_containing_the_set(deck_table) -> None:
    """docs/design.md, "Suit symmetry and levels": the family of orbit S lists, with class orbit
    sizes, |orbit S| times the C(n - k, 7 - k) hands that contain S; and every orbit of the level
    has one."""
    from enumerate.engine.levels.build import build_level

    deck, table = deck_table
    size = table.orbit_size.astype(np.int64)
    if len(deck.suits) == 4:  # suit permutations move some classes to 24 hands
        assert size.max() == 24
    for k in range(8):
        level = build_level(table, k)
        per_orbit = np.add.reduceat(size[level.items], level.offsets[:-1])
        expected = level.orbits.size.astype(np.int64) * comb(deck.size - k, 7 - k)
        assert (np.diff(level.offsets) > 0).all()
        assert per_orbit.tolist() == expected.tolist()
