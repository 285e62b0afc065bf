"""Rule cards run by numba: a card compiled to one int64 program (``program``) and the kernel
that sets hands by it.

A program is a table of rules, each a condition (postfix code over the hand's named facts) and
a choice of setting; the first rule whose condition holds sets the hand. One kernel serves every
card: a card is data, so a new card or a new reading of one compiles nothing.

Layout of a program (int64)::

    [0] number of rules       [1] start of the choices table    [2] start of the dispatch
    rules table: per rule (condition start, condition end, choice index, rule-name index)
    choices table: per choice (selector, back mask, royal only, arg kind 1, arg 1, kind 2, arg 2,
        lowest front: a rank the front's higher card must reach unless it is a pair, or -1)
    dispatch: per structure of hand (``STRUCTURES``), the start of its rules in the list after
        it (one more entry closes the last), then the list: the rules a hand of that structure
        can meet, in the card's order
    code: the conditions' postfix operations

The dispatch is what keeps a card fast: a rule that says ``two_pair and ...`` is never tried on
a hand of another structure, so a hand meets a few conditions, not the whole card.

Facts are worked out once per hand into a table (``facts.facts_into``, one per thread) and
the named ones into an array (``FACTS`` names them); a condition pushes facts and constants on
a small stack and combines them. The kernel passes plain arrays, not a ``HandFacts`` of
separate arrays (numba counts the references to each at every call), and its helpers are
inlined into it: a hand meets a few dozen conditions, and the calls would be most of the time.
A choice picks, among the valid settings whose back falls in its mask of categories, the one
with given front ranks (strongest back first), the highest front (then back), the strongest
back (then front) or the most points of the card's chart (then the strongest back, then the
highest front; ``points``: the chart is stored after the code and ``program.link`` expands it
into the points of every back and front id before the kernel runs).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from enumerate.conditions.facts import CARD_FACTS, CARD_STRUCTURES
from enumerate.evaluate import HIGH_ID_BOUND
from enumerate.houseways.facts import (
    ACE,
    FACT_ROWS,
    FLUSH,
    NONE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    T_BEST_CAT,
    T_CAT,
    T_COUNTS,
    T_FRONT_HI,
    T_FRONT_LO,
    T_HIGH,
    T_JOKER,
    T_LOW,
    T_N_PAIRS,
    T_N_QUADS,
    T_N_SINGLES,
    T_N_TRIPS,
    T_PAIRS,
    T_QUADS,
    T_ROYAL,
    T_SCALARS,
    T_SINGLES,
    T_TRIPS,
    T_VALID,
    highest_back_in,
    row_facts_into,
)
from enumerate.houseways.points import chart_end

# ---------------------------------------------------------------------------------------------
# Facts: the named values a condition reads, by index into the per-hand facts array

# the card scope's facts (``enumerate.conditions.facts``), in the order ``fill_facts`` writes
FACTS: tuple[str, ...] = tuple(f.name for f in CARD_FACTS)
F = {name: i for i, name in enumerate(FACTS)}
N_FACTS = len(FACTS)
STRUCTURES = CARD_STRUCTURES  # exactly one holds for a hand, in this order in FACTS
FIRST_STRUCTURE = F["five_aces"]  # the structure facts are in this order in FACTS
EVERY_STRUCTURE = (1 << len(STRUCTURES)) - 1

# ---------------------------------------------------------------------------------------------
# Operations of the condition code

OP_CONST, OP_FACT, OP_COUNT = 0, 1, 2  # push a constant; a fact; pop rank r, push its count
OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE = 3, 4, 5, 6, 7, 8
OP_AND, OP_OR, OP_NOT = 9, 10, 11
OP_HAS, OP_FRONT, OP_BACK = 12, 13, 14  # choice c: a setting exists; its front id; back id
OP_FRONT_HIGH, OP_FRONT_LOW = 15, 16  # choice c: the higher and lower rank of its front
CHOICE_OPS = (OP_HAS, OP_FRONT, OP_BACK, OP_FRONT_HIGH, OP_FRONT_LOW)
OP_WIDTH = 2  # every operation takes two ints: the code and its argument (0 when none)

# choice selectors
SEL_RANKS, SEL_HIGHEST_FRONT, SEL_STRONGEST_BACK, SEL_POINTS = 0, 1, 2, 3
CHOICE_WIDTH = 8
# a points choice: at these columns of its row, the start of the linked points (-1 until
# ``program.link``) and of the chart as written
POINTS_LINKED, POINTS_CHART = 4, 6
ARG_NONE, ARG_CONST, ARG_FACT = 0, 1, 2  # an argument of a choice: a rank or a rank fact
RULE_WIDTH = 4
HEAD = 3  # the program's header: rules, start of the choices, start of the dispatch
STACK = 64  # deepest stack a condition may need (the compiler checks)
ALL_BACKS = (1 << 10) - 1  # every category of back


@njit(cache=True, nogil=True, inline="always")
def fill_facts(t, vals):
    """The named facts of the hand of fact table ``t`` (``facts.facts_into``) into ``vals``
    (``N_FACTS`` int64); returns the index of the hand's structure in ``STRUCTURES``."""
    nq, nt = t[T_SCALARS, T_N_QUADS], t[T_SCALARS, T_N_TRIPS]
    np_, ns = t[T_SCALARS, T_N_PAIRS], t[T_SCALARS, T_N_SINGLES]
    vals[0], vals[1], vals[2], vals[3] = nq, nt, np_, ns
    vals[4] = t[T_QUADS, 0]
    vals[5], vals[6] = t[T_TRIPS, 0], t[T_TRIPS, 1]
    vals[7], vals[8], vals[9] = t[T_PAIRS, 0], t[T_PAIRS, 1], t[T_PAIRS, 2]
    for k in range(7):
        vals[10 + k] = t[T_SINGLES, k]
    aces = t[T_COUNTS, ACE]
    five = aces == 5
    vals[17] = five
    vals[18] = nq > 0 and not five
    vals[19] = nq == 0 and nt >= 1 and nt + np_ >= 2
    vals[20] = nq == 0 and nt == 1 and np_ == 0
    vals[21] = nq == 0 and nt == 0 and np_ >= 3
    vals[22] = nq == 0 and nt == 0 and np_ == 2
    vals[23] = nq == 0 and nt == 0 and np_ == 1
    vals[24] = nq == 0 and nt == 0 and np_ == 0
    vals[25] = nt >= 2
    vals[26] = t[T_SCALARS, T_JOKER]
    vals[27] = aces >= 1
    vals[28] = aces == 1
    best = t[T_SCALARS, T_BEST_CAT]
    vals[29] = best
    vals[30] = best in (STRAIGHT, FLUSH, STRAIGHT_FLUSH)
    for k in range(len(STRUCTURES)):
        if vals[FIRST_STRUCTURE + k]:
            return k
    return len(STRUCTURES) - 1


@njit(cache=True, nogil=True)
def rank_argument(kind, value, vals):
    """A choice's rank argument: a rank (``ARG_CONST``), a fact's value (``ARG_FACT``) or
    ``NONE``."""
    if kind == ARG_CONST:
        return value
    if kind == ARG_FACT:
        return vals[value]
    return NONE


@njit(cache=True, nogil=True, inline="always")
def choose_setting(t, prog, c, vals):
    """The setting choice ``c`` of the program makes for the hand of fact table ``t``; ``NONE``
    if none fits."""
    at = prog[1] + CHOICE_WIDTH * c
    sel, mask, royal = prog[at], prog[at + 1], prog[at + 2]
    r1 = rank_argument(prog[at + 3], prog[at + 4], vals)
    r2 = rank_argument(prog[at + 5], prog[at + 6], vals)
    least = prog[at + 7]
    hi, lo = max(r1, r2), min(r1, r2)
    chart = prog[at + POINTS_LINKED]
    if sel == SEL_POINTS and chart < 0:
        return NONE  # an unlinked chart (the runners link every program first)
    best = NONE
    most = 0
    for s in range(21):
        if t[T_VALID, s] == 0 or (mask >> t[T_CAT, s]) & 1 == 0:
            continue
        if royal and t[T_HIGH, s] != t[T_SCALARS, T_ROYAL]:
            continue
        if least >= 0 and t[T_FRONT_HI, s] < least and t[T_FRONT_HI, s] != t[T_FRONT_LO, s]:
            continue
        if sel == SEL_RANKS:
            if t[T_FRONT_HI, s] != hi or t[T_FRONT_LO, s] != lo:
                continue
            if best == NONE or t[T_HIGH, s] > t[T_HIGH, best]:
                best = s
        elif sel == SEL_POINTS:
            v = prog[chart + t[T_HIGH, s]] + prog[chart + HIGH_ID_BOUND + t[T_LOW, s]]
            if best == NONE or v > most or (v == most and (t[T_HIGH, s] > t[T_HIGH, best] or (
                t[T_HIGH, s] == t[T_HIGH, best] and t[T_LOW, s] > t[T_LOW, best]
            ))):
                best = s
                most = v
        elif sel == SEL_HIGHEST_FRONT:
            if best == NONE or t[T_LOW, s] > t[T_LOW, best] or (
                t[T_LOW, s] == t[T_LOW, best] and t[T_HIGH, s] > t[T_HIGH, best]
            ):
                best = s
        elif best == NONE or t[T_HIGH, s] > t[T_HIGH, best] or (
            t[T_HIGH, s] == t[T_HIGH, best] and t[T_LOW, s] > t[T_LOW, best]
        ):
            best = s
    return best


@njit(cache=True, nogil=True, inline="always")
def holds(t, prog, start, end, vals, stack):
    """Whether the condition code ``prog[start:end]`` holds for the hand of fact table ``t``."""
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
            stack[n - 1] = t[T_COUNTS, r] if r >= 0 else 0
        elif op == OP_NOT:
            stack[n - 1] = stack[n - 1] == 0
        elif op in CHOICE_OPS:
            s = choose_setting(t, prog, x, vals)
            if op == OP_HAS:
                stack[n] = s != NONE
            elif s == NONE:
                stack[n] = -1
            elif op == OP_FRONT:
                stack[n] = t[T_LOW, s]
            elif op == OP_BACK:
                stack[n] = t[T_HIGH, s]
            elif op == OP_FRONT_HIGH:
                stack[n] = t[T_FRONT_HI, s]
            else:
                stack[n] = t[T_FRONT_LO, s]
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


@njit(cache=True, nogil=True, inline="always")
def first_rule(t, prog, vals, stack, k):
    """``(setting, position)`` of the first rule of the program (its position in the card)
    that holds for the hand of fact table ``t`` and structure ``k`` (its facts in ``vals``);
    ``(NONE, -1)`` when none does (the fallback sets it). The setting is ``NONE`` when the
    rule's front cannot be made."""
    d = prog[2]
    for i in range(prog[d + k], prog[d + k + 1]):
        r = prog[i]
        at = HEAD + RULE_WIDTH * r
        if holds(t, prog, prog[at], prog[at + 1], vals, stack):
            return choose_setting(t, prog, prog[at + 2], vals), r
    return NONE, -1


@njit(cache=True, nogil=True, inline="always")
def name_of(prog, position):
    """The rule-name index of the rule at ``position`` in the card (-1 stays -1)."""
    return prog[HEAD + RULE_WIDTH * position + 3] if position >= 0 else -1


@njit(cache=True, nogil=True)
def run_card(f, prog, vals, stack):
    """``(setting, rule-name index)`` of the card for a hand whose facts are not yet worked
    out (``set_hand``; ``f``: its ``HandFacts``)."""
    s, r = first_rule(f.table, prog, vals, stack, fill_facts(f.table, vals))
    return s, name_of(prog, r)


@njit(cache=True, nogil=True)
def set_range_cards(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, progs, same,
                    remap, setting, rule, high, low):  # fmt: skip
    """Set the hands ``lo <= h < hi`` by every card program of ``progs`` (a row each, with its
    ``n_rules`` rule names; a setting that is not valid, or no rule that holds, goes to the
    fallback rule ``n_rules[k]``, as ``base.settle`` does for every way).

    A hand's facts are worked out once for all the programs, and a program whose rules for the
    hand's structure are those of an earlier one (``same[structure, k]``, from
    ``batch``) copies its setting, its rule renamed by ``remap[k, j]``: the
    readings of one card differ in a few structures only."""
    vals = np.empty(N_FACTS, dtype=np.int64)
    stack = np.empty(STACK, dtype=np.int64)
    t = np.empty((FACT_ROWS, 21), dtype=np.int64)
    hand = np.empty(7, dtype=np.int64)
    everything = np.ones(21, dtype=np.bool_)
    for h in range(lo, hi):
        row_facts_into(cards, h, hand, ids5, max_low, category5, royal_id, t)
        k = fill_facts(t, vals)
        for c in range(progs.shape[0]):
            j = same[k, c]
            if j == c:
                s, r = first_rule(t, progs[c], vals, stack, k)
                r = name_of(progs[c], r)
                if s == NONE or r < 0 or t[T_VALID, s] == 0:
                    s, r = highest_back_in(t, everything), n_rules[c]
            else:
                s, r = setting[h, j], rule[h, j]
                r = n_rules[c] if r == n_rules[j] else remap[c, j, r]
            setting[h, c] = s
            rule[h, c] = r
            high[h, c] = t[T_HIGH, s]
            low[h, c] = t[T_LOW, s]


def _choice_of(prog: np.ndarray, c: int) -> tuple[int, ...]:
    """A choice's row; a points choice's with its chart as written (two cards' charts differ
    where their rows are alike)."""
    at = int(prog[1]) + CHOICE_WIDTH * c
    row = tuple(int(x) for x in prog[at : at + CHOICE_WIDTH])
    if row[0] != SEL_POINTS:
        return row
    chart = row[POINTS_CHART]
    end = chart_end(prog, chart)
    plain = tuple(0 if i in (POINTS_LINKED, POINTS_CHART) else x for i, x in enumerate(row))
    return plain + tuple(int(x) for x in prog[chart:end])


def _rules_of(prog: np.ndarray, names: tuple[str, ...], k: int) -> tuple[object, ...]:
    """What a hand of structure ``k`` can meet in ``prog``: each dispatched rule's condition
    (choices spelled out), choice and rule name."""
    d = int(prog[2])
    out: list[object] = []
    for t in range(int(prog[d + k]), int(prog[d + k + 1])):
        at = HEAD + RULE_WIDTH * int(prog[t])
        start, end, c, name = (int(x) for x in prog[at : at + RULE_WIDTH])
        code: list[object] = []
        for i in range(start, end, OP_WIDTH):
            op, x = int(prog[i]), int(prog[i + 1])
            code.append((op, _choice_of(prog, x) if op in CHOICE_OPS else x))
        out.append((tuple(code), _choice_of(prog, c), names[name]))
    return tuple(out)


def batch(programs: Sequence[np.ndarray], names: list[tuple[str, ...]]
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The arguments of ``set_range_cards`` for ``programs`` (with each one's rule names):
    the programs as rows (padded), ``same[structure, k]`` (the first program whose rules for
    that structure are program k's) and ``remap[k, j, r]`` (program j's rule r as program
    k's)."""
    n = len(programs)
    width = max(len(p) for p in programs)
    progs = np.zeros((n, width), dtype=np.int64)
    for k, p in enumerate(programs):
        progs[k, : len(p)] = p
    same = np.empty((len(STRUCTURES), n), dtype=np.int64)
    for s in range(len(STRUCTURES)):
        first: dict[tuple[object, ...], int] = {}
        for k in range(n):
            same[s, k] = first.setdefault(_rules_of(progs[k], names[k], s), k)
    most = max(len(x) for x in names)
    remap = np.zeros((n, n, most), dtype=np.int64)
    for k in range(n):
        index = {name: r for r, name in enumerate(names[k])}
        for j in range(n):
            for r, name in enumerate(names[j]):
                remap[k, j, r] = index.get(name, 0)
    return progs, same, remap


@njit(cache=True, nogil=True)
def trace_range_card(lo, hi, cards, ids5, max_low, category5, royal_id, prog, position, setting,
                     valid, high, low):  # fmt: skip
    """For the checker (``paigow way check``): for each hand ``lo <= h < hi``, the position in
    the card of the rule that sets it (-1: no rule holds), the setting that rule chooses (-1:
    none fits), whether that setting is valid, and its back and front ids when it is."""
    vals = np.empty(N_FACTS, dtype=np.int64)
    stack = np.empty(STACK, dtype=np.int64)
    t = np.empty((FACT_ROWS, 21), dtype=np.int64)
    hand = np.empty(7, dtype=np.int64)
    for h in range(lo, hi):
        row_facts_into(cards, h, hand, ids5, max_low, category5, royal_id, t)
        s, r = first_rule(t, prog, vals, stack, fill_facts(t, vals))
        position[h] = r
        setting[h] = s
        valid[h] = s != NONE and t[T_VALID, s] != 0
        high[h] = t[T_HIGH, s] if valid[h] else -1
        low[h] = t[T_LOW, s] if valid[h] else -1
