"""The reference house way, ``gli``: the dealer's way from the dealer-open game's math report.

The dealer classifies the hand by the best five-card hand its seven cards can make
(``HandFacts.best_cat``) and applies one numbered rule of the card (docs/rules.md, "`gli`: the
reference way (from the dealer-open math report)"); each rule is a numba function below, named after
its rule and paraphrasing the casino's wording in its docstring, returning ``(setting, rule_id)``
where ``rule_id`` indexes ``RULES``. "Front" is the two-card low hand, "back" the five-card high
hand.

Ranks are *effective* ranks (``HandFacts``): the joker counts as an ace in pairs and in every
"ace" condition (joker + ace = a pair of aces, three aces + joker = four aces, four aces + joker
= five aces, a lone joker is a singleton ace). "Singleton" means a rank held once. Where several
settings put the same ranks in front, the primitives keep the strongest back (so a joker left in
back still completes a straight or flush when it can).

Readings of the terse text (each is also in the docstring of its rule and tested):

- Rule 1: only a pair of kings goes in front; with another pair (say queens) two aces go in
  front and three aces stay in back with that pair.
- Rule 2: "split the quads" puts two cards of the quads' rank in front.
- Rule 3: two trips and trips with two pairs come first, as written.
- Rule 5: the three split conditions are tried in the order of the card, and the rule name
  reports the first that holds.
- Rule 8: "holds four of a kind / a full house" is read on effective ranks (with seven cards a
  straight or flush beside quads or a full house needs the joker as an ace). Such hands, and
  the two-pair hands the card sends to rule 5, are set wholly by rule 2, 3 or 5, even when that
  breaks the straight or flush, and report that rule's branch. A straight or flush with trips
  or with one pair is set by 8a-8e. "Highest front hand" is the two-card ranking (pairs first),
  ties going to the strongest back; "king-high or better" is a front whose higher card is a
  king or an ace (the joker), or any pair; likewise jack-high.

Named readings. Where the words can be read more than one way the clause is a ``Clause`` of
``CLAUSES`` with its alternatives; a reading picks one alternative per clause and is a way of
its own, ``get_way("gli[two-pair=or]")`` (``enumerate.houseways.registry.get_way``). ``LITERAL`` is
the reading of the words as they stand; plain ``gli`` reads ``DEFAULT``: the literal reading
but for rule 5's first split clause, read ``high-sevens`` (why: ``DEFAULT`` and docs/rules.md,
"The gli card"; ``LITERAL_NAME`` spells the literal reading in full, and its canonical name is
``gli[two-pair=and]``).
Each alternative is a small numba function below. A reading is a run-time argument, not a
compiled variant: ``reading_params(reading)`` encodes it as a small int64 array ``p``, one entry
per clause of ``CLAUSES`` (the index of the chosen alternative in ``clause.names``), and
``choose_read(f, p)`` sets a hand by that reading, the rules that hold a clause calling a small
dispatcher (``_pair_beside_quads(f, p)`` and the like) that picks the alternative. So every
reading shares one compiled ``choose_read``, cached on disk by numba, and one compiled kernel
of ``enumerate.houseways.apply.apply_way`` per process: a new reading compiles nothing.
``choose(f)`` is ``choose_read(f, p)`` with the ``DEFAULT`` reading's ``p``.

- ``quads-pair-from-trips`` (rule 2, "a pair ... if there is one", with three of a kind beside
  the quads):
  ``yes``: a pair may be taken from the trips (four kings and three nines hold a pair of nines;
  literal reading, the default); ``no``: only a rank held exactly twice is a pair.
- ``full-house-twos`` (rule 3, "a pair of twos"):
  ``only-pair``: the full house's pair is twos, the hand's only pair (literal reading, the
  default); ``any-twos``: twos as the pair or as the trips (twos full of fives too).
- ``full-house-king`` (rule 3, "a king-or-better singleton" beside the twos):
  ``joker``: a singleton king or ace, the joker counting as an ace (literal reading, the
  default); ``natural``: a natural king or ace only.
- ``two-pair`` (rule 5's first split condition, "both pairs are sevens or better and there is
  no singleton ace"):
  ``and``: the low pair sevens or better and no singleton ace (literal reading); ``or``: the
  low pair sevens or better, or no singleton ace; ``high-sevens``: the high pair sevens or
  better and no singleton ace (the default: see ``DEFAULT``); ``high-sevens-or-both``: as
  ``high-sevens``, or both pairs sevens or better even with a singleton ace. (Exact
  dealer-open edges, best response: -0.0774%, 2.0706%, 1.8391% and 1.8103%, against the
  report's 1.82%.)
- ``complete-two-pair`` (rule 8, "two pair together with any ace"):
  ``any-ace``: an ace or the joker anywhere, a pair of aces included (literal reading, the
  default); ``singleton-ace``: a singleton ace only (a pair of aces then defers only by the
  jacks-and-sixes test).
- ``complete-pairs`` (rule 8, "two pair with a pair of jacks or better and a pair of sixes or
  better", read on which pairs):
  ``two-highest``: two or three pairs, the highest jacks or better and the second sixes or
  better (literal reading, the default); ``high-and-low``: the highest and the lowest pair
  (they differ with three pairs); ``two-only``: exactly two pairs, so a straight or flush with
  three pairs is set by 8a-8e (neither test of the clause applies to it). With seven cards a
  straight or flush beside three pairs needs the joker, paired with an ace: under ``any-ace``
  such a hand always defers, so ``high-and-low`` differs from ``two-highest`` only beside
  ``singleton-ace``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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
from enumerate.houseways.way import Clause, Reading, resolve_reading, spell_reading

# ---------------------------------------------------------------------------------------------
# The named readings

CLAUSES = (
    Clause(
        "quads-pair-from-trips", "2",
        'four of a kind: "a pair ... if there is one" when three of a kind sit beside the quads',
        (
            ("yes", "a pair may be taken from the trips (four kings, three nines: nines in front)"),
            ("no", "only a rank held exactly twice is a pair; quads with trips hold none"),
        ),
        "yes",
    ),
    Clause(
        "full-house-twos", "3",
        'full house: "a pair of twos" with a king-or-better singleton keeps the full house',
        (
            ("only-pair", "the full house's pair (its only pair) is twos; trips of twos are not"),
            ("any-twos", "the hand holds twos as its pair or as its trips (2-2-2-5-5 too)"),
        ),
        "only-pair",
    ),
    Clause(
        "full-house-king", "3",
        'full house: "a king-or-better singleton" beside the pair of twos',
        (
            ("joker", "a singleton king or ace, the joker counting as an ace"),
            ("natural", "a natural singleton king or ace; the joker does not count"),
        ),
        "joker",
    ),
    Clause(
        "two-pair", "5",
        'two pair: split when "both pairs are sevens or better and there is no singleton ace"',
        (
            ("and", "the low pair is sevens or better and there is no singleton ace"),
            ("or", "the low pair is sevens or better, or there is no singleton ace"),
            ("high-sevens", "the high pair is sevens or better and there is no singleton ace"),
            ("high-sevens-or-both", "as high-sevens, or both pairs sevens or better, ace or not"),
        ),
        "and",
    ),
    Clause(
        "complete-two-pair", "8",
        'straight or flush: "two pair together with any ace" goes to rule 5',
        (
            ("any-ace", "an ace or the joker anywhere in the hand, a pair of aces included"),
            ("singleton-ace", "a singleton ace (or the lone joker); a pair of aces is not one"),
        ),
        "any-ace",
    ),
    Clause(
        "complete-pairs", "8",
        'straight or flush: which pairs "a pair of jacks or better and a pair of sixes or '
        'better" reads',
        (
            ("two-highest", "two or three pairs: the highest jacks+, the second sixes+"),
            ("high-and-low", "two or three pairs: the highest jacks+, the lowest sixes+"),
            ("two-only", "exactly two pairs: three pairs are not two pair, set by 8a-8e"),
        ),
        "two-highest",
    ),
)  # fmt: skip

LITERAL: Mapping[str, str] = {c.id: c.literal for c in CLAUSES}
"""The reading of the card's words as they stand (by name: ``LITERAL_NAME``)."""

DEFAULT: Mapping[str, str] = {**LITERAL, "two-pair": "high-sevens"}
"""The reading plain ``gli`` uses: the literal one, but rule 5's first split condition read
"the HIGH pair is sevens or better and there is no singleton ace" (``high-sevens``).

Why (exact figures, ``analysis.waylab.reconcile``; docs/rules.md, "The gli card"): read with "and"
the card keeps K-K-4-4 together without an ace, which no casino way does; the way then gives the
best-responding player of dealer-open a house edge of -0.0774% against the report's 1.82%, and rule
5's keep branch alone leaves 2.27% of the bet to the player against the house-optimal dealer. Read
with "or" it lands at 2.0706%. ``high-sevens`` keeps two pairs together only when both are sixes or
lower (no ace), or with an ace below the jacks-and-sixes clause, as the Foxwoods and Trump Plaza
cards do for small and middle pairs with an ace, and lands at 1.8391%, 0.019% from the report.
``high-sevens-or-both`` (1.8103%) also splits middle pairs beside an ace, which those cards keep.
The only reading inside the report's rounding adds ``full-house-twos=any-twos`` (1.8241%): 5,010
classes of twos-full hands, a reading no other card supports, so it is not taken on the figure
alone. Other clauses stay literal: none moves the figure by more than 0.03%."""

LITERAL_NAME = f"gli[{spell_reading(tuple(LITERAL.items()))}]"
"""The literal reading by name, spelled in full (``get_way(LITERAL_NAME)``), whatever the
default."""

# clause indices into a reading's params (``reading_params``), in the order of ``CLAUSES``; and
# for each alternative its index in ``clause.names``. numba reads these module constants as
# compile-time constants, so the dispatchers compare ``p[clause]`` against fixed numbers; they
# are int64, like the entries of ``p`` (and so apart from the rule ids, the module's ints)
Q_QUADS_PAIR = np.int64(0)
Q_TWOS = np.int64(1)
Q_KING = np.int64(2)
Q_TWO_PAIR = np.int64(3)
Q_ANY_ACE = np.int64(4)
Q_PAIRS = np.int64(5)

_CLAUSE_INDEX = {
    "quads-pair-from-trips": Q_QUADS_PAIR,
    "full-house-twos": Q_TWOS,
    "full-house-king": Q_KING,
    "two-pair": Q_TWO_PAIR,
    "complete-two-pair": Q_ANY_ACE,
    "complete-pairs": Q_PAIRS,
}
if [c.id for c in CLAUSES] != sorted(_CLAUSE_INDEX, key=_CLAUSE_INDEX.__getitem__):
    raise RuntimeError("gli: the clause indices must follow the order of CLAUSES")


def _alt(clause: np.int64, name: str) -> np.int64:
    """The index of alternative ``name`` among those of clause number ``clause``."""
    return np.int64(CLAUSES[clause].names.index(name))


QUADS_PAIR_YES = _alt(Q_QUADS_PAIR, "yes")
QUADS_PAIR_NO = _alt(Q_QUADS_PAIR, "no")
TWOS_ONLY_PAIR = _alt(Q_TWOS, "only-pair")
TWOS_ANY = _alt(Q_TWOS, "any-twos")
KING_JOKER = _alt(Q_KING, "joker")
KING_NATURAL = _alt(Q_KING, "natural")
TWO_PAIR_AND = _alt(Q_TWO_PAIR, "and")
TWO_PAIR_OR = _alt(Q_TWO_PAIR, "or")
TWO_PAIR_HIGH_SEVENS = _alt(Q_TWO_PAIR, "high-sevens")
TWO_PAIR_HIGH_SEVENS_OR_BOTH = _alt(Q_TWO_PAIR, "high-sevens-or-both")
ANY_ACE_ANY = _alt(Q_ANY_ACE, "any-ace")
ANY_ACE_SINGLETON = _alt(Q_ANY_ACE, "singleton-ace")
PAIRS_TWO_HIGHEST = _alt(Q_PAIRS, "two-highest")
PAIRS_HIGH_AND_LOW = _alt(Q_PAIRS, "high-and-low")
PAIRS_TWO_ONLY = _alt(Q_PAIRS, "two-only")

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

_RULES_AS_WRITTEN = (
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

# the conditions of the rules that hold a named clause, as each alternative reads them
_TWOS_NAMES = {"only-pair": "pair of twos", "any-twos": "twos (pair or trips)"}
_KING_NAMES = {"joker": "a king or better", "natural": "a natural king or better"}
_SEVENS_NAMES = {
    "and": "both pairs sevens or better and no singleton ace",
    "or": "both pairs sevens or better, or no singleton ace",
    "high-sevens": "high pair sevens or better and no singleton ace",
    "high-sevens-or-both": "high pair sevens or better and no singleton ace, or both pairs "
    "sevens or better",
}


def reading(choices: Mapping[str, str] | None = None) -> Reading:
    """The reading taking ``choices`` (clause id -> alternative) and ``DEFAULT`` elsewhere.

    >>> dict(reading({"two-pair": "or"}))["two-pair"]
    'or'
    """
    return resolve_reading(CLAUSES, choices or {}, DEFAULT, "gli")


def reading_params(choices: Mapping[str, str] | None = None) -> np.ndarray:
    """The reading taking ``choices`` (over ``DEFAULT``) as the ``p`` of ``choose_read``: for
    each clause of ``CLAUSES``, in order, the index of its alternative in ``clause.names``.

    >>> reading_params({**LITERAL, "two-pair": "or", "complete-pairs": "two-only"}).tolist()
    [0, 0, 0, 1, 0, 2]
    """
    r = reading(choices)
    return np.array([c.names.index(alt) for c, (_, alt) in zip(CLAUSES, r, strict=True)],
                    dtype=np.int64)  # fmt: skip


def rule_names(choices: Mapping[str, str]) -> tuple[str, ...]:
    """The rule names of the way read by ``choices`` (over ``DEFAULT``), by rule id: the
    card's, with the condition of a rule that holds a named clause spelled as it is read."""
    r = dict(reading(choices))
    names = list(_RULES_AS_WRITTEN)
    names[FULL_TWOS_KEEP] = (
        f"3. full house: {_TWOS_NAMES[r['full-house-twos']]} and "
        f"{_KING_NAMES[r['full-house-king']]}, two highest singletons in front"
    )
    names[TWO_PAIR_SPLIT_SEVENS] = f"5. two pair: split, {_SEVENS_NAMES[r['two-pair']]}"
    return tuple(names)


# ---------------------------------------------------------------------------------------------
# Primitives


@njit(cache=True)
def _pair_front(f, r):
    """The setting with a pair of rank ``r`` in front."""
    return by_front_ranks(f, r, r)


# ---------------------------------------------------------------------------------------------
# The alternatives of each clause: one numba function each, named in ``_ALTERNATIVES``


@njit(cache=True)
def _pair_or_trips(f):
    """quads-pair-from-trips=yes: the highest pair the hand can put in front from a rank held
    twice or three times (a pair taken from three of a kind); ``NONE`` if there is none."""
    return max(f.pairs[0], f.trips[0])  # NONE (-1) when absent


@njit(cache=True)
def _pair_held_twice(f):
    """quads-pair-from-trips=no: the highest rank held exactly twice; ``NONE`` if none."""
    return f.pairs[0]


@njit(cache=True)
def _twos_the_pair(f):
    """full-house-twos=only-pair: the full house's pair is twos."""
    return f.pairs[0] == TWO


@njit(cache=True)
def _twos_pair_or_trips(f):
    """full-house-twos=any-twos: the hand's pair or its trips are twos."""
    return f.pairs[0] == TWO or f.trips[0] == TWO


@njit(cache=True)
def _king_or_better(f):
    """full-house-king=joker: a singleton king or ace (the joker counts as an ace)."""
    return f.singles[0] >= KING


@njit(cache=True)
def _natural_king_or_better(f):
    """full-house-king=natural: a singleton natural king or natural ace."""
    return f.counts[KING] == 1 or (f.counts[ACE] == 1 and not f.joker)


@njit(cache=True)
def _sevens_and(high, low, ace):
    """two-pair=and: the low pair is sevens or better and there is no singleton ace."""
    return low >= SEVEN and not ace


@njit(cache=True)
def _sevens_or(high, low, ace):
    """two-pair=or: the low pair is sevens or better, or there is no singleton ace."""
    return low >= SEVEN or not ace


@njit(cache=True)
def _high_sevens(high, low, ace):
    """two-pair=high-sevens: the high pair is sevens or better and there is no singleton ace."""
    return high >= SEVEN and not ace


@njit(cache=True)
def _high_sevens_or_both(high, low, ace):
    """two-pair=high-sevens-or-both: the high pair is sevens or better and there is no
    singleton ace; or both pairs are sevens or better, with an ace or not."""
    return (high >= SEVEN and not ace) or low >= SEVEN


@njit(cache=True)
def _second_pair(f):
    """complete-pairs=two-highest: with two or three pairs, the second-highest pair (the one
    that must be sixes or better); ``NONE`` with fewer than two pairs."""
    return f.pairs[1]


@njit(cache=True)
def _lowest_pair(f):
    """complete-pairs=high-and-low: with two or three pairs, the lowest pair; ``NONE`` with
    fewer than two pairs."""
    return f.pairs[f.n_pairs - 1] if f.n_pairs >= 2 else NONE


@njit(cache=True)
def _second_of_two_pairs(f):
    """complete-pairs=two-only: with exactly two pairs, the lower; ``NONE`` otherwise (three
    pairs are not "two pair")."""
    return f.pairs[1] if f.n_pairs == 2 else NONE


# ``holds_ace`` (complete-two-pair=any-ace) and ``singleton_ace`` (=singleton-ace): facts.py
_ALTERNATIVES: dict[str, dict[str, Any]] = {
    "quads-pair-from-trips": {"yes": _pair_or_trips, "no": _pair_held_twice},
    "full-house-twos": {"only-pair": _twos_the_pair, "any-twos": _twos_pair_or_trips},
    "full-house-king": {"joker": _king_or_better, "natural": _natural_king_or_better},
    "two-pair": {"and": _sevens_and, "or": _sevens_or, "high-sevens": _high_sevens,
                 "high-sevens-or-both": _high_sevens_or_both},
    "complete-two-pair": {"any-ace": holds_ace, "singleton-ace": singleton_ace},
    "complete-pairs": {"two-highest": _second_pair, "high-and-low": _lowest_pair,
                       "two-only": _second_of_two_pairs},
}  # fmt: skip

_DEFAULT_PARAMS = reading_params(DEFAULT)
"""``p`` of the ``DEFAULT`` reading (a global array: numba freezes it into ``choose``)."""
_DEFAULT_PARAMS.flags.writeable = False


# The dispatchers: each clause's alternative as the reading ``p`` (``reading_params``) picks it


@njit(cache=True)
def _pair_beside_quads(f, p):
    """Rule 2's pair beside the quads, read by ``quads-pair-from-trips``."""
    if p[Q_QUADS_PAIR] == QUADS_PAIR_NO:
        return _pair_held_twice(f)
    return _pair_or_trips(f)


@njit(cache=True)
def _twos_of_full_house(f, p):
    """Rule 3's "a pair of twos", read by ``full-house-twos``."""
    if p[Q_TWOS] == TWOS_ANY:
        return _twos_pair_or_trips(f)
    return _twos_the_pair(f)


@njit(cache=True)
def _king_of_full_house(f, p):
    """Rule 3's "king-or-better singleton", read by ``full-house-king``."""
    if p[Q_KING] == KING_NATURAL:
        return _natural_king_or_better(f)
    return _king_or_better(f)


@njit(cache=True)
def _split_sevens(p, high, low, ace):
    """Rule 5's first split condition, read by ``two-pair``."""
    a = p[Q_TWO_PAIR]
    if a == TWO_PAIR_OR:
        return _sevens_or(high, low, ace)
    if a == TWO_PAIR_HIGH_SEVENS:
        return _high_sevens(high, low, ace)
    if a == TWO_PAIR_HIGH_SEVENS_OR_BOTH:
        return _high_sevens_or_both(high, low, ace)
    return _sevens_and(high, low, ace)


@njit(cache=True)
def _any_ace(f, p):
    """Rule 8's "any ace" beside two pair, read by ``complete-two-pair``."""
    if p[Q_ANY_ACE] == ANY_ACE_SINGLETON:
        return singleton_ace(f)
    return holds_ace(f)


@njit(cache=True)
def _sixes_pair(f, p):
    """Rule 8's pair that must be sixes or better, read by ``complete-pairs``: ``NONE`` when
    the hand is not "two pair" in that reading."""
    a = p[Q_PAIRS]
    if a == PAIRS_HIGH_AND_LOW:
        return _lowest_pair(f)
    if a == PAIRS_TWO_ONLY:
        return _second_of_two_pairs(f)
    return _second_pair(f)


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
    """Four twos to sixes: any pair goes in front; else the two highest singletons.

    Beside three of a kind read as no pair (quads-pair-from-trips=no) there are no singletons:
    the two highest other cards, two of the trips, go in front."""
    if pair != NONE:
        return _pair_front(f, pair), FOUR_LOW_PAIR
    if f.n_singles < 2:
        return _pair_front(f, f.trips[0]), FOUR_LOW_SINGLES
    return two_highest_singles(f), FOUR_LOW_SINGLES


@njit(cache=True)
def four_of_a_kind(f, p):
    """Four of a kind, by the rank of the quads:

    - aces: a pair of sevens or better goes in front if there is one; otherwise two aces;
    - jacks to kings: a pair of tens or better in front if there is one; otherwise split the
      quads, two in front;
    - sevens to tens: any pair in front; else, with a singleton ace, the two highest singletons;
      else split the quads;
    - twos to sixes: any pair in front; else the two highest singletons.

    Reading ``quads-pair-from-trips``: whether "a pair, if there is one" includes a pair taken
    from three of a kind held beside the quads (``yes``: four kings and three nines hold a pair
    of nines, four aces and three eights put two eights in front; ``no``: they hold no pair)."""
    quads = f.quads[0]
    pair = _pair_beside_quads(f, p)
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
def full_house(f, p):
    """Full house: with two three-of-a-kinds, a pair from the higher one goes in front (the
    lower trips stay in back). With trips and two pairs, the higher pair goes in front (the full
    house stays in back). With a pair of twos and a king-or-better singleton, keep the full house
    and put the two highest singletons in front. Otherwise the pair goes in front, the trips in
    back.

    Readings ``full-house-twos``: "a pair of twos" is the full house's only pair (``only-pair``:
    trips of twos with another pair put that pair in front) or twos as the pair or the trips
    (``any-twos``); ``full-house-king``: the king-or-better singleton may be the joker, an ace
    (``joker``), or must be a natural king or ace (``natural``)."""
    if f.n_trips >= 2:
        return _pair_front(f, f.trips[0]), FULL_TWO_TRIPS
    if f.n_pairs >= 2:
        return _pair_front(f, f.pairs[0]), FULL_TWO_PAIRS
    if _twos_of_full_house(f, p) and f.n_singles >= 2 and _king_of_full_house(f, p):
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
def two_pair(f, p):
    """Two pair (and three pair): with three pairs, the highest pair goes in front. Otherwise
    split (low pair in front) when any of these holds: both pairs are sevens or better and there
    is no singleton ace; the high pair is jacks or better, the low pair sixes or better, and
    there is a singleton ace; the high pair is aces. Otherwise keep both pairs in back and put
    the two highest singletons in front.

    Reading ``two-pair``, the first condition: ``and``, the low pair sevens or better and no
    singleton ace; ``or``, the low pair sevens or better, or no singleton ace; ``high-sevens``,
    the high pair sevens or better and no singleton ace; ``high-sevens-or-both``, that or both
    pairs sevens or better. A singleton ace may be the joker; a joker with an ace is a pair of
    aces. The rule name reports the first split condition that holds, in the card's order."""
    if f.n_pairs >= 3:
        return _pair_front(f, f.pairs[0]), THREE_PAIR
    high, low = f.pairs[0], f.pairs[1]
    ace = singleton_ace(f)
    if _split_sevens(p, high, low, ace):
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
def _holds_full_house(f):
    """Rule 8's "a full house" beside the straight or flush (effective ranks: two trips, or
    trips and a pair); ``complete_hand`` and ``clauses_read`` both defer on it."""
    return f.n_trips >= 2 or (f.n_trips == 1 and f.n_pairs >= 1)


@njit(cache=True)
def complete_hand(f, p):
    """Straights, flushes, straight flushes, royal flushes: if the hand also holds four of a
    kind, use rule 2; a full house, rule 3; two pair with a pair of jacks or better and a pair of
    sixes or better, or two pair together with any ace, rule 5. Otherwise choose the front among
    the settings whose back is still a straight or better, by the first of these that exists:
    (a) the highest front that is king-high or better, keeping a straight or flush in back;
    (b) the highest front keeping a royal flush in back; (c) the highest front that is
    jack-high or better, keeping a straight or flush in back; (d) the highest front keeping a
    straight flush in back; (e) the highest front keeping a straight or flush in back.

    Readings: quads and full houses are read on effective ranks (trips and a pair, or two trips;
    the joker as an ace). ``complete-pairs``, the pairs "two pair with a pair of jacks or better
    and a pair of sixes or better" reads: ``two-highest``, two or three pairs, the two highest;
    ``high-and-low``, the highest and the lowest; ``two-only``, exactly two pairs.
    ``complete-two-pair``, "any ace": ``any-ace``, an ace or the joker anywhere in the hand, a
    pair of aces included; ``singleton-ace``, a singleton ace. A deferred hand is set wholly by
    rule 2, 3 or 5, even if that breaks the straight or flush. "Straight or flush in back" means
    a back of category straight, flush, straight flush or royal flush; a king-high (jack-high)
    or better front has a king (jack) or better as its higher card, or is a pair."""
    if f.n_quads > 0:
        return four_of_a_kind(f, p)
    if _holds_full_house(f):
        return full_house(f, p)
    sixes = _sixes_pair(f, p)  # NONE: not "two pair" in this rule
    if sixes != NONE and ((f.pairs[0] >= JACK and sixes >= SIX) or _any_ace(f, p)):
        return two_pair(f, p)
    return _complete_front(f)


# ---------------------------------------------------------------------------------------------
# The way


@njit(cache=True)
def choose_read(f, p):
    """Set a hand by the reading ``p`` (``reading_params``): classify it by its best five-card
    category and apply that rule."""
    c = f.best_cat
    if c == FIVE_ACES:
        return five_aces(f)
    if c == QUADS:
        return four_of_a_kind(f, p)
    if c == FULL_HOUSE:
        return full_house(f, p)
    if _is_complete(c):
        return complete_hand(f, p)
    if c == TRIPS:
        return three_of_a_kind(f)
    if c == TWO_PAIR:
        return two_pair(f, p)
    if c == PAIR:
        return one_pair(f)
    return no_pair(f)


# the clauses a rule reads, as bits (bit q: the clause of index q): what ``clauses_read`` says
READS_QUADS = np.int64(1 << Q_QUADS_PAIR)  # rule 2, ``_pair_beside_quads``
READS_FULL_HOUSE = np.int64(1 << Q_TWOS | 1 << Q_KING)  # rule 3, the pair of twos and the king
READS_TWO_PAIR = np.int64(1 << Q_TWO_PAIR)  # rule 5, ``_split_sevens``
# rule 8 with two pairs or more and neither four of a kind nor a full house: ``_sixes_pair``,
# ``_any_ace`` and rule 5
READS_COMPLETE = np.int64(1 << Q_PAIRS | 1 << Q_ANY_ACE) | READS_TWO_PAIR


@njit(cache=True)
def clauses_read(f):
    """The clauses ``choose_read`` may read to set this hand, as bits (``READS_*``; 0: none).
    Five aces, three of a kind, one pair and no pair go to rules that hold no clause; four of
    a kind reads whether a pair may come from trips; a full house the pair of twos and the
    king; two pair its split condition; a straight or flush what the rule it defers to reads
    (four of a kind, a full house), or with two pairs or more its pairs, its ace and rule 5,
    and with fewer none (no reading of ``complete-pairs`` sees two pair there). So two
    readings that agree on these clauses set the hand alike (the batch of readings of
    ``base.apply_ways`` sets it once for them)."""
    c = f.best_cat
    if c == QUADS:
        return READS_QUADS
    if c == FULL_HOUSE:
        return READS_FULL_HOUSE
    if c == TWO_PAIR:
        return READS_TWO_PAIR
    if _is_complete(c):
        # the order of complete_hand's deferrals
        if f.n_quads > 0:
            return READS_QUADS
        if _holds_full_house(f):
            return READS_FULL_HOUSE
        if f.n_pairs >= 2:
            return READS_COMPLETE
        # not two pair in any reading of complete-pairs: _complete_front, which reads none
    return np.int64(0)


@njit(cache=True)
def choose(f):
    """Set a hand by the ``DEFAULT`` reading (``choose_read``)."""
    return choose_read(f, _DEFAULT_PARAMS)


RULES = rule_names(DEFAULT)
"""The rule names of plain ``gli`` (the ``DEFAULT`` reading), by rule id."""


def parts(
    choices: Mapping[str, str],
) -> tuple[tuple[str, ...], Callable[..., Any], tuple[int, ...]]:
    """``(rule names, choose_read, params)`` of the way read by ``choices`` (clause id ->
    alternative, over ``DEFAULT``): the ``build`` of the registered ``HouseWay``. Every reading
    shares ``choose_read``; its ``params`` (``reading_params``) pick the alternatives at run
    time, so a new reading compiles nothing."""
    return rule_names(choices), choose_read, tuple(reading_params(choices).tolist())
