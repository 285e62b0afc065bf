"""Exact pair counts: the engine's output, an additive bundle of integer arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from enumerate.cache import require

FIELDS = ("joint", "blind_win", "blind_loss", "br_win", "br_push")


@dataclass(frozen=True, eq=False)
class PairCounts:
    """Counts over ordered (player, dealer) pairs of disjoint hands.

    ``joint[p, d]`` all pairs by player class and dealer class; per dealer class: blind play
    wins and losses (the player's one setting), best-response wins and pushes (the player picks
    among its frontier seeing the dealer's setting). Pushes and losses follow by subtraction.
    """

    joint: np.ndarray  # (P, D) int64
    blind_win: np.ndarray  # (D,)
    blind_loss: np.ndarray
    br_win: np.ndarray
    br_push: np.ndarray

    @classmethod
    def zeros(cls, n_p: int, n_d: int) -> PairCounts:
        z = np.zeros(n_d, dtype=np.int64)
        return cls(np.zeros((n_p, n_d), dtype=np.int64), z.copy(), z.copy(), z.copy(), z.copy())

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(*(getattr(self, f) + getattr(other, f) for f in FIELDS))

    def scaled(self, factor: int) -> PairCounts:
        return PairCounts(*(getattr(self, f) * factor for f in FIELDS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PairCounts):
            return NotImplemented
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in FIELDS)

    @property
    def total(self) -> int:
        """Number of ordered pairs counted."""
        return int(self.joint.sum())

    @property
    def per_dealer_class(self) -> np.ndarray:
        """Pairs by dealer class."""
        return self.joint.sum(axis=0)

    @property
    def blind_push(self) -> np.ndarray:
        return self.per_dealer_class - self.blind_win - self.blind_loss

    @property
    def br_loss(self) -> np.ndarray:
        return self.per_dealer_class - self.br_win - self.br_push

    def to_arrow(self) -> pa.Table:
        """Long form: one row per (field, index) with its exact value."""
        names, idx, values = [], [], []
        for f in FIELDS:
            arr = getattr(self, f).reshape(-1)
            names += [f] * arr.size
            idx += list(range(arr.size))
            values += [int(v) for v in arr]
        return pa.table(
            {
                "field": pa.array(names, pa.string()),
                "index": pa.array(idx, pa.int64()),
                "value": pa.array(values, pa.int64()),
            }
        )

    @classmethod
    def from_arrow(cls, table: pa.Table, n_p: int, n_d: int) -> PairCounts:
        """Inverse of ``to_arrow``; a ``CacheInvariantError`` unless every entry is there
        exactly once."""
        return cls.from_entries(table.column("field").to_pylist(),
                                table.column("index").to_pylist(),
                                table.column("value").to_pylist(), n_p, n_d)  # fmt: skip

    @classmethod
    def from_entries(cls, fields: list[str], idx: list[int], vals: list[int], n_p: int,
                     n_d: int) -> PairCounts:  # fmt: skip
        """``from_arrow`` of the columns as lists (read with ``to_pylist``: pyarrow's
        ``to_numpy`` and ``filter`` import pandas, a large part of a quick command such as
        ``paigow analyze``)."""
        out = cls.zeros(n_p, n_d)
        seen = set()
        for f, i, v in zip(fields, idx, vals, strict=True):
            require(f in FIELDS and (f, i) not in seen, f"entry {f}[{i}] unknown or repeated")
            arr = getattr(out, f).reshape(-1)
            require(0 <= i < arr.size, f"entry {f}[{i}] out of range")
            arr[i] = v
            seen.add((f, i))
        require(len(seen) == sum(getattr(out, f).size for f in FIELDS), "entries are missing")
        return out

    def check(self, sign: int = 1, total: int | None = None, unit: int | None = None) -> None:
        """The invariants of counts over pairs (``CacheInvariantError`` if one fails).

        Every count has the sign ``sign`` (-1 for a shard of an odd inclusion-exclusion
        level), wins and losses of blind play, and wins and pushes of the best response, are
        disjoint parts of each dealer class's pairs; the pairs add up to ``total``; and, for a
        whole run, every player class's and dealer class's pairs are a multiple of ``unit``,
        the number of hands disjoint from one hand.
        """
        per_d = sign * self.per_dealer_class
        for f in FIELDS:
            require(bool((sign * getattr(self, f) >= 0).all()), f"a {f} count has the wrong sign")
        require(bool((sign * (self.blind_win + self.blind_loss) <= per_d).all()),
                "blind wins and losses exceed the pairs of a dealer class")  # fmt: skip
        require(bool((sign * (self.br_win + self.br_push) <= per_d).all()),
                "best-response wins and pushes exceed the pairs of a dealer class")  # fmt: skip
        if total is not None:
            require(self.total == total, f"pairs add up to {self.total:,}, not {total:,}")
        if unit is not None:
            whole = (self.joint.sum(axis=1) % unit == 0).all()
            whole &= (self.per_dealer_class % unit == 0).all()
            require(bool(whole), f"a player or dealer class's pairs are not a multiple of {unit:,}")
