"""The Trump Plaza (Atlantic City) house way, as published in its gaming guide (docs/rules.md,
"`trump-plaza`: Trump Plaza, Atlantic City (its gaming guide)").

One small numba function per numbered rule of the guide, each returning ``(setting, rule_id)``
with ``rule_id`` an index into ``RULES``; ``choose(f)`` dispatches on the hand's structure.

Card groups for pairs: low 2-6, medium 7-10, high J-K; aces are their own group. Ranks are
*effective* ranks (``HandFacts``): the joker counts as an ace in pairs and in every ace condition
(joker + ace = a pair of aces, three aces + joker = four aces, four aces + joker = five aces). A
"singleton" is a rank held once (a lone joker is a singleton ace).

Readings chosen where the guide is terse (each is repeated in the rule function it concerns):

- Structure first: five aces (rule 10), then quads (rule 9), two trips (rule 6), full houses and
  trips with two pairs (rule 8), then straights/flushes (rule 7), then the plain rules 5, 4, 3,
  2, 1. A hand with quads or a full house is set by rules 9/8 even if it also holds a straight or
  flush (rule 7 says "with a full house: full-house rule"; three aces + joker are four aces).
- Rule 7 with two pair / three pair / a full house hands the hand to rules 3 / 4 / 8, and the
  rule reported is the one of those rules that set it.
- Rule 7, no pair: among settings whose back is a straight or better, the highest front (then the
  strongest back); this plays a lower straight or flush when that frees higher cards.
- Rule 7, one pair: the pair goes in front when some setting with it in front keeps a straight
  or better in back; otherwise the straight/flush is still kept in back, with the highest front
  that allows (not the one-pair rule). Rule 7, three of a kind: the same, with a pair from the
  trips; that pair can fail to keep a straight/flush only for two aces + joker when the joker is
  needed as a straight or flush card, and then the straight/flush is kept likewise.
- Rule 8: "an ace and a king can go in front" means a singleton ace (or lone joker) and a
  singleton king, so that the full house stays whole in back.
- Rule 9: "quads plus a pair: the pair in front" and "quads plus trips: a pair from the trips in
  front" hold for every rank of quads, aces included. "A king or better" / "an ace" that can go
  in front are singletons (the joker as an ace).
"""

from __future__ import annotations

from numba import njit

from enumerate.houseways.facts import (
    ACE,
    JACK,
    KING,
    NONE,
    SEVEN,
    SIX,
    STRAIGHT,
    TEN,
    TWO,
    by_front_ranks,
    highest_front,
    is_complete,
    two_highest_singles,
)

RULES = (
    "1. no pair: highest card in back, next two highest in front",
    "2. one pair: pair in back, two highest other cards in front",
    "3. two pair low+low: kept together, king or ace singleton",
    "3. two pair low+medium: kept together, king or ace singleton",
    "3. two pair low+high: kept together, ace singleton",
    "3. two pair medium+medium: kept together, ace singleton",
    "3. two pair: split, no singleton to keep them together",
    "3. two pair medium+high or high+high: always split",
    "3. two pair with aces: always split",
    "4. three pair: highest pair in front",
    "5. three of a kind: kept in back, two highest singletons in front",
    "5. three aces: pair of aces in back, ace and highest singleton in front",
    "6. two three-of-a-kinds: a pair from the higher one in front",
    "7. straight/flush, no pair: highest two cards in front",
    "7. straight/flush, one pair: pair in front, straight/flush in back",
    "7. straight/flush, one pair: pair can't go in front, straight/flush kept, highest front",
    "7. straight/flush, three of a kind: a pair from it in front, straight/flush in back",
    "7. straight/flush, three aces with joker: no pair can go in front, straight/flush kept",
    "8. full house: split, pair in front, trips in back",
    "8. full house, pair of twos with ace and king: kept, ace-king in front",
    "8. trips with two pairs: higher pair in front",
    "9. quads 2-6: kept, two highest other cards in front",
    "9. quads 7-10: split",
    "9. quads 7-10: kept, king or better in front",
    "9. quads J-K: split",
    "9. quads J-K: kept, ace in front",
    "9. quads of aces: split",
    "9. quads plus a pair: pair in front",
    "9. quads plus trips: a pair from the trips in front",
    "10. five aces: two aces in front",
    "10. five aces with a pair of kings: kings in front",
)

(
    R_NO_PAIR,
    R_ONE_PAIR,
    R_2P_LOW_LOW_KEPT,
    R_2P_LOW_MED_KEPT,
    R_2P_LOW_HIGH_KEPT,
    R_2P_MED_MED_KEPT,
    R_2P_SPLIT,
    R_2P_ALWAYS_SPLIT,
    R_2P_ACES_SPLIT,
    R_THREE_PAIR,
    R_TRIPS,
    R_TRIP_ACES,
    R_TWO_TRIPS,
    R_SF_NO_PAIR,
    R_SF_PAIR_FRONT,
    R_SF_PAIR_KEPT_BACK,
    R_SF_TRIPS_PAIR_FRONT,
    R_SF_TRIPS_KEPT_BACK,
    R_FULL_HOUSE_SPLIT,
    R_FULL_HOUSE_TWOS_AK,
    R_TRIPS_TWO_PAIRS,
    R_QUADS_LOW_KEPT,
    R_QUADS_MED_SPLIT,
    R_QUADS_MED_KEPT,
    R_QUADS_HIGH_SPLIT,
    R_QUADS_HIGH_KEPT,
    R_QUADS_ACES_SPLIT,
    R_QUADS_PAIR,
    R_QUADS_TRIPS,
    R_FIVE_ACES,
    R_FIVE_ACES_KINGS,
) = range(len(RULES))

# pair groups
LOW, MEDIUM, HIGH, ACES = 0, 1, 2, 3


@njit(cache=True)
def pair_group(r):
    """Group of a pair's rank: low 2-6, medium 7-10, high J-K, aces."""
    if r <= SIX:
        return LOW
    if r <= TEN:
        return MEDIUM
    if r < ACE:
        return HIGH
    return ACES


@njit(cache=True)
def singleton(f, r):
    """The hand holds rank ``r`` exactly once (a lone joker is a singleton ace)."""
    return f.counts[r] == 1


@njit(cache=True)
def complete_backs(f):
    """Settings whose back is a straight, flush or straight flush (or better)."""
    return f.cat >= STRAIGHT


@njit(cache=True)
def pair_front_complete_back(f, p):
    """The valid setting with a pair of rank ``p`` in front and a straight or better in back,
    strongest back first; ``NONE`` if there is none."""
    best = NONE
    for s in range(21):
        ok = f.valid[s] and f.cat[s] >= STRAIGHT and f.front_hi[s] == p and f.front_lo[s] == p
        if ok and (best == NONE or f.high[s] > f.high[best]):
            best = s
    return best


@njit(cache=True)
def no_pair(f):
    """Rule 1. No pair: the highest card stays in back, the next two highest go in front."""
    return by_front_ranks(f, f.singles[1], f.singles[2]), R_NO_PAIR


@njit(cache=True)
def one_pair(f):
    """Rule 2. One pair: the pair in back, the two highest other cards in front."""
    return two_highest_singles(f), R_ONE_PAIR


@njit(cache=True)
def two_pair(f):
    """Rule 3. Two pair: split (lower pair in front, higher pair in back), except

    - low+low and low+medium: both pairs in back when holding a king or ace singleton;
    - low+high and medium+medium: both pairs in back when holding an ace singleton;
    - medium+high, high+high, and aces with any pair: always split.

    Kept together, the two highest singletons go in front. The joker is an ace: joker + ace is a
    pair of aces, a lone joker a singleton ace.
    """
    hi, lo = f.pairs[0], f.pairs[1]
    split = by_front_ranks(f, lo, lo)
    g_hi, g_lo = pair_group(hi), pair_group(lo)
    if g_hi == ACES:
        return split, R_2P_ACES_SPLIT
    ace = singleton(f, ACE)
    king_or_ace = ace or singleton(f, KING)
    if g_hi == LOW:  # low+low
        if king_or_ace:
            return two_highest_singles(f), R_2P_LOW_LOW_KEPT
        return split, R_2P_SPLIT
    if g_hi == MEDIUM:
        if g_lo == LOW:  # low+medium
            if king_or_ace:
                return two_highest_singles(f), R_2P_LOW_MED_KEPT
            return split, R_2P_SPLIT
        if ace:  # medium+medium
            return two_highest_singles(f), R_2P_MED_MED_KEPT
        return split, R_2P_SPLIT
    # the high pair is J-K
    if g_lo == LOW:  # low+high
        if ace:
            return two_highest_singles(f), R_2P_LOW_HIGH_KEPT
        return split, R_2P_SPLIT
    return split, R_2P_ALWAYS_SPLIT  # medium+high, high+high


@njit(cache=True)
def three_pair(f):
    """Rule 4. Three pair: the highest pair in front."""
    p = f.pairs[0]
    return by_front_ranks(f, p, p), R_THREE_PAIR


@njit(cache=True)
def three_of_a_kind(f):
    """Rule 5. Three of a kind: kept in back with the two highest singletons in front; except
    three aces (the joker may be one of them): a pair of aces in back, one ace plus the highest
    singleton in front."""
    if f.trips[0] == ACE:
        return by_front_ranks(f, ACE, f.singles[0]), R_TRIP_ACES
    return two_highest_singles(f), R_TRIPS


@njit(cache=True)
def two_trips(f):
    """Rule 6. Two three-of-a-kinds: a pair from the higher one in front."""
    t = f.trips[0]
    return by_front_ranks(f, t, t), R_TWO_TRIPS


@njit(cache=True)
def complete_hand(f):
    """Rule 7. Straights, flushes, straight flushes, royal flush:

    - no pair: among the straight / flush / straight flush settings, the one that lets the
      highest two cards go in front (a 6th or 7th card in sequence or suit lets a lower straight
      or flush free the highest cards): the highest front keeping a straight or better in back;
    - one pair: the pair goes in front only if a straight or flush can still be played in back.
      Reading: when it cannot, the straight or flush is still kept in back and the highest
      cards it leaves go in front (the one-pair rule is not used);
    - two pair: the two-pair rule (3); three pair: the three-pair rule (4);
    - three of a kind: a pair from it goes in front, keeping the straight/flush in back. Reading:
      this fails only for two aces + joker when the joker is needed as a straight or flush card;
      then, as with one pair, the straight/flush is kept with the highest front it allows;
    - full house: the full-house rule (8; dispatched before this rule by ``choose``).
    """
    if f.n_pairs >= 3:
        return three_pair(f)
    if f.n_pairs == 2:
        return two_pair(f)
    if f.n_pairs == 1:
        s = pair_front_complete_back(f, f.pairs[0])
        if s != NONE:
            return s, R_SF_PAIR_FRONT
        return highest_front(f, complete_backs(f)), R_SF_PAIR_KEPT_BACK
    if f.n_trips == 1:
        s = pair_front_complete_back(f, f.trips[0])
        if s != NONE:
            return s, R_SF_TRIPS_PAIR_FRONT
        return highest_front(f, complete_backs(f)), R_SF_TRIPS_KEPT_BACK
    return highest_front(f, complete_backs(f)), R_SF_NO_PAIR


@njit(cache=True)
def full_house(f):
    """Rule 8. Full house: split (the pair in front, the trips in back) unless the pair is twos
    and an ace and a king can go in front (reading: a singleton ace, or lone joker, and a
    singleton king; the full house then stays in back). Trips with two pairs: the higher pair
    in front. (Two trips: rule 6, dispatched by ``choose``.)"""
    if f.n_pairs >= 2:
        p = f.pairs[0]
        return by_front_ranks(f, p, p), R_TRIPS_TWO_PAIRS
    p = f.pairs[0]
    if p == TWO and singleton(f, ACE) and singleton(f, KING):
        return by_front_ranks(f, ACE, KING), R_FULL_HOUSE_TWOS_AK
    return by_front_ranks(f, p, p), R_FULL_HOUSE_SPLIT


@njit(cache=True)
def four_of_a_kind(f):
    """Rule 9. Four of a kind: 2-6 keep together; 7-10 split unless a king or better can go in
    front; J-K split unless an ace can go in front; aces always split. With quads plus a pair:
    the pair in front. Quads plus trips: a pair from the trips in front. When kept together,
    the two highest other cards go in front; when split, two of the quads go in front.

    Readings: the pair and trips cases hold for every rank of quads (aces too); the king or ace
    that "can go in front" is a singleton (the joker counts as an ace); three aces + joker are
    four aces.
    """
    q = f.quads[0]
    if f.n_trips == 1:
        t = f.trips[0]
        return by_front_ranks(f, t, t), R_QUADS_TRIPS
    if f.n_pairs == 1:
        p = f.pairs[0]
        return by_front_ranks(f, p, p), R_QUADS_PAIR
    split = by_front_ranks(f, q, q)
    if q == ACE:
        return split, R_QUADS_ACES_SPLIT
    if q >= JACK:
        if singleton(f, ACE):
            return two_highest_singles(f), R_QUADS_HIGH_KEPT
        return split, R_QUADS_HIGH_SPLIT
    if q >= SEVEN:
        if singleton(f, ACE) or singleton(f, KING):
            return two_highest_singles(f), R_QUADS_MED_KEPT
        return split, R_QUADS_MED_SPLIT
    return two_highest_singles(f), R_QUADS_LOW_KEPT


@njit(cache=True)
def five_aces(f):
    """Rule 10. Five aces (four aces + joker): three aces in back and two in front, unless the
    hand holds a pair of kings: then the kings go in front."""
    if f.counts[KING] == 2:
        return by_front_ranks(f, KING, KING), R_FIVE_ACES_KINGS
    return by_front_ranks(f, ACE, ACE), R_FIVE_ACES


@njit(cache=True)
def choose(f):
    """Set a hand by the Trump Plaza way: ``(setting, rule_id)``."""
    if f.counts[ACE] == 5:
        return five_aces(f)
    if f.n_quads > 0:
        return four_of_a_kind(f)
    if f.n_trips >= 2:
        return two_trips(f)
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
