"""The search for a card: a decision list of rules over the classes' keys, grown by exact gain.

The input is a *key table*: per key (the classes that share every fact a condition can read,
``classes``), its fact vector, and per candidate front the exact gain of setting all its
classes by that front instead of by the base card (an integer: orbit-weighted EV numerators),
with a flag where the front is not usable on some class of the key. A card is a list of rules
``(condition, front)`` tried in order before the base card: a key is set by the first rule whose
condition holds, else by the base.

A condition is a conjunction of *literals*, each an interval of one fact (``pair1 >= J``,
``single1 in 9..Q``, ``joker``, ``best_five == flush``). Each step adds the one rule, at any
position of the list, that gains the most:

- for each position and front, an upper bound of what a rule there can gain (the positive gains
  of the keys it can reach) orders the candidates; a candidate whose bound cannot beat the best
  rule found so far is not searched (branch and bound);
- for a candidate, a beam search over conjunctions of up to ``DEPTH`` literals finds the
  condition of greatest gain whose keys are all usable by the front. The beam keeps the states
  with the fewest unusable keys and those with the greatest gain.

A wide search (``SEARCHES``) keeps three times the beam's states (a deep one nine times) and,
at the card sizes a report shows, *refits* the card: each rule in turn is taken out and the
best rule for the others searched again, kept where the card gains.

Every step is deterministic (ties go to the earlier position, front and literal), gains are
exact integers, and the total never decreases: a rule is added only when it gains.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np
from numba import njit

from enumerate.runtime.threads import cores

WIDTH = 16  # values a fact can take, -1 .. 14, at most
DEPTH = 4  # literals in a condition, at most
BEAM = 9  # states kept at each depth of the beam (``_beam``)


@dataclass(frozen=True, order=True)
class Literal:
    """``lo <= fact <= hi``, fact an index into the key table's facts."""

    fact: int
    lo: int
    hi: int


@dataclass(frozen=True)
class Rule:
    """A derived rule: a conjunction of literals and the index of its front."""

    literals: tuple[Literal, ...]
    front: int


@njit(cache=True, nogil=True)
def _histogram(region, g, bad, facts, lowest):
    """Per fact and value (from its lowest): the gains of the region's usable keys, their
    positive gains, and the number of its unusable keys."""
    nf = facts.shape[1]
    h = np.zeros((3, nf, WIDTH), dtype=np.int64)
    for i in range(region.shape[0]):  # a key's branch is taken once for all its facts
        k = region[i]
        gk = g[k]
        if bad[k]:
            for f in range(nf):
                h[2, f, facts[k, f] - lowest[f]] += 1
        elif gk > 0:
            for f in range(nf):
                v = facts[k, f] - lowest[f]
                h[0, f, v] += gk
                h[1, f, v] += gk
        else:
            for f in range(nf):
                h[0, f, facts[k, f] - lowest[f]] += gk
    return h


@njit(cache=True, nogil=True)
def _intervals(h, lowest, highest, used):
    """Every literal on a fact not yet ``used``: (fact, lo, hi, gain, unusable keys, positive
    gain) of the region narrowed to it. The whole range of a fact is no literal, nor is "a
    rank the hand lacks" alone (the card words such a hand by its structure)."""
    nf = h.shape[1]
    n = 0
    for f in range(nf):
        m = highest[f] - lowest[f] + 1
        n += m * (m + 1) // 2
    out = np.empty((n, 6), dtype=np.int64)
    r = 0
    for f in range(nf):
        if used[f]:
            continue
        m = highest[f] - lowest[f] + 1
        for a in range(m):
            gain = np.int64(0)
            nbad = np.int64(0)
            pos = np.int64(0)
            for z in range(a, m):
                gain += h[0, f, z]
                pos += h[1, f, z]
                nbad += h[2, f, z]
                if a == 0 and z == m - 1:
                    continue
                if lowest[f] == -1 and z == 0:
                    continue
                out[r, 0] = f
                out[r, 1] = a + lowest[f]
                out[r, 2] = z + lowest[f]
                out[r, 3] = gain
                out[r, 4] = nbad
                out[r, 5] = pos
                r += 1
    return out[:r]


@njit(cache=True, nogil=True)
def _bounds(first, gains, bad, value, n_positions):
    """``ub[i, j]``: the positive gains over the current value of the usable keys a rule of
    front j at position i can reach (those no rule before i sets)."""
    n_keys, n_fronts = gains.shape
    bucket = np.zeros((n_positions + 1, n_fronts), dtype=np.int64)
    for k in range(n_keys):
        for j in range(n_fronts):
            if not bad[k, j]:
                d = gains[k, j] - value[k]
                if d > 0:
                    bucket[first[k], j] += d
    for i in range(n_positions - 1, -1, -1):
        for j in range(n_fronts):  # element by element: a row add compiles far slower
            bucket[i, j] += bucket[i + 1, j]
    return bucket[:n_positions]


def satisfies(facts: np.ndarray, literals: tuple[Literal, ...]) -> np.ndarray:
    """Which keys meet every literal."""
    ok = np.ones(len(facts), dtype=np.bool_)
    for lit in literals:
        col = facts[:, lit.fact]
        ok &= (col >= lit.lo) & (col <= lit.hi)
    return ok


@dataclass(frozen=True, eq=False)
class KeyTable:
    """The search's input: facts and exact gains (over the base card) per key and front."""

    facts: np.ndarray  # (K, F) int8
    gains: np.ndarray  # (K, J) int64
    bad: np.ndarray  # (K, J) bool: the front is not usable on some class of the key
    lowest: np.ndarray  # (F,) int64 each fact's lowest value
    highest: np.ndarray  # (F,) int64

    def __post_init__(self) -> None:
        # a conjunction is coded in one integer (``_code``); a fact's values fill a row of
        # the histogram (``WIDTH``)
        if self.facts.shape[1] > 64 or int(self.lowest.min(initial=0)) < -1 or int(
                (self.highest - self.lowest).max(initial=0)) >= WIDTH:
            raise ValueError(f"a key table has at most 64 facts, of values -1 .. {WIDTH - 2}")


@dataclass(frozen=True)
class Search:
    """How hard a derivation looks: the states its beam keeps (``_beam_kernel``) and the card
    sizes at which it refits the rules found so far (``refit``)."""

    beam: int = BEAM
    refit_at: tuple[int, ...] = ()


# the card sizes a wide search refits at: those a report shows, and the largest asked for
REFIT_AT = (5, 12, 20, 30)
SEARCHES = {
    "greedy": Search(),  # one rule at a time, each the best a beam of 9 finds
    "wide": Search(27, REFIT_AT),  # a beam three times as wide, and the card refit
    "deep": Search(81, REFIT_AT),  # nine times as wide, and refit
}


def _beam(table: KeyTable, region: np.ndarray, g: np.ndarray, bad: np.ndarray, beam: int
          ) -> tuple[int, tuple[Literal, ...]]:  # fmt: skip
    """The conjunction of greatest gain over ``region`` whose keys are all usable; (0, ()) when
    none gains (``_beam_kernel``, keeping ``beam`` states)."""
    gain, lits = _beam_kernel(region, g, np.ascontiguousarray(bad), table.facts, table.lowest,
                              table.highest, beam, DEPTH)  # fmt: skip
    return int(gain), tuple(Literal(int(f), int(lo), int(hi)) for f, lo, hi in lits)


_CODE_BITS = 16  # a literal's code: fact in 6 bits, lo + 1 and hi + 1 in 5 bits each (``_code``)
assert DEPTH * _CODE_BITS <= 64


@njit(cache=True, nogil=True)
def _code(lits, n):
    """The ``n`` literals of ``lits`` (rows fact, lo, hi, in order of fact) as one integer:
    equal for equal conjunctions, distinct for distinct ones (at most 4 literals, facts below
    64, values -1 .. 30: what ``KeyTable`` admits; the first literal's fact may reach the sign
    bit, which only wraps)."""
    key = np.int64(0)
    for i in range(n):
        key = (key << _CODE_BITS) | (lits[i, 0] << 10) | ((lits[i, 1] + 1) << 5) | (lits[i, 2] + 1)
    return key


@njit(cache=True, nogil=True)
def _extend(lits, n, row):
    """``lits`` (``n`` rows fact, lo, hi, in order of fact) and the literal of a candidate row
    (fact, lo, hi, ...), in order of fact."""
    out = np.empty((n + 1, 3), dtype=np.int64)
    j = 0
    placed = False
    for i in range(n):
        if not placed and row[0] < lits[i, 0]:
            out[j, 0], out[j, 1], out[j, 2] = row[0], row[1], row[2]
            j += 1
            placed = True
        out[j, 0], out[j, 1], out[j, 2] = lits[i, 0], lits[i, 1], lits[i, 2]
        j += 1
    if not placed:
        out[j, 0], out[j, 1], out[j, 2] = row[0], row[1], row[2]
    return out


@njit(cache=True, nogil=True)
def _ascending(keys, order):
    """``order`` (indices into ``keys``) sorted by key, stably: equals keep their order in
    ``order`` (a merge sort; numba's own compiles several times slower)."""
    n = order.shape[0]
    a = order.copy()
    b = np.empty_like(a)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if keys[a[j]] < keys[a[i]]:
                    b[k] = a[j]
                    j += 1
                else:
                    b[k] = a[i]
                    i += 1
                k += 1
            while i < mid:
                b[k] = a[i]
                i += 1
                k += 1
            while j < hi:
                b[k] = a[j]
                j += 1
                k += 1
        a, b = b, a
        width *= 2
    return a


@njit(cache=True, nogil=True)
def _beam_kernel(region, g, bad, facts, lowest, highest, beam, depth_max):
    """The beam search of ``_beam``: (gain, literals as rows fact, lo, hi).

    From the region, each depth narrows the states kept by one literal on a fact they do not
    use. Of every literal of every state (rows fact, lo, hi, gain, unusable keys, positive
    gain, state, in order of state, fact, lo, hi), the best usable one so far is kept, and
    the next states are a third each of the first in three orders: the fewest unusable keys
    then the greatest gain, the greatest gain, the greatest positive gain (equals in row
    order), skipping conjunctions already kept. Literals whose positive gain cannot beat the
    best found are dropped."""
    keep = 0
    for k in region:
        if g[k] != 0 or bad[k]:  # keys that neither gain nor bar: no matter
            keep += 1
    reg = np.empty(keep, dtype=np.int64)
    keep = 0
    total = np.int64(0)
    unusable = False
    for k in region:
        if g[k] != 0 or bad[k]:
            reg[keep] = k
            keep += 1
            total += g[k]
            unusable = unusable or bad[k]
    best_gain = np.int64(0)
    best = np.empty((0, 3), dtype=np.int64)
    if keep == 0:
        return best_gain, best
    if not unusable and total > 0:
        best_gain = total
    nf = facts.shape[1]
    states = [np.empty((0, 3), dtype=np.int64)]
    regions = [reg]
    seen = np.empty(beam * depth_max, dtype=np.int64)  # the codes of the states kept
    n_seen = 0
    for depth in range(depth_max):
        found = []
        size = 0
        for s in range(len(states)):
            used = np.zeros(nf, dtype=np.bool_)
            for i in range(states[s].shape[0]):
                used[states[s][i, 0]] = True
            cand = _intervals(_histogram(regions[s], g, bad, facts, lowest), lowest, highest,
                              used)  # fmt: skip
            n_rows = 0  # no refinement of the others can beat the best
            for r in range(cand.shape[0]):
                if cand[r, 5] > best_gain:
                    for c in range(6):
                        cand[n_rows, c] = cand[r, c]
                    n_rows += 1
            found.append(cand[:n_rows])
            size += n_rows
        if size == 0:
            break
        every = np.empty((size, 7), dtype=np.int64)
        at = 0
        for s in range(len(found)):
            for r in range(found[s].shape[0]):
                for c in range(6):
                    every[at, c] = found[s][r, c]
                every[at, 6] = s
                at += 1
        top = -1
        for r in range(size):
            if every[r, 4] == 0 and (top < 0 or every[r, 3] > every[top, 3]):
                top = r
        if top >= 0 and every[top, 3] > best_gain:
            best_gain = every[top, 3]
            parent = states[every[top, 6]]
            best = _extend(parent, parent.shape[0], every[top])
        by_gain = _ascending(-every[:, 3], np.arange(size))
        by_clean = _ascending(every[:, 4].copy(), by_gain)
        by_positive = _ascending(-every[:, 5], np.arange(size))
        chosen = np.empty(beam, dtype=np.int64)
        codes = np.empty(beam, dtype=np.int64)
        lits = []
        n = 0
        for part in range(3):
            order = by_clean if part == 0 else by_gain if part == 1 else by_positive
            limit = beam * (part + 1) // 3
            for row in order:
                if n >= limit:
                    break
                parent = states[every[row, 6]]
                mine = _extend(parent, parent.shape[0], every[row])
                code = _code(mine, mine.shape[0])
                fresh = True
                for i in range(n_seen):
                    if seen[i] == code:
                        fresh = False
                for i in range(n):
                    if codes[i] == code:
                        fresh = False
                if fresh:
                    chosen[n] = row
                    codes[n] = code
                    lits.append(mine)
                    n += 1
        for i in range(n):
            seen[n_seen] = codes[i]
            n_seen += 1
        if depth == depth_max - 1:
            break
        regions = [_narrow(facts, regions[every[chosen[i], 6]], every[chosen[i]])
                   for i in range(n)]  # fmt: skip
        states = lits
    return best_gain, best


@njit(cache=True, nogil=True)
def _narrow(facts, region, row):
    """The keys of ``region`` that meet the literal of a candidate row (fact, lo, hi, ...)."""
    out = np.empty_like(region)
    n = 0
    f, lo, hi = row[0], row[1], row[2]
    for k in region:
        if lo <= facts[k, f] <= hi:
            out[n] = k
            n += 1
    return out[:n]


@dataclass(frozen=True)
class Step:
    """The card after a step: its rules in order and its total gain over the base."""

    rules: tuple[Rule, ...]
    gain: int


def first_rule(facts: np.ndarray, rules: Sequence[Rule]) -> np.ndarray:
    """Per key (its ``facts``), the position of the first rule that holds (``len(rules)``:
    none, the base)."""
    first = np.full(len(facts), len(rules), dtype=np.int64)
    for i in range(len(rules) - 1, -1, -1):
        first[satisfies(facts, rules[i].literals)] = i
    return first


def values(table: KeyTable, rules: list[Rule], first: np.ndarray) -> np.ndarray:
    """Per key, its gain over the base under the card ``rules``."""
    out = np.zeros(len(table.facts), dtype=np.int64)
    for i, rule in enumerate(rules):
        mine = first == i
        out[mine] = table.gains[mine, rule.front]
    return out


def _best_rule(table: KeyTable, rules: list[Rule], pool: ThreadPoolExecutor, jobs: int,
               beam: int) -> tuple[int, Rule] | None:  # fmt: skip
    """The rule to add to ``rules`` that gains the most, and its place (None: none gains)."""
    n_fronts = table.gains.shape[1]
    first = first_rule(table.facts, rules)
    value = values(table, rules, first)
    ub = _bounds(first, table.gains, table.bad, value, len(rules) + 1)
    order = [divmod(int(flat), n_fronts) for flat in np.lexsort((
        np.tile(np.arange(n_fronts), len(rules) + 1),
        np.repeat(np.arange(len(rules) + 1), n_fronts), -ub.ravel()))]  # fmt: skip
    # a new rule goes first or last: other places gained nothing more on the decks tried,
    # and each costs as much to search
    order = [(i, j) for i, j in order if i in (0, len(rules))]

    def search(candidate: tuple[int, int]) -> tuple[int, tuple[Literal, ...]]:
        i, j = candidate
        return _beam(table, np.flatnonzero(first >= i), table.gains[:, j] - value,
                     table.bad[:, j], beam)  # fmt: skip

    # candidates start in order as threads come free; the best is the greatest gain, the first
    # in order of equals: the rule a single thread finds (a candidate is skipped once its
    # bound cannot beat the best, which then comes from candidates before it)
    best_gain, best, best_at = 0, None, len(order)
    running: dict[Future[tuple[int, tuple[Literal, ...]]], int] = {}
    at = 0
    while True:
        while at < len(order) and len(running) < jobs and ub[order[at]] > best_gain:
            running[pool.submit(search, order[at])] = at
            at += 1
        if not running:
            return best
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            pos = running.pop(future)
            gain, lits = future.result()
            if gain > best_gain or (gain == best_gain and best is not None and pos < best_at):
                i, j = order[pos]
                best_gain, best, best_at = gain, (i, Rule(lits, j)), pos


def total(table: KeyTable, rules: Sequence[Rule]) -> int:
    """The card's exact gain over the base."""
    return int(values(table, list(rules), first_rule(table.facts, rules)).sum())


def refit(table: KeyTable, rules: list[Rule], pool: ThreadPoolExecutor, jobs: int, beam: int
          ) -> list[Rule]:  # fmt: skip
    """The card with each rule in turn taken out and the best rule for the others put back
    (``_best_rule``, first or last), kept where the card then gains more; repeated until a
    pass changes nothing. A greedy card's early rules were chosen before the later ones
    existed: a rule that later rules made narrow or half redundant is replaced by one that
    serves the card as it now is. Deterministic, and the gain never decreases."""
    rules = list(rules)
    gain = total(table, rules)
    changed = True
    while changed:
        changed = False
        for i in range(len(rules)):
            others = rules[:i] + rules[i + 1:]
            best = _best_rule(table, others, pool, jobs, beam)
            if best is None:
                continue
            trial = list(others)
            trial.insert(*best)
            g = total(table, trial)
            if g > gain:
                rules, gain, changed = trial, g, True
    return rules


def grow(table: KeyTable, max_rules: int, jobs: int | None = None,
         search: Search = SEARCHES["greedy"]) -> list[Step]:  # fmt: skip
    """The cards of 1, 2, ... rules (at most ``max_rules``; fewer when no rule gains): each
    adds the rule of greatest gain the ``search``'s beam finds, and at its refit sizes (and at
    ``max_rules``, when it refits at all) the card is ``refit``. The candidates of a step are
    searched on ``jobs`` threads (default one per core), started in their order: the result is
    the one a single thread finds."""
    rules: list[Rule] = []
    steps: list[Step] = []
    jobs = jobs or cores()
    with ThreadPoolExecutor(jobs, thread_name_prefix="derive") as pool:
        while len(rules) < max_rules:
            best = _best_rule(table, rules, pool, jobs, search.beam)
            if best is None:
                break
            rules.insert(*best)
            if search.refit_at and (len(rules) in search.refit_at or len(rules) == max_rules):
                rules = refit(table, rules, pool, jobs, search.beam)
            steps.append(Step(tuple(rules), total(table, rules)))
    return steps
