"""Per-dealer tables (docs/design.md, "The per-dealer table (any dealer way)") against brute force,
and every way priced from them against the pair engine, integer for integer.

The brute force (``per_dealer_by_brute_force``) sets every player hand of the other cards from
its own 21 settings, with no suit classes and no inclusion-exclusion. The decks: three suits
with the joker; "23579JQA:cd+joker" every dealer class (ace-high and queen-high pai gows, two
jacks, nine-high low hands); four suits (orbits of 24) with the joker's royals, five aces and
the joker's wheel; natural wheels and wheel straight flushes ("A2345:cdhs").
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from analysis.games.players import Player
from analysis.games.variants import get_variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.returns import price
from analysis.waylab.wayedge import dealer_lab, house_optimal, price_dealer_way, settings_of
from enumerate.bruteforce import per_dealer_by_brute_force
from enumerate.engine.perdealer.table import PlayerSide, run_per_dealer
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.waytables import way_table

DECKS = ["TJQKA:cdh+joker", "23579JQA:cd+joker", "JQKA:cdhs+joker", "A234:cdhs+joker",
         "A2345:cdhs"]  # fmt: skip
WAYS = ["gli", "trump-plaza", "foxwoods", "max-back"]


def rows_of(r, c):
    s = slice(int(r.point_offset[c]), int(r.point_offset[c + 1]))
    return list(zip(r.point_high[s].tolist(), r.point_low[s].tolist(), r.win[s].tolist(),
                    r.other[s].tolist(), strict=True))  # fmt: skip


@pytest.mark.parametrize("spec", DECKS)
@pytest.mark.parametrize("player", [None, "gli", "trump-plaza"])
def test_per_dealer_equals_brute_force(spec, player):
    deck = Deck.parse(spec)
    table = hand_table(deck)
    if player is None:
        side = PlayerSide("response")
    else:
        w = way_table(get_way(player), deck)
        side = PlayerSide("blind", player, w.high, w.low)
    r = run_per_dealer(table, side, use_cache=False)
    brute = per_dealer_by_brute_force(deck, Rules(), table.cards.astype(np.int64),
                                      None if player is None else get_way(player))  # fmt: skip
    assert len(r) == len(table)
    for c in range(len(table)):
        assert rows_of(r, c) == brute[c], c


@pytest.mark.parametrize("spec", ["TJQKA:cdh+joker", "23579JQA:cd+joker", "JQKA:cdhs+joker"])
@pytest.mark.parametrize("way", WAYS)
def test_way_edge_equals_the_pair_engine(spec, way):
    """Best response (face-up, dealer-open) and blind gli players (traditional, ez,
    commission-free: the nine-high low hand is the dealer way's own): the counts of every
    dealer class and the whole return table equal the pair engine's with that dealer way."""
    deck = Deck.parse(spec)
    for variant, mode in [("face-up", Player.BEST_RESPONSE), ("dealer-open", Player.BEST_RESPONSE),
                          ("traditional", Player.HOUSE_WAY), ("ez", Player.HOUSE_WAY),
                          ("commission-free", Player.HOUSE_WAY)]:  # fmt: skip
        v = get_variant(variant)
        ours = price_dealer_way(v, way, player=mode, player_way="gli", deck=deck)
        engine = pair_counts(deck, Rules(), way, "gli", v.flag_mask)
        theirs = price(engine, v, mode)
        assert ours.house_edge == theirs.house_edge, (variant, way)
        assert list(ours.table["combinations"]) == list(theirs.table["combinations"])


def test_house_optimal_is_the_best_setting_of_every_dealer_hand():
    """The house-optimal dealer of dealer-open, from the brute force alone: per class, the
    setting with the least player value (wins - losses; two jacks: the dealer wins); no way
    does better for the house, and the ceiling is what those settings give."""
    deck = Deck.parse("JQKA:cdhs+joker")
    table = hand_table(deck)
    lab = dealer_lab("dealer-open", deck=deck)
    opt = house_optimal(lab, "dealer-open")
    brute = per_dealer_by_brute_force(deck, Rules(), table.cards.astype(np.int64), None)
    unit = lab.per_dealer.unit
    total = 0
    for c in range(len(table)):
        if table.jacks[c] >= 2:
            best = -unit
        else:
            best = min(w - (unit - w - p) for _h, _l, w, p in brute[c])
        total += int(table.orbit_size[c]) * best
    assert opt.house_edge == -Fraction(total, lab.total)
    for way in WAYS:
        _, rows = settings_of(lab, get_way(way))
        edge = opt.edge_of(rows)
        assert edge == price_dealer_way("dealer-open", way, deck=deck, lab=lab).house_edge
        assert edge <= opt.house_edge


def test_a_damaged_per_dealer_table_is_rebuilt(tmp_path, monkeypatch, capfd):
    """Bytes flipped inside any array of the table: one notice naming the file, the table
    rebuilt with the same numbers, then served from the cache quietly; numbers with intact
    digests that break an invariant are caught too."""
    from enumerate.cache import array_digest
    from tests.test_cache_verify import flip_at, notice, quiet

    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    deck = Deck.parse("TJQKA:cdh+joker")
    table = hand_table(deck)
    first = run_per_dealer(table, PlayerSide("response"))
    folder = tmp_path / "perdealer"
    for path in sorted(folder.glob("*.npy")):
        flip_at(path, path.stat().st_size - 60, 40)
        again = run_per_dealer(table, PlayerSide("response"))
        notice(capfd, path)
        assert not again.from_cache
        assert np.array_equal(again.win, first.win) and np.array_equal(again.other, first.other)
        assert run_per_dealer(table, PlayerSide("response")).from_cache
        quiet(capfd)
    # a count above the player hands of the other cards, its digest made to match
    sidecar = next(folder.glob("*.json"))
    meta = json.loads(sidecar.read_text())
    path = next(folder.glob("*-win.npy"))
    win = np.load(path)
    win[3] = first.unit + 1
    np.save(path, win)
    meta["arrays"]["win"]["xxh3_128"] = array_digest(win)
    sidecar.write_text(json.dumps(meta, sort_keys=True))
    again = run_per_dealer(table, PlayerSide("response"))
    notice(capfd, sidecar)
    assert np.array_equal(again.win, first.win)


def _readings() -> list[str]:
    """Every single alternative of every clause of the gli card, and the literal reading."""
    from tests.reference_ways import gli

    names = {get_way("gli", {**gli.LITERAL, c.id: alt}).name
             for c in gli.CLAUSES for alt in c.names}  # fmt: skip
    return sorted(names)


@pytest.mark.parametrize("spec", ["23579JQA:cd+joker", "2346J:cdhs+joker"])
@pytest.mark.parametrize("way", _readings())
def test_way_edge_of_every_reading_equals_the_pair_engine(spec, way):
    """Every reading of the gli card, on a deck of two pairs, straights and flushes beside
    pairs, nine-high low hands and the joker, and on a four-suit one with quads, trips and
    twos full: dealer-open (best response) and commission-free (blind gli players; the
    dealer's own nine-high low hand pushes)."""
    deck = Deck.parse(spec)
    cases = [("dealer-open", Player.BEST_RESPONSE), ("commission-free", Player.HOUSE_WAY)]
    for variant, mode in cases:
        v = get_variant(variant)
        ours = price_dealer_way(v, way, player=mode, player_way="gli", deck=deck)
        theirs = price(pair_counts(deck, Rules(), way, "gli", v.flag_mask), v, mode)
        assert list(ours.table["combinations"]) == list(theirs.table["combinations"]), variant
        assert ours.house_edge == theirs.house_edge


def test_two_decks_tables_are_cached_side_by_side(tmp_path, monkeypatch):
    # a report's warm-up builds a tiny deck's table beside the full deck's: each is served
    # from the cache afterwards, neither written over by the other
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    tables = [hand_table(Deck.parse(name)) for name in ("TJQKA:cdh+joker", "JQKA:cdhs+joker")]
    built = [run_per_dealer(t, PlayerSide("response")) for t in tables]
    again = [run_per_dealer(t, PlayerSide("response")) for t in tables]
    assert not any(r.from_cache for r in built) and all(r.from_cache for r in again)
    assert all(np.array_equal(a.win, b.win) for a, b in zip(built, again, strict=True))
