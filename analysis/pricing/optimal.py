"""The exact optimal strategy of the blind games, hand by hand (docs/design.md, "The per-hand
table (optimal strategy)").

For every class of seven-card hands and each of its non-dominated settings, the per-hand
engine gives the exact number of dealer hands (of the other 46 cards, set by the house way)
that the setting wins against and loses to, by up-set of dealer flags
(``enumerate.engine.perhand.answersets``), and the dealer hands by dealer class. A variant
turns these into an expected value; the optimal setting of a hand is the one with the highest
EV.

Exactness: EVs are kept as integers, ``ev_num = sum_j a_j * win_j + sum_j b_j * loss_j +
sum_d c_d * total_d`` with the variant's pays scaled by their common denominator and written
over the table's up-sets (``coefficients``), so comparisons and the house edge are exact.
Ties: the house way's own setting when it is among the best, otherwise the best setting with
the highest high hand.

One hand (``paigow best``) is ``analysis.pricing.best``: priced by the functions of this
module from its class's rows of the cached table, or from a direct loop over its dealer hands.

Dealer rules: the per-hand table keeps apart the dealer flags of every shipped blind variant
(one cached table serves them all) and those of the variant asked for (``per_hand_flags``), so
a variant file with a rule of its own (say "two or more jacks" in a hidden-dealer game) gets
its own table; pricing a table that lacks a flag the variant's rules need is a ValueError.
The win and loss columns are those every such variant needs (``per_hand_sets``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from analysis.games.variants import DealerRule, Variant, get_variant, variant_names
from analysis.pricing.returns import ReturnTable, settle_lines
from analysis.render.formats import decimal, markdown
from analysis.render.notebook import ShowsAsHtml
from enumerate.cards import Hand
from enumerate.engine import build_keys
from enumerate.engine.kernels.sums import weighted_rows
from enumerate.engine.perhand.answersets import AnswerSets, moebius, on_sets, subsets
from enumerate.engine.perhand.row import find_table
from enumerate.engine.perhand.table import PerHand, run_per_hand
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import over_ranges
from enumerate.tables import HandTable, hand_table
from enumerate.vocabulary import dealer_class_name
from enumerate.waytables import way_table

if TYPE_CHECKING:  # analysis.pricing.returns only where a return table is made, pandas only where a
    # frame is: `paigow best` needs neither
    import pandas as pd

    from analysis.pricing.returns import ReturnTable


def blind_flags() -> int:
    """The dealer flags of every shipped blind variant: one per-hand table serves them all."""

    mask = 0
    for name in variant_names():
        v = get_variant(name)
        if not v.dealer_exposed:
            mask |= v.flag_mask
    return mask


def per_hand_flags(variant: Variant) -> int:
    """The flag mask of the per-hand table for ``variant``: the shipped blind variants' flags
    (``blind_flags``, so they all share one cached table) and the variant's own rules'.

    >>> from analysis.games.variants import DealerRule
    >>> from enumerate.vocabulary import DealerEvent
    >>> per_hand_flags(get_variant("ez")) == blind_flags()
    True
    >>> v = Variant("jacks", False, Fraction(0), (DealerRule("two or more jacks", "push"),))
    >>> per_hand_flags(v) == blind_flags() | DealerEvent.TWO_JACKS
    True
    """
    return blind_flags() | variant.flag_mask


def per_hand_sets(variant: Variant) -> AnswerSets:
    """The win and loss columns of the per-hand table for ``variant``: those of the shipped
    blind variants (``_needs``; one cached table serves them all) and the variant's own.

    >>> per_hand_sets(get_variant("traditional"))  # ez: queen-high (8), commission-free: 16
    AnswerSets(win=(0, 8, 16), loss=(0, 8, 16))
    """

    win, loss = _needs(variant)
    for name in variant_names():
        v = get_variant(name)
        if not v.dealer_exposed:
            w, lo = _needs(v)
            win |= w
            loss |= lo
    return AnswerSets.of(win, loss)


def _needs(variant: Variant) -> tuple[set[int], set[int]]:
    """The up-sets a variant's prices and return-table lines are sums of: wins by every set
    of its flags (its pays and lines tell wins apart by the rule that settles them); losses
    likewise when a rule settles them apart (``_losses_apart``), else only all of them."""
    every = set(subsets(variant.flag_mask))
    return every, (every if _losses_apart(variant) else {0})


def _losses_apart(variant: Variant) -> bool:
    """Does a rule settle the player's losses apart from the others ("dealer wins" or a push
    of the whole bet)? "Player win pushed" leaves them lost."""
    return any(rule.effect != "player-win-push" for rule in variant.dealer_rules)


def _pays(variant: Variant, bits: int) -> tuple[int, int, int]:
    """Integer pays (win, loss, every hand) of a dealer hand with flags ``bits``, over the
    denominator of ``win_pays``: a normal dealer hand pays ``win_pays`` for a win and -1 for
    a loss; "player win pushed" 0 for a win and -1 for a loss; "dealer wins" -1 on every
    hand."""
    den = variant.win_pays.denominator
    rule = variant.rule_for(bits)
    if rule is None:
        return variant.win_pays.numerator, -den, 0
    if rule.effect == "player-win-push":
        return 0, -den, 0
    if rule.effect == "dealer-wins":
        return 0, 0, -den
    return 0, 0, 0  # the whole bet pushes


def coefficients(variant: Variant, per_hand: PerHand) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, int
]:  # fmt: skip
    """Integer pays per win column, per loss column and per dealer class (every hand), and
    their denominator (``_pays``, written over the table's up-sets: ``answersets.moebius``).

    A ValueError if the variant's rules need a dealer flag the counts do not keep apart
    (``PerHand.flag_mask``), or a column they do not keep.
    """
    flag_mask = per_hand.flag_mask
    missing = variant.flag_mask & ~flag_mask
    if missing:
        raise ValueError(
            f"variant {variant.name} settles dealer hands by {dealer_class_name(missing)}, but "
            f"the per-hand counts keep only dealer flags {flag_mask} apart (it needs "
            f"{variant.flag_mask})"
        )
    cells = per_hand.dealer_class_bits
    a = on_sets(moebius(lambda bits: _pays(variant, bits)[0], variant.flag_mask),
                per_hand.sets.win, cells, "win")  # fmt: skip
    b = on_sets(moebius(lambda bits: _pays(variant, bits)[1], variant.flag_mask),
                per_hand.sets.loss, cells, "loss")  # fmt: skip
    c = np.array([_pays(variant, bits)[2] for bits in cells], dtype=np.int64)
    return a, b, c, variant.win_pays.denominator


def exact_dot(weights: np.ndarray, values: np.ndarray) -> int:
    """The exact sum of ``weights * values`` (integer arrays): in int64 when no partial sum
    can reach 2^63 (the largest magnitudes times the length is below it), else in Python
    integers, exact at any size but far slower over the 6,972,147 classes.

    >>> exact_dot(np.array([3, 2]), np.array([5, -7]))
    1
    >>> exact_dot(np.array([3, 2]), np.array([2**61, -5]))
    6917529027641081846
    >>> exact_dot(np.array([1, 1]), np.array([2**62, 2**62]))  # past int64: Python integers
    9223372036854775808
    """
    w, v = weights.astype(np.int64), values.astype(np.int64)
    bound = int(np.abs(w).max(initial=0)) * int(np.abs(v).max(initial=0)) * len(w)
    if bound < 2**63:
        return int(np.dot(w, v))
    return int((w.astype(object) * v.astype(object)).sum())


@dataclass(frozen=True, eq=False)
class OptimalStrategy(ShowsAsHtml):
    """Per class: the EV of every frontier setting, the optimal one and the house way's."""

    variant: Variant
    house_way: str
    table: HandTable
    per_hand: PerHand
    point_ev: np.ndarray  # (P,) int64 EV numerators of the frontier points
    way_ev: np.ndarray  # (n,) int64 EV numerator of the house-way setting
    best_point: np.ndarray  # (n,) int64 index into the points of the optimal setting
    best_ev: np.ndarray  # (n,) int64
    way_is_best: np.ndarray  # (n,) bool: the house way's setting is optimal
    denominator: int  # EV = numerator / (denominator * dealer hands per player hand)
    way_rule: np.ndarray  # (n,) int8 rule the way used
    way_rule_names: tuple[str, ...]
    way_high: np.ndarray  # (n,) int64 the house way's setting: back and front ids
    way_low: np.ndarray

    @property
    def dealer_hands(self) -> int:
        return comb(self.table.deck.size - 7, 7)

    def ev(self, numerator: int) -> Fraction:
        """The EV per unit bet of one hand, from an EV numerator."""
        return Fraction(int(numerator), self.denominator * self.dealer_hands)

    def house_edge(self, optimal: bool = True) -> Fraction:
        """Exact house edge (minus the mean EV over all hands) with optimal or house-way play."""
        ev = self.best_ev if optimal else self.way_ev
        total = exact_dot(self.table.orbit_size, ev)
        return -Fraction(total, self.denominator * self.dealer_hands * self.table.total)

    def returns(self) -> ReturnTable:
        """The variant's return table when the player sets every hand this way."""
        return strategy_returns(self)

    def render(self, fmt: str = "md") -> str:
        """Markdown: the house edge by the house way and with optimal play, then what each
        rule of the house way gives up against optimal play."""
        if fmt != "md":
            raise ValueError(f"format {fmt!r}: an optimal strategy renders as md")

        way, best = self.house_edge(False), self.house_edge(True)
        head = [
            f"{self.variant.title or self.variant.name}, deck {self.table.deck.name}: the "
            f"optimal blind strategy against the house way {self.house_way}",
            f"house edge, house way: {float(way) * 100:.4f}% (exact: {way})",
            f"house edge, optimal: {float(best) * 100:.4f}% (exact: {best})",
            f"gain of optimal play: {float(way - best) * 100:.4f}%",
        ]
        rules = self.by_rule()
        rules["edge given up"] = [decimal(x, 8) for x in rules["edge given up"]]
        return "  \n".join(head) + "\n\n" + markdown(rules) + "\n"

    def given_up(self) -> np.ndarray:
        """Per class, the EV numerator the house way gives up against optimal play (>= 0)."""
        return self.best_ev - self.way_ev

    def by_rule(self) -> pd.DataFrame:
        """Per rule of the house way: hands it sets differently from optimal (a worse EV),
        all hands it sets, and the house edge it gives up."""
        gap = self.given_up()
        size = self.table.orbit_size.astype(np.int64)
        worse = gap > 0
        rows = []
        scale = self.denominator * self.dealer_hands * self.table.total
        for r, name in enumerate(self.way_rule_names):
            mine = self.way_rule == r
            if not mine.any():
                continue
            lost = exact_dot(size[mine & worse], gap[mine & worse])
            rows.append(
                {
                    "rule": name,
                    "hands": int(size[mine].sum()),
                    "hands not optimal": int(size[mine & worse].sum()),
                    "edge given up": Fraction(lost, scale),
                }
            )
        import pandas as pd  # here: ``paigow best`` imports this module and needs no pandas

        return pd.DataFrame(rows)

    def by_pattern(self, top: int | None = 60) -> pd.DataFrame:
        """Where the house way and optimal play differ (a worse EV), grouped by rule, rank
        pattern and the two settings (front ranks, back category: suits only through the
        straights and flushes it names), most EV given up first: hands, the house edge they
        give up, and what one such hand gives up on average. The list a player or a dealer
        trainer studies (``analysis.pricing.patterns.by_pattern``)."""
        # here: ``paigow best`` imports this module and needs no pandas (patterns reads it)
        from analysis.pricing.patterns import PatternInput, by_pattern

        per = self.per_hand
        best = self.best_point
        x = PatternInput(self.table.cards, self.table.orbit_size, self.way_rule,
                         self.way_rule_names, self.given_up(), self.way_high,
                         self.way_low, per.point_high[best].astype(np.int64),
                         per.point_low[best].astype(np.int64),
                         self.denominator * self.dealer_hands * self.table.total)  # fmt: skip
        return by_pattern(x, self.table.rules, "optimal", top)

    def top_losses(self, n: int = 20) -> pd.DataFrame:
        """The hands where the house way gives up the most EV (one hand per class)."""
        gap = self.given_up()
        order = np.argsort(-gap, kind="stable")[:n]
        rows = []
        for c in order:
            if gap[c] <= 0:
                break
            hand = Hand.from_ids(int(x) for x in self.table.cards[c]).sorted()
            rows.append(
                {
                    "hand": str(hand),
                    "rule": self.way_rule_names[int(self.way_rule[c])],
                    "house way EV": self.ev(int(self.way_ev[c])),
                    "optimal EV": self.ev(int(self.best_ev[c])),
                    "given up": self.ev(int(gap[c])),
                    "hands like it": int(self.table.orbit_size[c]),
                }
            )
        import pandas as pd

        return pd.DataFrame(rows)


@njit(cache=True, nogil=True)
def _ev_numerators_range(lo, hi, win, loss, total, a, b, c, offset, out):
    """Per row r of the classes ``lo <= k < hi``: ``win[r] @ a + loss[r] @ b + total[k] @ c``
    in int64, k the class whose rows ``offset[k] : offset[k + 1]`` hold r. One pass over the
    rows: the counts are columns of the per-hand blocks, and numpy, a column at a time, would
    pass over a whole block (about 1.5 GB of points on the full deck) once for each column
    and term."""
    for k in range(lo, hi):
        base = np.int64(0)
        for d in range(c.shape[0]):
            base += np.int64(total[k, d]) * c[d]
        for r in range(offset[k], offset[k + 1]):
            s = base
            for j in range(a.shape[0]):
                s += np.int64(win[r, j]) * a[j]
            for j in range(b.shape[0]):
                s += np.int64(loss[r, j]) * b[j]
            out[r] = s


def _ev_numerators(win: np.ndarray, loss: np.ndarray, total: np.ndarray, a: np.ndarray,
                   b: np.ndarray, c: np.ndarray, offset: np.ndarray,
                   one: bool = False) -> np.ndarray:  # fmt: skip
    """``_ev_numerators_range`` of every class, on both cores; ``one``: run by Python (one
    class, where starting the JIT costs more than the sums)."""
    out = np.empty(win.shape[0], dtype=np.int64)
    _over_classes(_ev_numerators_range, offset.shape[0] - 1, one, win, loss, total, a, b, c,
                  offset, out)  # fmt: skip
    return out


@njit(cache=True, nogil=True)
def _choose_range(lo, hi, point_ev, offset, point_high, point_low, way_high, way_low,
                  best_point, best_ev):  # fmt: skip
    """For the classes ``lo <= c < hi``, the best frontier point: the house way's setting when
    it is among the best, else the last best one (frontier points run by increasing high
    hand)."""
    for c in range(lo, hi):
        top = offset[c]
        for p in range(offset[c] + 1, offset[c + 1]):
            if point_ev[p] >= point_ev[top]:
                top = p
        for p in range(offset[c], offset[c + 1]):
            if (point_ev[p] == point_ev[top] and point_high[p] == way_high[c]
                    and point_low[p] == way_low[c]):  # fmt: skip
                top = p
        best_point[c] = top
        best_ev[c] = point_ev[top]


def _choose(point_ev: np.ndarray, offset: np.ndarray, point_high: np.ndarray,
            point_low: np.ndarray, way_high: np.ndarray, way_low: np.ndarray,
            one: bool = False) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``_choose_range`` of every class, on both cores (``one`` as for ``_ev_numerators``):
    (best point, its EV numerator) per class."""
    n = offset.shape[0] - 1
    best_point = np.empty(n, dtype=np.int64)
    best_ev = np.empty(n, dtype=np.int64)
    _over_classes(_choose_range, n, one, point_ev, offset, point_high, point_low, way_high,
                  way_low, best_point, best_ev)  # fmt: skip
    return best_point, best_ev


def _over_classes(kernel: Callable[..., None], n: int, one: bool, *args: object) -> None:
    """``kernel(lo, hi, *args)`` over the classes ``0 .. n - 1``: on both cores
    (``over_ranges``), or with ``one`` run by Python over them at once (``in_python``)."""
    if one:
        in_python(kernel)(0, n, *args)
    else:
        over_ranges(kernel, n, *args)


def point_evs(per_hand: PerHand, variant: Variant, way_high: np.ndarray, way_low: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:  # fmt: skip
    """EV numerators of every frontier point and of the house way's setting, the optimal
    point of each class and its EV numerator, and their denominator."""
    a, b, c, den = coefficients(variant, per_hand)
    # one class: the same functions run by Python, as starting the JIT costs more than them
    one = len(per_hand) == 1
    point_ev = _ev_numerators(per_hand.win, per_hand.loss, per_hand.total, a, b, c,
                              per_hand.point_offset, one)  # fmt: skip
    rows = np.arange(len(per_hand) + 1, dtype=np.int64)  # the way's setting: a row per class
    way_ev = _ev_numerators(per_hand.way_win, per_hand.way_loss, per_hand.total, a, b, c, rows,
                            one)  # fmt: skip
    best_point, best_ev = _choose(point_ev, per_hand.point_offset, per_hand.point_high,
                                  per_hand.point_low, way_high, way_low, one)  # fmt: skip
    return point_ev, way_ev, best_point, best_ev, den


def evaluate(per_hand: PerHand, variant: Variant, table: HandTable, house_way: str,
             way_high: np.ndarray, way_low: np.ndarray, way_rule: np.ndarray,
             rule_names: tuple[str, ...]) -> OptimalStrategy:  # fmt: skip
    """EVs of every frontier point and of the house way's setting; the optimal choice."""
    point_ev, way_ev, best_point, best_ev, den = point_evs(per_hand, variant, way_high, way_low)
    return OptimalStrategy(
        variant=variant, house_way=house_way, table=table, per_hand=per_hand,
        point_ev=point_ev, way_ev=way_ev, best_point=best_point, best_ev=best_ev,
        way_is_best=way_ev >= best_ev, denominator=den, way_rule=way_rule,
        way_rule_names=rule_names, way_high=way_high, way_low=way_low,
    )  # fmt: skip


def solve_optimal(
    variant: Variant | str = "traditional",
    house_way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    rows: list[int] | None = None,
) -> OptimalStrategy:
    """The optimal strategy of a blind variant against its house way (exact).

    ``rows`` restricts the per-hand work to those classes (the others get zero counts).
    """
    return next(optimal_strategies([variant], house_way, deck, rules, use_cache, rows))


def per_hand_table(table: HandTable, variant: Variant, house_way: str, use_cache: bool = True,
                   rows: list[int] | None = None) -> PerHand:  # fmt: skip
    """The per-hand table that prices ``variant`` against ``house_way`` (the shipped blind
    variants share one; the optimal banker of player banking reads it too). The engine keys
    it is built from (~0.5 GB on the full deck) are not kept."""
    keys = build_keys(table, get_way(house_way), flag_mask=per_hand_flags(variant),
                      use_cache=use_cache)  # fmt: skip
    return run_per_hand(table, keys, use_cache=use_cache, rows=rows, sets=per_hand_sets(variant))


def optimal_strategies(
    variants: Iterable[Variant | str],
    house_way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    rows: list[int] | None = None,
) -> Iterator[OptimalStrategy]:
    """``solve_optimal`` of each variant in turn, one at a time: variants whose per-hand
    tables are the same (the shipped blind variants share one) price one table held in
    memory, rather than each reading its ~1.7 GB again."""
    table = hand_table(deck, rules, use_cache)
    held: tuple[tuple[str, int, AnswerSets], PerHand] | None = None
    for v in variants:
        variant = blind_variant(v)
        way_name = house_way or variant.house_way
        way = get_way(way_name)
        wanted = (way_name, per_hand_flags(variant), per_hand_sets(variant))
        if held is None or held[0] != wanted:
            held = None  # drop the table before the next one is made
            held = (wanted, per_hand_table(table, variant, way_name, use_cache, rows))
        wt = way_table(way, table.deck, table.rules, use_cache)
        yield evaluate(held[1], variant, table, way_name, wt.high.astype(np.int64),
                       wt.low.astype(np.int64), wt.rule, wt.rule_names)  # fmt: skip


def blind_variant(variant: Variant | str) -> Variant:
    variant = get_variant(variant)
    if variant.dealer_exposed:
        raise ValueError(
            f"variant {variant.name} exposes the dealer's hand: its best play is the best "
            "response (--player best-response), not a blind strategy"
        )
    return variant


def _cached(variant: Variant, way_name: str, table: HandTable) -> bool:
    """Is the whole-deck per-hand table of this variant and way already cached?"""
    flags, sets = per_hand_flags(variant), per_hand_sets(variant)
    return find_table(table.deck, table.rules, get_way(way_name), flags, sets) is not None


def optimal_return_table(
    variant: Variant | str = "traditional",
    house_way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
) -> ReturnTable:
    """The variant's return table when the player sets every hand optimally (blind)."""
    return solve_optimal(get_variant(variant), house_way, deck, rules, use_cache).returns()


def strategy_returns(opt: OptimalStrategy, points: np.ndarray | None = None,
                     player: str = "optimal", notes: tuple[str, ...] | None = None,
                     player_way: str | None = None) -> ReturnTable:  # fmt: skip
    """The return table of the player who sets each class at its frontier point ``points``
    (default: the optimal player of ``opt``, ``OptimalStrategy.returns``), from the per-hand
    table of ``opt``; ``player`` and ``notes`` for the table."""

    variant = opt.variant
    per = opt.per_hand
    chosen = np.ascontiguousarray(opt.best_point if points is None else points, dtype=np.int64)
    size = np.ascontiguousarray(opt.table.orbit_size, dtype=np.int64)
    every = np.arange(len(size), dtype=np.int64)
    win = weighted_rows(per.win, chosen, size)  # by win set
    loss = weighted_rows(per.loss, chosen, size)  # by loss set
    total = weighted_rows(per.total, every, size)  # by dealer class
    # the lines add the counts by the rule that settles them: a group of dealer classes per
    # rule, its wins a sum of win columns (``moebius`` of the group's indicator)
    cells = per.dealer_class_bits
    rules_met = list(dict.fromkeys(variant.rule_for(bits) for bits in cells))
    first_bits, g_win, g_loss, g_total = [], [], [], []
    apart = _losses_apart(variant)
    for g, rule in enumerate(rules_met):
        mine = [d for d, bits in enumerate(cells) if variant.rule_for(bits) == rule]
        first_bits.append(cells[mine[0]])
        g_total.append(int(total[mine].sum()))

        def member(bits: int, rule: DealerRule | None = rule) -> int:
            return int(variant.rule_for(bits) == rule)

        alpha = moebius(member, variant.flag_mask)
        g_win.append(int(on_sets(alpha, per.sets.win, cells, "win") @ win))
        if apart:
            g_loss.append(int(on_sets(alpha, per.sets.loss, cells, "loss") @ loss))
        else:  # no rule settles losses apart: the lines need only their sum (and the pushes')
            g_loss.append(int(loss[0]) if g == 0 else 0)
    push = [t - w - lo for t, w, lo in zip(g_total, g_win, g_loss, strict=True)]
    lines = settle_lines(variant, first_bits, *(np.array(x, dtype=np.int64)
                         for x in (g_win, push, g_loss, g_total)))  # fmt: skip
    if notes is None:
        edge_way = opt.house_edge(False)
        notes = (
            variant.description,
            f"the player sets every hand with the highest exact EV against the house way "
            f"{opt.house_way}; with the house way itself the house edge is "
            f"{float(edge_way) * 100:.4f}%",
        )
    return ReturnTable.from_lines(
        lines, int(total.sum()), game=variant.name, deck=opt.table.deck.name,
        house_way=opt.house_way, player=player, title=variant.title, notes=notes,
        player_way=player_way,
    )  # fmt: skip
