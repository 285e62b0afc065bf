"""One hand's every non-dominated setting with its exact counts and EV (``paigow best``).

Its counts come from the cached per-hand table of the whole deck, reading only its class's rows
(``enumerate.engine.perhand.row``), or when there is none from a direct loop over its dealer
hands (``enumerate.engine.onehand.direct``); both are priced by the functions that price the
whole table (``analysis.pricing.optimal.point_evs``), so the EVs are the same integers.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.games.variants import Variant
from analysis.pricing.optimal import blind_variant, per_hand_flags, per_hand_sets, point_evs
from analysis.render.formats import decimal, markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.cards import parse_cards
from enumerate.engine.onehand.direct import hand_counts
from enumerate.engine.perhand.row import HandCounts
from enumerate.evaluate import SettingValue, settings
from enumerate.houseways import get_way, set_one_hand
from enumerate.rules import Deck, Rules
from enumerate.strategy import frontier_points

if TYPE_CHECKING:
    import pandas as pd

# the columns of a row of ``HandChoices``
COLUMNS = ("high", "low", "high hand", "low hand", "win", "push", "loss", "EV", "optimal",
           "house way")  # fmt: skip


@dataclass(frozen=True, eq=False)
class HandChoices(ShowsAsHtml):
    """Every non-dominated setting of one hand with its exact counts against all dealer hands
    of the other cards and its EV (``settings``, best first; the house way's setting too when
    it is dominated); ``counts``: the numbers, and where they came from (``counts.method``).
    ``rows``: the same settings as dicts (no pandas: the CLI prints them without it)."""

    rows: tuple[dict[str, Any], ...]
    variant: Variant
    house_way: str
    dealer_hands: int
    counts: HandCounts
    counts_hand: str = ""  # the hand, as given

    @property
    def settings(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(list(self.rows), columns=list(COLUMNS))

    def render(self, fmt: str = "md") -> str:
        """The settings as markdown (with a heading line), CSV or JSON, without pandas."""
        hand = self.counts_hand
        if fmt == "json":
            return to_json({
                "hand": hand.split(), "variant": self.variant.name,
                "house_way": self.house_way, "dealer_hands": self.dealer_hands,
                "settings": [{**r, "EV": float(r["EV"]), "EV_fraction": r["EV"]}
                             for r in self.rows],
            }) + "\n"  # fmt: skip
        cols = ["high", "low", "high hand", "low hand", "win", "push", "loss", "EV", "mark"]
        cells = [[r["high"], r["low"], r["high hand"], r["low hand"], str(r["win"]),
                  str(r["push"]), str(r["loss"]), decimal(r["EV"], 6),
                  "optimal" * r["optimal"] + " + " * (r["optimal"] and r["house way"])
                  + "house way" * r["house way"]] for r in self.rows]  # fmt: skip
        if fmt == "csv":
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows([cols, *cells])
            return out.getvalue()
        if fmt != "md":
            raise ValueError(f"format {fmt!r}: expected md, csv or json")
        numeric = [c in ("win", "push", "loss") for c in cols]
        return (f"{hand}: {self.variant.name}, dealer sets by {self.house_way}; counts over "
                f"the {self.dealer_hands:,} dealer hands of the other cards\n\n"
                + markdown_cells(cols, cells, numeric) + "\n")  # fmt: skip


def hand_choices(
    cards: str,
    variant: Variant | str = "traditional",
    house_way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    method: str = "auto",
) -> HandChoices:
    """Every non-dominated setting of one hand with its exact counts against all dealer hands
    of the other cards, and its EV; the house way's choice and the optimal one marked.

    ``method`` (``enumerate.engine.onehand.direct.hand_counts``): "auto" reads the cached
    per-hand table of the whole deck when there is one and otherwise counts this hand alone;
    "table" and "direct" force one way.
    """
    hand = parse_cards(cards, count=7)
    variant = blind_variant(variant)
    deck = deck or Deck.full()
    rules = rules or Rules()
    if deck.size < 14:
        raise ValueError(f"deck {deck.name} has {deck.size} cards; two hands need 14")
    missing = [str(c) for c in hand if c not in deck.cards]
    if missing:
        raise ValueError(f"card {missing[0]} is not in the deck {deck.name}")
    way_name = house_way or variant.house_way
    way = get_way(way_name)
    every = settings(hand, rules)
    by_ids: dict[tuple[int, int], SettingValue] = {}
    for s in every:
        if s.valid:
            by_ids.setdefault((s.high_id, s.low_id), s)
    got = hand_counts([c.id for c in hand], deck, rules, way, per_hand_flags(variant),
                      frontier_points(every), per_hand_sets(variant), use_cache,
                      method)  # fmt: skip
    per, way_point = got.counts, (got.way_high, got.way_low)
    point_ev, way_ev, best_point, _best, den = point_evs(
        per, variant, np.array([got.way_high]), np.array([got.way_low]))  # fmt: skip
    n = comb(deck.size - 7, 7)
    rows: list[dict[str, Any]] = []
    for p in range(len(per.point_high)):
        s = by_ids[(int(per.point_high[p]), int(per.point_low[p]))]
        win, loss = int(per.win[p, 0]), int(per.loss[p, 0])  # column 0: all dealer hands
        rows.append(
            {
                "high": " ".join(str(c) for c in s.high),
                "low": " ".join(str(c) for c in s.low),
                "high hand": s.high_name,
                "low hand": s.low_name,
                "win": win,
                "push": n - win - loss,
                "loss": loss,
                "EV": Fraction(int(point_ev[p]), den * n),
                "optimal": p == int(best_point[0]),
                "house way": (s.high_id, s.low_id) == way_point,
            }
        )
    if not any(r["house way"] for r in rows):  # the way's setting is dominated: show it too
        chosen = set_one_hand(way, hand, rules)
        win, loss = int(per.way_win[0, 0]), int(per.way_loss[0, 0])
        rows.append(
            {
                "high": " ".join(str(c) for c in chosen.high),
                "low": " ".join(str(c) for c in chosen.low),
                "high hand": "(dominated)",
                "low hand": "",
                "win": win,
                "push": n - win - loss,
                "loss": loss,
                "EV": Fraction(int(way_ev[0]), den * n),
                "optimal": False,
                "house way": True,
            }
        )
    best_first = sorted(rows, key=lambda r: r["EV"], reverse=True)  # stable: ties keep order
    return HandChoices(tuple(best_first), variant, way_name, n, got,
                       " ".join(str(c) for c in hand))
