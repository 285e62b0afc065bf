"""Optimal blind play honours every dealer rule of the variant, also one no shipped blind
variant has (a user variant file with "two or more jacks" in a hidden-dealer game).

The reference is a plain loop over every hand of a small deck and every dealer hand of the
other cards, settled from the rule text: a dealer hand holding two or more jacks (natural
jacks; the joker is not a jack) is settled by the rule, any other one by comparing the two
hands (copies to the dealer).
"""

import json
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from analysis.cli.main import main
from analysis.games.variants import get_variant, variant_names
from analysis.pricing.optimal import (
    _cached,
    blind_flags,
    coefficients,
    evaluate,
    optimal_return_table,
    optimal_strategies,
    per_hand_flags,
    per_hand_sets,
    solve_optimal,
)
from enumerate.bruteforce import deck_hands
from enumerate.cards import Card, Rank, parse_cards
from enumerate.deals import hand_keys
from enumerate.engine import build_keys
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.table import run_per_hand
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS, DealerEvent
from enumerate.waytables import way_table

DECK_TEXT = "23579JQA:cd+joker"  # two jacks: a dealer hand can hold both
DECK = Deck.parse(DECK_TEXT)
N_DEALER = 120  # C(17 - 7, 7) dealer hands of the other cards


def _variant_file(tmp_path, effect: str | None, commission: str = "0"):
    """A hidden-dealer variant file; ``effect`` settles a dealer's two or more jacks."""
    name = f"jacks-{effect or 'none'}-{commission.rstrip('%')}"
    rules = f'\n[dealer_rules]\n"two or more jacks" = "{effect}"\n' if effect else ""
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\ndealer_exposed = false\ncommission = "{commission}"\n'
        f'house_way = "gli"\n{rules}'
    )
    return path


@cache
def _deals():
    """Every hand of the deck, its 21 settings and house-way setting, and for each hand the
    indices of the dealer hands of the other cards (rows of ``deck_hands``)."""
    way = get_way("gli")
    hands = deck_hands(DECK)
    k = hand_keys(hands, Rules(), way, way, ALL_DEALER_EVENTS)
    index = {row: i for i, row in enumerate(map(tuple, hands.tolist()))}
    ids = sorted(DECK.ids)
    dealers = np.array([[index[y] for y in combinations(sorted(set(ids) - set(row)), 7)]
                        for row in hands.tolist()], dtype=np.int64)  # fmt: skip
    jacks = np.array([sum(Card(c).rank == Rank.JACK for c in row) for row in hands.tolist()])
    return hands, index, k, dealers, jacks >= 2


def _outcomes(high, low):
    """For player settings ``high, low`` of shape (hands, settings): (win, loss) of each
    against each dealer hand of the other cards, shape (hands, settings, dealers)."""
    _hands, _index, k, dealers, _two = _deals()
    dh, dl = k["dh"][dealers][:, None, :], k["dl"][dealers][:, None, :]
    high, low = high[:, :, None], low[:, :, None]
    return (high > dh) & (low > dl), (high <= dh) & (low <= dl)


@cache
def _brute(effect: str | None, win_pays: Fraction) -> tuple[np.ndarray, np.ndarray]:
    """EV numerators (in units of 1 / (win_pays.denominator * N_DEALER)) of every setting of
    every hand (invalid settings: None) and of its house-way setting, from the rule text."""
    _hands, _index, k, dealers, two = _deals()
    special = two[dealers][:, None, :] if effect else np.zeros((1, 1, 1), dtype=bool)
    wp, den = win_pays.numerator, win_pays.denominator

    def ev(win, loss):
        normal = ~special
        num = wp * (win & normal).sum(axis=2) - den * (loss & normal).sum(axis=2)
        if effect == "dealer-wins":
            num -= den * special.sum(axis=2)
        return num.astype(object)

    settings = ev(*_outcomes(k["sh"], k["sl"]))
    settings[~k["sv"]] = None
    way = ev(*_outcomes(k["ph"][:, None], k["pl"][:, None]))[:, 0]
    return settings, way


def _best(settings_row) -> int:
    return max(x for x in settings_row if x is not None)


def _edge(effect, win_pays, optimal: bool) -> Fraction:
    """Exact house edge over every (player hand, dealer hand) deal."""
    settings, way = _brute(effect, win_pays)
    total = sum(_best(r) for r in settings) if optimal else sum(way)
    return -Fraction(int(total), win_pays.denominator * N_DEALER * len(settings))


@pytest.mark.parametrize("effect,commission", [("dealer-wins", "5%"), ("push", "0")])
def test_optimal_play_honours_a_user_dealer_rule(tmp_path, effect, commission):
    path = _variant_file(tmp_path, effect, commission)
    variant = get_variant(str(path))
    assert variant.flag_mask == DealerEvent.TWO_JACKS
    opt = solve_optimal(str(path), deck=DECK, use_cache=False)
    assert opt.per_hand.flag_mask & DealerEvent.TWO_JACKS
    _hands, index, _k, _dealers, two = _deals()
    assert two.any()  # the rule has dealer hands to act on
    settings, way = _brute(effect, variant.win_pays)
    den = variant.win_pays.denominator * N_DEALER
    for row in range(len(opt.table)):
        x = index[tuple(int(c) for c in opt.table.cards[row])]
        assert opt.ev(int(opt.best_ev[row])) == Fraction(_best(settings[x]), den), row
        assert opt.ev(int(opt.way_ev[row])) == Fraction(way[x], den), row
    assert opt.house_edge(optimal=True) == _edge(effect, variant.win_pays, True)
    assert opt.house_edge(optimal=False) == _edge(effect, variant.win_pays, False)
    # the rule matters: without it the game (and its optimal play) is another one
    plain = solve_optimal(str(_variant_file(tmp_path, None, commission)), deck=DECK,
                             use_cache=False)  # fmt: skip
    assert plain.house_edge(optimal=True) == _edge(None, variant.win_pays, True)
    assert plain.house_edge(optimal=True) != opt.house_edge(optimal=True)
    assert (plain.best_ev != opt.best_ev).any()


def test_a_table_without_the_rules_flag_is_refused(tmp_path):
    """Per-hand counts that lump two-jack dealer hands with the others cannot price the rule:
    a one-line ValueError, never an EV that silently ignores it."""
    variant = get_variant(str(_variant_file(tmp_path, "dealer-wins")))
    table = hand_table(DECK, use_cache=False)
    way = get_way("gli")
    keys = build_keys(table, way, flag_mask=blind_flags(), use_cache=False)
    assert not keys.flag_mask & DealerEvent.TWO_JACKS
    per = run_per_hand(table, keys, use_cache=False)
    assert per.flag_mask == keys.flag_mask
    wt = way_table(way, table.deck, table.rules, use_cache=False)
    with pytest.raises(ValueError, match="two or more jacks") as err:
        evaluate(per, variant, table, "gli", wt.high.astype(np.int64), wt.low.astype(np.int64),
                 wt.rule, wt.rule_names)  # fmt: skip
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="two or more jacks"):
        coefficients(variant, per)
    # the shipped blind variants price from the same counts
    for name in ("traditional", "ez", "commission-free"):
        coefficients(get_variant(name), per)


def test_shipped_blind_variants_share_one_table(tmp_path, monkeypatch):
    """The helper behind solve_optimal and hand_choices: every shipped blind variant gets
    the shared flags (one cached table); a variant with a rule of its own gets its own table."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    for name in variant_names():
        v = get_variant(name)
        if not v.dealer_exposed:
            assert per_hand_flags(v) == blind_flags()
    jacks = get_variant(str(_variant_file(tmp_path, "push")))
    assert per_hand_flags(jacks) == blind_flags() | DealerEvent.TWO_JACKS
    table = hand_table(DECK)
    solve_optimal("ez", deck=DECK)
    for name in ("traditional", "ez", "commission-free"):
        assert _cached(get_variant(name), "gli", table)
    assert solve_optimal("commission-free", deck=DECK).per_hand.from_cache
    assert not _cached(jacks, "gli", table)
    solve_optimal(jacks, deck=DECK)
    assert _cached(jacks, "gli", table)


def test_strategies_in_turn_share_one_table(tmp_path, monkeypatch):
    """``optimal_strategies`` (what ``paigow reports`` uses) builds one per-hand table for
    the shipped blind variants and a separate one for a variant with a rule of its own, and
    each strategy equals the one ``solve_optimal`` gives alone."""
    import analysis.pricing.optimal as optimal

    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    jacks = str(_variant_file(tmp_path, "push"))
    built = []

    def counting(table, keys, **kwargs):
        built.append(keys.flag_mask)
        return run_per_hand(table, keys, **kwargs)

    monkeypatch.setattr(optimal, "run_per_hand", counting)
    names = ["traditional", "ez", "commission-free", jacks]
    together = list(optimal_strategies(names, "gli", DECK, use_cache=False))
    assert built == [blind_flags(), blind_flags() | DealerEvent.TWO_JACKS]
    for name, opt in zip(names, together, strict=True):
        alone = solve_optimal(name, "gli", DECK, use_cache=False)
        assert opt.variant == alone.variant
        assert np.array_equal(opt.best_ev, alone.best_ev)
        assert np.array_equal(opt.way_ev, alone.way_ev)
        assert opt.house_edge() == alone.house_edge()


@pytest.mark.parametrize("whole_table", [False, True])
@pytest.mark.parametrize("cards", ["Ac Qd 9c 7d 5c 3d 2c", "Jk Ad Qc Qd 9c 5d 2d"])
def test_cli_best_against_a_dealer_loop(tmp_path, monkeypatch, capsys, cards, whole_table):
    """``paigow best``: every non-dominated setting (and the house way's) with its counts and
    exact EV against the dealer hands of the other cards; the optimal one marked. With an
    empty cache it counts only this hand; with the whole table cached it reads that."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    path = _variant_file(tmp_path, "dealer-wins", "5%")
    variant = get_variant(str(path))
    if whole_table:
        solve_optimal(variant, deck=DECK)
    assert _cached(variant, "gli", hand_table(DECK)) == whole_table
    argv = ["best", cards, "--variant", str(path), "--deck", DECK_TEXT, "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dealer_hands"] == N_DEALER
    _hands, index, k, dealers, two = _deals()
    row = tuple(sorted(c.id for c in parse_cards(cards)))
    x = index[row]
    settings, _way = _brute("dealer-wins", variant.win_pays)
    win, loss = (a[x] for a in _outcomes(k["sh"], k["sl"]))
    low_of = {frozenset((row[i], row[j])): s for s, (i, j) in enumerate(combinations(range(7), 2))}
    points = {(int(k["sh"][x, s]), int(k["sl"][x, s])) for s in range(21) if k["sv"][x, s]}
    frontier = {p for p in points
                if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in points)}  # fmt: skip
    shown, way_rows = set(), 0
    den = variant.win_pays.denominator * N_DEALER
    for r in out["settings"]:
        low = {c.id for c in parse_cards(r["low"], count=2)}
        s = low_of[frozenset(low)]
        assert sorted(c.id for c in parse_cards(r["high"], count=5)) == sorted(set(row) - low)
        point = (int(k["sh"][x, s]), int(k["sl"][x, s]))
        assert Fraction(r["EV_fraction"]) == Fraction(settings[x, s], den), r
        assert (r["win"], r["loss"]) == (int(win[s].sum()), int(loss[s].sum())), r
        assert r["push"] == N_DEALER - r["win"] - r["loss"]
        if r["house way"]:
            way_rows += 1
            assert point == (int(k["ph"][x]), int(k["pl"][x]))
        if r["high hand"] != "(dominated)":
            shown.add(point)
        if r["optimal"]:
            assert Fraction(r["EV_fraction"]) == Fraction(_best(settings[x]), den)
    assert shown == frontier
    assert way_rows == 1
    assert sum(r["optimal"] for r in out["settings"]) == 1
    assert two[dealers[x]].any()  # this hand meets dealers the rule settles


@pytest.mark.parametrize("effect,commission", [("dealer-wins", "0"), ("push", "5%")])
def test_cli_analyze_optimal_against_a_dealer_loop(tmp_path, monkeypatch, capsys, effect,
                                                   commission):  # fmt: skip
    """``paigow analyze FILE --player optimal``: the house edge of optimal blind play and the
    rule's row equal the plain loop over every deal."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    path = _variant_file(tmp_path, effect, commission)
    variant = get_variant(str(path))
    argv = ["analyze", str(path), "--player", "optimal", "--deck", DECK_TEXT, "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    hands, _index, _k, dealers, two = _deals()
    assert out["player"] == "optimal"
    assert out["total"] == len(hands) * N_DEALER
    assert Fraction(out["house_edge_fraction"]) == _edge(effect, variant.win_pays, True)
    assert Fraction(out["house_edge_fraction"]) != _edge(None, variant.win_pays, True)
    rule_row = variant.dealer_rules[0].label
    rows = {r["event"]: r for r in out["rows"]}
    assert rows[rule_row]["combinations"] == int(two[dealers].sum())


# wins apart by a flag (ez), losses apart too (a user's "dealer wins", "push")
@pytest.mark.parametrize("name", ["ez", "dealer-wins", "push"])
def test_optimal_return_table_prices_like_the_strategy(tmp_path, monkeypatch, name):
    """The return table of optimal play (its lines add the counts by the rule that settles
    them, from the win and loss columns) has the strategy's house edge (from the EVs of every
    hand) and counts every deal once."""
    variant = (get_variant(name) if name in variant_names()
               else get_variant(str(_variant_file(tmp_path, name))))  # fmt: skip
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))  # one table for both
    opt = solve_optimal(variant, "gli", DECK)
    table = optimal_return_table(variant, "gli", DECK)
    assert table.house_edge == opt.house_edge(optimal=True)
    assert table.total == sum(int(n) for n in table.rows["combinations"])
    assert table.total == comb(DECK.size, 7) * comb(DECK.size - 7, 7)
    # the sets of this variant's table: wins by every set of its flags, losses too only
    # where a rule settles them apart
    sets = per_hand_sets(variant)
    assert (DealerEvent.TWO_JACKS in sets.win) == (name != "ez")
    assert (DealerEvent.TWO_JACKS in sets.loss) == (name in ("dealer-wins", "push"))


def test_a_table_without_the_column_is_refused(tmp_path):
    """Counts with the wins of two-jack dealer hands apart but only the losses of all dealer
    hands cannot price a rule that settles those losses apart: a one-line ValueError naming
    the missing column."""
    variant = get_variant(str(_variant_file(tmp_path, "dealer-wins")))
    table = hand_table(DECK, use_cache=False)
    keys = build_keys(table, get_way("gli"), flag_mask=per_hand_flags(variant), use_cache=False)
    sets = AnswerSets.of((*per_hand_sets(get_variant("ez")).win, DealerEvent.TWO_JACKS), ())
    per = run_per_hand(table, keys, use_cache=False, sets=sets)
    with pytest.raises(ValueError, match="no loss column for dealer hands with flags 4") as err:
        coefficients(variant, per)
    assert "\n" not in str(err.value)
