"""House ways compared: how a way sets one hand, where two ways differ, dominated settings.

Every count is a number of seven-card hands of the deck (each suit class weighted by its orbit
size), so the counts of the full deck add up to 154,143,080; shares are exact ``Fraction``s.

A setting is *dominated* when another valid setting of the same hand is at least as strong in
both hands and stronger in one, i.e. its (high id, low id) is not on the hand's frontier
(``enumerate.strategy``). A player who sets a hand on a dominated setting gives something away
against every dealer hand.

>>> r = set_report("gli", "Ks Kh 9c 7d 5h 3s 2c")
>>> " ".join(map(str, r.chosen.low)), r.rule
('9c 7d', '6. one pair: two highest singletons in front')
>>> r.dominated
False
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.render.formats import decimal, markdown, markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SETTING_PAIRS, settings
from enumerate.houseways import get_way, readings_of, registered_ways, set_one_hand
from enumerate.houseways.registry import import_file
from enumerate.rules import Deck, Rules
from enumerate.strategy import frontier_points
from enumerate.tables import hand_table
from enumerate.waytables import player_table, way_table

# pandas, numba and the tables are imported by the functions that use them: the CLI imports
# this module for every command (``load_way_module``), and ``set`` sets one hand
if TYPE_CHECKING:
    import pandas as pd

    from enumerate.evaluate import SettingValue
    from enumerate.houseways import HouseWay
    from enumerate.tables import HandTable
    from enumerate.waytables import PlayerTable, WayTable


def _way(way: HouseWay | str) -> HouseWay:

    return get_way(way) if isinstance(way, str) else way


WAY_MODULES_ENV = "PAIGOW_WAY_MODULES"
# the casino ways of data/ways (max-back is a lab way, not a casino's)
CASINO_WAYS = (
    "gli", "trump-plaza", "foxwoods", "golden-nugget", "ballys", "flamingo-hilton", "mgm-grand",
)


def load_way_module(spec: str) -> ModuleType:
    """Import a module of user-defined house ways, which registers them when imported.

    ``spec`` is a path to a ``.py`` file or a dotted module name importable from ``sys.path``
    or from the current folder.
    A file already loaded is not loaded again. Any failure is a ``ValueError`` of one line.
    """

    text = spec.strip()
    is_path = text.endswith(".py") or os.sep in text or Path(text).is_file()
    try:
        if not is_path:
            try:
                return importlib.import_module(text)
            except ModuleNotFoundError as err:
                # like ``python -m``: a module of the current folder is found too
                if err.name != text.split(".")[0] or os.getcwd() in sys.path:
                    raise
                sys.path.insert(0, os.getcwd())
                return importlib.import_module(text)
        path = Path(text).expanduser().resolve()
        if not path.is_file():
            raise ValueError("no such file")
        for module in list(sys.modules.values()):
            if getattr(module, "__file__", None) == str(path):
                return module
        # named after the file, as ``import stem`` from its folder would (numba's on-disk
        # cache of ``njit(cache=True)`` functions remembers the module name)
        name = path.stem
        if not name.isidentifier() or name in sys.modules:
            digest = hashlib.sha256(str(path).encode()).hexdigest()[:8]
            name = "paigow_way_" + re.sub(r"\W", "_", path.stem) + "_" + digest
        return import_file(name, str(path))
    except Exception as err:  # the module's own errors too: one line for the user
        what = str(err) if isinstance(err, ValueError) else f"{type(err).__name__}: {err}"
        what = " ".join(what.split())
        raise ValueError(f"cannot load way module {spec!r}: {what}") from None


def way_modules_from_env() -> list[str]:
    """The module specs listed in ``$PAIGOW_WAY_MODULES`` (colon-separated)."""
    return [s for s in os.environ.get(WAY_MODULES_ENV, "").split(":") if s.strip()]


def way_listing() -> pd.DataFrame:
    """The registered house ways: ``name``, ``version``, ``rules`` (how many rules the way's
    card has, the fallback not counted) and ``description``."""
    import pandas as pd


    rows = [
        {"name": w.name, "version": w.version, "rules": len(w.rules), "description": w.description}
        for w in registered_ways()
    ]
    return pd.DataFrame(rows, columns=["name", "version", "rules", "description"])


def clause_listing() -> pd.DataFrame:
    """The ambiguous clauses of the registered ways' cards: ``way``, ``clause`` (its id),
    ``rule`` (of the card), ``default`` (the reading the way takes), ``literal`` (the reading of
    the words as they stand) and ``text`` (the clause). Choose readings as
    ``way[clause=reading,...]``."""
    import pandas as pd


    rows = [
        {"way": w.name, "clause": c.id, "rule": c.rule, "default": chosen, "literal": c.literal,
         "text": c.text}
        for w in registered_ways()
        for c, chosen in readings_of(w)
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["way", "clause", "rule", "default", "literal", "text"])


def reading_listing() -> pd.DataFrame:
    """The alternatives of each clause of ``clause_listing``: ``way``, ``clause``, ``reading``
    (its name) and ``meaning``."""
    import pandas as pd


    rows = [
        {"way": w.name, "clause": c.id, "reading": name, "meaning": meaning}
        for w in registered_ways()
        for c, _ in readings_of(w)
        for name, meaning in c.alternatives
    ]
    return pd.DataFrame(rows, columns=["way", "clause", "reading", "meaning"])


def way_records() -> list[dict]:
    """``way_listing`` as records, each with its ``clauses``: id, rule, text, default, literal
    and ``readings`` (name -> meaning)."""

    records = way_listing().to_dict("records")
    for r in records:
        r["clauses"] = [
            {"clause": c.id, "rule": c.rule, "text": c.text, "default": chosen,
             "literal": c.literal, "readings": dict(c.alternatives)}
            for c, chosen in readings_of(str(r["name"]))
        ]  # fmt: skip
    return records


# ---------------------------------------------------------------------------------------------
# One hand


@dataclass(frozen=True)
class SetReport(ShowsAsHtml):
    """How a house way sets one hand, and the settings a player could choose instead."""

    way: HouseWay
    hand: tuple[Card, ...]
    chosen: SettingValue
    rule: str
    alternatives: tuple[SettingValue, ...]  # the non-dominated valid settings, strongest back first

    @property
    def dominated(self) -> bool:
        """The way's setting is not on the hand's frontier."""
        point = (self.chosen.high_id, self.chosen.low_id)
        return all((s.high_id, s.low_id) != point for s in self.alternatives)

    def render(self, fmt: str = "text") -> str:
        """The way's setting, the rule that fired and the non-dominated settings, as text
        (``paigow set``), markdown or JSON."""
        c = self.chosen
        if fmt == "json":
            return to_json({"high": _names(c.high), "low": _names(c.low), "rule": self.rule,
                            "alternatives": [_setting_json(s) for s in self.alternatives]}) + "\n"
        if fmt not in ("text", "md"):
            raise ValueError(f"format {fmt!r}: expected text, md or json")
        high, low = " ".join(_names(c.high)), " ".join(_names(c.low))
        lines = [f"hand: {' '.join(_names(self.hand))}",
                 f"house way: {self.way.name} (version {self.way.version})"]
        if fmt == "md":
            lines += [f"high: {high} ({c.high_name}); low: {low} ({c.low_name})",
                      f"rule: {self.rule}"]
        else:
            lines += [f"high: {high:<16}  {c.high_name}", f"low:  {low:<16}  {c.low_name}",
                      f"rule: {self.rule}"]
        if self.dominated:
            lines += ["the way's setting is dominated: another setting is as strong in both "
                      "hands and", "stronger in one"]  # fmt: skip
        lines += ["", f"non-dominated settings ({len(self.alternatives)}), strongest high hand "
                  "first (* = the way's setting):"]  # fmt: skip
        rows = [["*" if (s.high, s.low) == (c.high, c.low) else "", " ".join(_names(s.high)),
                 " ".join(_names(s.low)), s.high_name, s.low_name]
                for s in self.alternatives]  # fmt: skip
        if fmt == "md":
            table = markdown_cells(["", "high", "low", "high hand", "low hand"], rows,
                                   [False] * 5)  # fmt: skip
            return "\n\n".join(["  \n".join(lines[:-2]), lines[-1], table]) + "\n"
        lines += [f"{m or ' '} {h:<16}  {lo:<6}  {hn} / {ln}" for m, h, lo, hn, ln in rows]
        return "\n".join(lines) + "\n"


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _setting_json(s: SettingValue) -> dict[str, object]:
    return {"high": _names(s.high), "low": _names(s.low), "high_name": s.high_name,
            "low_name": s.low_name}  # fmt: skip


def set_report(
    way: HouseWay | str, cards: Sequence[Card] | str, rules: Rules | None = None
) -> SetReport:
    """Set ``cards`` by ``way``; list the hand's non-dominated settings beside it.

    Where several settings share a frontier point (the same high and low ranks, suits aside),
    the way's own setting stands for it if it is that point, else the first in
    ``SETTING_PAIRS`` order.
    """

    way = _way(way)
    hand = parse_cards(cards, count=7)
    ws = set_one_hand(way, hand, rules)
    every = settings(hand, rules)
    chosen = next(s for s in every if s.high == ws.high and s.low == ws.low)
    alternatives = []
    for h, lo in reversed(frontier_points(every)):  # strongest high hand first
        if (chosen.high_id, chosen.low_id) == (h, lo):
            alternatives.append(chosen)
        else:
            alternatives.append(
                next(s for s in every if s.valid and (s.high_id, s.low_id) == (h, lo))
            )
    return SetReport(way, hand, chosen, ws.rule, tuple(alternatives))


# ---------------------------------------------------------------------------------------------
# Whole deck


def _hand_text(cards: np.ndarray) -> str:
    """Card ids (increasing) written strongest first: ``'As Kd 9c ...'``."""
    return " ".join(str(Card(int(c))) for c in sorted(cards.tolist(), reverse=True))


def _front_text(cards: np.ndarray, setting: int) -> str:
    """The front of setting ``setting`` of a class's (increasing) cards, higher card first."""

    i, j = SETTING_PAIRS[setting]
    return f"{Card(int(cards[j]))} {Card(int(cards[i]))}"


def _tables(
    deck: Deck | None, rules: Rules | None, hands: HandTable | None
) -> tuple[Deck, Rules, HandTable]:

    deck = deck or Deck.full()
    rules = rules or Rules()
    if hands is None or hands.deck != deck or hands.rules != rules:
        hands = hand_table(deck, rules)
    return deck, rules, hands


@dataclass(frozen=True)
class WayDiff(ShowsAsHtml):
    """Where two house ways set the hands of a deck differently.

    ``rows``: one row per pair of rules that fired (``a_rule``, ``b_rule``) among the hands the
    two ways set differently (a different high id or low id), with ``hands`` (weighted count),
    ``classes`` (suit classes), ``share`` of all hands (``Fraction``), and an ``example`` hand
    with the front each way gives it (``a_front``, ``b_front``); most hands first.
    """

    a: str
    b: str
    deck: Deck
    rules: Rules
    total: int  # hands of the deck
    same: int  # hands both ways set alike (same high id and low id)
    different: int  # hands they set differently: the sum of rows["hands"]
    rows: pd.DataFrame
    dominated: pd.DataFrame  # ``dominated_counts`` of each way (once when a and b are one)

    def render(self, fmt: str = "md") -> str:
        """Markdown (headline, the rows, the dominated hands), one CSV table, or JSON."""
        if fmt not in _DIFF_RENDER:
            raise ValueError(f"format {fmt!r}: expected md, csv or json")
        return _DIFF_RENDER[fmt](self)


DIFF_COLUMNS = ["a_rule", "b_rule", "hands", "classes", "share", "example", "a_front", "b_front"]


def diff_ways(
    a: HouseWay | str,
    b: HouseWay | str,
    deck: Deck | None = None,
    rules: Rules | None = None,
    hands: HandTable | None = None,
) -> WayDiff:
    """Count, weighted by orbit size, the hands ``a`` and ``b`` set differently, broken down
    by the rule of each way that fired."""
    import pandas as pd


    deck, rules, hands = _tables(deck, rules, hands)
    wa, wb = way_table(_way(a), deck, rules), way_table(_way(b), deck, rules)
    weight = hands.orbit_size.astype(np.int64)
    total = int(weight.sum())
    rows = np.flatnonzero((wa.high != wb.high) | (wa.low != wb.low))
    df = pd.DataFrame({"a": wa.rule[rows], "b": wb.rule[rows], "w": weight[rows], "row": rows})
    g = (
        df.groupby(["a", "b"], sort=False)
        .agg(hands=("w", "sum"), classes=("w", "size"), row=("row", "min"))
        .reset_index()
        .sort_values(["hands", "a", "b"], ascending=[False, True, True], kind="stable")
    )
    out = pd.DataFrame(
        {
            "a_rule": [wa.rule_names[r] for r in g["a"]],
            "b_rule": [wb.rule_names[r] for r in g["b"]],
            "hands": g["hands"].astype(np.int64).to_numpy(),
            "classes": g["classes"].astype(np.int64).to_numpy(),
            "share": [Fraction(int(n), total) for n in g["hands"]],
            "example": [_hand_text(hands.cards[r]) for r in g["row"]],
            "a_front": [_front_text(hands.cards[r], int(wa.setting[r])) for r in g["row"]],
            "b_front": [_front_text(hands.cards[r], int(wb.setting[r])) for r in g["row"]],
        },
        columns=DIFF_COLUMNS,
    )
    different = int(weight[rows].sum())
    ways = [a] if wa.way == wb.way else [a, b]
    return WayDiff(wa.way, wb.way, deck, rules, total, total - different, different, out,
                   dominated_counts(ways, deck, rules, hands))


def _dominated_mask(w: WayTable, p: PlayerTable) -> np.ndarray:
    return ~p.on_frontier(w.high, w.low)


def dominated_counts(
    ways: Sequence[HouseWay | str],
    deck: Deck | None = None,
    rules: Rules | None = None,
    hands: HandTable | None = None,
) -> pd.DataFrame:
    """For each way, the hands it sets on a dominated setting: ``way``, ``hands`` (weighted),
    ``classes``, ``share`` of all hands (``Fraction``), an ``example`` hand and the ``front``
    the way gives it (empty when the way never sets a dominated hand)."""
    import pandas as pd


    deck, rules, hands = _tables(deck, rules, hands)
    players = player_table(deck, rules)
    weight = hands.orbit_size.astype(np.int64)
    total = int(weight.sum())
    out = []
    for way in ways:
        w = way_table(_way(way), deck, rules)
        rows = np.flatnonzero(_dominated_mask(w, players))
        n = int(weight[rows].sum())
        first = int(rows[0]) if len(rows) else -1
        out.append(
            {
                "way": w.way,
                "hands": n,
                "classes": len(rows),
                "share": Fraction(n, total),
                "example": _hand_text(hands.cards[first]) if first >= 0 else "",
                "front": _front_text(hands.cards[first], int(w.setting[first]))
                if first >= 0
                else "",
            }
        )
    return pd.DataFrame(out, columns=["way", "hands", "classes", "share", "example", "front"])


def dominated_by_rule(
    way: HouseWay | str,
    deck: Deck | None = None,
    rules: Rules | None = None,
    hands: HandTable | None = None,
) -> pd.DataFrame:
    """The hands ``way`` sets on a dominated setting, by the rule that fired: ``rule``,
    ``hands`` (weighted), ``classes``, ``share`` of all hands, ``of_rule`` (share of the hands
    that rule sets), ``example`` and ``front``; most hands first."""
    import pandas as pd


    deck, rules, hands = _tables(deck, rules, hands)
    w = way_table(_way(way), deck, rules)
    weight = hands.orbit_size.astype(np.int64)
    total = int(weight.sum())
    dominated = _dominated_mask(w, player_table(deck, rules))
    n_rules = len(w.rule_names)
    per_rule = np.zeros(n_rules, dtype=np.int64)
    np.add.at(per_rule, w.rule.astype(np.int64), weight)
    out = []
    for r in range(n_rules):
        rows = np.flatnonzero(dominated & (w.rule == r))
        if not len(rows):
            continue
        n = int(weight[rows].sum())
        first = int(rows[0])
        out.append(
            {
                "rule": w.rule_names[r],
                "hands": n,
                "classes": len(rows),
                "share": Fraction(n, total),
                "of_rule": Fraction(n, int(per_rule[r])),
                "example": _hand_text(hands.cards[first]),
                "front": _front_text(hands.cards[first], int(w.setting[first])),
            }
        )
    df = pd.DataFrame(
        out, columns=["rule", "hands", "classes", "share", "of_rule", "example", "front"]
    )
    return df.sort_values("hands", ascending=False, kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# Rendering a WayDiff


def _percent(x: Fraction) -> str:
    return f"{100 * float(x):.4f}%"


def _diff_labels(d: WayDiff) -> tuple[str, str]:
    return (f"{d.a} (a)", f"{d.b} (b)") if d.a == d.b else (d.a, d.b)


def _diff_markdown(d: WayDiff) -> str:
    import pandas as pd

    dominated = d.dominated
    la, lb = _diff_labels(d)
    out = []
    share = _percent(Fraction(d.different, d.total))
    out.append(f"House ways {d.a} and {d.b}, deck {d.deck.name}, wheel {d.rules.wheel}: "
               f"{d.total:,} hands")  # fmt: skip
    out.append(f"set differently: {d.different:,} hands ({share}); set alike: {d.same:,}")
    if len(d.rows):
        out.append("\nWhere they differ, by the rule of each way that fired:\n")
        shown = pd.DataFrame(
            {
                f"{la} rule": d.rows["a_rule"],
                f"{lb} rule": d.rows["b_rule"],
                "hands": d.rows["hands"],
                "share": [_percent(x) for x in d.rows["share"]],
                "example": d.rows["example"],
                f"{la} front": d.rows["a_front"],
                f"{lb} front": d.rows["b_front"],
            }
        )
        out.append(markdown(shown))
    out.append("\nHands set on a dominated setting (another valid setting is as strong in both")
    out.append("hands and stronger in one):\n")
    out.append(markdown(dominated.assign(share=[_percent(x) for x in dominated["share"]])))
    return "\n".join(out) + "\n"


def _diff_csv(d: WayDiff) -> str:
    """One table: a row per pair of rules, the hands set alike, the total, then each way's
    dominated hands."""
    import pandas as pd

    dominated = d.dominated
    la, lb = _diff_labels(d)
    rows = [
        {"kind": "different", "a_rule": r["a_rule"], "b_rule": r["b_rule"], "hands": r["hands"],
         "share": r["share"], "example": r["example"], "a_front": r["a_front"],
         "b_front": r["b_front"]}
        for r in d.rows.to_dict("records")
    ]  # fmt: skip
    rows.append({"kind": "same setting", "hands": d.same, "share": Fraction(d.same, d.total)})
    rows.append({"kind": "total", "hands": d.total, "share": Fraction(1)})
    rows += [
        {"kind": f"dominated: {r['way']}", "hands": r["hands"], "share": r["share"],
         "example": r["example"], "a_front" if r["way"] == d.a else "b_front": r["front"]}
        for r in dominated.to_dict("records")
    ]  # fmt: skip
    df = pd.DataFrame(
        rows,
        columns=["kind", "a_rule", "b_rule", "hands", "share", "example", "a_front", "b_front"],
    )
    df["share"] = [decimal(x, 10) for x in df["share"]]
    df = df.rename(
        columns={"a_rule": f"{la} rule", "b_rule": f"{lb} rule", "a_front": f"{la} front",
                 "b_front": f"{lb} front"}
    )  # fmt: skip
    return str(df.to_csv(index=False))


def _share_json(x: Fraction) -> dict[str, object]:
    return {"probability": float(x), "probability_fraction": x}


def _diff_row_json(r: dict[Any, Any]) -> dict[str, object]:
    return {
        "a_rule": r["a_rule"],
        "b_rule": r["b_rule"],
        "hands": r["hands"],
        "classes": r["classes"],
        **_share_json(r["share"]),
        "example": {
            "hand": r["example"].split(),
            "a_front": r["a_front"].split(),
            "b_front": r["b_front"].split(),
        },
    }


def _dominated_json(r: dict[Any, Any]) -> dict[str, object]:
    return {
        "way": r["way"],
        "hands": r["hands"],
        "classes": r["classes"],
        **_share_json(r["share"]),
        "example": {"hand": r["example"].split(), "front": r["front"].split()},
    }


def _diff_json(d: WayDiff) -> str:
    out = {
        "a": d.a,
        "b": d.b,
        "deck": d.deck.name,
        "wheel": d.rules.wheel,
        "total": d.total,
        "same": d.same,
        "different": d.different,
        "rows": [_diff_row_json(r) for r in d.rows.to_dict("records")],
        "dominated": [_dominated_json(r) for r in d.dominated.to_dict("records")],
    }
    return to_json(out) + "\n"


_DIFF_RENDER = {"md": _diff_markdown, "csv": _diff_csv, "json": _diff_json}
