"""The Foxwoods house way, from the casino's rule card (docs/rules.md, "`foxwoods`: Foxwoods
(the way of the one published exact analysis)").

It is the way of the one published exact analysis of all deals (2013). One small numba function
per numbered rule of the card, each returning ``(setting, rule_id)`` with ``rule_id`` an index
into ``RULES``; ``choose(f)`` dispatches on the hand's structure. "Front" is the two-card low
hand, "back" the five-card high hand; the card's rules are numbered in its order: 1 no pair,
2 one pair, 3 two pair, 4 three pair, 5 three of a kind, 6 two sets, 7 straights and flushes,
8 full house, 9 four of a kind, 10 five aces.

Ranks are *effective* ranks (``HandFacts``): the joker counts as an ace in pairs and in every
"ace" condition (joker + ace = a pair of aces, three aces + joker = four aces, four aces + joker
= five aces, a lone joker is a singleton ace). "Singleton" means a rank held once. Where several
settings put the same ranks in front, the primitives keep the strongest back (so a joker left in
back still completes a straight or flush when it can).

Readings chosen where the card is terse or silent (each is repeated in its rule and tested):

- Structure first: five aces (10), quads (9), two sets (6), full houses (8: trips with one or
  two pairs), then straights and flushes (7), then 5, 4, 3, 2, 1. A hand with quads or a full
  house is set by rule 9 or 8 even if it also holds a straight or flush (a higher hand than the
  complete hand; with seven cards this needs the joker as an ace).
- Rule 3: "an ace can go in front" is a singleton ace (or the lone joker); "a king or better" a
  singleton king or ace. Kept together, the two highest other cards go in front (the ace or king
  and the next one); split, the small pair goes in front. A big pair of twos cannot occur.
- Rule 7 is read over "complete" backs: a straight, flush or straight flush (royal included).
  No pair: the highest front (two-card ranking, then the strongest back) among the settings
  keeping a complete back. One pair: likewise, the two-card ranking putting any pair above any
  non-pair, so the pair goes in front whenever a complete back survives it. The exception: with
  a singleton ace (the joker counts) and a pair of tens to kings, the one-pair setting (the pair
  in back, the ace and the next highest card in front, the complete hand given up) replaces that
  front when it is strictly higher ("if the front can be improved"); it never replaces a pair.
  Two pair: rule 3, three pair: rule 4, wholly (even if that breaks the complete hand), reported
  under those rules. Three of a kind: a pair from the trips in front and a complete back; when no
  such setting exists (two aces + joker with the joker needed in the straight or flush), the
  complete hand is still kept in back with the highest front it allows.
- Rule 8: "the highest permissible pair" is the highest of the hand's pairs (ranks held exactly
  twice, the joker + ace included); the trips stay in back. The alternative, a pair broken from
  the trips when they are higher, is either a foul (trips and one pair: a pair in back under a
  higher pair in front) or turns a full-house back into two pair, which no solid way does.
- Rule 9: "with a pair (or three of a kind): the pair in front" comes first and holds for every
  rank of quads, aces to jacks included (the pair from trips held beside the quads). "At least a
  king can go in front" is a singleton king or ace (the joker as one). Kept together, the two
  highest other cards go in front; split, two of the quads.
- Rule 10: a pair of kings "can be played in front" when the hand holds two kings.
"""

from __future__ import annotations

from numba import njit

from enumerate.houseways.facts import (
    ACE,
    FLUSH,
    JACK,
    KING,
    NONE,
    SEVEN,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TEN,
    by_front_ranks,
    highest_front,
    is_complete,
    singleton_ace,
    two_highest_singles,
)

RULES = (
    "1. no pair: second and third highest cards in front",
    "2. one pair: pair in back, two highest other cards in front",
    "3. two pair, aces to jacks: small pair in front",
    "3. two pair, tens to sevens: both pairs in back, an ace in front",
    "3. two pair, tens to sevens: no ace for the front, split",
    "3. two pair, sixes to threes: both pairs in back, a king or better in front",
    "3. two pair, sixes to threes: no king or better for the front, split",
    "4. three pair: high pair in front",
    "5. three aces: an ace and the next highest card in front",
    "5. three of a kind, kings and below: trips in back, two highest cards in front",
    "6. two sets: a pair from the higher set in front",
    "7. straight/flush, no pair: two highest cards in front leaving a complete hand in back",
    "7. straight/flush, one pair: highest two cards in front leaving a complete hand in back",
    "7. straight/flush, ace and a pair of tens to kings: ace in front, pair in back",
    "7. straight/flush, three of a kind: complete hand in back, a pair in front",
    "7. straight/flush, three of a kind: no pair can go in front, complete hand kept",
    "8. full house: highest permissible pair in front",
    "9. four aces to jacks: split, two in front",
    "9. four tens to sevens: kept, a king or better in front",
    "9. four tens to sevens: split, two in front",
    "9. four sixes and below: kept, two highest other cards in front",
    "9. four of a kind with a pair: pair in front",
    "9. four of a kind with three of a kind: a pair from the trips in front",
    "10. five aces: pair of aces in front",
    "10. five aces: pair of kings in front",
)

# rule ids: indices into RULES (numba reads these module constants as compile-time constants)
(
    NO_PAIR,
    ONE_PAIR,
    TWO_PAIR_HIGH_SPLIT,
    TWO_PAIR_MID_KEPT,
    TWO_PAIR_MID_SPLIT,
    TWO_PAIR_LOW_KEPT,
    TWO_PAIR_LOW_SPLIT,
    THREE_PAIR,
    TRIPS_ACES,
    TRIPS_KEPT,
    TWO_SETS,
    COMPLETE_NO_PAIR,
    COMPLETE_PAIR,
    COMPLETE_PAIR_ACE,
    COMPLETE_TRIPS,
    COMPLETE_TRIPS_KEPT,
    FULL_HOUSE_PAIR,
    QUADS_HIGH_SPLIT,
    QUADS_MID_KEPT,
    QUADS_MID_SPLIT,
    QUADS_LOW_KEPT,
    QUADS_PAIR,
    QUADS_TRIPS,
    FIVE_ACES_ACES,
    FIVE_ACES_KINGS,
) = range(len(RULES))


@njit(cache=True)
def _pair_front(f, r):
    """The setting with a pair of rank ``r`` in front (strongest back among such)."""
    return by_front_ranks(f, r, r)


@njit(cache=True)
def _king_or_better(f):
    """A singleton king or a singleton ace (the lone joker counts) can go in front."""
    return f.counts[KING] == 1 or f.counts[ACE] == 1


# ---------------------------------------------------------------------------------------------
# 1. No pair, 2. one pair


@njit(cache=True)
def no_pair(f):
    """Rule 1. No pair: the second and third highest cards in front (the highest in back; a
    lone joker is the ace)."""
    return by_front_ranks(f, f.singles[1], f.singles[2]), NO_PAIR


@njit(cache=True)
def one_pair(f):
    """Rule 2. One pair: the pair in back, the two highest other cards in front."""
    return two_highest_singles(f), ONE_PAIR


# ---------------------------------------------------------------------------------------------
# 3. Two pair, 4. three pair


@njit(cache=True)
def two_pair(f):
    """Rule 3. Two pair, by the big pair:

    - aces, kings, queens, jacks: the small pair in front (split);
    - tens to sevens: both pairs in back if an ace can go in front; otherwise split;
    - sixes to threes: both pairs in back if a king or better can go in front; otherwise split.

    Readings: "an ace can go in front" is a singleton ace (or the lone joker; joker + ace is a
    pair of aces, a big pair); "a king or better" is a singleton king or ace. Kept together, the
    two highest other cards go in front. The smallest two pair is threes and twos."""
    big, small = f.pairs[0], f.pairs[1]
    if big >= JACK:
        return _pair_front(f, small), TWO_PAIR_HIGH_SPLIT
    if big >= SEVEN:
        if singleton_ace(f):
            return two_highest_singles(f), TWO_PAIR_MID_KEPT
        return _pair_front(f, small), TWO_PAIR_MID_SPLIT
    if _king_or_better(f):
        return two_highest_singles(f), TWO_PAIR_LOW_KEPT
    return _pair_front(f, small), TWO_PAIR_LOW_SPLIT


@njit(cache=True)
def three_pair(f):
    """Rule 4. Three pair: the high pair in front (joker + ace is a pair of aces)."""
    return _pair_front(f, f.pairs[0]), THREE_PAIR


# ---------------------------------------------------------------------------------------------
# 5. Three of a kind, 6. two sets


@njit(cache=True)
def three_of_a_kind(f):
    """Rule 5. Three of a kind: aces (the joker may be one): an ace and the next highest card in
    front; kings and below: the trips in back, the two highest other cards in front."""
    if f.trips[0] == ACE:
        return by_front_ranks(f, ACE, f.singles[0]), TRIPS_ACES
    return two_highest_singles(f), TRIPS_KEPT


@njit(cache=True)
def two_sets(f):
    """Rule 6. Two sets (two three-of-a-kinds): a pair from the higher set in front; the lower
    set stays in back."""
    return _pair_front(f, f.trips[0]), TWO_SETS


# ---------------------------------------------------------------------------------------------
# 7. Straights, flushes, straight flushes


@njit(cache=True)
def complete_backs(f):
    """Settings whose back is a complete hand: a straight, flush or straight flush (royal
    included)."""
    return ((f.cat >= STRAIGHT) & (f.cat <= FLUSH)) | (f.cat == STRAIGHT_FLUSH)


@njit(cache=True)
def _pair_front_complete_back(f, p, complete):
    """The valid setting with a pair of rank ``p`` in front and a complete back, strongest back
    first; ``NONE`` if there is none."""
    best = NONE
    for s in range(21):
        ok = f.valid[s] and complete[s] and f.front_hi[s] == p and f.front_lo[s] == p
        if ok and (best == NONE or f.high[s] > f.high[best]):
            best = s
    return best


@njit(cache=True)
def complete_hand(f):
    """Rule 7. Straight, flush, straight flush:

    - no pair: the two highest cards in front that still leave a complete hand in back;
    - one pair: the highest possible two cards (pair or not) in front that leave a complete hand
      in back; except: with an ace and a pair of kings, queens, jacks or tens, the ace goes in
      front and the pair in back if that improves the front;
    - two pair: the two-pair rule (3); three of a kind: the complete hand in back, a pair in
      front.

    Readings: "highest" is the two-card ranking (any pair above any non-pair), ties going to the
    strongest back; so with one pair the pair goes in front whenever a complete back survives
    it. The exception compares that front with the one-pair setting (the pair in back, the
    singleton ace, which may be the joker, and the next highest card in front, the complete hand
    given up) and takes the latter only when its front is strictly higher: never over a pair in
    front, nor when the ace could already go in front beside a complete back. Three pair: the
    three-pair rule (4). Three of a kind: when no pair from the trips can go in front beside a
    complete back (two aces + joker, the joker needed in the straight or flush), the complete
    hand is still kept in back with the highest front it allows."""
    if f.n_pairs >= 3:
        return three_pair(f)
    if f.n_pairs == 2:
        return two_pair(f)
    complete = complete_backs(f)
    if f.n_pairs == 1:
        s = highest_front(f, complete)
        p = f.pairs[0]
        if TEN <= p <= KING and singleton_ace(f):
            q = two_highest_singles(f)  # the ace and the next highest card in front
            if q != NONE and f.low[q] > f.low[s]:
                return q, COMPLETE_PAIR_ACE
        return s, COMPLETE_PAIR
    if f.n_trips == 1:
        s = _pair_front_complete_back(f, f.trips[0], complete)
        if s != NONE:
            return s, COMPLETE_TRIPS
        return highest_front(f, complete), COMPLETE_TRIPS_KEPT
    return highest_front(f, complete), COMPLETE_NO_PAIR


# ---------------------------------------------------------------------------------------------
# 8. Full house


@njit(cache=True)
def full_house(f):
    """Rule 8. Full house: the highest permissible pair in front.

    Reading: the highest of the hand's pairs (with trips and two pairs, the higher pair; a pair
    of aces may be the joker + ace) goes in front and the trips stay in back. A pair broken from
    higher trips is not taken: beside one pair it fouls, beside two pairs it would turn the
    full house in back into two pair. (Two sets: rule 6.)"""
    return _pair_front(f, f.pairs[0]), FULL_HOUSE_PAIR


# ---------------------------------------------------------------------------------------------
# 9. Four of a kind, 10. five aces


@njit(cache=True)
def four_of_a_kind(f):
    """Rule 9. Four of a kind: aces, kings, queens, jacks: always split; tens to sevens: keep in
    back if at least a king can go in front, otherwise split; sixes and below: never split.
    Quads with a pair (or trips): the pair in front.

    Readings: the pair (or a pair from the trips) goes in front for every rank of quads, aces to
    jacks included; "at least a king can go in front" is a singleton king or ace (the joker as
    one; three aces + joker are four aces). Kept together, the two highest other cards go in
    front; split, two of the quads go in front."""
    q = f.quads[0]
    if f.n_trips == 1:
        return _pair_front(f, f.trips[0]), QUADS_TRIPS
    if f.n_pairs == 1:
        return _pair_front(f, f.pairs[0]), QUADS_PAIR
    if q >= JACK:
        return _pair_front(f, q), QUADS_HIGH_SPLIT
    if q >= SEVEN:
        if _king_or_better(f):
            return two_highest_singles(f), QUADS_MID_KEPT
        return _pair_front(f, q), QUADS_MID_SPLIT
    return two_highest_singles(f), QUADS_LOW_KEPT


@njit(cache=True)
def five_aces(f):
    """Rule 10. Five aces (four aces + joker): a pair of aces in front, unless a pair of kings
    can go in front (the hand holds two kings)."""
    if f.counts[KING] == 2:
        return _pair_front(f, KING), FIVE_ACES_KINGS
    return _pair_front(f, ACE), FIVE_ACES_ACES


# ---------------------------------------------------------------------------------------------
# The way


@njit(cache=True)
def choose(f):
    """Set a hand by the Foxwoods way: ``(setting, rule_id)``, structure first."""
    if f.counts[ACE] == 5:
        return five_aces(f)
    if f.n_quads > 0:
        return four_of_a_kind(f)
    if f.n_trips >= 2:
        return two_sets(f)
    if f.n_trips == 1 and f.n_pairs >= 1:
        return full_house(f)
    if is_complete(f):
        return complete_hand(f)
    if f.n_trips == 1:
        return three_of_a_kind(f)
    if f.n_pairs >= 3:
        return three_pair(f)
    if f.n_pairs == 2:
        return two_pair(f)
    if f.n_pairs == 1:
        return one_pair(f)
    return no_pair(f)
