"""The words a condition writes values of each kind with, and their numbers.

A word means nothing alone: ``flush`` is a five-card category beside ``best_five``, a Fortune
class beside ``fortune`` and a three-card class beside ``three_card``; ``9`` is a rank beside a
rank and a number beside a count. Rank words are read in either case (``j`` is a jack).

>>> value_of(Kind.RANK, "J"), value_of(Kind.CATEGORY, "trips"), value_of(Kind.COUNT, "2")
(9, 3, 2)
>>> name_of(Kind.CATEGORY, 6), name_of(Kind.RANK, 8)
('full_house', 'T')
"""

from __future__ import annotations

from collections.abc import Mapping

from enumerate.cards import RANKS
from enumerate.conditions.tree import Kind
from enumerate.vocabulary import Category, SevenCardClass, ThreeCardClass

RANK_WORDS: Mapping[str, int] = {
    **{r.value: i for i, r in enumerate(RANKS)}, "10": 8,  # ten is also T
}  # fmt: skip
RANK_NAMES: tuple[str, ...] = tuple(r.value for r in RANKS)
# categories by their names, and the card language's short names for two of them
CATEGORIES: Mapping[str, int] = {
    **{c.name.lower(): int(c) for c in Category}, "trips": 3, "quads": 7,
}  # fmt: skip
FORTUNE_CLASSES: Mapping[str, int] = {c.name.lower(): int(c) for c in SevenCardClass}
THREE_CARD_CLASSES: Mapping[str, int] = {
    **{c.name.lower(): int(c) for c in ThreeCardClass}, "trips": 4,
}  # fmt: skip
TRUTHS: Mapping[str, int] = {"false": 0, "true": 1}

# the words of each kind (counts are numbers, and ids have no words)
WORDS: Mapping[Kind, Mapping[str, int]] = {
    Kind.TRUTH: TRUTHS,
    Kind.RANK: RANK_WORDS,
    Kind.CATEGORY: CATEGORIES,
    Kind.FORTUNE: FORTUNE_CLASSES,
    Kind.THREE_CARD: THREE_CARD_CLASSES,
}
# the name a value is written with (the first word of its number)
NAMES: Mapping[Kind, Mapping[int, str]] = {
    kind: {v: w for w, v in reversed(list(words.items()))} for kind, words in WORDS.items()
}


def value_of(kind: Kind, word: str) -> int | None:
    """The number of ``word`` as a value of ``kind``, or None if it is none of its words."""
    if kind == Kind.COUNT:
        return int(word) if word.isdigit() else None
    if kind == Kind.RANK:
        return RANK_WORDS.get(word.upper())
    return WORDS.get(kind, {}).get(word)


def is_value(word: str) -> bool:
    """Whether ``word`` is a value of some kind."""
    return word.isdigit() or any(value_of(k, word) is not None for k in WORDS)


def name_of(kind: Kind, value: int) -> str:
    """The word a value of ``kind`` is written with."""
    if kind in NAMES:
        return NAMES[kind][value]
    return str(value)


def known(kind: Kind) -> str:
    """The words of ``kind``, weakest first, for a message."""
    if kind == Kind.COUNT:
        return "a number"
    if kind not in WORDS:
        return "none: compare it with another of its kind"
    words = WORDS[kind]
    return ", ".join(sorted(words, key=lambda w: (words[w], w)))
