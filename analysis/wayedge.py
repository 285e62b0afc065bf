"""Any dealer way priced from the per-dealer tables, and the house-optimal dealer.

The per-dealer table (``enumerate.engine.perdealer``) holds, for one dealer hand of every class
and each of its valid settings, the exact player outcomes over the player hands of the other
cards. A dealer way picks one setting per class, so its house edge is a sum over classes of
orbit size x that setting's row: no engine run per way (``way_edge``). The same rows give the
setting that is best for the house in every class (``house_optimal``) and, for any way, what
each of its rules gives away against that ceiling (``rule_costs``).

Dealer rules of a variant apply per row: the class's own events (ace-high pai gow, two or more
jacks, queen-high pai gow) and the nine-high low hand of the setting itself.

>>> from enumerate.rules import Deck
>>> deck = Deck.parse("TJQKA:cdh+joker")
>>> t = way_edge("dealer-open", "trump-plaza", deck=deck, use_cache=False)
>>> t.house_way, t.player, t.total == 11440 * 36
('trump-plaza', 'best-response', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import njit

from analysis.pricing import ReturnTable, check_player, settle_lines
from analysis.variants import BEST_RESPONSE, HOUSE_WAY, Variant, get_variant
from enumerate.engine.keys import event_bits, nine_high_low
from enumerate.engine.perdealer import PerDealer, PlayerSide, is_cached, run_per_dealer
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table
from enumerate.vocabulary import DealerEvent
from enumerate.waytables import WayTable, way_table


@dataclass(frozen=True, eq=False)
class DealerLab:
    """A deck's hand table with the per-dealer table of one kind of player."""

    table: HandTable
    per_dealer: PerDealer
    player: str  # player mode: HOUSE_WAY (blind, by ``player_way``) or BEST_RESPONSE
    player_way: str | None  # the blind players' way

    @property
    def total(self) -> int:
        return int(self.table.orbit_size.astype(np.int64).sum()) * self.per_dealer.unit

    def point_bits(self, flag_mask: int) -> np.ndarray:
        """The dealer events (``DealerEvent`` bits, within ``flag_mask``) of every setting:
        its class's events and its own nine-high low hand."""
        t, pd = self.table, self.per_dealer
        cls = np.repeat(np.arange(len(t)), np.diff(pd.point_offset))
        own = event_bits(t.joker_is_ace, t.ace_high_pai_gow, t.jacks, t.queen_high_pai_gow,
                         np.zeros(len(t), dtype=np.int8))  # fmt: skip
        bits = own[cls] | np.where(nine_high_low(pd.point_low), int(DealerEvent.NINE_HIGH_LOW), 0)
        return bits & flag_mask


def dealer_lab(
    variant: Variant | str,
    player: str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    on_build: Callable[[str], None] | None = None,
) -> DealerLab:
    """The per-dealer table that prices ``variant`` for a player mode (default the variant's):
    best response, or blind players setting by ``player_way`` (default the variant's way).
    ``on_build`` is told first when the table is not in the cache and has to be built."""
    variant = get_variant(variant)
    mode = check_player(variant, player)
    deck, rules = deck or Deck.full(), rules or Rules()
    table = hand_table(deck, rules, use_cache)
    way = None
    if mode == BEST_RESPONSE:
        side = PlayerSide("response")
    else:
        way = player_way if isinstance(player_way, HouseWay) else get_way(
            player_way or variant.house_way)  # fmt: skip
        w = way_table(way, deck, rules, use_cache)
        side = PlayerSide("blind", f"house way {way.key}", w.high, w.low)
    if on_build is not None and not (use_cache and is_cached(table, side)):
        on_build(f"building the per-dealer table of deck {deck.name} ({side.mode} players"
                 + (f" by {way.name}" if way else "") + "); it is cached for every later way")
    return DealerLab(table, run_per_dealer(table, side, use_cache=use_cache), mode,
                     way.name if way else None)  # fmt: skip


@njit(cache=True)
def _sums(group, orbit, idx, win, other, n_groups):
    """Per group: orbit-weighted wins, other counts and classes."""
    out = np.zeros((n_groups, 3), dtype=np.int64)
    for c in range(group.shape[0]):
        g = group[c]
        w = orbit[c]
        out[g, 0] += w * win[idx[c]]
        out[g, 1] += w * other[idx[c]]
        out[g, 2] += w
    return out


def settings_of(lab: DealerLab, way: HouseWay) -> tuple[WayTable, np.ndarray]:
    """The way's table and the per-dealer row of the setting it picks in every class."""
    w = way_table(way, lab.table.deck, lab.table.rules)
    return w, lab.per_dealer.rows_of(w.high, w.low)


WayCounts = tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def way_counts(lab: DealerLab, way: HouseWay | str, flag_mask: int) -> WayCounts:
    """Counts over every deal with the dealer setting by ``way``, per dealer class (flag bits
    within ``flag_mask``): (bits, player wins, pushes, losses, deals)."""
    way = get_way(way) if isinstance(way, str) else way
    _, idx = settings_of(lab, way)
    bits = lab.point_bits(flag_mask)[idx]
    uniq, group = np.unique(bits, return_inverse=True)
    pd = lab.per_dealer
    s = _sums(group.astype(np.int64), lab.table.orbit_size.astype(np.int64), idx,
              pd.win.astype(np.int64), pd.other.astype(np.int64), len(uniq))  # fmt: skip
    deals = s[:, 2] * pd.unit
    win, other = s[:, 0], s[:, 1]
    rest = deals - win - other
    push, loss = (rest, other) if pd.mode == "blind" else (other, rest)
    return tuple(int(b) for b in uniq), win, push, loss, deals


def way_edge(
    variant: Variant | str,
    way: HouseWay | str,
    player: str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    lab: DealerLab | None = None,
) -> ReturnTable:
    """The exact return table of ``variant`` with the dealer setting by ``way``, from the
    per-dealer table (built once, then cached): equal, integer for integer, to a pair-engine
    run with that dealer way."""
    variant = get_variant(variant)
    lab = lab or dealer_lab(variant, player, player_way, deck, rules, use_cache)
    way = get_way(way) if isinstance(way, str) else way
    bits, win, push, loss, deals = way_counts(lab, way, variant.flag_mask)
    lines = settle_lines(variant, bits, win, push, loss, deals)
    notes = [variant.description] if variant.description else []
    if lab.player == HOUSE_WAY:
        notes.append(f"the player sets by the house way {lab.player_way}")
    notes.append("priced from the per-dealer table")
    return ReturnTable.from_lines(
        lines, lab.total, game=variant.name, deck=lab.table.deck.name, house_way=way.name,
        player=lab.player, title=variant.title, notes=tuple(notes),
    )  # fmt: skip


def player_values(lab: DealerLab, variant: Variant) -> tuple[np.ndarray, int]:
    """The player's total return at every setting, in units of 1/``scale`` of a bet per deal
    counted (exact integers): what each dealer setting gives the player under the variant's
    rules. Returns (values, scale)."""
    pays = variant.win_pays
    scale = pays.denominator
    win, _push, loss = (x.astype(np.int64) for x in lab.per_dealer.counts)
    normal = pays.numerator * win - scale * loss
    value = normal.copy()
    bits = lab.point_bits(variant.flag_mask)
    unit = lab.per_dealer.unit
    for b in np.unique(bits):
        rule = variant.rule_for(int(b))
        if rule is None:
            continue
        at = bits == b
        if rule.effect == "push":
            value[at] = 0
        elif rule.effect == "dealer-wins":
            value[at] = -scale * unit
        else:  # player-win-push: the wins push, the losses stand
            value[at] = -scale * loss[at]
    return value, scale


@njit(cache=True)
def _argmin_rows(offset, value):
    """Per class, the row with the smallest value (the first of equal ones)."""
    n = offset.shape[0] - 1
    out = np.empty(n, dtype=np.int64)
    for c in range(n):
        best = offset[c]
        for p in range(offset[c] + 1, offset[c + 1]):
            if value[p] < value[best]:
                best = p
        out[c] = best
    return out


@dataclass(frozen=True, eq=False)
class HouseOptimal:
    """The setting best for the house in every class, and what it is worth."""

    rows: np.ndarray  # per class, the per-dealer row of the house-optimal setting
    values: np.ndarray  # player's value of every row (units 1/scale)
    scale: int
    house_edge: Fraction  # the ceiling: no dealer way does better for the house


def house_optimal(lab: DealerLab, variant: Variant | str) -> HouseOptimal:
    """Per class, the dealer setting that leaves the player the least; its house edge."""
    variant = get_variant(variant)
    values, scale = player_values(lab, variant)
    rows = _argmin_rows(lab.per_dealer.point_offset, values)
    orbit = lab.table.orbit_size.astype(np.int64)
    total = int((orbit * values[rows]).sum())
    return HouseOptimal(rows, values, scale, -Fraction(total, scale * lab.total))


def edge_of_rows(lab: DealerLab, opt: HouseOptimal, rows: np.ndarray) -> Fraction:
    """The house edge of a dealer who picks ``rows`` (one per class)."""
    orbit = lab.table.orbit_size.astype(np.int64)
    return -Fraction(int((orbit * opt.values[rows]).sum()), opt.scale * lab.total)
