"""Rule cards run by numba: a card compiled to one int64 program (``language``) and the kernel
that sets hands by it.

A program is a table of rules, each a condition (postfix code over the hand's named facts) and
a choice of setting; the first rule whose condition holds sets the hand. One kernel serves every
card: a card is data, so a new card or a new reading of one compiles nothing.

Layout of a program (int64)::

    [0] number of rules       [1] start of the choices table    [2] start of the dispatch
    rules table: per rule (condition start, condition end, choice index, rule-name index)
    choices table: per choice (selector, back mask, royal only, arg kind 1, arg 1, kind 2, arg 2)
    dispatch: per structure of hand (``STRUCTURES``), the start of its rules in the list after
        it (one more entry closes the last), then the list: the rules a hand of that structure
        can meet, in the card's order
    code: the conditions' postfix operations

The dispatch is what keeps a card fast: a rule that says ``two_pair and ...`` is never tried on
a hand of another structure, so a hand meets a few conditions, not the whole card.

Facts are worked out once per hand into an array (``FACTS`` names them); a condition pushes
facts and constants on a small stack and combines them. A choice picks, among the valid
settings whose back falls in its mask of categories, the one with given front ranks (strongest
back first), the highest front (then back) or the strongest back (then front).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.houseways.facts import (
    ACE,
    FLUSH,
    NONE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    hand_facts,
    highest_back,
)

# ---------------------------------------------------------------------------------------------
# Facts: the named values a condition reads, by index into the per-hand facts array

FACTS: tuple[str, ...] = (
    # counts of the hand's effective ranks (the joker is an ace)
    "n_quads", "n_trips", "n_pairs", "n_singles",
    # ranks, highest first; -1 where the hand has none
    "quad1", "trips1", "trips2", "pair1", "pair2", "pair3",
    "single1", "single2", "single3", "single4", "single5", "single6", "single7",
    # the hand's structure: exactly one of these holds
    "five_aces", "quads", "full_house", "trips", "three_pair", "two_pair", "one_pair", "no_pair",
    # more about the hand
    "two_trips", "joker", "ace", "singleton_ace", "best_five", "complete",
)  # fmt: skip
F = {name: i for i, name in enumerate(FACTS)}
N_FACTS = len(FACTS)
STRUCTURES = ("five_aces", "quads", "full_house", "trips", "three_pair", "two_pair",
              "one_pair", "no_pair")  # fmt: skip
FIRST_STRUCTURE = F["five_aces"]  # the structure facts are in this order in FACTS
EVERY_STRUCTURE = (1 << len(STRUCTURES)) - 1

# ---------------------------------------------------------------------------------------------
# Operations of the condition code

OP_CONST, OP_FACT, OP_COUNT = 0, 1, 2  # push a constant; a fact; pop rank r, push its count
OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE = 3, 4, 5, 6, 7, 8
OP_AND, OP_OR, OP_NOT = 9, 10, 11
OP_HAS, OP_FRONT, OP_BACK = 12, 13, 14  # choice c: a setting exists; its front id; back id
OP_WIDTH = 2  # every operation takes two ints: the code and its argument (0 when none)

# choice selectors
SEL_RANKS, SEL_HIGHEST_FRONT, SEL_STRONGEST_BACK = 0, 1, 2
CHOICE_WIDTH = 7
ARG_NONE, ARG_CONST, ARG_FACT = 0, 1, 2  # an argument of a choice: a rank or a rank fact
RULE_WIDTH = 4
HEAD = 3  # the program's header: rules, start of the choices, start of the dispatch
STACK = 64  # deepest stack a condition may need (the compiler checks)
ALL_BACKS = (1 << 10) - 1  # every category of back


@njit(cache=True, nogil=True)
def fill_facts(f, vals):
    """The facts of hand ``f`` (``HandFacts``) into ``vals`` (``N_FACTS`` int64); returns the
    index of the hand's structure in ``STRUCTURES``."""
    nq, nt, np_, ns = f.n_quads, f.n_trips, f.n_pairs, f.n_singles
    vals[0], vals[1], vals[2], vals[3] = nq, nt, np_, ns
    vals[4] = f.quads[0]
    vals[5], vals[6] = f.trips[0], f.trips[1]
    vals[7], vals[8], vals[9] = f.pairs[0], f.pairs[1], f.pairs[2]
    for k in range(7):
        vals[10 + k] = f.singles[k]
    five = f.counts[ACE] == 5
    vals[17] = five
    vals[18] = nq > 0 and not five
    vals[19] = nq == 0 and nt >= 1 and nt + np_ >= 2
    vals[20] = nq == 0 and nt == 1 and np_ == 0
    vals[21] = nq == 0 and nt == 0 and np_ >= 3
    vals[22] = nq == 0 and nt == 0 and np_ == 2
    vals[23] = nq == 0 and nt == 0 and np_ == 1
    vals[24] = nq == 0 and nt == 0 and np_ == 0
    vals[25] = nt >= 2
    vals[26] = f.joker
    vals[27] = f.counts[ACE] >= 1
    vals[28] = f.counts[ACE] == 1
    vals[29] = f.best_cat
    vals[30] = f.best_cat == STRAIGHT or f.best_cat == FLUSH or f.best_cat == STRAIGHT_FLUSH
    for k in range(len(STRUCTURES)):
        if vals[FIRST_STRUCTURE + k]:
            return k
    return len(STRUCTURES) - 1


@njit(cache=True, nogil=True)
def _arg(kind, value, vals):
    if kind == ARG_CONST:
        return value
    if kind == ARG_FACT:
        return vals[value]
    return NONE


@njit(cache=True, nogil=True)
def choose_setting(f, prog, c, vals):
    """The setting choice ``c`` of the program makes for hand ``f``; ``NONE`` if none fits."""
    at = prog[1] + CHOICE_WIDTH * c
    sel, mask, royal = prog[at], prog[at + 1], prog[at + 2]
    r1 = _arg(prog[at + 3], prog[at + 4], vals)
    r2 = _arg(prog[at + 5], prog[at + 6], vals)
    hi, lo = max(r1, r2), min(r1, r2)
    best = NONE
    for s in range(21):
        if not f.valid[s] or (mask >> f.cat[s]) & 1 == 0:
            continue
        if royal and f.high[s] != f.royal_id:
            continue
        if sel == SEL_RANKS:
            if f.front_hi[s] != hi or f.front_lo[s] != lo:
                continue
            if best == NONE or f.high[s] > f.high[best]:
                best = s
        elif sel == SEL_HIGHEST_FRONT:
            if best == NONE or f.low[s] > f.low[best] or (
                f.low[s] == f.low[best] and f.high[s] > f.high[best]
            ):
                best = s
        elif best == NONE or f.high[s] > f.high[best] or (
            f.high[s] == f.high[best] and f.low[s] > f.low[best]
        ):
            best = s
    return best


@njit(cache=True, nogil=True)
def holds(f, prog, start, end, vals, stack):
    """Whether the condition code ``prog[start:end]`` holds for hand ``f``."""
    n = 0
    for at in range(start, end, OP_WIDTH):
        op, x = prog[at], prog[at + 1]
        if op == OP_CONST:
            stack[n] = x
            n += 1
        elif op == OP_FACT:
            stack[n] = vals[x]
            n += 1
        elif op == OP_COUNT:
            r = stack[n - 1]
            stack[n - 1] = f.counts[r] if r >= 0 else 0
        elif op == OP_NOT:
            stack[n - 1] = stack[n - 1] == 0
        elif op in (OP_HAS, OP_FRONT, OP_BACK):
            s = choose_setting(f, prog, x, vals)
            if op == OP_HAS:
                stack[n] = s != NONE
            elif s == NONE:
                stack[n] = -1
            else:
                stack[n] = f.low[s] if op == OP_FRONT else f.high[s]
            n += 1
        else:
            b, a = stack[n - 1], stack[n - 2]
            n -= 1
            if op == OP_EQ:
                v = a == b
            elif op == OP_NE:
                v = a != b
            elif op == OP_LT:
                v = a < b
            elif op == OP_LE:
                v = a <= b
            elif op == OP_GT:
                v = a > b
            elif op == OP_GE:
                v = a >= b
            elif op == OP_AND:
                v = a != 0 and b != 0
            else:
                v = a != 0 or b != 0
            stack[n - 1] = v
    return stack[0] != 0


@njit(cache=True, nogil=True)
def run_card(f, prog, vals, stack):
    """``(setting, rule-name index)`` of the first rule of the program that holds for hand
    ``f``; ``(NONE, n_names)`` when none does (the fallback sets it)."""
    k = fill_facts(f, vals)
    d = prog[2]
    for t in range(prog[d + k], prog[d + k + 1]):
        at = HEAD + RULE_WIDTH * prog[t]
        if holds(f, prog, prog[at], prog[at + 1], vals, stack):
            return choose_setting(f, prog, prog[at + 2], vals), prog[at + 3]
    return NONE, -1


@njit(cache=True, nogil=True)
def set_range_card(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, prog, setting,
                   rule, high, low):  # fmt: skip
    """Set the hands ``lo <= h < hi`` by the card program ``prog`` (``n_rules`` rule names: a
    setting that is not valid, or no rule that holds, goes to the fallback rule
    ``n_rules``, as ``base.settle`` does for every way)."""
    vals = np.empty(N_FACTS, dtype=np.int64)
    stack = np.empty(STACK, dtype=np.int64)
    everything = np.ones(21, dtype=np.bool_)
    for h in range(lo, hi):
        f = hand_facts(cards[h].astype(np.int64), ids5, max_low, category5, royal_id)
        s, r = run_card(f, prog, vals, stack)
        if s == NONE or r < 0 or not f.valid[s]:
            s, r = highest_back(f, everything), n_rules
        setting[h] = s
        rule[h] = r
        high[h] = f.high[s]
        low[h] = f.low[s]
