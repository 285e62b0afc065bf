"""The facts each scope offers a condition: name, kind and meaning. The docs' tables and the
messages are made from these, and the back ends (the card kernel, the bets' arrays) give each
its value.

Ranks are effective ranks in a rule card's facts: the joker counts as an ace, so joker plus ace
is a pair of aces and a lone joker a singleton ace. A rank a hand does not hold is below every
rank (``pair3`` of a two-pair hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from enumerate.conditions.tree import Kind
from enumerate.vocabulary import DealerEvent


@dataclass(frozen=True)
class FactSpec:
    """One fact: its name, its kind, what it means; ``event``: for a fact of the dealer's
    hand, the dealer event bits it reads (the pair counts keep dealer hands apart by them)."""

    name: str
    kind: Kind
    meaning: str
    event: int = 0


def _facts(kind: Kind, names: str, meaning: str) -> tuple[FactSpec, ...]:
    return tuple(FactSpec(n, kind, meaning) for n in names.split())


T, R, C = Kind.TRUTH, Kind.RANK, Kind.COUNT

# A seven-card hand as a rule card reads it, in the order of the card kernel's fact array
CARD_FACTS: tuple[FactSpec, ...] = (
    FactSpec("n_quads", C, "ranks held four times or more"),
    FactSpec("n_trips", C, "ranks held three times"),
    FactSpec("n_pairs", C, "ranks held twice"),
    FactSpec("n_singles", C, "ranks held once"),
    FactSpec("quad1", R, "the four of a kind's rank"),
    *_facts(R, "trips1 trips2", "the trips' ranks, highest first"),
    *_facts(R, "pair1 pair2 pair3", "the pairs' ranks, highest first"),
    *_facts(R, " ".join(f"single{i}" for i in range(1, 8)), "the singletons, highest first"),
    # the hand's structure by rank counts: exactly one of these holds
    FactSpec("five_aces", T, "five aces (four aces and the joker)"),
    FactSpec("quads", T, "four of a kind (not five aces)"),
    FactSpec("full_house", T, "a full house, two trips, or trips with two pairs"),
    FactSpec("trips", T, "one three of a kind and no pair"),
    FactSpec("three_pair", T, "three pairs or more"),
    FactSpec("two_pair", T, "exactly two pairs"),
    FactSpec("one_pair", T, "exactly one pair"),
    FactSpec("no_pair", T, "no rank held twice"),
    FactSpec("two_trips", T, "two three-of-a-kinds"),
    FactSpec("joker", T, "the hand holds the joker"),
    FactSpec("ace", T, "an ace (or the joker)"),
    FactSpec("singleton_ace", T, "exactly one ace (or the lone joker)"),
    FactSpec("best_five", Kind.CATEGORY, "the best five-card hand of the seven cards"),
    FactSpec("complete", T, "best_five is a straight, flush or straight flush"),
)
CARD_STRUCTURES: tuple[str, ...] = ("five_aces", "quads", "full_house", "trips", "three_pair",
                                    "two_pair", "one_pair", "no_pair")  # fmt: skip

# A seven-card hand as a side bet reads it (the player's or the dealer's)
SEVEN_CARD_FACTS: tuple[FactSpec, ...] = (
    FactSpec("fortune", Kind.FORTUNE, "the Fortune class of the seven cards"),
    FactSpec("best_five", Kind.CATEGORY, "the best five-card hand of the seven cards"),
    FactSpec("joker", T, "the seven cards hold the joker"),
    FactSpec("pai_gow", T, "no pair, straight or flush"),
    FactSpec("ace_high_pai_gow", T, "a pai gow topped by an ace or the joker"),
    FactSpec("ace_high_pai_gow_joker", T, "an ace-high pai gow whose ace is the joker"),
    FactSpec("ace_high_pai_gow_natural", T, "an ace-high pai gow with a natural ace"),
    FactSpec("queen_high_pai_gow", T, "a pai gow topped by a queen, no joker"),
    FactSpec("jacks", C, "natural jacks in the seven cards"),
    FactSpec("high_card", R, "the highest rank of the seven cards, the joker an ace"),
)
# The same hand as the house way sets it
WAY_FACTS: tuple[FactSpec, ...] = (
    FactSpec("way_back", Kind.CATEGORY, "the back the house way sets"),
    FactSpec("way_front_high", R, "the higher card of the front the house way sets"),
    FactSpec("way_front_low", R, "the lower card of that front"),
    FactSpec("way_front_pair", T, "the house way's front is a pair"),
)

THREE_CARD_FACTS: tuple[FactSpec, ...] = (
    FactSpec("three_card", Kind.THREE_CARD, "the three-card poker hand (straight beats "
             "flush), the joker semi-wild"),
    FactSpec("joker", T, "the three cards hold the joker"),
)

# The dealer's hand, by the events the pair counts keep apart
DEALER_FACTS: tuple[FactSpec, ...] = (
    FactSpec("dealer.ace_high_pai_gow", T, "an ace-high pai gow",
             DealerEvent.ACE_HIGH_JOKER | DealerEvent.ACE_HIGH_NATURAL),
    FactSpec("dealer.ace_high_pai_gow_joker", T, "an ace-high pai gow, the joker as the ace",
             DealerEvent.ACE_HIGH_JOKER),
    FactSpec("dealer.ace_high_pai_gow_natural", T, "an ace-high pai gow, a natural ace",
             DealerEvent.ACE_HIGH_NATURAL),
    FactSpec("dealer.two_jacks", T, "two or more natural jacks", DealerEvent.TWO_JACKS),
    FactSpec("dealer.queen_high_pai_gow", T, "a pai gow topped by a queen, no joker",
             DealerEvent.QUEEN_HIGH),
    FactSpec("dealer.nine_high_low", T, "the house way's front is nine-high",
             DealerEvent.NINE_HIGH_LOW),
)
# A deal: the player's seven cards (by player class) and the dealer's
DEAL_FACTS: tuple[FactSpec, ...] = (
    FactSpec("player.fortune", Kind.FORTUNE, "the Fortune class of the player's seven cards"),
    FactSpec("player.ace_high_pai_gow", T, "the player's hand is an ace-high pai gow"),
    *DEALER_FACTS,
)
