"""Named readings of the ``gli`` card: ``get_way("gli[clause=alternative,...]")``.

The cases run on the card (``data/ways/gli.toml``, the registered way); the tests of the
machinery that sets many readings of a numba module way at once run on the reference module
(``tests/reference_ways/gli.py``), which also names each case's expected rule.

Every expected front below is derived by hand from the wording of the alternative (and of the card,
docs/rules.md "`gli`: the reference way (from the dealer-open math report)"), not from running the
code: the comment of each case says why. Each way is the LITERAL reading with the case's choices, so
the cases hold whatever ``gli.DEFAULT`` is. Fronts are effective ranks, higher first (the joker is
an ace).
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from analysis.cli.main import main
from enumerate.cache import read_provenance
from enumerate.evaluate import five_card_table
from enumerate.houseways import (
    FALLBACK,
    HouseWay,
    apply_way,
    get_way,
    readings_of,
    register,
    registered_ways,
    set_one_hand,
)
from enumerate.houseways import apply as way_base
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.waytables import way_cache_path, way_table
from tests.reference_ways import cached, gli, reference_way

SMALL = Deck.parse("TJQKA:cdh+joker")  # 16 cards
TEST_DECK = Deck.parse("9TJQKA:cdhs+joker")  # the whole deck of tests/test_way_gli.py

CLAUSE = {c.id: c for c in gli.CLAUSES}

# (clause, other choices, hand, {alternative: (front, rule id)}): with no other choices, every
# alternative of the clause
CASES = [
    # --- rule 2, "a pair ... if there is one" beside three of a kind
    # four kings, three tens: "yes" takes a pair of tens from the trips (tens or better go in
    # front); "no": no pair, so the quads are split
    ("quads-pair-from-trips", {}, "Kc Kd Kh Ks Tc Td Th",
     {"yes": ("TT", gli.FOUR_HIGH_PAIR), "no": ("KK", gli.FOUR_HIGH_SPLIT)}),
    # four sevens, three fives: "yes": any pair, fives in front; "no": no pair and no singleton
    # ace, split the sevens
    ("quads-pair-from-trips", {}, "7c 7d 7h 7s 5c 5d 5h",
     {"yes": ("55", gli.FOUR_MID_PAIR), "no": ("77", gli.FOUR_MID_SPLIT)}),
    # four aces, three eights: eights are sevens or better ("yes"); "no": two aces in front
    ("quads-pair-from-trips", {}, "As Ah Ad Ac 8s 8h 8d",
     {"yes": ("88", gli.FOUR_ACES_PAIR), "no": ("AA", gli.FOUR_ACES_SPLIT)}),
    # four threes, three aces: "yes": the pair of aces; "no": no pair, the two highest other
    # cards (there are no singletons) are two aces all the same, under the singletons rule
    ("quads-pair-from-trips", {}, "3c 3d 3h 3s Ac Ad Ah",
     {"yes": ("AA", gli.FOUR_LOW_PAIR), "no": ("AA", gli.FOUR_LOW_SINGLES)}),
    # a real pair of queens beside four kings: both readings put it in front
    ("quads-pair-from-trips", {}, "Kc Kd Kh Ks Qc Qd 2h",
     {"yes": ("QQ", gli.FOUR_HIGH_PAIR), "no": ("QQ", gli.FOUR_HIGH_PAIR)}),
    # --- rule 3, "a pair of twos"
    # twos full of fives with A and K: "only-pair": the pair is fives, not twos, so the fives
    # go in front; "any-twos": the hand holds twos (as trips) and a king or better: keep the
    # full house, A-K in front
    ("full-house-twos", {}, "2c 2d 2h 5c 5d Ah Ks",
     {"only-pair": ("55", gli.FULL_PAIR_FRONT), "any-twos": ("AK", gli.FULL_TWOS_KEEP)}),
    # nines full of twos with an ace: twos are the pair under both readings: A-5 in front
    ("full-house-twos", {}, "9c 9d 9h 2c 2d Ah 5s",
     {"only-pair": ("A5", gli.FULL_TWOS_KEEP), "any-twos": ("A5", gli.FULL_TWOS_KEEP)}),
    # twos full of fives with Q-9: no king or better, the pair goes in front either way
    ("full-house-twos", {}, "2c 2d 2h 5c 5d Qh 9s",
     {"only-pair": ("55", gli.FULL_PAIR_FRONT), "any-twos": ("55", gli.FULL_PAIR_FRONT)}),
    # --- rule 3, the "king-or-better singleton"
    # nines full of twos, the joker and a five: "joker": the joker is a singleton ace, keep the
    # full house, joker (ace) and five in front; "natural": no natural king or ace, the twos
    # go in front
    ("full-house-king", {}, "9c 9d 9h 2c 2d Jk 5s",
     {"joker": ("A5", gli.FULL_TWOS_KEEP), "natural": ("22", gli.FULL_PAIR_FRONT)}),
    # a natural king beside the joker: both keep the full house, joker and king in front
    ("full-house-king", {}, "9c 9d 9h 2c 2d Jk Ks",
     {"joker": ("AK", gli.FULL_TWOS_KEEP), "natural": ("AK", gli.FULL_TWOS_KEEP)}),
    # a natural ace: both keep the full house
    ("full-house-king", {}, "9c 9d 9h 2c 2d Ah 5s",
     {"joker": ("A5", gli.FULL_TWOS_KEEP), "natural": ("A5", gli.FULL_TWOS_KEEP)}),
    # --- rule 5's first split condition (the other two: jacks/sixes with an ace; aces)
    # kings and fours, no ace: "and": fours are below sevens, keep, Q-9 in front; "or": no
    # singleton ace, split; "high-sevens" and "high-sevens-or-both": kings are sevens or
    # better and there is no ace, split
    ("two-pair", {}, "Kc Kd 4h 4s Qc 9d 2h",
     {"and": ("Q9", gli.TWO_PAIR_KEEP), "or": ("44", gli.TWO_PAIR_SPLIT_SEVENS),
      "high-sevens": ("44", gli.TWO_PAIR_SPLIT_SEVENS),
      "high-sevens-or-both": ("44", gli.TWO_PAIR_SPLIT_SEVENS)}),
    # sixes and fours, no ace: only "or" splits (no singleton ace); sixes are below sevens for
    # the others, and no other condition holds: K-9 in front
    ("two-pair", {}, "6c 6d 4h 4s Kc 9d 2h",
     {"and": ("K9", gli.TWO_PAIR_KEEP), "or": ("44", gli.TWO_PAIR_SPLIT_SEVENS),
      "high-sevens": ("K9", gli.TWO_PAIR_KEEP), "high-sevens-or-both": ("K9", gli.TWO_PAIR_KEEP)}),
    # tens and eights with an ace: "and" and "high-sevens" need no singleton ace, and tens are
    # below jacks: keep, A-5 in front; "or" (low pair sevens or better) and
    # "high-sevens-or-both" (both pairs sevens or better) split
    ("two-pair", {}, "Tc Td 8h 8s Ac 5d 2h",
     {"and": ("A5", gli.TWO_PAIR_KEEP), "or": ("88", gli.TWO_PAIR_SPLIT_SEVENS),
      "high-sevens": ("A5", gli.TWO_PAIR_KEEP),
      "high-sevens-or-both": ("88", gli.TWO_PAIR_SPLIT_SEVENS)}),
    # queens and eights, no ace: every reading splits
    ("two-pair", {}, "Qc Qd 8h 8s Kc 5d 2h",
     {alt: ("88", gli.TWO_PAIR_SPLIT_SEVENS) for alt in CLAUSE["two-pair"].names}),
    # jacks and sixes with an ace: the first condition fails in every reading (sixes are below
    # sevens and there is an ace), the second splits
    ("two-pair", {}, "Jc Jd 6h 6s Ac 9d 3h",
     {alt: ("66", gli.TWO_PAIR_SPLIT_ACE) for alt in CLAUSE["two-pair"].names}),
    # --- rule 8, "two pair together with any ace"
    # wheel with aces and threes: "any-ace": the aces send it to rule 5, high pair aces: split,
    # threes in front; "singleton-ace": no singleton ace, and threes are below sixes: 8a, the
    # wheel in back leaves an ace and a three in front (ace-high is king-high or better)
    ("complete-two-pair", {}, "Ah Ad 3c 3d 4s 5h 2c",
     {"any-ace": ("33", gli.TWO_PAIR_SPLIT_ACES), "singleton-ace": ("A3", gli.COMPLETE_KING_HIGH)}),
    # wheel with fives, threes and a singleton ace: both send it to rule 5, which keeps both
    # pairs (no condition holds): A-4 in front
    ("complete-two-pair", {}, "Ah 5c 5d 4h 3s 3d 2c",
     {"any-ace": ("A4", gli.TWO_PAIR_KEEP), "singleton-ace": ("A4", gli.TWO_PAIR_KEEP)}),
    # broadway with aces and kings: the pairs pass the jacks/sixes test anyway: rule 5, kings
    # are sevens or better and there is no singleton ace: split, kings in front
    ("complete-two-pair", {}, "Ac Ad Kh Kd Qc Jd Tc",
     {"any-ace": ("KK", gli.TWO_PAIR_SPLIT_SEVENS),
      "singleton-ace": ("KK", gli.TWO_PAIR_SPLIT_SEVENS)}),
    # --- rule 8, which pairs "a pair of jacks or better and a pair of sixes or better" reads
    # joker flush of clubs (2c 3c 6c Ac Jk) with three pairs, aces (ace + joker), sixes, twos.
    # With "any ace" read literally the aces send it to rule 5 (three pair: aces in front)
    # unless "two-only": three pairs are not two pair, so 8a-8e: the flush needs all five
    # clubs, 6-2 in front (no king- or jack-high front, no royal or straight flush): 8e
    ("complete-pairs", {}, "2c 2h 3c 6c 6d Ac Jk",
     {"two-highest": ("AA", gli.THREE_PAIR), "high-and-low": ("AA", gli.THREE_PAIR),
      "two-only": ("62", gli.COMPLETE_ANY)}),
    # the same hand with "any ace" read as a singleton ace (there is none): "two-highest":
    # aces and sixes pass, rule 5; "high-and-low": the lowest pair, twos, is below sixes: 8e
    # ("two-only" is 8e as above: three pairs are not two pair, ace or not)
    ("complete-pairs", {"complete-two-pair": "singleton-ace"}, "2c 2h 3c 6c 6d Ac Jk",
     {"two-highest": ("AA", gli.THREE_PAIR), "high-and-low": ("62", gli.COMPLETE_ANY)}),
    # two pair, jacks and sevens, in a straight: every reading sends it to rule 5, which splits
    ("complete-pairs", {}, "Jh Jd Tc 9s 8h 7d 7c",
     {alt: ("77", gli.TWO_PAIR_SPLIT_SEVENS) for alt in CLAUSE["complete-pairs"].names}),
]  # fmt: skip


def _way(choices: dict[str, str]) -> HouseWay:
    """The card read by the literal reading with ``choices``."""
    return get_way("gli", {**gli.LITERAL, **choices})


def _ref(choices: dict[str, str]) -> HouseWay:
    """The reference module read likewise."""
    return reference_way("gli", {**gli.LITERAL, **choices})


def _front_ranks(setting) -> str:
    ranks = sorted((12 if c.is_joker else c.id >> 2 for c in setting.low), reverse=True)
    return "".join("23456789TJQKA"[r] for r in ranks)


_RUNS = [
    (clause, others, hand, alt, front, rule)
    for clause, others, hand, expected in CASES
    for alt, (front, rule) in expected.items()
]


@pytest.mark.parametrize(
    ("clause", "others", "hand", "alt", "front", "rule"),
    _RUNS,
    ids=[f"{r[0]}={r[3]}-{r[2]}" + ("+" if r[1] else "") for r in _RUNS],
)
def test_reading_cases(clause, others, hand, alt, front, rule) -> None:
    way = _way({**others, clause: alt})
    s = set_one_hand(way, hand)
    name = gli.rule_names({**gli.LITERAL, **others, clause: alt})[rule]
    assert (_front_ranks(s), s.rule) == (front, name)
    assert five_card_table().is_valid(s.high_id, s.low_id)


def test_cases_cover_every_alternative_and_tell_them_apart() -> None:
    for clause in gli.CLAUSES:
        mine = [(others, e) for cid, others, _, e in CASES if cid == clause.id]
        assert mine, clause.id
        assert all(set(e) == set(clause.names) for others, e in mine if not others), clause.id
        assert all(set(e) <= set(clause.names) for _, e in mine), clause.id
        for a, b in itertools.combinations(clause.names, 2):
            assert any(a in e and b in e and e[a] != e[b] for _, e in mine), (clause.id, a, b)


# ---------------------------------------------------------------------------------------------
# The data: clauses, LITERAL, DEFAULT and the implementation of each alternative


def test_clauses_are_complete() -> None:
    ids = [c.id for c in gli.CLAUSES]
    assert len(set(ids)) == len(ids)
    assert {"two-pair", "complete-two-pair", "full-house-twos", "quads-pair-from-trips"} <= set(ids)
    assert set(CLAUSE["two-pair"].names) == {"and", "or", "high-sevens", "high-sevens-or-both"}
    for c in gli.CLAUSES:
        assert c.text and c.rule in "12345678"
        assert all(meaning for _, meaning in c.alternatives)
        assert gli.LITERAL[c.id] == c.literal
        assert set(gli._ALTERNATIVES[c.id]) == set(c.names), c.id
    assert list(gli.LITERAL) == ids and set(gli.DEFAULT) == set(ids)
    # the literal reading: two-pair "and", pairs from trips, the joker as the king, twos as
    # the only pair, any ace, the two highest pairs
    assert gli.LITERAL["two-pair"] == "and"


def test_module_docstring_lists_the_readings() -> None:
    doc = " ".join((gli.__doc__ or "").split())
    for c in gli.CLAUSES:
        assert f"``{c.id}``" in doc
        for alt in c.names:
            assert f"``{alt}``" in doc, (c.id, alt)
    # every clause's default is named as such, and the literal reading of the one that differs
    assert doc.count("the default") >= len(gli.CLAUSES)


def test_default_reading() -> None:
    """The default is the literal reading but for rule 5's first split clause (the evidence is
    in the docstring of ``gli.DEFAULT``); the literal reading stays reachable by name."""
    assert dict(gli.DEFAULT) == {**gli.LITERAL, "two-pair": "high-sevens"}
    assert get_way("gli").reading == tuple(gli.DEFAULT.items())
    assert get_way(gli.LITERAL_NAME).name == "gli[two-pair=and]"
    assert get_way("gli[two-pair=high-sevens]") == get_way("gli")


def test_plain_gli_sets_the_test_deck_as_its_reading() -> None:
    """The whole deck of tests/test_way_gli.py: plain ``gli`` (``choose_read`` with the DEFAULT
    params) against its reading by name, against ``choose(f)`` (the DEFAULT params frozen in,
    by the kernel of ways without params) and against ``choose_read`` with the DEFAULT
    reading's params built by hand; the literal reading by name is the literal params."""
    cards = np.ascontiguousarray(hand_table(TEST_DECK, use_cache=False).cards, dtype=np.int64)
    plain = apply_way(reference_way("gli"), cards)
    frozen = HouseWay("gli-frozen", "1", "test", gli.RULES, gli.choose, gli)

    def by_hand(reading):
        params = tuple(CLAUSE[cid].names.index(alt) for cid, alt in reading.items())
        return HouseWay("gli-params", "1", "test", gli.rule_names(reading), gli.choose_read,
                        gli, params=params)  # fmt: skip

    for other in [reference_way("gli", {"two-pair": "high-sevens"}), by_hand(gli.DEFAULT),
                  frozen]:
        col = apply_way(other, cards)
        for k in ("setting", "rule", "high", "low"):
            assert np.array_equal(getattr(plain, k), getattr(col, k)), (other.name, k)
    literal_ways = (reference_way("gli", gli.LITERAL), by_hand(gli.LITERAL))
    literal, literal_by_hand = (apply_way(w, cards) for w in literal_ways)
    for k in ("setting", "rule", "high", "low"):
        assert np.array_equal(getattr(literal, k), getattr(literal_by_hand, k)), k


def test_readings_are_runtime_params_of_one_kernel() -> None:
    """Every reading is ``choose_read`` with the params of its reading (the index of each
    clause's alternative), and pricing another reading compiles nothing."""
    assert [c.id for c in gli.CLAUSES] == [
        gli.CLAUSES[i].id for i in (gli.Q_QUADS_PAIR, gli.Q_TWOS, gli.Q_KING, gli.Q_TWO_PAIR,
                                    gli.Q_ANY_ACE, gli.Q_PAIRS)
    ]  # fmt: skip
    assert reference_way("gli").params == tuple(gli.reading_params().tolist())
    for i, clause in enumerate(gli.CLAUSES):
        for k, alt in enumerate(clause.names):
            way = _ref({clause.id: alt})
            assert way.choose is gli.choose_read and way.params is not None
            assert way.params[i] == k
            assert way.params == tuple(gli.reading_params({**gli.LITERAL, clause.id: alt}))
    assert CLAUSE["two-pair"].names.index("high-sevens") == gli.TWO_PAIR_HIGH_SEVENS
    assert CLAUSE["complete-pairs"].names.index("two-only") == gli.PAIRS_TWO_ONLY
    # the params are part of a way's equality; the reading (hashed into the key) implies them
    a, b = _ref({"two-pair": "or"}), _ref({"two-pair": "high-sevens"})
    assert a != b and a.params != b.params
    assert a == _ref({"two-pair": "or"}) and hash(a) == hash(_ref({"two-pair": "or"}))
    # one kernel for every reading: after the first, no new compilation
    cards = np.ascontiguousarray(hand_table(SMALL, use_cache=False).cards, dtype=np.int64)
    apply_way(reference_way("gli"), cards)
    compiled = len(cached.set_gli.signatures)
    for reading in ({"two-pair": "or"}, {"quads-pair-from-trips": "no"},
                    {"complete-pairs": "high-and-low", "complete-two-pair": "singleton-ace"}):
        apply_way(reference_way("gli", reading), cards)
    assert len(cached.set_gli.signatures) == compiled


@pytest.mark.parametrize("deck", [SMALL, TEST_DECK])
def test_a_batch_of_readings_sets_as_each_reading_alone(deck: Deck) -> None:
    """``apply_ways`` sets every reading of a batch in one pass and sets a hand once for the
    readings that agree on the clauses ``gli.clauses_read`` says its rule reads (once for all
    when none): each reading's columns equal that
    reading set alone (every alternative of every clause, and pairs of them), on every class
    of two decks with every hand category, the joker and the wheel. And a hand that is
    reading-free is set alike by every reading."""
    cards = np.ascontiguousarray(hand_table(deck, use_cache=False).cards, dtype=np.int64)
    singles = [{c.id: alt} for c in gli.CLAUSES for alt in c.names]
    pairs = [{"two-pair": a, c.id: b} for a in CLAUSE["two-pair"].names
             for c in gli.CLAUSES if c.id != "two-pair" for b in c.names]  # fmt: skip
    ways = list({w.name: w for w in (_ref(ch) for ch in [{}, *singles, *pairs])}.values())
    batch = way_base.apply_ways(ways, cards)
    alone = [apply_way(w, cards) for w in ways]
    for way, together, by_itself in zip(ways, batch, alone, strict=True):
        for k in ("setting", "rule", "high", "low"):
            assert np.array_equal(getattr(together, k), getattr(by_itself, k)), (way.name, k)
    free = _reading_free_rows(cards)
    if deck == TEST_DECK:  # on SMALL every hand is two pair or better, or a straight
        assert 0 < free.sum() < len(cards)
    for by_itself in alone[1:]:
        for k in ("setting", "rule"):
            assert np.array_equal(getattr(by_itself, k)[free], getattr(alone[0], k)[free]), k


def test_a_hand_is_set_alike_by_readings_that_differ_only_in_clauses_it_does_not_read() -> None:
    """``gli.clauses_read`` names every clause a hand's setting depends on: each alternative
    of each clause, set alone, sets every hand whose ``clauses_read`` leaves that clause out as
    the default reading does (on every class of a deck with every category, the joker and the
    wheel, and on random full-deck hands), and it does change some hand that reads it."""
    rng = np.random.default_rng(20261202)
    full = np.sort(rng.random((20_000, 53)).argsort(axis=1)[:, :7], axis=1).astype(np.int64)
    changed = set()  # the clauses whose alternatives set some hand differently
    for cards in (hand_table(TEST_DECK).cards.astype(np.int64), full):
        bits = _clause_bits(cards)
        default = apply_way(_ref({}), cards)
        for q, clause in enumerate(gli.CLAUSES):
            unread = (bits & (1 << q)) == 0
            for alt in clause.names:
                other = apply_way(_ref({clause.id: alt}), cards)
                for k in ("setting", "high", "low"):
                    assert np.array_equal(getattr(other, k)[unread],
                                          getattr(default, k)[unread]), (clause.id, alt, k)
                if not np.array_equal(other.setting, default.setting):
                    changed.add(clause.id)
    assert changed == set(CLAUSE)


def _clause_bits(cards: np.ndarray) -> np.ndarray:
    """``gli.clauses_read`` of every hand."""
    t = five_card_table()
    royal = int(np.flatnonzero(t.category == 8).max())
    return np.array([gli.clauses_read(way_base.hand_facts(row, t.ids, t.max_low, t.category,
                                                          royal)) for row in cards])  # fmt: skip


def _reading_free_rows(cards: np.ndarray) -> np.ndarray:
    """Is every hand set without reading a clause (``gli.clauses_read`` 0)?"""
    return _clause_bits(cards) == 0



def test_readings_never_fall_back_and_change_only_their_rules() -> None:
    """On random hands every reading of the cases gives a valid setting of its own (never the
    fallback), and it sets differently from the literal reading only hands of its rules."""
    rng = np.random.default_rng(20240612)
    cards = np.sort(rng.random((20_000, 53)).argsort(axis=1)[:, :7], axis=1).astype(np.int64)
    literal = _way({})
    base = apply_way(literal, cards)
    rules_of = {"quads-pair-from-trips": "2", "full-house-twos": "3", "full-house-king": "3",
                "two-pair": "5", "complete-two-pair": "58", "complete-pairs": "58"}  # fmt: skip
    for clause, others, _, expected in CASES:
        for alt in expected:
            way = _way({**others, clause: alt})
            col = apply_way(way, cards)
            assert (col.rule < len(way.rules)).all(), way.name
            diff = (col.setting != base.setting) | (col.rule != base.rule)
            if not others:
                allowed = rules_of[clause]
                assert all(literal.rule_names[r][0] in allowed for r in base.rule[diff])
                assert all(way.rule_names[r][0] in allowed for r in col.rule[diff])


# ---------------------------------------------------------------------------------------------
# Names: parsing, canonical spelling, errors


def test_canonical_names() -> None:
    default_two_pair = gli.DEFAULT["two-pair"]
    assert get_way(f"gli[two-pair={default_two_pair}]") is get_way("gli")
    assert get_way("gli[]") is get_way("gli")
    other = next(a for a in CLAUSE["two-pair"].names if a != default_two_pair)
    assert get_way(f"gli[two-pair={other}]").name == f"gli[two-pair={other}]"
    # clauses in the card's order, whatever the order written; spaces ignored; defaults dropped
    way = _way({"complete-two-pair": "singleton-ace", "two-pair": "high-sevens"})
    if gli.DEFAULT == gli.LITERAL:
        assert way.name == "gli[two-pair=high-sevens,complete-two-pair=singleton-ace]"
        written = "gli[ complete-two-pair=singleton-ace , two-pair=high-sevens, complete-pairs=" \
                  "two-highest]"  # fmt: skip
        assert get_way(written) == way
        assert get_way(gli.LITERAL_NAME) is get_way("gli")
    assert get_way(way.name) == way
    assert get_way("gli[two-pair=or]", {"two-pair": "and"}) == _way({"two-pair": "and"})
    # the literal reading, spelled in full, is always reachable
    assert get_way(gli.LITERAL_NAME).reading == tuple(gli.LITERAL.items())
    assert gli.LITERAL_NAME.startswith("gli[quads-pair-from-trips=yes,")


def test_registered_ways_are_base_names() -> None:
    names = [w.name for w in registered_ways()]
    assert "gli" in names and not any("[" in n for n in names)
    with pytest.raises(ValueError, match="no brackets"):
        register(HouseWay("x[y=z]", "1", "test", gli.RULES, gli.choose))


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("gli[two-pair=maybe]", ["'maybe'", "'two-pair'", "and, or, high-sevens, "
                                 "high-sevens-or-both"]),
        ("gli[pairs=and]", ["'pairs'", "two-pair", "complete-two-pair", "full-house-twos"]),
        ("gli[two-pair]", ["way[clause=reading,...]"]),
        ("gli[two-pair=or", ["way[clause=reading,...]"]),
        ("gli[two-pair=or]x", ["way[clause=reading,...]"]),
        ("gli[two-pair=or,two-pair=and]", ["'two-pair' given twice"]),
        ("trump-plaza[two-pair=or]", ["'trump-plaza' has no readings"]),
        ("nowhere[two-pair=or]", ["unknown house way 'nowhere'", "gli"]),
    ],
)  # fmt: skip
def test_bad_names(name: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as err:
        get_way(name)
    text = str(err.value)
    assert "\n" not in text
    for w in words:
        assert w in text


def test_bad_reading_of_a_way_object() -> None:
    with pytest.raises(ValueError, match="each clause once"):
        HouseWay("g", "1", "test", gli.RULES, gli.choose, gli, gli.CLAUSES,
                 tuple(reversed(tuple(gli.LITERAL.items()))), gli.parts)  # fmt: skip
    with pytest.raises(ValueError, match="tuple of ints"):
        HouseWay("g", "1", "test", gli.RULES, gli.choose_read, gli, params=(0, True))


# ---------------------------------------------------------------------------------------------
# Keys and caches, rule names, the listing


def test_keys_and_fingerprints_differ_between_readings() -> None:
    ways = [get_way("gli"), _way({"two-pair": "or"}), _way({}),
            _way({"complete-two-pair": "singleton-ace"})]  # fmt: skip
    assert ways[0] != ways[2]  # plain gli is not the literal reading
    assert len({w.fingerprint for w in ways}) == len({w.key for w in ways}) == len(ways)
    for w in ways:
        assert w.key == f"{w.name}@{w.version}#{w.fingerprint}"
    # the same reading under either spelling is the same way
    assert get_way("gli[two-pair=or]").key == get_way("gli", {"two-pair": "or"}).key
    # a way without readings keeps the plain source hash
    tp = get_way("trump-plaza")
    assert tp.reading == () and readings_of(tp) == ()


def test_way_tables_of_readings_do_not_mix(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    gli_table = way_table("gli", SMALL)
    other = way_table("gli[two-pair=or]", SMALL)
    assert not other.from_cache
    assert way_table("gli", SMALL).from_cache and way_table("gli[two-pair=or]", SMALL).from_cache
    a, b = (
        way_cache_path(get_way("gli"), SMALL, Rules()),
        way_cache_path(get_way("gli[two-pair=or]"), SMALL, Rules()),
    )
    assert a != b
    pa, pb = read_provenance(a), read_provenance(b)
    assert pa is not None and pb is not None
    assert pb["way"] == get_way("gli[two-pair=or]").key != pa["way"] == get_way("gli").key
    assert other.way == "gli[two-pair=or]" and gli_table.way == "gli"


def test_rule_names_are_reported() -> None:
    way = get_way("gli[two-pair=or]")
    assert len(way.rules) == len(gli.RULES) and way.rule_names[-1] == FALLBACK
    # the card's rules (in the card's order) are the reference module's, by name
    assert set(way.rules) == set(gli.rule_names({"two-pair": "or"}))
    split = "5. two pair: split, both pairs sevens or better, or no singleton ace"
    assert split in way.rules
    assert set(way.rules) - {split} == set(gli.rule_names(gli.LITERAL)) - {
        gli.rule_names(gli.LITERAL)[gli.TWO_PAIR_SPLIT_SEVENS]}
    # K-K-4-4 without an ace: split under "or", reported under its first split condition
    s = set_one_hand(way, "Kc Kd 4h 4s Qc 9d 2h")
    assert s.way == "gli[two-pair=or]" and s.rule == split
    names = gli.rule_names({"full-house-twos": "any-twos", "full-house-king": "natural"})
    assert names[gli.FULL_TWOS_KEEP] == (
        "3. full house: twos (pair or trips) and a natural king or better, two highest "
        "singletons in front"
    )
    for choices in ({}, {"two-pair": "high-sevens-or-both"}):
        assert len(set(gli.rule_names(choices))) == len(gli.RULES)


def test_readings_of() -> None:
    chosen = dict((c.id, alt) for c, alt in readings_of("gli[two-pair=high-sevens]"))
    assert chosen == {**gli.DEFAULT, "two-pair": "high-sevens"}


def test_cli_lists_the_readings(capsys) -> None:
    assert main(["ways"]) == 0
    out = capsys.readouterr().out
    for c in gli.CLAUSES:
        assert f"| {c.id} " in out
        for alt in c.names:
            assert f"| {alt} " in out
    assert main(["ways", "--format", "json"]) == 0
    data = {w["name"]: w for w in json.loads(capsys.readouterr().out)}
    clauses = {c["clause"]: c for c in data["gli"]["clauses"]}
    assert list(clauses) == [c.id for c in gli.CLAUSES]
    assert clauses["two-pair"]["default"] == gli.DEFAULT["two-pair"]
    assert clauses["two-pair"]["literal"] == "and"
    assert set(clauses["two-pair"]["readings"]) == set(CLAUSE["two-pair"].names)
    assert data["trump-plaza"]["clauses"] == []


def test_cli_takes_a_reading_and_rejects_a_bad_one(capsys) -> None:
    # K-K-4-4 with Q-9-2 and no ace: "or" splits (no singleton ace), fours in front
    assert main(["set", "Kc Kd 4h 4s Qc 9d 2h", "--house-way", "gli[two-pair=or]",
                 "--format", "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert sorted(data["low"]) == ["4h", "4s"]
    assert main(["set", "Kc Kd 4h 4s Qc 9d 2h", "--house-way", "gli[two-pair=xor]"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'two-pair'" in err and "high-sevens-or-both" in err


def test_readings_set_together_equal_each_set_alone(tmp_path, monkeypatch):
    """``apply_ways`` (the readings of one way in one pass over the hands) gives every way the
    columns ``apply_way`` gives it alone, mixed with ways of their own ``choose`` (and a lone
    reading); ``way_tables`` caches each as ``way_table`` would, on a four-suit deck and on
    random full-deck hands."""
    from analysis.waylab.reconcile import readings_to_try, way_name
    from enumerate.houseways import apply_ways
    from enumerate.waytables import way_tables

    names = [way_name(c) for c in readings_to_try()]
    ways = [get_way(n) for n in [*names, "trump-plaza", "foxwoods", "max-back"]]
    rng = np.random.default_rng(13)
    full = np.sort(np.array([rng.choice(53, 7, replace=False) for _ in range(5000)]), axis=1)
    for cards in (hand_table(TEST_DECK).cards.astype(np.int64), full.astype(np.int64)):
        together = apply_ways(ways, cards)
        for way, got in zip(ways, together, strict=True):
            alone = apply_way(way, cards)
            for f in ("setting", "rule", "high", "low"):
                assert np.array_equal(getattr(got, f), getattr(alone, f)), (way.name, f)
    lone = apply_ways([ways[0]], full)[0]
    assert lone.setting.tolist() == apply_way(ways[0], full).setting.tolist()
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    tables = way_tables([*names[:6], "trump-plaza"], TEST_DECK)
    assert not any(t.from_cache for t in tables)
    for t in tables:
        alone = way_table(t.way, TEST_DECK)
        assert alone.from_cache and np.array_equal(alone.setting, t.setting), t.way
    assert all(t.from_cache for t in way_tables(names[:6], TEST_DECK))
