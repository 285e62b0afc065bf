"""Which dealer hands the per-hand table's win and loss columns count (``perhand.table``).

The dealer hands fall into dealer classes, one per combination of the dealer flags kept apart
(``EngineKeys.dealer_class_bits``). The per-hand table keeps its dealer hands by class (the
``total`` columns), but its wins and losses by *up-set*: column j counts the dealer hands whose
flags include all of ``sets[j]``, column 0 (the empty set) every dealer hand. A variant's price
is a sum over dealer classes of a pay times a count; written over up-sets (the Moebius
transform over the lattice of flags, ``moebius``), a pay that depends on a single flag needs
two columns, not one per class. The shipped blind variants each push wins on one flag (ez on a
queen-high pai gow, commission-free on a nine-high low) and no variant treats losses apart: the
table keeps wins for {}, {queen-high}, {nine-high low} and losses for {} only, 6 counts per
setting instead of 10 with the four classes, and the pass that adds them (memory-bound) moves
that much less.

>>> s = AnswerSets(win=(0, 8, 16), loss=(0,))
>>> s.maps((0, 8, 16, 24))[0].tolist()  # win column j counts the classes whose bits hold set j
[[1, 1, 1, 1], [0, 1, 0, 1], [0, 0, 1, 1]]
>>> s.tag
'w0.8.16-l0'
>>> AnswerSets.spanning((0, 8, 16, 24)).win
(0, 8, 16, 24)
>>> moebius(lambda bits: 0 if bits & 8 else 19, 8 | 16)  # a pay pushed on flag 8
{0: 19, 8: -19}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np


def _order(sets: Iterable[int]) -> tuple[int, ...]:
    """Distinct sets, the empty set first, then by size and value."""
    return tuple(sorted({int(s) for s in sets} | {0}, key=lambda s: (s.bit_count(), s)))


def subsets(mask: int) -> list[int]:
    """Every subset of the bits of ``mask`` (the empty one first).

    >>> subsets(0b101)
    [0, 1, 4, 5]
    """
    out, s = [], 0
    while True:
        out.append(s)
        if s == mask:
            return sorted(out)
        s = (s - mask) & mask


def moebius(pay: Callable[[int], int], mask: int) -> dict[int, int]:
    """The coefficients ``alpha`` over up-sets, the non-zero ones, with
    ``pay(bits) == sum(alpha[s] for s in alpha if s & bits == s)`` for every ``bits`` within
    ``mask``: a pay per dealer class written as a pay per up-set column."""
    out = {}
    for s in subsets(mask):
        alpha = sum((-1) ** (s & ~t).bit_count() * pay(t) for t in subsets(s))
        if alpha:
            out[s] = alpha
    return out


@dataclass(frozen=True)
class AnswerSets:
    """The up-sets of the per-hand table's win columns and loss columns (flag bits; each
    tuple starts with 0, every dealer hand, then by size and value)."""

    win: tuple[int, ...]
    loss: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("win", "loss"):
            sets = getattr(self, name)
            if sets != _order(sets) or any(s < 0 for s in sets):
                raise ValueError(f"{name} sets {sets}: expected distinct flag bits, 0 first, "
                                 "then by size and value")  # fmt: skip

    @classmethod
    def of(cls, win: Iterable[int], loss: Iterable[int]) -> AnswerSets:
        """The sets given, put in order (the empty set added)."""
        return cls(_order(win), _order(loss))

    @classmethod
    def spanning(cls, cell_bits: Iterable[int]) -> AnswerSets:
        """Every set within a dealer class's flags: the counts of each class follow from them
        (nothing is lost against counting by class)."""
        every = set()
        for bits in cell_bits:
            every.update(subsets(int(bits)))
        return cls.of(every, every)

    @property
    def tag(self) -> str:
        """The sets in a file name."""
        return "w" + ".".join(map(str, self.win)) + "-l" + ".".join(map(str, self.loss))

    def maps(self, cell_bits: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """``(win_map, loss_map)``: ``map[j, d]`` is 1 when dealer class d (flags
        ``cell_bits[d]``) has every flag of set j, else 0 (int64): the rows of
        ``grid_maps``'s column map for each kind's sets."""
        col_map, win_col, loss_col = self.grid_maps(cell_bits)
        return col_map[win_col], col_map[loss_col]

    @property
    def columns(self) -> tuple[int, ...]:
        """Every set of either kind, in order: the columns of the per-hand kernels' grid."""
        return _order((*self.win, *self.loss))

    def grid_maps(self, cell_bits: Iterable[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(col_map, win_col, loss_col)`` for the kernels (int64): ``col_map[g, d]`` is 1 when
        dealer class d has every flag of ``columns[g]``; ``win_col[j]`` and ``loss_col[j]``
        are the columns of win set j and loss set j. Column 0 is the empty set (every dealer
        hand).

        >>> for m in AnswerSets((0, 8, 16), (0,)).grid_maps((0, 8, 16, 24)):
        ...     print(m.tolist())
        [[1, 1, 1, 1], [0, 1, 0, 1], [0, 0, 1, 1]]
        [0, 1, 2]
        [0]
        """
        bits = [int(b) for b in cell_bits]
        cols = self.columns
        col_map = np.array([[int(s & b == s) for b in bits] for s in cols], dtype=np.int64)
        return (col_map, np.array([cols.index(s) for s in self.win], dtype=np.int64),
                np.array([cols.index(s) for s in self.loss], dtype=np.int64))  # fmt: skip

    def project(self, by_class: np.ndarray, cell_bits: Iterable[int], kind: str) -> np.ndarray:
        """Counts by dealer class (last axis) as counts by this object's ``kind`` ("win" or
        "loss") sets."""
        win_map, loss_map = self.maps(cell_bits)
        m = win_map if kind == "win" else loss_map
        return np.asarray(by_class, dtype=np.int64) @ m.T


def on_sets(alpha: dict[int, int], sets: tuple[int, ...], cell_bits: Iterable[int],
            what: str) -> np.ndarray:  # fmt: skip
    """``alpha`` (``moebius``) as a vector over ``sets``; a ValueError naming the set when a
    non-zero coefficient has no column. A set no dealer class holds counts nothing, so its
    coefficient is dropped."""
    present = [int(b) for b in cell_bits]
    out = np.zeros(len(sets), dtype=np.int64)
    for s, a in alpha.items():
        if s in sets:
            out[sets.index(s)] = a
        elif any(s & b == s for b in present):
            raise ValueError(
                f"the per-hand counts keep no {what} column for dealer hands with flags {s} "
                f"(they keep {list(sets)})"
            )
    return out
