"""The ``paigow`` command line.

Every error the user can cause (a bad card, a wrong count, an unknown option value) ends with
one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import NoReturn

from analysis.categories import category_table
from analysis.formats import decimal, markdown, to_json
from enumerate.cards import parse_cards
from enumerate.classes import describe
from enumerate.evaluate import settings
from enumerate.rules import Deck, Rules

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(wheel=args.wheel)


def _deck(args: argparse.Namespace) -> Deck:
    return Deck.parse(args.deck)


def cmd_hand(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards, count=7)
    rules = _rules(args)
    rows = settings(cards, rules)
    info = describe(cards, rules)
    if args.format == "json":
        print(
            to_json(
                {
                    "hand": [str(c) for c in cards],
                    "class": info.name,
                    "best_five": info.best_five_name,
                    "settings": [
                        {
                            "high": [str(c) for c in s.high],
                            "low": [str(c) for c in s.low],
                            "high_id": s.high_id,
                            "low_id": s.low_id,
                            "valid": s.valid,
                            "high_name": s.high_name,
                            "low_name": s.low_name,
                        }
                        for s in rows
                    ],
                }
            )
        )
        return 0
    print(f"hand: {' '.join(str(c) for c in cards)}")
    print(f"class: {info.name}; best five: {info.best_five_name}")
    flags = [
        name
        for name, on in (
            ("pai gow", info.pai_gow),
            ("ace-high pai gow", info.ace_high_pai_gow),
            ("joker is the ace", info.joker_is_ace),
            ("queen-high pai gow", info.queen_high_pai_gow),
        )
        if on
    ]
    print(f"flags: {', '.join(flags) or 'none'}; jacks: {info.jacks}")
    print()
    print(f"{'high hand':<16} {'id':>4}  {'low':<6} {'id':>2}  {'valid':<5}  names")
    for s in sorted(rows, key=lambda s: (s.valid, s.high_id, s.low_id), reverse=True):
        print(
            f"{' '.join(str(c) for c in s.high):<16} {s.high_id:>4}  "
            f"{' '.join(str(c) for c in s.low):<6} {s.low_id:>2}  {'yes' if s.valid else 'FOUL':<5}"
            f"  {s.high_name} / {s.low_name}"
        )
    return 0


def cmd_categories(args: argparse.Namespace) -> int:
    deck = _deck(args)
    df = category_table(deck, _rules(args))
    total = int(df["combinations"].iloc[-1])
    if args.format == "json":
        rows = [
            {
                "class": r["class"],
                "combinations": int(r["combinations"]),
                "probability": float(r["probability"]),
                "probability_fraction": r["probability"],
            }
            for r in df.to_dict("records")
            if r["class"] != "total"
        ]
        print(to_json({"deck": deck.name, "total": total, "rows": rows}))
        return 0
    shown = df.assign(probability=[decimal(Fraction(p), 10) for p in df["probability"]])
    if args.format == "csv":
        print(shown.to_csv(index=False), end="")
    else:
        print(f"Seven-card classes, deck {deck.name}: {total:,} hands\n")
        print(markdown(shown.assign(combinations=df["combinations"])))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="paigow", description="Exact pai gow poker analysis.")
    parser.add_argument(
        "--wheel", choices=("second", "low"), default="second",
        help="rank of A-2-3-4-5: second-highest straight (default) or lowest",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("hand", help="the 21 settings of a seven-card hand")
    p.add_argument("cards", help='seven cards, e.g. "As Ks Qs Js Ts 2c Jk"')
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("categories", help="exact seven-card class table")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or A2345:cdh+joker")
    p.set_defaults(func=cmd_categories)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.func(args))
    except (UsageError, ValueError) as err:
        print(f"paigow: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
