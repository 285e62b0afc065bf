"""``paigow ways``, ``paigow diff-ways`` and ``paigow way check``: the registered house ways,
where two of them set hands differently, and what each rule of a rule card does (defined when
named: ``analysis.cli.main`` defers them)."""

from __future__ import annotations

import argparse
from typing import Any

from analysis.cli.options import deck_of, rules_of
from analysis.render.formats import markdown, to_json
from enumerate.houseways import get_way


def cmd_ways(args: argparse.Namespace) -> int:
    from analysis.waylab.ways import clause_listing, reading_listing, way_listing, way_records

    if args.format == "json":
        print(to_json(way_records()))
    elif args.format == "csv":
        print(way_listing().to_csv(index=False), end="")
    else:
        print(markdown(way_listing()))
        clauses = clause_listing()
        if len(clauses):
            print("\nAmbiguous clauses, read by name: way[clause=reading,...], e.g. "
                  "--house-way 'gli[two-pair=or]'\n")  # fmt: skip
            print(markdown(clauses))
            print()
            print(markdown(reading_listing()))
    return 0


def cmd_diff_ways(args: argparse.Namespace) -> int:
    from analysis.waylab.ways import diff_ways

    d = diff_ways(get_way(args.a), get_way(args.b), deck_of(args), rules_of(args))
    print(d.render(args.format), end="")
    return 0


def cmd_way_check(args: argparse.Namespace) -> int:
    from analysis.waylab.cardcheck import check_card

    check = check_card(args.card, deck_of(args), rules_of(args))
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
