"""``paigow way-edge`` and ``paigow way-costs``: dealer ways priced from the per-dealer tables.

The first call for a deck and player mode builds the per-dealer table (a long job on the full
deck; then cached); every later call, for any dealer way, reads it and answers quickly.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import pandas as pd

from analysis import api
from analysis.cli.options import deck_of, rules_of, tell
from analysis.render.formats import decimal, markdown, to_json

if TYPE_CHECKING:
    from analysis.waylab.wayedge import DealerLab


def _lab(args: argparse.Namespace) -> DealerLab:
    variant = api.get_variant(args.variant)
    api.get_way(args.way)  # an unknown way fails here, before any counting
    if args.player_way is not None:
        api.get_way(args.player_way)
    return api.dealer_lab(variant, player=args.player, player_way=args.player_way,
                          deck=deck_of(args), rules=rules_of(args), on_build=tell)  # fmt: skip


def cmd_way_edge(args: argparse.Namespace) -> int:
    lab = _lab(args)
    table = api.way_edge(args.variant, way=args.way, lab=lab)
    ceiling = api.house_optimal_edge(args.variant, lab=lab)
    if args.format == "json":
        out = table.to_dict()
        out["house_optimal_edge"] = float(ceiling)
        out["house_optimal_edge_fraction"] = f"{ceiling.numerator}/{ceiling.denominator}"
        print(to_json(out))
        return 0
    print(table.render(args.format), end="")
    if args.format == "md":
        print(f"\nHouse-optimal dealer (the ceiling of any way, same player): house edge "
              f"{decimal(ceiling * 100, 4)}%")  # fmt: skip
    return 0


def _shown(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(cost=[f"{decimal(x * 100, 5)}%" for x in df["cost"]])


def cmd_way_costs(args: argparse.Namespace) -> int:
    lab = _lab(args)
    rules = api.way_costs(args.variant, way=args.way, lab=lab)
    patterns = api.way_patterns(args.variant, way=args.way, top=args.top, lab=lab)
    if args.format == "json":
        def rows(df: pd.DataFrame) -> list[dict[str, Any]]:
            return [{**{str(k): v for k, v in r.items()}, "cost": float(r["cost"]),
                     "cost_fraction": f"{r['cost'].numerator}/{r['cost'].denominator}"}
                    for r in df.to_dict("records")]  # fmt: skip

        print(to_json({"rules": rows(rules), "patterns": rows(patterns)}))
        return 0
    if args.format == "csv":
        print(_shown(rules).to_csv(index=False), end="")
        return 0
    print(f"{args.way} as the dealer's way, {args.variant}, player {lab.player}: hands set "
          "below the house-optimal setting and their cost to the house (share of the bet)\n")
    print(markdown(_shown(rules)))
    print(f"\nThe {len(patterns)} costliest rank patterns\n")
    print(markdown(_shown(patterns)))
    return 0


def add_way_lab_commands(subparsers: Any) -> None:
    """Add ``way-edge`` and ``way-costs`` to the ``paigow`` subcommands."""
    for name, func, text in [
        ("way-edge", cmd_way_edge, "exact house edge of any dealer way, from the per-dealer table"),
        ("way-costs", cmd_way_costs, "what each rule of a dealer way gives away against the "
         "house-optimal dealer"),
    ]:  # fmt: skip
        p = subparsers.add_parser(name, help=text)
        p.add_argument("variant", help="a variant name or .toml file")
        p.add_argument("--way", required=True, help="the dealer's way, e.g. gli[two-pair=or]")
        p.add_argument(
            "--player", default=None, metavar="MODE",
            help="best-response (exposed dealer) or house-way (blind, by --player-way); default"
            " the variant's",
        )  # fmt: skip
        p.add_argument("--player-way", default=None,
                       help="the blind players' way (default: the variant's)")  # fmt: skip
        p.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
        if name == "way-costs":
            p.add_argument("--top", type=int, default=40, help="rank patterns shown (default 40)")
            p.add_argument("--format", choices=("md", "csv", "json"), default="md")
        else:
            p.add_argument("--format", choices=("md", "csv", "json", "html"), default="md")
        p.set_defaults(func=func)

