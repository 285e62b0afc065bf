"""Way tables and player tables: cache hit, miss and stale rebuild; values worked out by hand.

Frontiers below are derived from the rules of docs/rules.md ("Setting a hand"), not from the code:
each expected point is written as the cards of its back and front, and only turned into rank
ids by the evaluator.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from analysis.waylab.ways import load_way_module
from enumerate.cache import read_provenance
from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SETTING_PAIRS, five_card_table, two_card_id
from enumerate.houseways import FALLBACK, HouseWay, get_way, set_one_hand
from enumerate.rules import Deck, Rules
from enumerate.strategy import frontier_of
from enumerate.tables import hand_table
from enumerate.waytables import (
    PlayerTable,
    WayTable,
    player_cache_path,
    player_table,
    way_cache_path,
    way_table,
)
from tests.reference_ways import gli

SMALL = Deck.parse("TJQKA:cdh+joker")  # 16 cards
DECK = Deck.parse("9TJQKA:cdhs+joker")  # 25 cards
LOWS = Deck.parse("234579K:cdhs")  # 28 cards: holds the hands of the frontier tests
EXAMPLE = Path(__file__).with_name("custom_way_example.py")  # registers "pair-in-front"


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    return tmp_path


def _rewrite_provenance(path, **changes):
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    prov = json.loads(meta[b"paigow"])
    prov.update(changes)
    meta[b"paigow"] = json.dumps(prov).encode()
    pq.write_table(table.replace_schema_metadata(meta), path)


def _same_way(a: WayTable, b: WayTable) -> bool:
    return all(
        np.array_equal(getattr(a, k), getattr(b, k)) for k in ("setting", "rule", "high", "low")
    )


def _same_player(a: PlayerTable, b: PlayerTable) -> bool:
    return all(
        np.array_equal(getattr(a, k), getattr(b, k))
        for k in ("size", "high", "low", "max_high", "max_low")
    )


# ---------------------------------------------------------------------------------------------
# way tables: cache


def test_way_table_second_load_comes_from_cache(cache_dir):
    first = way_table("gli", SMALL)
    second = way_table(get_way("gli"), SMALL)
    assert not first.from_cache and second.from_cache
    assert _same_way(first, second)
    assert len(first) == len(hand_table(SMALL))
    assert first.rule_names == get_way("gli").rule_names
    assert not [p for p in cache_dir.iterdir() if p.name.endswith(".tmp")]


def test_way_table_provenance_names_way_deck_and_rules(cache_dir):
    way_table("gli", SMALL, Rules(wheel="low"))
    prov = read_provenance(way_cache_path(get_way("gli"), SMALL, Rules(wheel="low")))
    assert prov is not None
    assert prov["way"] == get_way("gli").key and prov["way"].startswith("gli@1#")
    assert prov["deck"] == SMALL.key
    assert prov["rules"] == Rules(wheel="low").key
    assert prov["rows"] == len(hand_table(SMALL, Rules(wheel="low")))


@pytest.mark.parametrize(
    "changes",
    [
        {"code": "0000000000000000"},
        {"way": "gli@0#0000000000000000"},
        {"rules": '{"wheel": "low"}'},
        {"deck": "TJQKA:cdhs+joker"},
        {"rows": 1},
        {"builder": "enumerate.cards"},
    ],
)
def test_stale_way_table_is_rebuilt(cache_dir, changes):
    built = way_table("gli", SMALL)
    _rewrite_provenance(way_cache_path(get_way("gli"), SMALL, Rules()), **changes)
    again = way_table("gli", SMALL)
    assert not again.from_cache and _same_way(built, again)
    assert way_table("gli", SMALL).from_cache


def test_new_version_of_a_way_is_rebuilt(cache_dir):
    way_table("gli", SMALL)
    v2 = HouseWay("gli", "2", "a new edition", gli.RULES, gli.choose, gli)
    t2 = way_table(v2, SMALL)
    assert not t2.from_cache and t2.way_key.startswith("gli@2#")
    assert way_table(v2, SMALL).from_cache
    assert not way_table("gli", SMALL).from_cache  # version 1 again: rebuilt, not served


def test_damaged_way_table_is_rebuilt(cache_dir):
    way_table("gli", SMALL)
    way_cache_path(get_way("gli"), SMALL, Rules()).write_bytes(b"not parquet")
    assert not way_table("gli", SMALL).from_cache
    assert way_table("gli", SMALL).from_cache


def test_each_way_deck_and_rules_get_their_own_file(cache_dir):
    way_table("gli", SMALL)
    assert not way_table("trump-plaza", SMALL).from_cache
    assert not way_table("gli", SMALL, Rules(wheel="low")).from_cache
    assert not way_table("gli", DECK).from_cache
    paths = {
        way_cache_path(get_way("gli"), SMALL, Rules()),
        way_cache_path(get_way("trump-plaza"), SMALL, Rules()),
        way_cache_path(get_way("gli"), SMALL, Rules(wheel="low")),
        way_cache_path(get_way("gli"), DECK, Rules()),
    }
    assert len(paths) == 4 and all(p.exists() for p in paths)


def test_use_cache_false_writes_nothing(cache_dir):
    t = way_table("gli", SMALL, use_cache=False)
    p = player_table(SMALL, use_cache=False)
    assert not t.from_cache and not p.from_cache
    assert not list(cache_dir.glob("*.parquet"))


def test_unknown_way_name():
    with pytest.raises(ValueError, match=r"unknown house way 'nope' \(known: .*gli"):
        way_table("nope", SMALL)


# ---------------------------------------------------------------------------------------------
# way tables: values


def test_way_table_rows_are_the_ways_settings(cache_dir):
    hands = hand_table(DECK)
    t = way_table("gli", DECK)
    five = five_card_table()
    # three queens beside A-K-J-T: the hand is a straight, so rule 8 (with trips) applies and
    # 8a puts the highest king-high-or-better front keeping the straight: the pair of queens,
    # with A-K-Q-J-T behind (the straight needs one queen).
    row = hands.row_of("Qc Qd Qh Ac Kd Jh Tc")
    assert t.rule_names[t.rule[row]] == "8a. king-high or better front keeping a straight or flush"
    assert t.high[row] == five.id_of(parse_cards("Ac Kd Qh Jh Tc"))
    assert t.low[row] == two_card_id(parse_cards("Qc Qd"))
    # the setting index names the two front cards among the class's (sorted) cards
    i, j = SETTING_PAIRS[t.setting[row]]
    front = parse_cards([_card(hands.cards[row, i]), _card(hands.cards[row, j])])
    assert two_card_id(front) == t.low[row]
    # every class agrees with setting its representative one at a time
    for r in range(0, len(hands), 997):
        s = set_one_hand(get_way("gli"), [_card(c) for c in hands.cards[r]])
        assert (s.high_id, s.low_id, s.rule) == (t.high[r], t.low[r], t.rule_names[t.rule[r]])
    assert FALLBACK not in {t.rule_names[r] for r in np.unique(t.rule)}


def _card(card_id) -> str:
    return str(Card(int(card_id)))


def test_custom_way_table_on_a_small_deck(cache_dir):
    load_way_module(str(EXAMPLE))
    way = get_way("pair-in-front")
    hands = hand_table(DECK)
    t = way_table("pair-in-front", DECK)
    assert len(t) == len(hands) and not t.from_cache
    assert way_table(way, DECK).from_cache
    assert set(np.unique(t.rule).tolist()) <= {0, 1}  # never the fallback
    five = five_card_table()
    # aces and kings: aces in front would sit over a pair of kings (foul); kings go in front
    row = hands.row_of("Ac Ad Kc Kd 9h Tc Jd")
    assert t.rule[row] == 0
    assert t.low[row] == two_card_id(parse_cards("Kc Kd"))
    assert t.high[row] == five.id_of(parse_cards("Ac Ad Jd Tc 9h"))
    # queens only: QQ in front leaves A-K-J-T-9 (ace high, below the pair): no pair can go in
    # front, so the strongest back, the ace-high straight, with Q-9 in front
    row = hands.row_of("Qc Qd Ac Kd Jh Ts 9s")
    assert t.rule[row] == 1
    assert t.high[row] == five.id_of(parse_cards("Ac Kd Qd Jh Ts"))
    assert t.low[row] == two_card_id(parse_cards("Qc 9s"))
    prov = read_provenance(way_cache_path(way, DECK, Rules()))
    assert prov is not None and prov["way"].startswith("pair-in-front@1#")


# ---------------------------------------------------------------------------------------------
# player tables: cache


def test_player_table_second_load_comes_from_cache(cache_dir):
    first = player_table(SMALL)
    second = player_table(SMALL)
    assert not first.from_cache and second.from_cache
    assert _same_player(first, second)
    assert len(first) == len(hand_table(SMALL))
    assert player_cache_path(SMALL, Rules()).exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"code": "0000000000000000"},
        {"rules": '{"wheel": "low"}'},
        {"rows": 1},
        {"builder": "enumerate.cards"},
    ],
)
def test_stale_player_table_is_rebuilt(cache_dir, changes):
    built = player_table(SMALL)
    _rewrite_provenance(player_cache_path(SMALL, Rules()), **changes)
    again = player_table(SMALL)
    assert not again.from_cache and _same_player(built, again)
    assert player_table(SMALL).from_cache


def test_player_table_other_rules_and_damage(cache_dir):
    player_table(SMALL)
    assert not player_table(SMALL, Rules(wheel="low")).from_cache
    player_cache_path(SMALL, Rules()).write_bytes(b"not parquet")
    assert not player_table(SMALL).from_cache
    assert player_table(SMALL).from_cache


def test_player_table_is_consistent(cache_dir):
    p = player_table(DECK)
    hands = hand_table(DECK)
    high, low, valid = hands.settings
    n = np.arange(len(p))
    size = p.size.astype(np.int64)
    assert (size >= 1).all()
    # the last frontier point holds the highest valid high id, the first the highest low id
    assert np.array_equal(p.max_high, p.high[n, size - 1])
    assert np.array_equal(p.max_low, p.low[:, 0])
    assert np.array_equal(p.max_high, np.where(valid, high, -1).max(axis=1))
    assert np.array_equal(p.max_low, np.where(valid, low, -1).max(axis=1))
    # padding is -1 past each frontier's end
    width = p.high.shape[1]
    pad = np.arange(width) >= size[:, None]
    assert (p.high[pad] == -1).all() and (p.low[pad] == -1).all()
    assert (p.high[~pad] >= 0).all()
    # every way setting is valid, so on the frontier or dominated by a frontier point
    w = way_table("max-back", DECK)
    assert p.on_frontier(w.high, w.low).all()  # the strongest back, then front: never dominated


# ---------------------------------------------------------------------------------------------
# frontiers worked out by hand


def _points(splits: list[tuple[str, str]]) -> list[tuple[int, int]]:
    five = five_card_table()
    pts = [(five.id_of(parse_cards(b)), two_card_id(parse_cards(f))) for b, f in splits]
    return sorted(pts)


# One pair of kings, singletons 9 7 5 3 2, no straight or flush.
# - Both kings in back: a pair of kings over any two of the five singletons. Raising the front
#   always lowers the back's kickers (the highest card that differs moves from back to front),
#   so all C(5, 2) = 10 such settings are non-dominated.
# - One king in front with x: the back is king high, K-9-... and must reach K-x: x = 7, 5, 3, 2
#   are valid (K-9 in front is foul: the back K-7-5-3-2 is below it). Their fronts beat every
#   pair-back front (at most 9-7) and their backs rise as the front falls: 4 more points.
# - Both kings in front: foul. Total 14.
ONE_PAIR = "Ks Kh 9c 7d 5h 3s 2c"
ONE_PAIR_FRONTIER = [
    ("Ks Kh 9c 7d 5h", "3s 2c"),
    ("Ks Kh 9c 7d 3s", "5h 2c"),
    ("Ks Kh 9c 7d 2c", "5h 3s"),
    ("Ks Kh 9c 5h 3s", "7d 2c"),
    ("Ks Kh 9c 5h 2c", "7d 3s"),
    ("Ks Kh 9c 3s 2c", "7d 5h"),
    ("Ks Kh 7d 5h 3s", "9c 2c"),
    ("Ks Kh 7d 5h 2c", "9c 3s"),
    ("Ks Kh 7d 3s 2c", "9c 5h"),
    ("Ks Kh 5h 3s 2c", "9c 7d"),
    ("Ks 9c 7d 5h 3s", "Kh 2c"),
    ("Ks 9c 7d 5h 2c", "Kh 3s"),
    ("Ks 9c 7d 3s 2c", "Kh 5h"),
    ("Ks 9c 5h 3s 2c", "Kh 7d"),
]

# Kings full of sevens. Valid settings: 4-2 in front (full house behind); 7-2, 7-4 or 7-7 in
# front (three kings behind, kickers 7-4, 7-2, 4-2); K-4 or K-2 (two pair behind); K-7 (a pair
# of kings behind). K-K in front is foul (a pair of sevens behind). 7-7 over three kings beats
# every two-pair and one-pair setting in both hands; the four others trade back for front.
FULL_HOUSE = "Kc Kd Kh 7c 7d 4h 2s"
FULL_HOUSE_FRONTIER = [
    ("Kc Kd Kh 7c 7d", "4h 2s"),
    ("Kc Kd Kh 7c 4h", "7d 2s"),
    ("Kc Kd Kh 7c 2s", "7d 4h"),
    ("Kc Kd Kh 4h 2s", "7c 7d"),
]

# Two queens with A K J T 9. Backs: the ace-high straight (Q-9 in front), the king-high
# straight (A-Q in front), a pair of queens (two of A K J T 9 in front, best A-K). A pair-of-
# queens back with a front below A-Q is beaten by the king-high straight with A-Q; Q-Q in
# front is foul (A-K-J-T-9 is ace high); K-Q, J-Q, T-Q in front leave no straight and are
# beaten by A-Q over the king-high straight. Three points.
QUEENS = "Qc Qd Ac Kd Jh Ts 9s"
QUEENS_FRONTIER = [
    ("Ac Kd Qd Jh Ts", "Qc 9s"),
    ("Kd Qd Jh Ts 9s", "Ac Qc"),
    ("Qc Qd Jh Ts 9s", "Ac Kd"),
]


@pytest.mark.parametrize(
    "hand,splits",
    [
        (ONE_PAIR, ONE_PAIR_FRONTIER),
        (FULL_HOUSE, FULL_HOUSE_FRONTIER),
        (QUEENS, QUEENS_FRONTIER),
    ],
)
def test_frontier_worked_out_by_hand(hand, splits):
    expected = _points(splits)
    got = frontier_of(hand)
    assert got == expected  # by increasing high id ...
    assert [lo for _, lo in got] == sorted((lo for _, lo in got), reverse=True)  # ... falling low


@pytest.mark.parametrize(
    "deck,hand,splits",
    [
        (LOWS, ONE_PAIR, ONE_PAIR_FRONTIER),
        (LOWS, FULL_HOUSE, FULL_HOUSE_FRONTIER),
        (DECK, QUEENS, QUEENS_FRONTIER),
    ],
)
def test_player_table_rows_worked_out_by_hand(cache_dir, deck, hand, splits):
    p = player_table(deck)
    row = hand_table(deck).row_of(hand)
    expected = _points(splits)
    assert p.frontier(row) == expected
    five = five_card_table()
    # the highest valid high id and low id are the highest back and front among the points
    best_back = max(five.id_of(parse_cards(b)) for b, _ in splits)
    best_front = max(two_card_id(parse_cards(f)) for _, f in splits)
    assert (p.max_high[row], p.max_low[row]) == (best_back, best_front)
    assert player_table(deck).frontier(row) == expected  # from the cache too


def test_a_way_kernel_is_read_from_numba_cache_by_the_next_process(tmp_path):
    # every shipped way is a card, set by the one kernel of the cards, which numba caches:
    # the next process reads it instead of compiling
    import os
    import subprocess
    import sys

    from enumerate.houseways import get_way

    shipped = ("gli", "trump-plaza", "foxwoods", "max-back")
    assert all(get_way(name).program is not None for name in shipped)
    code = ("import numpy as np\n"
            "from enumerate.houseways import apply_way, get_way, interpreter\n"
            "apply_way(get_way('max-back'), np.zeros((0, 7), dtype=np.int64))\n"
            "print(sum(interpreter.set_range_cards.stats.cache_hits.values()))")  # fmt: skip
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    hits = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split()[-1] for _ in range(2)]  # fmt: skip
    assert hits == ["0", "1"]
