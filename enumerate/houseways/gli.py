"""The reference house way, ``gli``: the dealer's way from the dealer-open game's math report.

The dealer classifies the hand by the best five-card hand its seven cards can make
(``HandFacts.best_cat``) and applies one numbered rule of the card (RULES.md, "The reference
house way"); each rule is a numba function below, named after its rule and paraphrasing the
casino's wording in its docstring, returning ``(setting, rule_id)`` where ``rule_id`` indexes
``RULES``. "Front" is the two-card low hand, "back" the five-card high hand.

Ranks are *effective* ranks (``HandFacts``): the joker counts as an ace in pairs and in every
"ace" condition (joker + ace = a pair of aces, three aces + joker = four aces, four aces + joker
= five aces, a lone joker is a singleton ace). "Singleton" means a rank held once. Where several
settings put the same ranks in front, the primitives keep the strongest back (so a joker left in
back still completes a straight or flush when it can).

Readings of the terse text, chosen here (each is also in the docstring of its rule and tested):

- Rule 1: only a pair of kings goes in front; with another pair (say queens) two aces go in
  front and three aces stay in back with that pair.
- Rule 2: "a pair ... if there is one" includes a pair taken from three of a kind held beside
  the quads (four kings and three nines hold a pair of nines). "Split the quads" puts two cards
  of the quads' rank in front.
- Rule 3: "a pair of twos" is the full house's only pair (not twos among trips); the king-or-better
  singleton may be the joker. Two trips and trips with two pairs come first, as written.
- Rule 5: "both pairs sevens or better" means the lower pair is sevens or better; the three
  split conditions are tried in the order of the card, and the rule name reports the first
  that holds.
- Rule 8: "holds four of a kind / a full house" is read on effective ranks (with seven cards a
  straight or flush beside quads or a full house needs the joker as an ace). "Two pair" means
  two or three pairs without trips; "a pair of jacks or better and a pair of sixes or better"
  reads the two highest pairs; "two pair together with any ace" holds when the hand holds an
  ace or the joker anywhere, a pair of aces included. Such hands are set wholly by rule 2, 3
  or 5, even when that breaks the straight or flush, and report that rule's branch. A straight
  or flush with trips or with one pair is set by 8a-8e. "Highest front hand" is the two-card
  ranking (pairs first), ties going to the strongest back; "king-high or better" is a front
  whose higher card is a king or an ace (the joker), or any pair; likewise jack-high.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.houseways.facts import (
    ACE,
    FIVE_ACES,
    FLUSH,
    FULL_HOUSE,
    JACK,
    KING,
    NONE,
    PAIR,
    QUADS,
    SEVEN,
    SIX,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TEN,
    TRIPS,
    TWO,
    TWO_PAIR,
    by_front_ranks,
    highest_front,
    holds_ace,
    singleton_ace,
    two_highest_singles,
)

# rule ids: indices into RULES (numba reads these module constants as compile-time constants)
FIVE_ACES_KINGS = 0
FIVE_ACES_ACES = 1
FOUR_ACES_PAIR = 2
FOUR_ACES_SPLIT = 3
FOUR_HIGH_PAIR = 4
FOUR_HIGH_SPLIT = 5
FOUR_MID_PAIR = 6
FOUR_MID_ACE = 7
FOUR_MID_SPLIT = 8
FOUR_LOW_PAIR = 9
FOUR_LOW_SINGLES = 10
FULL_TWO_TRIPS = 11
FULL_TWO_PAIRS = 12
FULL_TWOS_KEEP = 13
FULL_PAIR_FRONT = 14
TRIPS_ACES = 15
TRIPS_SINGLES = 16
THREE_PAIR = 17
TWO_PAIR_SPLIT_SEVENS = 18
TWO_PAIR_SPLIT_ACE = 19
TWO_PAIR_SPLIT_ACES = 20
TWO_PAIR_KEEP = 21
ONE_PAIR = 22
NO_PAIR = 23
COMPLETE_KING_HIGH = 24
COMPLETE_ROYAL = 25
COMPLETE_JACK_HIGH = 26
COMPLETE_STRAIGHT_FLUSH = 27
COMPLETE_ANY = 28

RULES = (
    "1. five aces: pair of kings in front",
    "1. five aces: two aces in front",
    "2. four aces: pair of sevens or better in front",
    "2. four aces: split, two aces in front",
    "2. four jacks to kings: pair of tens or better in front",
    "2. four jacks to kings: split, two in front",
    "2. four sevens to tens: pair in front",
    "2. four sevens to tens: singleton ace, two highest singletons in front",
    "2. four sevens to tens: split, two in front",
    "2. four twos to sixes: pair in front",
    "2. four twos to sixes: two highest singletons in front",
    "3. full house: two trips, pair from the higher trips in front",
    "3. full house: trips and two pairs, higher pair in front",
    "3. full house: pair of twos and a king or better, two highest singletons in front",
    "3. full house: pair in front, trips in back",
    "4. three aces: one ace and the highest singleton in front",
    "4. three of a kind: two highest singletons in front",
    "5. three pair: highest pair in front",
    "5. two pair: split, both pairs sevens or better and no singleton ace",
    "5. two pair: split, jacks or better and sixes or better with a singleton ace",
    "5. two pair: split, pair of aces",
    "5. two pair: both pairs in back, two highest singletons in front",
    "6. one pair: two highest singletons in front",
    "7. no pair: second and third highest cards in front",
    "8a. king-high or better front keeping a straight or flush",
    "8b. highest front keeping a royal flush",
    "8c. jack-high or better front keeping a straight or flush",
    "8d. highest front keeping a straight flush",
    "8e. highest front keeping a straight or flush",
)


@njit(cache=True)
def _pair_front(f, r):
    """The setting with a pair of rank ``r`` in front."""
    return by_front_ranks(f, r, r)


@njit(cache=True)
def _highest_pair_or_trips(f):
    """Rank of the highest pair the hand can put in front from a rank held twice or three
    times (a pair taken from three of a kind); ``NONE`` if there is none."""
    return max(f.pairs[0], f.trips[0])  # NONE (-1) when absent


# ---------------------------------------------------------------------------------------------
# 1. Five aces


@njit(cache=True)
def five_aces(f):
    """Five aces: a pair of kings goes in front if the hand has one; otherwise two aces go in
    front.

    Reading: another pair (say queens) does not go in front; two aces do, and the back keeps
    three aces with that pair."""
    if f.counts[KING] == 2:
        return _pair_front(f, KING), FIVE_ACES_KINGS
    return _pair_front(f, ACE), FIVE_ACES_ACES


# ---------------------------------------------------------------------------------------------
# 2. Four of a kind


@njit(cache=True)
def _four_aces(f, pair):
    """Four aces (the joker may be one): a pair of sevens or better goes in front if there is
    one; otherwise two aces go in front."""
    if pair >= SEVEN:
        return _pair_front(f, pair), FOUR_ACES_PAIR
    return _pair_front(f, ACE), FOUR_ACES_SPLIT


@njit(cache=True)
def _four_jacks_to_kings(f, quads, pair):
    """Four jacks, queens or kings: a pair of tens or better goes in front if there is one;
    otherwise split the quads, two in front."""
    if pair >= TEN:
        return _pair_front(f, pair), FOUR_HIGH_PAIR
    return _pair_front(f, quads), FOUR_HIGH_SPLIT


@njit(cache=True)
def _four_sevens_to_tens(f, quads, pair):
    """Four sevens to tens: any pair goes in front if there is one; else, with a singleton ace
    (the joker counts), the two highest singletons go in front; else split the quads."""
    if pair != NONE:
        return _pair_front(f, pair), FOUR_MID_PAIR
    if singleton_ace(f):
        return two_highest_singles(f), FOUR_MID_ACE
    return _pair_front(f, quads), FOUR_MID_SPLIT


@njit(cache=True)
def _four_twos_to_sixes(f, pair):
    """Four twos to sixes: any pair goes in front; else the two highest singletons."""
    if pair != NONE:
        return _pair_front(f, pair), FOUR_LOW_PAIR
    return two_highest_singles(f), FOUR_LOW_SINGLES


@njit(cache=True)
def four_of_a_kind(f):
    """Four of a kind, by the rank of the quads:

    - aces: a pair of sevens or better goes in front if there is one; otherwise two aces;
    - jacks to kings: a pair of tens or better in front if there is one; otherwise split the
      quads, two in front;
    - sevens to tens: any pair in front; else, with a singleton ace, the two highest singletons;
      else split the quads;
    - twos to sixes: any pair in front; else the two highest singletons.

    Reading: "a pair, if there is one" includes a pair taken from three of a kind held beside
    the quads (four kings and three nines hold a pair of nines; four aces and three eights put
    two eights in front)."""
    quads = f.quads[0]
    pair = _highest_pair_or_trips(f)
    if quads == ACE:
        return _four_aces(f, pair)
    if quads >= JACK:
        return _four_jacks_to_kings(f, quads, pair)
    if quads >= SEVEN:
        return _four_sevens_to_tens(f, quads, pair)
    return _four_twos_to_sixes(f, pair)


# ---------------------------------------------------------------------------------------------
# 3. Full house


@njit(cache=True)
def full_house(f):
    """Full house: with two three-of-a-kinds, a pair from the higher one goes in front (the
    lower trips stay in back). With trips and two pairs, the higher pair goes in front (the full
    house stays in back). With a pair of twos and a king-or-better singleton, keep the full house
    and put the two highest singletons in front. Otherwise the pair goes in front, the trips in
    back.

    Reading: "a pair of twos" is the hand's only pair (trips of twos with another pair put that
    pair in front); the king-or-better singleton may be the joker (an ace)."""
    if f.n_trips >= 2:
        return _pair_front(f, f.trips[0]), FULL_TWO_TRIPS
    if f.n_pairs >= 2:
        return _pair_front(f, f.pairs[0]), FULL_TWO_PAIRS
    if f.pairs[0] == TWO and f.n_singles >= 2 and f.singles[0] >= KING:
        return two_highest_singles(f), FULL_TWOS_KEEP
    return _pair_front(f, f.pairs[0]), FULL_PAIR_FRONT


# ---------------------------------------------------------------------------------------------
# 4. Three of a kind


@njit(cache=True)
def three_of_a_kind(f):
    """Three of a kind: with three aces (the joker may be one), one ace and the highest
    singleton go in front; otherwise the two highest singletons go in front."""
    if f.trips[0] == ACE:
        return by_front_ranks(f, ACE, f.singles[0]), TRIPS_ACES
    return two_highest_singles(f), TRIPS_SINGLES


# ---------------------------------------------------------------------------------------------
# 5. Two pair and three pair


@njit(cache=True)
def two_pair(f):
    """Two pair (and three pair): with three pairs, the highest pair goes in front. Otherwise
    split (low pair in front) when any of these holds: both pairs are sevens or better and there
    is no singleton ace; the high pair is jacks or better, the low pair sixes or better, and
    there is a singleton ace; the high pair is aces. Otherwise keep both pairs in back and put
    the two highest singletons in front.

    Reading: a singleton ace may be the joker; a joker with an ace is a pair of aces. The rule
    name reports the first split condition that holds, in the card's order."""
    if f.n_pairs >= 3:
        return _pair_front(f, f.pairs[0]), THREE_PAIR
    high, low = f.pairs[0], f.pairs[1]
    ace = singleton_ace(f)
    if low >= SEVEN and not ace:
        return _pair_front(f, low), TWO_PAIR_SPLIT_SEVENS
    if high >= JACK and low >= SIX and ace:
        return _pair_front(f, low), TWO_PAIR_SPLIT_ACE
    if high == ACE:
        return _pair_front(f, low), TWO_PAIR_SPLIT_ACES
    return two_highest_singles(f), TWO_PAIR_KEEP


# ---------------------------------------------------------------------------------------------
# 6. One pair, 7. no pair


@njit(cache=True)
def one_pair(f):
    """One pair: the pair stays in back, the two highest singletons go in front."""
    return two_highest_singles(f), ONE_PAIR


@njit(cache=True)
def no_pair(f):
    """No pair: the highest card stays in back, the second- and third-highest go in front (the
    joker is an ace here)."""
    return by_front_ranks(f, f.singles[1], f.singles[2]), NO_PAIR


# ---------------------------------------------------------------------------------------------
# 8. Straights, flushes, straight flushes, royal flushes


@njit(cache=True)
def _front_at_least(f, s, rank):
    """The front of setting ``s`` is ``rank``-high or better: its higher card is ``rank`` or
    above (the joker is an ace), or it is a pair."""
    return f.front_hi[s] >= rank or f.front_hi[s] == f.front_lo[s]


@njit(cache=True)
def _is_complete(cat):
    """A five-card category that is a straight, a flush, a straight flush or a royal flush."""
    return STRAIGHT <= cat <= FLUSH or cat == STRAIGHT_FLUSH  # categories 4, 5 and 8


@njit(cache=True)
def _complete_front(f):
    """Rules 8a-8e: among the settings that keep a straight, flush, straight flush or royal
    flush in back, the first that exists of: (a) the highest front that is king-high or better;
    (b) the highest front keeping a royal flush; (c) the highest front that is jack-high or
    better; (d) the highest front keeping a straight flush; (e) the highest front."""
    king_high = np.zeros(21, dtype=np.bool_)
    royal = np.zeros(21, dtype=np.bool_)
    jack_high = np.zeros(21, dtype=np.bool_)
    straight_flush = np.zeros(21, dtype=np.bool_)
    complete = np.zeros(21, dtype=np.bool_)
    for s in range(21):
        if _is_complete(f.cat[s]):
            complete[s] = True
            king_high[s] = _front_at_least(f, s, KING)
            jack_high[s] = _front_at_least(f, s, JACK)
            straight_flush[s] = f.cat[s] == STRAIGHT_FLUSH
            royal[s] = f.high[s] == f.royal_id
    s = highest_front(f, king_high)
    if s != NONE:
        return s, COMPLETE_KING_HIGH
    s = highest_front(f, royal)
    if s != NONE:
        return s, COMPLETE_ROYAL
    s = highest_front(f, jack_high)
    if s != NONE:
        return s, COMPLETE_JACK_HIGH
    s = highest_front(f, straight_flush)
    if s != NONE:
        return s, COMPLETE_STRAIGHT_FLUSH
    return highest_front(f, complete), COMPLETE_ANY


@njit(cache=True)
def complete_hand(f):
    """Straights, flushes, straight flushes, royal flushes: if the hand also holds four of a
    kind, use rule 2; a full house, rule 3; two pair with a pair of jacks or better and a pair of
    sixes or better, or two pair together with any ace, rule 5. Otherwise choose the front among
    the settings whose back is still a straight or better, by the first of these that exists:
    (a) the highest front that is king-high or better, keeping a straight or flush in back;
    (b) the highest front keeping a royal flush in back; (c) the highest front that is
    jack-high or better, keeping a straight or flush in back; (d) the highest front keeping a
    straight flush in back; (e) the highest front keeping a straight or flush in back.

    Readings: quads and full houses are read on effective ranks (trips and a pair, or two trips;
    the joker as an ace). "Two pair" is two or three pairs; the jacks/sixes test reads the two
    highest pairs; "any ace" is an ace or the joker anywhere in the hand, a pair of aces
    included. A deferred hand is set wholly by rule 2, 3 or 5, even if that breaks the straight
    or flush. "Straight or flush in back" means a back of category straight, flush, straight
    flush or royal flush; a king-high (jack-high) or better front has a king (jack) or better
    as its higher card, or is a pair."""
    if f.n_quads > 0:
        return four_of_a_kind(f)
    if f.n_trips >= 2 or (f.n_trips == 1 and f.n_pairs >= 1):
        return full_house(f)
    if f.n_pairs >= 2 and ((f.pairs[0] >= JACK and f.pairs[1] >= SIX) or holds_ace(f)):
        return two_pair(f)
    return _complete_front(f)


# ---------------------------------------------------------------------------------------------
# The way


@njit(cache=True)
def choose(f):
    """Set a hand: classify it by its best five-card category and apply that rule."""
    c = f.best_cat
    if c == FIVE_ACES:
        return five_aces(f)
    if c == QUADS:
        return four_of_a_kind(f)
    if c == FULL_HOUSE:
        return full_house(f)
    if _is_complete(c):
        return complete_hand(f)
    if c == TRIPS:
        return three_of_a_kind(f)
    if c == TWO_PAIR:
        return two_pair(f)
    if c == PAIR:
        return one_pair(f)
    return no_pair(f)
