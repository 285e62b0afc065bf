"""Random deals of a deck (``deal``, ``deal_codes``: one Fisher-Yates shuffle per deal), and one
deal settled from the cards of its hands: what each hand is (house-way setting, all 21
settings, dealer flags, player class), computed from its own cards with no suit classes or
tables of the engine, and the outcome of one player hand against one dealer hand.

The Monte Carlo check (``analysis.checks.simulate``) settles real deals with these, and the
brute-force reference loops of the tests (``enumerate.bruteforce``) every pair of a small deck:
both are independent of the engine's inclusion-exclusion, its classes and its caches.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.classes import classify_all, fortune_of_five
from enumerate.engine.keys import event_bits
from enumerate.evaluate import all_settings, five_card_table
from enumerate.houseways import HouseWay, apply_way
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges
from enumerate.vocabulary import PLAYER_ACE_HIGH_PAI_GOW, HandFlag

HAND = 7


def dealer_view(cards: np.ndarray, rules: Rules, dealer_way: HouseWay,
                flag_mask: int) -> dict[str, np.ndarray]:  # fmt: skip
    """The dealer's view of each hand (rows of increasing card ids): house-way setting and
    dealer flag bits, plus the classification the player side reuses."""
    five = five_card_table(rules)
    dealer = apply_way(dealer_way, cards, rules)
    cls, _best, flags, jacks = classify_all(cards, five.ids, fortune_of_five(five), five.category)
    def has(flag: HandFlag) -> np.ndarray:
        return (flags & flag) != 0

    bits = event_bits(has(HandFlag.JOKER_IS_ACE), has(HandFlag.ACE_HIGH_PAI_GOW), jacks,
                      has(HandFlag.QUEEN_HIGH_PAI_GOW), dealer.low)  # fmt: skip
    return {
        "dh": dealer.high.astype(np.int64), "dl": dealer.low.astype(np.int64),
        "bits": bits & flag_mask, "cls": cls, "flags": flags,
    }  # fmt: skip


def hand_keys(cards: np.ndarray, rules: Rules, dealer_way: HouseWay, player_way: HouseWay,
              flag_mask: int) -> dict[str, np.ndarray]:  # fmt: skip
    """Everything about each hand (rows of increasing card ids), computed from its cards:
    the dealer's view (``dealer_view``), the player way's setting (``ph``, ``pl``), all 21
    settings (``sh``, ``sl``) and their validity (``sv``), the player class (``pc``)."""
    five = five_card_table(rules)
    keys = dealer_view(cards, rules, dealer_way, flag_mask)
    player = apply_way(player_way, cards, rules)
    high, low = all_settings(cards, five.ids)
    valid = low <= five.max_low[high]
    pclass = keys.pop("cls").astype(np.int64)
    pclass[(keys.pop("flags") & HandFlag.ACE_HIGH_PAI_GOW) != 0] = PLAYER_ACE_HIGH_PAI_GOW
    return {
        **keys, "ph": player.high.astype(np.int64), "pl": player.low.astype(np.int64),
        "sh": high.astype(np.int64), "sl": low.astype(np.int64), "sv": valid, "pc": pclass,
    }  # fmt: skip


@njit(cache=True)
def best_response(sh, sl, sv, yh, yl):
    """Seeing the dealer's (yh, yl), can one of the 21 settings win both hands, or one?"""
    win = False
    one = False
    for s in range(21):
        if not sv[s]:
            continue
        hi_wins = sh[s] > yh
        lo_wins = sl[s] > yl
        if hi_wins and lo_wins:
            win = True
        elif hi_wins or lo_wins:
            one = True
    return win, one


@njit(cache=True)
def settle(xi, yj, dh, dl, dcls, ph, pl, sh, sl, sv, pc, joint, bwin, bloss, rwin, rpush):
    """Add the deal of player hand ``xi`` against dealer hand ``yj`` (rows of ``hand_keys``)
    into the counts: by player and dealer class, blind win or loss, best-response win or push."""
    d = dcls[yj]
    joint[pc[xi], d] += 1
    if ph[xi] > dh[yj] and pl[xi] > dl[yj]:
        bwin[d] += 1
    elif ph[xi] <= dh[yj] and pl[xi] <= dl[yj]:
        bloss[d] += 1
    win, one = best_response(sh[xi], sl[xi], sv[xi], dh[yj], dl[yj])
    if win:
        rwin[d] += 1
    elif one:
        rpush[d] += 1


@njit(cache=True, nogil=True)
def _deal(lo, hi, ids, offsets, hands, codes):
    """Deals ``lo <= r < hi`` of ``h`` hands (``offsets`` has ``7 h`` columns): the first
    ``7 h`` steps of a Fisher-Yates shuffle of ``ids`` (position ``t`` swaps with
    ``t + offsets[r, t]``); cards ``7 s .. 7 s + 6`` go to ``hands[s m + r]`` (s = 0: the
    player, 1: the dealer, or further hands), each hand sorted by card id, with ``codes`` its
    card bitmask.
    """
    m = offsets.shape[0]
    steps = offsets.shape[1]
    deck = ids.copy()  # one scratch deck, restored after every deal
    for r in range(lo, hi):
        for t in range(steps):
            j = t + offsets[r, t]
            deck[t], deck[j] = deck[j], deck[t]
        for side in range(steps // HAND):
            row = r + side * m
            code = 0
            for t in range(HAND):
                c = deck[side * HAND + t]
                code |= np.int64(1) << c
                u = t  # insertion sort into the output row
                while u > 0 and hands[row, u - 1] > c:
                    hands[row, u] = hands[row, u - 1]
                    u -= 1
                hands[row, u] = c
            codes[row] = code
        for t in range(steps - 1, -1, -1):
            j = t + offsets[r, t]
            deck[t], deck[j] = deck[j], deck[t]


def deal_codes(
    deck: Deck, n_deals: int, rng: np.random.Generator, n_hands: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """``n_deals`` deals of ``n_hands`` hands: rows ``s * n_deals + r`` hold hand s of deal r
    (s = 0 the player, 1 the dealer), with their card bitmasks."""
    ids = np.array(sorted(deck.ids), dtype=np.int64)
    n = ids.size
    cards = n_hands * HAND
    if n < cards:
        of = "" if n_hands == 2 else f" ({n_hands} hands)"
        raise ValueError(f"deck {deck.name} has {n} cards; a deal needs {cards}{of}")
    offsets = rng.integers(0, n - np.arange(cards), size=(n_deals, cards))
    hands = np.empty((n_hands * n_deals, HAND), dtype=np.int64)
    codes = np.empty(n_hands * n_deals, dtype=np.int64)
    if n_deals:
        over_ranges(_deal, n_deals, ids, offsets, hands, codes)
    return hands, codes


def deal(deck: Deck, n_deals: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n_deals`` random deals of ``deck``: (player, dealer), each (n_deals, 7) int64 rows of
    increasing card ids, disjoint within a deal. The Generator's stream does not depend on how
    the deals are split into calls (one draw per card dealt)."""
    hands, _ = deal_codes(deck, n_deals, rng)
    return hands[:n_deals], hands[n_deals:]
