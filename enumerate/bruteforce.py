"""Deliberately plain reference loops, used only to check the engine.

Nothing here uses suit classes or inclusion-exclusion: every hand is evaluated from its own
cards (house way, settings, flags), and every pair of hands is tested for disjointness.

- ``pairs_by_brute_force``: all ordered pairs of disjoint 7-card hands of a (small) deck.
- ``one_player_hand``: one player hand of the full deck against each of the C(46, 7) =
  53,524,680 dealer hands of the other cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np
from numba import njit

from enumerate.cards import Card, parse_cards
from enumerate.colex import BINOM, combinations_at
from enumerate.deals import best_response, dealer_view, hand_keys, settle
from enumerate.engine.pairs.counts import PairCounts
from enumerate.evaluate import all_settings, five_card_table
from enumerate.houseways import HouseWay, apply_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import (
    ALL_DEALER_EVENTS,
    N_PLAYER_CLASSES,
)


@njit(cache=True)
def _all_pairs(masks, weight, dh, dl, dcls, ph, pl, sh, sl, sv, pc, n_p, n_d):
    joint = np.zeros((n_p, n_d), dtype=np.int64)
    bwin = np.zeros(n_d, dtype=np.int64)
    bloss = np.zeros(n_d, dtype=np.int64)
    rwin = np.zeros(n_d, dtype=np.int64)
    rpush = np.zeros(n_d, dtype=np.int64)
    n = masks.shape[0]
    for x in range(n):
        if weight[x] == 0:
            continue
        for y in range(n):
            if masks[x] & masks[y] == 0:
                settle(x, y, dh, dl, dcls, ph, pl, sh, sl, sv, pc, joint, bwin, bloss, rwin,
                         rpush)  # fmt: skip
    return joint, bwin, bloss, rwin, rpush


def deck_hands(deck: Deck) -> np.ndarray:
    """Every seven-card hand of the deck, as rows of increasing card ids."""
    return np.array(list(combinations(sorted(deck.ids), 7)), dtype=np.int64)


def pairs_by_brute_force(
    deck: Deck,
    rules: Rules,
    dealer_way: HouseWay,
    player_way: HouseWay,
    dealer_class_bits: Sequence[int],
    flag_mask: int = ALL_DEALER_EVENTS,
    player_hands: Sequence[Sequence[int]] | None = None,
) -> PairCounts:
    """Counts over every ordered pair of disjoint hands of ``deck``, one pair at a time.

    ``player_hands`` (card id sets) restricts the player to those hands.
    """
    hands = deck_hands(deck)
    k = hand_keys(hands, rules, dealer_way, player_way, flag_mask)
    order = {b: i for i, b in enumerate(dealer_class_bits)}
    dcls = np.array([order[int(b)] for b in k["bits"]], dtype=np.int64)
    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    weight = np.ones(len(hands), dtype=np.int64)
    if player_hands is not None:
        chosen = {frozenset(int(c) for c in h) for h in player_hands}
        weight = np.array([frozenset(row.tolist()) in chosen for row in hands], dtype=np.int64)
    joint, bwin, bloss, rwin, rpush = _all_pairs(
        masks, weight, k["dh"], k["dl"], dcls, k["ph"], k["pl"], k["sh"], k["sl"], k["sv"],
        k["pc"], N_PLAYER_CLASSES, len(dealer_class_bits),
    )  # fmt: skip
    return PairCounts(joint, bwin, bloss, rwin, rpush)


def one_player_hand(
    player: Sequence[Card] | str,
    rules: Rules,
    dealer_way: HouseWay,
    player_way: HouseWay,
    dealer_class_bits: Sequence[int],
    flag_mask: int = ALL_DEALER_EVENTS,
    chunk: int = 2_000_000,
) -> PairCounts:
    """One full-deck player hand against every dealer hand of the other 46 cards."""
    hand = parse_cards(player, count=7)
    ids = np.array(sorted(c.id for c in hand), dtype=np.int64)
    pool = np.array([c for c in range(53) if c not in set(ids.tolist())], dtype=np.int64)
    mine = hand_keys(ids[None, :], rules, dealer_way, player_way, flag_mask)
    order = {b: i for i, b in enumerate(dealer_class_bits)}
    n_d = len(dealer_class_bits)
    out = PairCounts.zeros(N_PLAYER_CLASSES, n_d)
    lut = np.full(ALL_DEALER_EVENTS + 1, -1, dtype=np.int64)
    for b, i in order.items():
        lut[b] = i
    for _rows, k in _dealer_chunks(pool, rules, dealer_way, flag_mask, chunk):
        dcls = lut[k["bits"]]
        if (dcls < 0).any():
            raise AssertionError("a dealer hand has flags outside the dealer classes")
        joint = np.zeros((N_PLAYER_CLASSES, n_d), dtype=np.int64)
        bwin = np.zeros(n_d, dtype=np.int64)
        bloss = np.zeros(n_d, dtype=np.int64)
        rwin = np.zeros(n_d, dtype=np.int64)
        rpush = np.zeros(n_d, dtype=np.int64)
        _versus(mine["ph"][0], mine["pl"][0], mine["sh"][0], mine["sl"][0], mine["sv"][0],
                mine["pc"][0], k["dh"], k["dl"], dcls, joint, bwin, bloss, rwin, rpush)  # fmt: skip
        out = out + PairCounts(joint, bwin, bloss, rwin, rpush)
    return out


def _dealer_chunks(
    pool: np.ndarray, rules: Rules, dealer_way: HouseWay, flag_mask: int, chunk: int
) -> Iterator[tuple[np.ndarray, dict[str, np.ndarray]]]:
    """Every 7-card hand of ``pool`` in colex order, ``chunk`` at a time: (cards, dealer keys
    evaluated from those cards)."""
    total = int(BINOM[len(pool), 7])
    buf = np.empty((chunk, 7), dtype=np.int64)
    start = 0
    while start < total:
        n = combinations_at(pool, start, min(chunk, total - start), buf)
        rows = buf[:n]
        yield rows, dealer_view(rows, rules, dealer_way, flag_mask)
        start += n


@njit(cache=True)
def _versus(ph, pl, sh, sl, sv, pc, dh, dl, dcls, joint, bwin, bloss, rwin, rpush):
    for y in range(dh.shape[0]):
        d = dcls[y]
        joint[pc, d] += 1
        if ph > dh[y] and pl > dl[y]:
            bwin[d] += 1
        elif ph <= dh[y] and pl <= dl[y]:
            bloss[d] += 1
        win, one = best_response(sh, sl, sv, dh[y], dl[y])
        if win:
            rwin[d] += 1
        elif one:
            rpush[d] += 1


def alldealer_view(
    rules: Rules, dealer_way: HouseWay, flag_mask: int, chunk: int = 4_000_000
) -> dict[str, np.ndarray]:
    """The dealer's view (house-way setting, flag bits) of every 7-card hand of the full deck,
    each evaluated from its own cards, stored by the colex index of the hand."""
    total = int(BINOM[53, 7])
    out: dict[str, np.ndarray] = {
        "dh": np.empty(total, dtype=np.int16),
        "dl": np.empty(total, dtype=np.int8),
        "bits": np.empty(total, dtype=np.int8),
    }
    for rows, k in _dealer_chunks(np.arange(53, dtype=np.int64), rules, dealer_way, flag_mask,
                                  chunk):  # fmt: skip
        col = _colex_rows(rows)
        out["dh"][col] = k["dh"]
        out["dl"][col] = k["dl"]
        out["bits"][col] = k["bits"]
    return out


@njit(cache=True)
def _colex_rows(rows):
    out = np.empty(rows.shape[0], dtype=np.int64)
    for r in range(rows.shape[0]):
        s = 0
        for t in range(7):
            s += BINOM[rows[r, t], t + 1]
        out[r] = s
    return out


def settings_by_brute_force(
    player: Sequence[Card] | str,
    points: Sequence[tuple[int, int]],
    dealer: dict[str, np.ndarray],
    dealer_class_bits: Sequence[int],
    chunk: int = 4_000_000,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For one full-deck player hand and fixed settings given as (high id, low id) points:
    against each of the 53,524,680 dealer hands of the other cards (keys from
    ``all_dealer_keys``), the wins (both hands higher), losses (both lower or equal) and
    dealer hands, by dealer class: arrays (points, D), (points, D), (D,)."""
    hand = parse_cards(player, count=7)
    ids = sorted(c.id for c in hand)
    pool = np.array([c for c in range(53) if c not in ids], dtype=np.int64)
    order = {b: i for i, b in enumerate(dealer_class_bits)}
    lut = np.full(ALL_DEALER_EVENTS + 1, -1, dtype=np.int64)
    for b, i in order.items():
        lut[b] = i
    n_d = len(dealer_class_bits)
    win = np.zeros((len(points), n_d), dtype=np.int64)
    loss = np.zeros((len(points), n_d), dtype=np.int64)
    total = np.zeros(n_d, dtype=np.int64)
    buf = np.empty((chunk, 7), dtype=np.int64)
    n_total = int(BINOM[46, 7])
    start = 0
    while start < n_total:
        n = combinations_at(pool, start, min(chunk, n_total - start), buf)
        col = _colex_rows(buf[:n])
        dh = dealer["dh"][col].astype(np.int64)
        dl = dealer["dl"][col].astype(np.int64)
        dcls = lut[dealer["bits"][col].astype(np.int64)]
        if (dcls < 0).any():
            raise AssertionError("a dealer hand has flags outside the dealer classes")
        total += np.bincount(dcls, minlength=n_d)
        for p, (h, lo) in enumerate(points):
            win[p] += np.bincount(dcls[(h > dh) & (lo > dl)], minlength=n_d)
            loss[p] += np.bincount(dcls[(h <= dh) & (lo <= dl)], minlength=n_d)
        start += n
    return win, loss, total


@njit(cache=True)
def _per_dealer_loop(dmask, dh, dl, masks, ph, pl, sh, sl, sv, blind):
    """For each dealer setting point (its hand's mask, high, low): (win, other) over every
    disjoint player hand; other = losses of the blind player, pushes of the best response."""
    out = np.zeros((dh.shape[0], 2), dtype=np.int64)
    for p in range(dh.shape[0]):
        for x in range(masks.shape[0]):
            if masks[x] & dmask[p]:
                continue
            if blind:
                if ph[x] > dh[p] and pl[x] > dl[p]:
                    out[p, 0] += 1
                elif ph[x] <= dh[p] and pl[x] <= dl[p]:
                    out[p, 1] += 1
            else:
                win, one = best_response(sh[x], sl[x], sv[x], dh[p], dl[p])
                if win:
                    out[p, 0] += 1
                elif one:
                    out[p, 1] += 1
    return out


def per_dealer_by_brute_force(
    deck: Deck, rules: Rules, dealers: np.ndarray, player_way: HouseWay | None
) -> list[list[tuple[int, int, int, int]]]:
    """For each dealer hand (rows of increasing card ids) and each of its distinct valid
    settings (high id, low id), increasing: ``(high, low, win, other)`` over every player hand
    of the other cards of ``deck``, one hand at a time. Players set by ``player_way`` (other =
    their losses), or respond to the dealer's setting with the best of their 21 (player_way
    None; other = their pushes)."""
    five = five_card_table(rules)
    hands = deck_hands(deck)
    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    sh, sl = all_settings(hands, five.ids)
    sv = sl <= five.max_low[sh]
    if player_way is not None:
        way = apply_way(player_way, hands, rules)
        ph, pl = way.high.astype(np.int64), way.low.astype(np.int64)
    else:
        ph = pl = np.zeros(len(hands), dtype=np.int64)
    dh, dlo = all_settings(dealers.astype(np.int64), five.ids)
    points: list[list[tuple[int, int]]] = []
    for h_row, l_row in zip(dh, dlo, strict=True):
        pts = {(int(h), int(lo)) for h, lo in zip(h_row, l_row, strict=True)
               if lo <= five.max_low[h]}  # fmt: skip
        points.append(sorted(pts))
    flat = [(i, h, lo) for i, pts in enumerate(points) for h, lo in pts]
    dmask = np.array([sum(1 << int(c) for c in dealers[i]) for i, _, _ in flat], dtype=np.int64)
    fh = np.array([h for _, h, _ in flat], dtype=np.int64)
    fl = np.array([lo for _, _, lo in flat], dtype=np.int64)
    out = _per_dealer_loop(dmask, fh, fl, masks, ph, pl, sh.astype(np.int64),
                           sl.astype(np.int64), sv, player_way is not None)  # fmt: skip
    result: list[list[tuple[int, int, int, int]]] = [[] for _ in points]
    for (i, h, lo), (a, b) in zip(flat, out.tolist(), strict=True):
        result[i].append((h, lo, a, b))
    return result
