"""The pricing steps of ``paigow reports`` compiled ahead of need, on a tiny deck.

``enumerate.engine.warmup`` compiles the per-dealer and per-hand kernels while a report builds
the frontiers and the levels. The steps after those tables price them with kernels of their
own (the way lab's ``analysis.waylab.wayedge`` and ``waycosts``, the variants' blind pass
``analysis.waylab.labpairs``, the optimal strategy's ``analysis.pricing.optimal``, the
derived cards' ``analysis.derive``, the banker's ``analysis.pricing.banking`` and its
simulation); on a fresh clone numba would compile
each at its first call, with the other core idle, a large share of the player-banking step and
a noticeable one of the lab's and the optimal strategy's. Pricing the tiny deck's tables the
same way, on the same thread, right after its tables, compiles those kernels for the same
argument types while the full deck's tables keep both cores busy, and stores them in numba's
cache.
"""

from __future__ import annotations

from analysis.derive.classes import class_choices, forget
from analysis.derive.derive import derive_strategy, derive_way
from analysis.games.players import Player
from analysis.games.variants import get_variant, variant_names
from analysis.pricing.banking import BANKERS, banking_report
from analysis.pricing.counts import pair_counts
from analysis.pricing.optimal import optimal_strategies
from analysis.waylab.labpairs import lab_pair_counts
from analysis.waylab.waycosts import pattern_costs, rule_costs
from analysis.waylab.wayedge import dealer_lab, house_optimal, price_dealer_way
from enumerate.engine.warmup import WARM_DECK, WARM_WAY, warm_up
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

WARM_ROUNDS = 1_000  # simulated rounds of the banking warm-up: enough to run every line
WARM_RULES = 2  # rules of the warm-up's derived cards


def warm_up_report(rules: Rules | None = None) -> None:
    """``warm_up``, then every pricing the report's later steps do, on ``WARM_DECK`` with
    ``WARM_WAY`` as the house way (the casino ways are compiled by ``analysis.report.ahead``)."""
    rules = rules or Rules()
    warm_up(rules)
    deck = Deck.parse(WARM_DECK)
    # the choices read back from the cache (read-only maps, typed apart by numba), as a
    # report's derivations read them
    class_choices(hand_table(deck, rules))
    forget()
    variants = [get_variant(name) for name in variant_names()]
    exposed = [v for v in variants if v.dealer_exposed]
    blind = [v for v in variants if not v.dealer_exposed]
    if exposed:
        lab = dealer_lab(exposed[0], Player.BEST_RESPONSE, None, deck, rules)
        lab_pair_counts(lab, [WARM_WAY])  # the variants' blind pass (and the banking's counts)
        for variant in exposed:
            ceiling = house_optimal(lab, variant)
            price_dealer_way(variant, WARM_WAY, lab=lab)
            rule_costs(lab, variant, WARM_WAY, ceiling)
            pattern_costs(lab, variant, WARM_WAY, top=3, opt=ceiling)
            # the derived dealer's cards (their search, and the page's settings)
            derive_way(variant.name, WARM_RULES, ceiling=ceiling).still_worse(WARM_RULES, 3)
    per_hand = None
    for opt in optimal_strategies(blind, WARM_WAY, deck, rules):
        opt.house_edge(True)
        opt.by_rule()
        opt.top_losses(3)
        opt.by_pattern(3)
        derive_strategy(opt.variant.name, WARM_WAY, WARM_RULES, opt=opt).still_worse(
            WARM_RULES, 3)  # fmt: skip
        if opt.variant.name == "traditional":
            per_hand = opt.per_hand
    forget()
    bankers = BANKERS if per_hand is not None else ("house-way",)
    # the banking step's pair counts, in the cache before it asks (without a progress bar in
    # the report's log)
    pair_counts(deck, rules, WARM_WAY, WARM_WAY, get_variant("traditional").flag_mask,
                progress=False)  # fmt: skip
    banking_report(WARM_WAY, WARM_ROUNDS, 1, 7, deck, rules, bankers, per_hand)
