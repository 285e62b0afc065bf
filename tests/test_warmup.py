"""The kernels warmed on a tiny deck (``enumerate.engine.warmup``) are the ones another deck's
tables call: numba compiles one per tuple of argument types, and a warm-up that passed other
types (a level built in memory is writable, one read from the cache is not) would leave the
real run to compile its own."""

from __future__ import annotations

from enumerate.engine.dealer_kernels import dealer_points, per_dealer_orbits
from enumerate.engine.keys import build_keys
from enumerate.engine.perdealer import PlayerSide, run_per_dealer
from enumerate.engine.perhand import run_per_hand
from enumerate.engine.perhand_kernels import per_hand_adds, per_hand_answers, per_hand_orbits
from enumerate.engine.warmup import WARM_DECK, WARM_WAY, warm_up
from enumerate.houseways import get_way
from enumerate.rules import Deck
from enumerate.tables import hand_table

# the kernels the tables call from Python (those they call in turn are compiled into them)
KERNELS = (per_dealer_orbits, dealer_points, per_hand_orbits, per_hand_answers, per_hand_adds)


def test_another_deck_finds_the_warmed_kernels_compiled():
    warm_up()
    warmed = {k.__name__: set(k.signatures) for k in KERNELS}
    assert all(warmed.values()), "a kernel was not compiled"
    table = hand_table(Deck.parse("JQKA:cdhs+joker"))
    assert Deck.parse("JQKA:cdhs+joker").key != Deck.parse(WARM_DECK).key
    run_per_dealer(table, PlayerSide("response"), n_jobs=2)
    run_per_hand(table, build_keys(table, get_way(WARM_WAY)), n_jobs=2)
    assert {k.__name__: set(k.signatures) for k in KERNELS} == warmed


def test_a_second_warm_up_reads_its_tables():
    warm_up()
    table = hand_table(Deck.parse(WARM_DECK))
    assert run_per_dealer(table, PlayerSide("response")) is not None
