"""Monte Carlo cross-check of the exact pair counts: real random deals, settled one by one.

Each deal shuffles the deck (a seeded ``numpy`` Generator), gives the first seven cards to the
player and the next seven to the dealer, evaluates both hands from their own cards as the
brute-force reference does (``enumerate.deals.hand_keys``: house-way settings, all 21 settings,
flags, player class) and settles the pair with ``enumerate.deals.settle``, so a simulated
``PairCounts`` counts the same cells as the engine, over ``n_deals`` deals instead of every
ordered pair.
Deals are made and settled in chunks (bounded memory); a hand dealt twice in a chunk is
evaluated once. The numba kernels of the evaluation use every core.

``compare_counts`` puts a simulation next to the exact counts: for every cell the z-score
``(sim_p - exact_p) / sqrt(exact_p (1 - exact_p) / n)``. For a correct answer each |z| exceeds 4
with probability about 6e-5 (normal approximation; a cell expected in only a few deals is
lumpier), so a few hundred cells all pass unless something is wrong.

>>> from enumerate.houseways import get_way
>>> from enumerate.rules import Deck, Rules
>>> way = get_way("gli")
>>> deck = Deck.parse("TJQKA:cdh+joker")
>>> bits = tuple(range(32))  # every combination of flags is a dealer class
>>> c = simulate_counts(deck, Rules(), way, way, bits, 31, n_deals=1000, seed=7)
>>> c.total
1000
>>> c == simulate_counts(deck, Rules(), way, way, bits, 31, n_deals=1000, seed=7, chunk=300)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numba import njit

from analysis.games.variants import Variant, get_variant
from analysis.pricing.counts import DealCounts
from analysis.pricing.returns import check_player, price
from enumerate.deals import deal_codes, hand_keys, settle
from enumerate.engine.pairs.counts import PairCounts
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import N_PLAYER_CLASSES, dealer_class_name, player_class_name

DEFAULT_CHUNK = 250_000  # deals per chunk: about 430 MB of per-hand keys (full deck)


@njit
def _settle(pidx, didx, dh, dl, dcls, ph, pl, sh, sl, sv, pc, joint, bwin, bloss, rwin, rpush):
    """Deal ``i``: hand ``pidx[i]`` (player) against hand ``didx[i]`` (dealer), by the brute
    force's ``settle``."""
    for i in range(pidx.shape[0]):
        settle(pidx[i], didx[i], dh, dl, dcls, ph, pl, sh, sl, sv, pc, joint, bwin, bloss,
                 rwin, rpush)  # fmt: skip


def simulate_counts(
    deck: Deck,
    rules: Rules,
    dealer_way: HouseWay,
    player_way: HouseWay,
    dealer_class_bits: Sequence[int],
    flag_mask: int,
    n_deals: int,
    seed: int,
    chunk: int = DEFAULT_CHUNK,
) -> PairCounts:
    """Counts over ``n_deals`` random deals, settled exactly as the brute force settles a pair.

    ``dealer_class_bits`` orders the dealer classes (as ``EngineKeys.dealer_class_bits`` for
    the same deck, rules and ``flag_mask``: a joker ace-high pai gow is ACE_HIGH_JOKER only);
    a dealt dealer hand whose flags are not listed is an error. The result is reproducible for
    a seed and does not depend on ``chunk`` (deals evaluated at a time: about 1.7 kB per deal
    of a chunk on the full deck).
    """
    if n_deals < 0 or chunk < 1:
        raise ValueError("n_deals must be >= 0 and chunk >= 1")
    lut = np.full(32, -1, dtype=np.int64)
    for i, b in enumerate(dealer_class_bits):
        lut[int(b)] = i
    rng = np.random.default_rng(seed)
    n_d = len(dealer_class_bits)
    joint = np.zeros((N_PLAYER_CLASSES, n_d), dtype=np.int64)
    bwin, bloss, rwin, rpush = (np.zeros(n_d, dtype=np.int64) for _ in range(4))
    done = 0
    while done < n_deals:
        m = min(chunk, n_deals - done)
        hands, codes = deal_codes(deck, m, rng)
        # evaluate each distinct hand of the chunk once (small decks repeat hands often)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        k = hand_keys(hands[first], rules, dealer_way, player_way, flag_mask)
        pidx, didx = inverse[:m], inverse[m:]
        bits = k["bits"]
        dcls = lut[bits]
        if (dcls[didx] < 0).any():
            missing = sorted({int(b) for b in bits[didx][dcls[didx] < 0]})
            raise ValueError(f"dealer flag bits {missing} are not in dealer_class_bits")
        _settle(pidx, didx, k["dh"], k["dl"], dcls, k["ph"], k["pl"], k["sh"], k["sl"], k["sv"],
                k["pc"], joint, bwin, bloss, rwin, rpush)  # fmt: skip
        done += m
    return PairCounts(joint, bwin, bloss, rwin, rpush)


def proportion_se(count: int | np.ndarray, n: int) -> float | np.ndarray:
    """Standard error of the proportion ``count / n`` of ``n`` independent deals,
    ``sqrt(p (1 - p) / n)`` with the observed ``p``.

    >>> round(float(proportion_se(2500, 10_000)), 6)
    0.00433
    """
    if n <= 0:
        raise ValueError("n must be positive")
    p = np.asarray(count, dtype=np.float64) / n
    se = np.sqrt(p * (1.0 - p) / n)
    return float(se) if se.ndim == 0 else se


OUTCOMES = (("blind", "win", "blind_win"), ("blind", "push", "blind_push"),
            ("blind", "loss", "blind_loss"), ("best response", "win", "br_win"),
            ("best response", "push", "br_push"), ("best response", "loss", "br_loss"))  # fmt: skip


def outcome_table(counts: PairCounts) -> pd.DataFrame:
    """Win, push and loss of blind play and best response over all dealer classes: count,
    probability and (for a simulation) its standard error."""
    n = counts.total
    rows = []
    for play, outcome, field in OUTCOMES:
        c = int(getattr(counts, field).sum())
        rows.append({"play": play, "outcome": outcome, "count": c, "probability": c / n,
                     "se": proportion_se(c, n)})  # fmt: skip
    return pd.DataFrame(rows)


def _cells(counts: PairCounts, dealer_class_bits: Sequence[int] | None) -> dict[str, int]:
    """Every compared cell of ``counts``, by name."""
    n_p, n_d = counts.joint.shape
    bits = list(dealer_class_bits) if dealer_class_bits is not None else None
    if bits is not None and len(bits) != n_d:
        raise ValueError(f"{len(bits)} dealer class bits for {n_d} dealer classes")

    def dname(d: int) -> str:
        return f"d{d}" if bits is None else f"d{d} {dealer_class_name(bits[d])}"

    out: dict[str, int] = {}
    for p in range(n_p):
        for d in range(n_d):
            out[f"joint[{player_class_name(p)} | {dname(d)}]"] = int(counts.joint[p, d])
    for _, _, field in OUTCOMES:
        arr = getattr(counts, field)
        out[f"{field}[all]"] = int(arr.sum())
        for d in range(n_d):
            out[f"{field}[{dname(d)}]"] = int(arr[d])
    return out


class Comparison(NamedTuple):
    """``table``: one row per cell (cell, exact, simulated, se, z); ``ok``: every |z| <= limit."""

    table: pd.DataFrame
    ok: bool


def compare_counts(
    simulated: PairCounts,
    exact: PairCounts,
    dealer_class_bits: Sequence[int] | None = None,
    limit: float = 4.0,
) -> Comparison:
    """z-scores of a simulation against the exact counts, both scaled to probabilities.

    Cells: ``joint[p, d]``, and per dealer class (and over all of them) blind win, push and
    loss and best-response win, push and loss. ``se = sqrt(exact_p (1 - exact_p) / n)`` with
    ``n = simulated.total``; a cell whose exact probability is 0 or 1 has ``se = 0`` and ``z``
    0 when the simulation agrees, infinite otherwise. ``dealer_class_bits`` names the dealer
    classes.
    """
    if simulated.joint.shape != exact.joint.shape:
        raise ValueError(f"shapes differ: {simulated.joint.shape} vs {exact.joint.shape}")
    n, total = simulated.total, exact.total
    if n <= 0 or total <= 0:
        raise ValueError("both counts need a positive total")
    sim, ex = _cells(simulated, dealer_class_bits), _cells(exact, dealer_class_bits)
    exact_p = np.array(list(ex.values()), dtype=np.float64) / total
    sim_p = np.array(list(sim.values()), dtype=np.float64) / n
    se = np.sqrt(exact_p * (1.0 - exact_p) / n)
    diff = sim_p - exact_p
    off = np.where(diff > 0, np.inf, np.where(diff < 0, -np.inf, 0.0))  # where se == 0
    z = np.where(se > 0, diff / np.where(se > 0, se, 1.0), off)
    table = pd.DataFrame({"cell": list(ex), "exact": exact_p, "simulated": sim_p, "se": se, "z": z})
    return Comparison(table, bool((np.abs(z) <= limit).all()))


@dataclass(frozen=True, eq=False)
class Simulation:
    """A variant's main wager simulated: the return table of the deals dealt, its house edge
    and that estimate's standard error (one), the deals and the seed."""

    table: Any  # a ReturnTable of the simulated counts
    house_edge: Fraction
    se: float
    deals: int
    seed: int

    def render(self, fmt: str = "md") -> str:
        """The table; under it, in md and html, the estimate and its error."""
        out = self.table.render(fmt)
        if fmt in ("md", "html"):
            out += (f"Monte Carlo: {self.deals:,} deals, seed {self.seed}: house edge "
                    f"{float(self.house_edge) * 100:.4f}% +/- {self.se * 100:.4f}% (one "
                    "standard error)\n")  # fmt: skip
        return out


def simulate_variant(
    variant: Variant | str,
    n_deals: int,
    seed: int,
    house_way: str | None = None,
    player: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> Simulation:
    """Monte Carlo of a variant's main wager: its return table from ``n_deals`` random deals,
    the estimated house edge and its standard error (from the per-deal payoff variance)."""

    v = get_variant(variant)
    mode = check_player(v, player)
    deck = deck or Deck.full()
    rules = rules or Rules()
    way_name = house_way or v.house_way
    way = get_way(way_name)
    bits = tuple(range(32))  # every combination of flags is a dealer class
    counts = simulate_counts(deck, rules, way, way, bits, v.flag_mask, n_deals, seed)
    deal_counts = DealCounts(counts, bits, deck, rules, way_name, way_name, v.flag_mask,
                             source=f"Monte Carlo, {n_deals:,} deals, seed {seed}")  # fmt: skip
    table = price(deal_counts, v, mode)
    rows = table.table[table.table["outcome"] != ""]
    pairs: list[tuple[Any, Any]] = list(zip(rows["probability"], rows["pays"], strict=True))
    mean = sum((Fraction(p) * Fraction(x) for p, x in pairs), Fraction(0))
    second = sum((Fraction(p) * Fraction(x) ** 2 for p, x in pairs), Fraction(0))
    se = float((second - mean * mean) / n_deals) ** 0.5
    return Simulation(table, -mean, se, n_deals, seed)
