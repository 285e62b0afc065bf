"""``paigow best`` without the whole table in memory: one hand's counts read from its
class's rows of the cached per-hand table, or counted by a direct loop over its dealer hands.

Truth is independent of both: a plain loop over every hand of small four-suit decks with the
joker, each evaluated from its own cards (``enumerate.bruteforce``), and the per-hand engine
(``run_per_hand``, inclusion-exclusion). Also: the class numbering behind the direct loop is a
bijection; a damaged table or dealer-keys file is reported in one line and not served; the
command prints the same with every method."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import pyarrow.parquet as pq
import pytest
from numba import njit

from analysis.cli.main import main
from analysis.games.variants import get_variant
from analysis.pricing.best import hand_choices
from analysis.pricing.optimal import per_hand_flags, per_hand_sets, solve_optimal
from enumerate.bruteforce import deck_hands
from enumerate.cards import Hand
from enumerate.deals import dealer_view, hand_keys
from enumerate.engine import build_keys
from enumerate.engine.onehand.classindex import class_index
from enumerate.engine.onehand.direct import count_direct, dealer_keys, hand_counts
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.row import find_table, read_class
from enumerate.engine.perhand.table import run_per_hand
from enumerate.houseways import HouseWay, get_way, register
from enumerate.rules import Deck, Rules
from enumerate.symmetry import canonical_code, suit_positions
from enumerate.tables import hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS
from enumerate.waytables import player_table, way_table

BIG = Deck.parse("23579JQA:cdhs+joker")  # 200,740 classes: seven row groups per file
WHEEL = Deck.parse("A2345:cdhs+joker")  # the wheel, natural and with the joker
BLIND = int(per_hand_flags(get_variant("traditional")))
BLIND_SETS = per_hand_sets(get_variant("traditional"))  # wins: all, queen-high, nine-high low


@njit
def _first_valid(f):
    """A poor way: the first valid setting (with a straight, often a dominated one)."""
    for s in range(21):
        if f.valid[s]:
            return s, 0
    return 0, 0


register(HouseWay("first-valid", "1", "test: the first valid setting", ("1. first valid",),
                  _first_valid, sys.modules[__name__]))  # fmt: skip


@cache
def _dealers(deck: Deck, wheel: str, way_name: str):
    """Every hand of ``deck`` as a dealer, evaluated from its own cards (every dealer flag):
    (hands, card masks, keys)."""
    hands = deck_hands(deck)
    masks = (np.int64(1) << hands).sum(axis=1)
    return hands, masks, dealer_view(hands, Rules(wheel=wheel), get_way(way_name),
                                      ALL_DEALER_EVENTS)  # fmt: skip


def _brute(deck: Deck, wheel: str, way_name: str, flags: int, ids: list[int]):
    """The hand ``ids`` against each dealer hand of the other cards, one at a time: dealer
    classes, the (way setting, frontier) points, wins and losses per point, dealer hands."""
    _hands, masks, k = _dealers(deck, wheel, way_name)
    way = get_way(way_name)
    me = hand_keys(np.array([ids], dtype=np.int64), Rules(wheel=wheel), way, way, flags)
    free = (masks & sum(1 << c for c in ids)) == 0
    all_bits = k["bits"] & flags
    bits = np.unique(all_bits)  # dealer classes: the flag combinations some hand has
    d = np.searchsorted(bits, all_bits[free])
    dh, dl, n_d = k["dh"][free], k["dl"][free], len(bits)
    valid = {(int(h), int(lo)) for h, lo, v in zip(me["sh"][0], me["sl"][0], me["sv"][0],
                                                   strict=True) if v}  # fmt: skip
    dominated = {p for p in valid for q in valid if q != p and q[0] >= p[0] and q[1] >= p[1]}
    frontier = sorted(valid - dominated)
    points = [(int(me["ph"][0]), int(me["pl"][0])), *frontier]
    win = np.array([np.bincount(d[(h > dh) & (lo > dl)], minlength=n_d) for h, lo in points])
    loss = np.array([np.bincount(d[(h <= dh) & (lo <= dl)], minlength=n_d) for h, lo in points])
    return tuple(bits.tolist()), points, win, loss, np.bincount(d, minlength=n_d)


def _hands(deck: Deck, n: int, seed: int, extra: tuple[str, ...] = ()) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    out = [sorted(c.id for c in Hand.parse(h).cards) for h in extra]
    out += [sorted(rng.choice(sorted(deck.ids), 7, replace=False).tolist()) for _ in range(n)]
    return out


def _row(deck: Deck, ids: list[int]) -> int:
    code = canonical_code(np.array(ids, dtype=np.int64), suit_positions(deck))
    return int(np.searchsorted(hand_table(deck).codes, code))


def _one(per, row: int) -> dict[str, np.ndarray]:
    sl = per.points(row)
    return {"win": per.win[sl], "loss": per.loss[sl], "way_win": per.way_win[row],
            "way_loss": per.way_loss[row], "total": per.total[row]}  # fmt: skip


def _mine(got) -> dict[str, np.ndarray]:
    c = got.counts
    return {"win": c.win, "loss": c.loss, "way_win": c.way_win[0], "way_loss": c.way_loss[0],
            "total": c.total[0]}  # fmt: skip


@pytest.mark.parametrize(
    "deck,wheel,way_name,flags,extra",
    [(BIG, "second", "gli", BLIND, ("Jk Ad Qc Qd 9c 5d 2d", "As Ah Ad 2c 2d 9s 9h")),
     (BIG, "second", "gli", ALL_DEALER_EVENTS, ("Ac Qd 9c 7d 5c Jd 2c",)),
     (WHEEL, "second", "gli", ALL_DEALER_EVENTS, ("As 2c 3d 4h 5s Jk 2d", "Jk Ac 2c 3c 4c 5d 5h")),
     (WHEEL, "low", "trump-plaza", BLIND, ("As 2c 3d 4h 5s Jk 2d", "Ah Ad 3c 3d 4s 5s 5c"))],
)  # fmt: skip
def test_direct_equals_brute_force_and_engine(deck, wheel, way_name, flags, extra):
    """Every integer of the direct loop equals the plain loop and the per-hand engine."""
    rules, way = Rules(wheel=wheel), get_way(way_name)
    table = hand_table(deck, rules)
    keys = build_keys(table, way, flag_mask=flags)
    sets = BLIND_SETS if flags == BLIND else AnswerSets.spanning(keys.dealer_class_bits)
    hands = _hands(deck, 4, seed=len(extra), extra=extra)
    rows = [_row(deck, ids) for ids in hands]
    engine = run_per_hand(table, keys, rows=rows, sets=sets)
    fronts = player_table(deck, rules)
    for ids, row in zip(hands, rows, strict=True):
        bits, points, win, loss, total = _brute(deck, wheel, way_name, flags, ids)
        assert points[1:] == fronts.frontier(row)
        got = count_direct(ids, deck, rules, way, flags, points[1:], sets)
        c = got.counts
        assert c.dealer_class_bits == bits == keys.dealer_class_bits
        assert (got.way_high, got.way_low) == points[0]
        assert np.array_equal(c.total[0], total) and int(total.sum()) == comb(deck.size - 7, 7)
        # by up-set: the dealer classes holding every flag of the set
        win = np.array([[row[[s & b == s for b in bits]].sum() for s in sets.win] for row in win])
        loss = np.array([[row[[s & b == s for b in bits]].sum() for s in sets.loss]
                         for row in loss])  # fmt: skip
        assert np.array_equal(c.way_win[0], win[0]) and np.array_equal(c.way_loss[0], loss[0])
        assert np.array_equal(c.win, win[1:]) and np.array_equal(c.loss, loss[1:])
        for name, want in _one(engine, row).items():
            assert np.array_equal(_mine(got)[name], want), name


@pytest.mark.parametrize("text", ["23579JQA:cdhs+joker", "A2345:cdhs+joker", "TJQKA:cdh+joker",
                                  "89TJQK:cdh", "2345:cd", "full"])  # fmt: skip
def test_class_numbering_is_a_bijection(text):
    deck = Deck.parse(text)
    ix = class_index(deck)
    idx = ix.permutation(hand_table(deck).codes)  # raises unless a bijection
    assert ix.size == len(idx) == len(hand_table(deck))


def test_rows_read_equal_the_whole_table():
    """The class's rows, read alone, are the whole table's (``run_per_hand`` then
    ``evaluate``): counts, the house way's setting, EVs and the optimal setting."""
    variant = get_variant("ez")
    opt = solve_optimal(variant, deck=BIG)  # builds and caches the whole table
    per, table = opt.per_hand, opt.table
    way = get_way(variant.house_way)
    path = find_table(BIG, Rules(), way, per_hand_flags(variant), per_hand_sets(variant))
    assert path is not None and pq.ParquetFile(path).metadata.num_row_groups > 1
    n = comb(BIG.size - 7, 7)
    hands = _hands(BIG, 6, seed=13, extra=("Jk Ad Qc Qd 9c 5d 2d",))
    hands.append([int(c) for c in table.cards[len(table) - 1]])  # the last row group's last
    wt = way_table(way, BIG)
    for ids in hands:
        row = table.row_of(Hand.from_ids(ids).cards)
        got = hand_counts(ids, BIG, Rules(), way, per_hand_flags(variant),
                          player_table(BIG).frontier(row), per_hand_sets(variant),
                          method="table")  # fmt: skip
        assert got.method == "table" and got.counts.from_cache
        assert (got.way_high, got.way_low) == (int(wt.high[row]), int(wt.low[row]))
        for name, want in _one(per, row).items():
            assert np.array_equal(_mine(got)[name], want), name
        choice = hand_choices(str(Hand.from_ids(ids)), variant, deck=BIG, method="table")
        assert choice.counts.method == "table"
        sl = per.points(row)
        evs = {Fraction(int(e), opt.denominator * n) for e in opt.point_ev[sl]}
        shown = choice.settings[choice.settings["high hand"] != "(dominated)"]
        assert set(shown["EV"]) == evs
        best = choice.settings[choice.settings["optimal"]]
        assert list(best["EV"]) == [opt.ev(int(opt.best_ev[row]))]


def _flip_group(path, group: int, column: int = 2, n: int = 40) -> None:
    """Flip ``n`` bytes in the middle of one column chunk of row group ``group``."""
    chunk = pq.ParquetFile(path).metadata.row_group(group).column(column)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data = bytearray(path.read_bytes())
    at = start + chunk.total_compressed_size // 2 - n // 2
    for i in range(at, at + n):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def _notice(capfd, path) -> None:
    err = capfd.readouterr().err
    lines = [x for x in err.splitlines() if "failed verification" in x]
    assert len(lines) == 1 and str(path) in lines[0], err


@pytest.mark.parametrize("which", ["points", "classes"])
def test_damaged_table_is_reported_and_not_served(tmp_path, monkeypatch, capfd, which):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    deck, rules, way = WHEEL, Rules(), get_way("gli")
    hand = "As 2c 3d 4h 5s Jk 2d"
    first = hand_choices(hand, deck=deck, method="table")  # builds the table
    path = find_table(deck, rules, way, BLIND, BLIND_SETS)
    assert path is not None
    victim = path if which == "points" else path.with_suffix(".classes.parquet")
    _flip_group(victim, 0, column=2 if which == "points" else 4)
    again = hand_choices(hand, deck=deck)  # auto: reported, then counted directly
    _notice(capfd, victim)
    assert again.counts.method == "direct"
    assert again.settings.equals(first.settings)
    assert find_table(deck, rules, way, BLIND, BLIND_SETS) is None  # both files went
    rebuilt = hand_choices(hand, deck=deck, method="table")
    assert rebuilt.counts.method == "table" and rebuilt.settings.equals(first.settings)
    assert "failed verification" not in capfd.readouterr().err


def test_numbers_that_break_an_invariant_are_not_served(tmp_path, monkeypatch, capfd):
    """Right checksums, wrong numbers for the hand: the class's frontier is not the hand's."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    ids = sorted(c.id for c in Hand.parse("As 2c 3d 4h 5s Jk 2d").cards)
    solve_optimal("traditional", deck=WHEEL)
    path = find_table(WHEEL, Rules(), get_way("gli"), BLIND, BLIND_SETS)
    code = canonical_code(np.array(ids, dtype=np.int64), suit_positions(WHEEL))
    assert read_class(path, int(code), [(0, 0)], WHEEL.size) is None
    _notice(capfd, path)
    assert find_table(WHEEL, Rules(), get_way("gli"), BLIND, BLIND_SETS) is None


def test_damaged_dealer_keys_are_rebuilt(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    way = get_way("gli")
    first = dealer_keys(WHEEL, Rules(), way, BLIND)
    assert not first.from_cache and dealer_keys(WHEEL, Rules(), way, BLIND).from_cache
    victim = next((tmp_path / "onehand").glob("*-keys.npy"))
    data = bytearray(victim.read_bytes())
    data[-10] ^= 0x40
    victim.write_bytes(bytes(data))
    again = dealer_keys(WHEEL, Rules(), way, BLIND)
    _notice(capfd, victim)
    assert not again.from_cache and np.array_equal(again.keys, first.keys)
    assert again.dealer_class_bits == first.dealer_class_bits


@pytest.mark.parametrize("fmt", ["md", "json", "csv"])
def test_cli_best_is_the_same_with_every_method(tmp_path, monkeypatch, capsys, fmt):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    hands = ["Jk Ad Qc Qd 9c 5d 2d", "Ac Qd 9c 7d 5c Jd 2c", "As Ah Ad 2c 2d 9s 9h"]

    def best(cards: str, *extra: str) -> str:
        argv = ["best", cards, "--deck", BIG.name, "--variant", "ez", "--format", fmt, *extra]
        assert main(argv) == 0
        return capsys.readouterr().out

    direct = [best(h) for h in hands]  # auto with nothing cached: the direct loop
    assert [best(h, "--method", "direct") for h in hands] == direct
    table = [best(h, "--method", "table") for h in hands]  # builds the table, reads it
    assert table == direct
    assert [best(h) for h in hands] == direct  # auto, table cached
    if fmt == "json":
        out = json.loads(direct[0])
        assert out["dealer_hands"] == comb(BIG.size - 7, 7)
        assert sum(s["optimal"] for s in out["settings"]) == 1


@pytest.mark.parametrize("wheel", ["second", "low"])
def test_settings_by_python_are_the_kernels(wheel):
    """``evaluate.settings`` works a hand's settings out in Python (no numba JIT for one
    hand): the rank ids of the kernel ``settings_of`` that the tables are built with."""
    from enumerate.evaluate import five_card_table, settings, settings_of

    rules = Rules(wheel=wheel)
    five = five_card_table(rules)
    extra = ("As 2c 3d 4h 5s Jk 2d", "As Ks Qs Js Ts 2c Jk", "Jk Ah Ad Ac As Kd 2c")
    for ids in _hands(Deck.full(), 300, seed=5, extra=extra):
        hand = Hand.from_ids(ids).cards
        high, low = np.empty(21, dtype=np.int16), np.empty(21, dtype=np.int8)
        settings_of(np.array(sorted(ids), dtype=np.int64), five.ids, high, low)
        got = settings(hand, rules)
        assert [s.high_id for s in got] == high.tolist()
        assert [s.low_id for s in got] == low.tolist()
        valid = [five.is_valid(h, lo) for h, lo in zip(high, low, strict=True)]
        assert [s.valid for s in got] == valid


def test_a_dominated_house_way_setting_is_shown_and_priced():
    """A house way that sets a hand on a dominated setting: that setting is shown too, with
    the whole table's counts and EV, read from the table or counted directly alike."""
    opt = solve_optimal("traditional", "first-valid", deck=WHEEL)
    per, table = opt.per_hand, opt.table
    wt, pt = way_table("first-valid", WHEEL), player_table(WHEEL)
    rows = np.flatnonzero(~pt.on_frontier(wt.high, wt.low))
    assert len(rows) > 0
    n = comb(WHEEL.size - 7, 7)
    for row in rows[:: max(1, len(rows) // 4)]:
        cards = str(Hand.from_ids(int(c) for c in table.cards[row]))
        got = {m: hand_choices(cards, "traditional", "first-valid", WHEEL, method=m)
               for m in ("table", "direct")}  # fmt: skip
        assert got["table"].counts.method == "table" and got["direct"].counts.method == "direct"
        df = got["table"].settings
        assert df.equals(got["direct"].settings)
        way = df[df["high hand"] == "(dominated)"]
        assert len(way) == 1 and bool(way["house way"].iloc[0]) and df["house way"].sum() == 1
        assert way["EV"].iloc[0] == opt.ev(int(opt.way_ev[row]))
        assert int(way["win"].iloc[0]) == int(per.way_win[row].sum())
        assert int(way["loss"].iloc[0]) == int(per.way_loss[row].sum())
        assert int(way["push"].iloc[0]) == n - int(per.way_win[row].sum() + per.way_loss[row].sum())
