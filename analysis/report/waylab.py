"""The house-way lab sections of ``paigow reports``: for the exposed-dealer games, every dealer
way priced from one per-dealer table, the house-optimal ceiling, and what each rule of each
way gives away against it (by rule and by rank pattern, with a plot); and the readings of the
gli card against its math report (``reconciliation_section``), a step of its own at the end
of the report, so that the child setting the readings' hands can do it in the time the
per-hand table leaves a core idle (``analysis.report.ahead``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd

from analysis.games.players import Player
from analysis.games.variants import exposed_variants
from analysis.render.formats import decimal, markdown, summary_md
from analysis.report.plots import rule_bars
from analysis.waylab.reconcile import published_edge, reading_names, reconcile
from analysis.waylab.waycosts import pattern_costs, rule_costs
from analysis.waylab.wayedge import (
    DealerLab,
    HouseOptimal,
    Pricing,
    dealer_lab,
    house_optimal,
    price_dealer_way,
)
from enumerate.rules import Deck, Rules


class _Report(Protocol):
    out: Path
    deck: Deck

    def add(self, title: str, lines: list[str], before: str | None = None) -> None: ...


LAB_TITLE = "House-way lab (exposed dealer, best-responding player)"
RECONCILE_TITLE = "The reference way against its math report"


def _pct(x: Fraction, digits: int = 4) -> str:
    return f"{decimal(x * 100, digits)}%"


def _costs_md(df: pd.DataFrame) -> str:
    return markdown(df.assign(cost=[_pct(x, 5) for x in df["cost"]]))


def _plot_costs(rules: pd.DataFrame, path: Path, title: str) -> None:
    top = rules[(rules["rule"] != "total") & (rules["cost"] > 0)]
    top = top.sort_values("cost", ascending=False).head(15)
    rule_bars(list(top["rule"]), [float(x) * 100 for x in top["cost"]], path,
              f"Where the dealer's way gives up value: {title}",
              "house edge given away against the house-optimal dealer (% of the bet)",
              "#6b4fa0")  # fmt: skip


def response_lab(deck: Deck, rules: Rules) -> DealerLab | None:
    """The per-dealer table of best-responding players (one serves every exposed-dealer
    variant); None without an exposed-dealer variant."""
    exposed = exposed_variants()
    if not exposed:
        return None
    return dealer_lab(exposed[0], Player.BEST_RESPONSE, None, deck, rules)


def way_lab_section(rep: _Report, ways: list[str], rules: Rules, log: Callable[[str], None],
                    ready: Callable[[list[str]], None] = lambda names: None,
                    reconcile: bool = True,
                    after: Callable[[str, HouseOptimal, dict[str, Fraction]], None] | None = None,
                    ) -> tuple[DealerLab | None, HouseOptimal | None]:  # fmt: skip
    """Write the way-lab pages of the exposed-dealer variants and add them to the index;
    returns the lab (best-responding players: the report's pair counts take their best
    response from it, ``analysis.waylab.labpairs``) and its house-optimal dealer-open dealer (for
    ``reconciliation_section``), Nones without an exposed-dealer variant. With
    ``reconcile``, the reconciliation section too.

    ``ready(names)`` returns once the tables of the ways ``names`` are built; it is called
    before each way is priced, and the table needs no way's settings: a report builds it while
    the ways' tables are still being made (``analysis.report.ahead``). ``after(game, ceiling,
    edges)`` is called when a game's ways are priced, with its house-optimal dealer (on the
    lab) and the ways' house edges."""
    lines = []
    rows = []
    exposed = exposed_variants()
    if not exposed:
        return None, None
    log("per-dealer table, best-responding players")
    lab = response_lab(rep.deck, rules)
    assert lab is not None
    dealer_open: HouseOptimal | None = None  # the reconciliation's ceiling, kept for it
    for variant in exposed:
        name = variant.name
        opt = house_optimal(lab, variant)
        if name == "dealer-open":
            dealer_open = opt
        ceiling = opt.house_edge
        edges: dict[str, Fraction] = {}
        rows.append({"game": name, "dealer": "house-optimal (ceiling)", "house edge": ceiling,
                     "below ceiling": Fraction(0)})  # fmt: skip
        for way in ways:
            ready([way])
            log(f"way lab, {name}, {way}")
            edge = edges[way] = price_dealer_way(variant, way, lab=lab).house_edge
            rows.append({"game": name, "dealer": way, "house edge": edge,
                         "below ceiling": ceiling - edge})  # fmt: skip
            stem = f"waylab-{name}-{way}"
            by_rule = rule_costs(lab, variant, way, opt)
            patterns = pattern_costs(lab, variant, way, top=60, opt=opt)
            (rep.out / f"{stem}-by-rule.md").write_text(
                f"# What each rule of the dealer's way {way} gives away: {name}\n\n"
                "Against the house-optimal dealer, the player best-responding; `cost`: the "
                "house edge the rule gives away.\n\n"
                + _costs_md(by_rule) + f"\n\n![by rule]({stem}.png)\n")  # fmt: skip
            (rep.out / f"{stem}-patterns.md").write_text(
                f"# Where the dealer's way {way} and the house-optimal dealer differ: {name}"
                "\n\n" + _costs_md(patterns) + "\n")  # fmt: skip
            _plot_costs(by_rule, rep.out / f"{stem}.png", f"{name}, {way}")
            lines.append(f"- {name}, dealer {way}: house edge {_pct(edge)}, "
                         f"{_pct(ceiling - edge)} below the house-optimal dealer "
                         f"([by rule]({stem}-by-rule.md), [by rank pattern]({stem}-patterns.md),"
                         f" [chart]({stem}.png))")  # fmt: skip
        if after is not None:
            after(name, opt, edges)
    if reconcile:
        _reconciliation(rep, lab, log, ready, dealer_open)
    summary = pd.DataFrame(rows)
    shown = summary.assign(**{c: [_pct(x) for x in summary[c]]
                              for c in ("house edge", "below ceiling")})  # fmt: skip
    (rep.out / "waylab.md").write_text("# Every dealer's way against the house-optimal "
                                       "dealer\n\n" + markdown(shown) + "\n")  # fmt: skip
    rep.add(LAB_TITLE,
            ["[every way against the house-optimal dealer](waylab.md)", *lines])
    return lab, dealer_open


@dataclass(frozen=True)
class Ceiling:
    """A house-optimal dealer without its lab (``HouseOptimal``): what a report keeps of the
    lab's dealer-open ceiling for its last step, where holding the lab would hold its
    per-dealer table (about 1.5 GB) through the per-hand table."""

    pricing: Pricing
    rows: np.ndarray
    values: np.ndarray
    house_edge: Fraction

    @classmethod
    def of(cls, opt: HouseOptimal) -> Ceiling:
        return cls(opt.pricing, opt.rows, opt.values, opt.house_edge)

    def on(self, lab: DealerLab) -> HouseOptimal:
        """The house-optimal dealer again, on the same per-dealer table read again."""
        return HouseOptimal(lab, self.pricing, self.rows, self.values, self.house_edge)


def reconciliation_section(rep: _Report, rules: Rules, log: Callable[[str], None],
                           ready: Callable[[list[str]], None] = lambda names: None,
                           ceiling: Ceiling | None = None) -> None:  # fmt: skip
    """The reconciliation (``_reconciliation``) from the cached per-dealer table of
    best-responding players (the lab's, read again: a report does not hold it through the
    per-hand table); ``ceiling``: the lab's house-optimal dealer-open dealer (its table is
    the one read here: the cache file is the lab's)."""
    lab = response_lab(rep.deck, rules)
    if lab is None:
        return
    _reconciliation(rep, lab, log, ready, None if ceiling is None else ceiling.on(lab),
                    LAB_TITLE)  # where the lab step puts it when it prices the readings


def _reconciliation(rep: _Report, lab: DealerLab, log: Callable[[str], None],
                    ready: Callable[[list[str]], None], opt: HouseOptimal | None = None,
                    before: str | None = None) -> None:  # fmt: skip
    """Every reading of the gli card against the math report's dealer-open figure, and the
    per-rule value table of the closest (``reconciliation_page``); ``ready`` as for
    ``way_lab_section``; ``opt``: the house-optimal dealer-open dealer, if already at hand;
    its section goes ``before`` the section of that title (``Report.add``)."""

    ready(reading_names())
    rep.add(RECONCILE_TITLE, reconciliation_page(rep.out, lab, log, opt), before)


def reconciliation_page(out: Path, lab: DealerLab, log: Callable[[str], None],
                        opt: HouseOptimal | None = None) -> list[str]:  # fmt: skip
    """The reconciliation's page (``reconcile.md`` in ``out``), every reading's way table in
    the cache; its index lines (the report's child process writes it too:
    ``analysis.report.ahead``)."""

    target, tolerance, source = published_edge()
    df = reconcile(lab=lab, log=log)
    closest = str(df["way"].iloc[0])
    shown = df.assign(**{"house edge": [_pct(x) for x in df["house edge"]],
                         "distance": [_pct(x) for x in df["distance"]]})  # fmt: skip
    opt = opt or house_optimal(lab, "dealer-open")
    by_rule = rule_costs(lab, "dealer-open", closest, opt)
    ceiling = opt.house_edge
    figures = [("published", f"{_pct(target, 2)} (+/- {_pct(tolerance, 3)}, the rounding)"),
               ("closest reading", f"`{closest}`: {_pct(df['house edge'].iloc[0])}"),
               ("house-optimal dealer on the same player", _pct(ceiling))]
    text = [
        "# The reference way's readings against its math report", "",
        f"Published in: {source}.", "",
        summary_md([f"{f}: {v}" for f, v in figures], figures), "",
        "Every reading is priced exactly from the per-dealer table (dealer-open, best "
        "response); `distance` = edge - published; `within` = inside the rounding.", "",
        markdown(shown), "",
        f"## What each rule of the closest reading, `{closest}`, gives away against the "
        "house-optimal dealer", "", _costs_md(by_rule), "",
    ]  # fmt: skip
    (out / "reconcile.md").write_text("\n".join(text))
    return [f"- [every reading of the gli card against the published {_pct(target, 2)}]"
            f"(reconcile.md): closest `{closest}` at {_pct(df['house edge'].iloc[0])}"]
