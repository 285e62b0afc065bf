"""Any dealer way priced from the per-dealer tables, and the house-optimal dealer.

The per-dealer table (``enumerate.engine.perdealer.table``) holds, for one dealer hand of
every class and each of its valid settings, the exact player outcomes over the player hands of
the other cards. A dealer way picks one setting per class, so its house edge is a sum over
classes of orbit size x that setting's row: no engine run per way (``price_dealer_way``). The
same rows give the setting that is best for the house in every class (``house_optimal``) and,
for any way, what each of its rules gives away against that ceiling (``rule_costs``).

Dealer rules of a variant apply per row: the class's own events (ace-high pai gow, two or more
jacks, queen-high pai gow) and the nine-high low hand of the setting itself.

>>> from enumerate.rules import Deck
>>> deck = Deck.parse("TJQKA:cdh+joker")
>>> t = price_dealer_way("dealer-open", "trump-plaza", deck=deck, use_cache=False)
>>> t.house_way, t.player, t.total == 11440 * 36
('trump-plaza', 'best-response', True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
from numba import njit

from analysis.games.players import Player
from analysis.games.variants import Variant, get_variant
from analysis.pricing.returns import ReturnTable, check_player, settle_lines
from enumerate.engine.keys import event_bits, nine_high_low
from enumerate.engine.perdealer.table import PerDealer, PlayerSide, is_cached, run_per_dealer
from enumerate.evaluate import N_LOW
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS, DealerEvent
from enumerate.waytables import WayTable, way_table, way_table_of


@dataclass(frozen=True, eq=False)
class DealerLab:
    """A deck's hand table with the per-dealer table of one kind of player."""

    table: HandTable
    per_dealer: PerDealer
    player: str  # player mode: Player.HOUSE_WAY (blind, by ``player_way``) or Player.BEST_RESPONSE
    player_way: str | None  # the blind players' way
    # the last ways' settings (``settings_of``): a report prices a way, its rules and its
    # patterns in turn, each from the way's table and its setting's row in every class
    settings: dict[str, tuple[WayTable, np.ndarray]] = field(
        default_factory=dict, init=False, repr=False)  # fmt: skip
    # ``settings`` is shared by the threads pricing ways at once (``analysis.waylab.reconcile``)
    lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def total(self) -> int:
        return int(self.table.orbit_size.astype(np.int64).sum()) * self.per_dealer.unit

    @cached_property
    def class_bits(self) -> np.ndarray:
        """The dealer events every hand of a class holds, whatever its setting (all but the
        nine-high low hand, which is the setting's own)."""
        t = self.table
        return event_bits(t.joker_is_ace, t.ace_high_pai_gow, t.jacks, t.queen_high_pai_gow,
                          np.zeros(len(t), dtype=np.int8))  # fmt: skip

    def bits_of(self, rows: np.ndarray, flag_mask: int) -> np.ndarray:
        """The dealer events (within ``flag_mask``) of one setting per class (``rows``)."""
        return (self.class_bits | _LOW_BITS[self.per_dealer.point_low[rows]]) & flag_mask


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
    if mode == Player.BEST_RESPONSE:
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


SETTINGS_KEPT = 3  # the ways of a report's lab section, priced once for each variant


@njit(cache=True, nogil=True)
def _sums(bits, orbit, idx, win, other, n_bits):
    """Per dealer-event bits value: orbit-weighted wins, other counts and classes."""
    out = np.zeros((n_bits, 3), dtype=np.int64)
    for c in range(bits.shape[0]):
        b = bits[c]
        w = np.int64(orbit[c])
        out[b, 0] += w * win[idx[c]]
        out[b, 1] += w * other[idx[c]]
        out[b, 2] += w
    return out


def settings_of(lab: DealerLab, way: HouseWay) -> tuple[WayTable, np.ndarray]:
    """The way's table and the per-dealer row of the setting it picks in every class (the
    last ``SETTINGS_KEPT`` ways' are kept in ``lab``: about 90 MB a way on the full deck)."""
    with lab.lock:
        kept = lab.settings.get(way.key)
    if kept is None:
        w = way_table_of(way, lab.table)
        kept = w, lab.per_dealer.rows_of(w.high, w.low)
        with lab.lock:
            while len(lab.settings) >= SETTINGS_KEPT:
                del lab.settings[next(iter(lab.settings))]
            lab.settings[way.key] = kept
    return kept


WayCounts = tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def way_counts(lab: DealerLab, way: HouseWay | str, flag_mask: int) -> WayCounts:
    """Counts over every deal with the dealer setting by ``way``, per dealer class (flag bits
    within ``flag_mask``): (bits, player wins, pushes, losses, deals)."""
    way = get_way(way) if isinstance(way, str) else way
    _, idx = settings_of(lab, way)
    bits = lab.bits_of(idx, flag_mask)
    pd = lab.per_dealer
    s = _sums(bits, lab.table.orbit_size, idx, pd.win, pd.other, ALL_DEALER_EVENTS + 1)
    present = np.flatnonzero(s[:, 2])  # the dealer classes that occur, as the engine's
    s = s[present]
    deals = s[:, 2] * pd.unit
    win, other = s[:, 0], s[:, 1]
    rest = deals - win - other
    push, loss = (rest, other) if pd.mode == "blind" else (other, rest)
    return tuple(int(b) for b in present), win, push, loss, deals


def price_dealer_way(
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
    if lab.player == Player.HOUSE_WAY:
        notes.append(f"the player sets by the house way {lab.player_way}")
    notes.append("priced from the per-dealer table")
    return ReturnTable.from_lines(
        lines, lab.total, game=variant.name, deck=lab.table.deck.name, house_way=way.name,
        player=str(lab.player), title=variant.title, notes=tuple(notes),
    )  # fmt: skip


# the dealer events a low hand makes, by two-card id
_LOW_BITS = np.where(nine_high_low(np.arange(N_LOW)), int(DealerEvent.NINE_HIGH_LOW), 0)
# how a dealer rule settles a bet, as the kernels read it
_NORMAL, _PUSH, _DEALER_WINS, _WIN_PUSHES = 0, 1, 2, 3
_EFFECT_CODES = {"push": _PUSH, "dealer-wins": _DEALER_WINS, "player-win-push": _WIN_PUSHES}


@dataclass(frozen=True)
class Pricing:
    """What the kernels need to value a dealer setting under a variant: the player's return
    in units of 1/``scale`` of a bet is ``pays * win - scale * loss`` for a normal hand, and
    what the first dealer rule says otherwise (``effect[bits]``)."""

    pays: int  # the numerator of the win payout over ``scale``
    scale: int
    effect: np.ndarray  # per dealer-event bits value: _NORMAL, _PUSH, ...
    flag_mask: int

    @classmethod
    def of(cls, variant: Variant) -> Pricing:
        effect = np.zeros(ALL_DEALER_EVENTS + 1, dtype=np.int64)
        for b in range(ALL_DEALER_EVENTS + 1):
            rule = variant.rule_for(b & variant.flag_mask)
            effect[b] = _NORMAL if rule is None else _EFFECT_CODES[rule.effect]
        pays = variant.win_pays
        return cls(pays.numerator, pays.denominator, effect, variant.flag_mask)

    @property
    def key(self) -> tuple[int, ...]:
        """Equal for two pricings that value every dealer setting alike."""
        return (self.pays, self.scale, self.flag_mask, *(int(x) for x in self.effect))


@njit(cache=True, inline="always")
def _value(p, bits, win, other, blind, unit, pays, scale, effect):
    """The player's return (units 1/scale) over the player hands against setting ``p``."""
    loss = other[p] if blind else unit - win[p] - other[p]
    e = effect[bits]
    if e == _NORMAL:
        return pays * np.int64(win[p]) - scale * np.int64(loss)
    if e == _PUSH:
        return np.int64(0)
    if e == _DEALER_WINS:
        return -scale * np.int64(unit)
    return -scale * np.int64(loss)


@njit(cache=True, inline="always")
def _bits(cls_bits, low, low_bits, mask):
    """Dealer events of a setting: its class's, and its own low hand's (``low_bits[low id]``:
    the nine-high low hand)."""
    return (cls_bits | low_bits[low]) & mask


@njit(cache=True)
def _best_rows(offset, low, win, other, blind, unit, cls_bits, low_bits, mask, pays, scale,
               effect):  # fmt: skip
    """Per class, the setting leaving the player the least (the first of equal ones), and
    that value."""
    n = offset.shape[0] - 1
    rows = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    for c in range(n):
        best = offset[c]
        v_best = _value(best, _bits(cls_bits[c], low[best], low_bits, mask), win, other, blind,
                        unit, pays, scale, effect)  # fmt: skip
        for p in range(offset[c] + 1, offset[c + 1]):
            v = _value(p, _bits(cls_bits[c], low[p], low_bits, mask), win, other, blind, unit,
                       pays, scale, effect)  # fmt: skip
            if v < v_best:
                best, v_best = p, v
        rows[c] = best
        values[c] = v_best
    return rows, values


@njit(cache=True)
def _values_at(rows, low, win, other, blind, unit, cls_bits, low_bits, mask, pays, scale,
               effect):  # fmt: skip
    """The player's value of one setting per class (``rows``)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for c in range(rows.shape[0]):
        p = rows[c]
        out[c] = _value(p, _bits(cls_bits[c], low[p], low_bits, mask), win, other, blind, unit,
                        pays, scale, effect)  # fmt: skip
    return out


@njit(cache=True)
def _values_every(offset, low, win, other, blind, unit, cls_bits, low_bits, mask, pays, scale,
                  effect):  # fmt: skip
    """The player's value of every setting of every class."""
    out = np.empty(low.shape[0], dtype=np.int64)
    for c in range(offset.shape[0] - 1):
        for p in range(offset[c], offset[c + 1]):
            out[p] = _value(p, _bits(cls_bits[c], low[p], low_bits, mask), win, other, blind,
                            unit, pays, scale, effect)  # fmt: skip
    return out


@dataclass(frozen=True, eq=False)
class HouseOptimal:
    """The setting best for the house in every class, and what it is worth."""

    lab: DealerLab
    pricing: Pricing
    rows: np.ndarray  # per class, the per-dealer row of the house-optimal setting
    values: np.ndarray  # per class, the player's value there (units 1/scale)
    house_edge: Fraction  # the ceiling: no dealer way does better for the house

    @property
    def scale(self) -> int:
        return self.pricing.scale

    def values_at(self, rows: np.ndarray) -> np.ndarray:
        """The player's value (units 1/scale) of one setting per class."""
        return _values_at(rows, *_kernel_args(self.lab, self.pricing))

    def point_values(self) -> np.ndarray:
        """The player's value (units 1/scale) of every setting of every class (the per-dealer
        table's points)."""
        offset = self.lab.per_dealer.point_offset
        return _values_every(offset, *_kernel_args(self.lab, self.pricing))

    def edge_of(self, rows: np.ndarray) -> Fraction:
        """The house edge of a dealer who picks ``rows`` (one setting per class)."""
        orbit = self.lab.table.orbit_size.astype(np.int64)
        return -Fraction(int((orbit * self.values_at(rows)).sum()), self.scale * self.lab.total)


def _kernel_args(lab: DealerLab, pr: Pricing) -> tuple[object, ...]:
    pd = lab.per_dealer
    return (pd.point_low, pd.win, pd.other, pd.mode == "blind", pd.unit, lab.class_bits,
            _LOW_BITS, pr.flag_mask, pr.pays, pr.scale, pr.effect)  # fmt: skip


def house_optimal(lab: DealerLab, variant: Variant | str) -> HouseOptimal:
    """Per class, the dealer setting that leaves the player the least; its house edge."""
    pr = Pricing.of(get_variant(variant))
    rows, values = _best_rows(lab.per_dealer.point_offset, *_kernel_args(lab, pr))
    orbit = lab.table.orbit_size.astype(np.int64)
    edge = -Fraction(int((orbit * values).sum()), pr.scale * lab.total)
    return HouseOptimal(lab, pr, rows, values, edge)

