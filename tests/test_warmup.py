"""The kernels warmed on a tiny deck (``enumerate.engine.warmup``) are the ones another deck's
tables call: numba compiles one per tuple of argument types, and a warm-up that passed other
types (a level built in memory is writable, one read from the cache is not) would leave the
real run to compile its own."""

from __future__ import annotations

from enumerate.engine.keys import build_keys
from enumerate.engine.perdealer.kernels import dealer_points, per_dealer_orbits
from enumerate.engine.perdealer.table import PlayerSide, run_per_dealer
from enumerate.engine.perhand.kernels import per_hand_adds, per_hand_answers, per_hand_orbits
from enumerate.engine.perhand.table import run_per_hand
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


def test_the_report_warm_up_compiles_the_pricing_kernels_another_deck_calls():
    # the kernels the report's lab, optimal-strategy and banking steps call from Python
    from analysis.games.players import Player
    from analysis.pricing import banking, optimal
    from analysis.pricing.banking import BANKERS, banking_report
    from analysis.pricing.optimal import optimal_strategies
    from analysis.report.warmup import warm_up_report
    from analysis.waylab import wayedge
    from analysis.waylab.waycosts import pattern_costs, rule_costs
    from analysis.waylab.wayedge import dealer_lab, house_optimal, price_dealer_way
    from enumerate import deals
    from enumerate.engine.onehand import direct as onehand

    pricing = (wayedge._sums, wayedge._best_rows, wayedge._values_at, optimal._ev_numerators_range,
               optimal._choose_range, banking._best_for_banker, deals._deal,
               onehand._settings_of_hands)  # fmt: skip
    warm_up_report()
    warmed = {k.__name__: set(k.signatures) for k in pricing}
    assert all(warmed.values()), [name for name, sigs in warmed.items() if not sigs]
    deck = Deck.parse("JQKA:cdhs+joker")
    lab = dealer_lab("face-up", Player.BEST_RESPONSE, None, deck)
    ceiling = house_optimal(lab, "face-up")
    price_dealer_way("face-up", WARM_WAY, lab=lab)
    rule_costs(lab, "face-up", WARM_WAY, ceiling)
    pattern_costs(lab, "face-up", WARM_WAY, top=3, opt=ceiling)
    per_hand = None
    for opt in optimal_strategies(["traditional", "ez"], WARM_WAY, deck):
        opt.by_rule()
        per_hand = opt.per_hand if opt.variant.name == "traditional" else per_hand
    banking_report(WARM_WAY, 100, 1, 7, deck, bankers=BANKERS, per_hand=per_hand)
    after = {k.__name__: set(k.signatures) for k in pricing}
    assert [n for n in after if after[n] != warmed[n]] == []
