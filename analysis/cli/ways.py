"""``paigow ways``, ``paigow diff-ways`` and ``paigow way check``: the registered house ways,
where two of them set hands differently, and what each rule of a rule card does (defined when
named: ``analysis.cli.main`` defers them)."""

from __future__ import annotations

import argparse
from typing import Any

from analysis import api
from analysis.cli.options import deck_of, rules_of
from analysis.render.formats import markdown, to_json


def cmd_ways(args: argparse.Namespace) -> int:
    if args.format == "json":
        print(to_json(api.house_way_records()))
    elif args.format == "csv":
        print(api.house_ways().to_csv(index=False), end="")
    else:
        print(markdown(api.house_ways()))
        clauses = api.way_clauses()
        if len(clauses):
            print("\nAmbiguous clauses, read by name: way[clause=reading,...], e.g. "
                  "--house-way 'gli[two-pair=or]'\n")  # fmt: skip
            print(markdown(clauses))
            print()
            print(markdown(api.way_readings()))
    return 0


def cmd_diff_ways(args: argparse.Namespace) -> int:
    d = api.compare_ways(api.get_way(args.a), api.get_way(args.b), deck=deck_of(args),
                         rules=rules_of(args))  # fmt: skip
    print(d.render(args.format), end="")
    return 0


def cmd_way_check(args: argparse.Namespace) -> int:
    check = api.check_card(args.card, deck=deck_of(args), rules=rules_of(args))
    print(check.render(args.format), end="")
    return 1 if check.errors() else 0


def add_way_commands(sub: Any) -> None:
    """Define the commands of this module on the subcommands action ``sub``."""
    p = sub.add_parser("ways", help="the registered house ways")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.set_defaults(func=cmd_ways)

    p = sub.add_parser(
        "diff-ways", help="hands two house ways set differently; dominated settings of each"
    )
    p.add_argument("a", help="a registered way, e.g. gli")
    p.add_argument("b", help="another, e.g. trump-plaza")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 9TJQKA:cdhs+joker")
    p.set_defaults(func=cmd_diff_ways)

    p = sub.add_parser("way", help="rule cards: check one (paigow way check FILE)")
    cards = p.add_subparsers(dest="way_command", required=True, parser_class=type(p))
    q = cards.add_parser(
        "check", help="every rule of a card over every hand: reach, sets, errors, warnings"
    )
    q.add_argument("card", help="a card file (.toml) or a card's name, e.g. gli[two-pair=or]")
    q.add_argument("--format", choices=("md", "json"), default="md")
    q.add_argument("--deck", default="full", help="deck, e.g. full or 9TJQKA:cdhs+joker")
    q.set_defaults(func=cmd_way_check)
