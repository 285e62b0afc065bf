"""``paigow derive strategy|way GAME``: the rule cards of 1 .. K rules derived from the exact
tables (``analysis.derive``), their curve of exact house edges and the card of K rules (defined
when named: ``analysis.cli.main`` defers it)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from analysis import api
from analysis.cli.options import UsageError, deck_of, rules_of
from analysis.render.formats import markdown

# analysis.derive.search.SEARCHES, named without importing it
SEARCH_NAMES = ("greedy", "wide", "deep")


def cmd_derive(args: argparse.Namespace) -> int:
    if args.side == "strategy":
        if args.player_way:
            raise UsageError("--player-way is for a dealer's card (paigow derive way)")
        d = api.derived_strategy(args.game, way=args.way, max_rules=args.rules, base=args.base,
                                 deck=deck_of(args), rules=rules_of(args),
                                 search=args.search)  # fmt: skip
        beats: list[str] = []
    else:
        d = api.derived_way(args.game, max_rules=args.rules, base=args.base or args.way,
                            player_way=args.player_way, deck=deck_of(args),
                            rules=rules_of(args), search=args.search)  # fmt: skip
        # the per-dealer table the derivation built (cached): every casino way priced from it
        player = None if args.player_way is None else api.Player.HOUSE_WAY
        lab = api.dealer_lab(args.game, player=player, player_way=args.player_way,
                             deck=deck_of(args), rules=rules_of(args))  # fmt: skip
        beats = d.beating({w: api.way_edge(args.game, way=w, lab=lab).house_edge
                           for w in api.casino_ways()})  # fmt: skip
    k = len(d.steps)
    if args.out:
        Path(args.out).write_text(d.card_text(k))
    if args.format == "card":
        print(d.card_text(k), end="")
    elif args.format in ("csv", "json"):
        print(d.render(args.format), end="")
    else:
        print(d.render("md"))
        if beats:
            print("The smallest derived card that beats each casino way in this game:\n")
            print("\n".join(f"- {b}" for b in beats) + "\n")
        if k:
            print(d.posted(k))
            worse = d.still_worse(k, args.top)
            if len(worse):
                print(f"Hands the card of {k} rules still sets worse than "
                      f"{'optimal play' if d.side == 'strategy' else 'the ceiling'}:\n")
                print(markdown(worse))
    if args.out:
        print(f"wrote the card of {k} rules to {args.out}")
    return 0


def cmd_points(args: argparse.Namespace) -> int:
    if args.banker and args.chances:
        raise UsageError("--banker --chances: the chance chart is the same for the banker "
                         "(only a fitted chart is the banker's)")  # fmt: skip
    text = api.points_card_text(args.game, way=args.way, deck=deck_of(args),
                                rules=rules_of(args), fit=not args.chances,
                                banker=args.banker)  # fmt: skip
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote the point-count card to {args.out}")
    else:
        print(text, end="")
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    try:
        sizes = tuple(int(k) for k in (args.derived or "").split(",") if k.strip())
    except ValueError:
        raise UsageError(f"--derived {args.derived!r}: expected rule counts such as "
                         "5,12,30") from None
    points = None
    if not args.no_points:
        try:
            points = tuple(int(k) for k in args.points.split(",") if k.strip())
        except ValueError:
            raise UsageError(f"--points {args.points!r}: expected rule counts such as "
                             "11") from None
    t = api.strategies(args.game, way=args.way, cards=args.card or None, derived=sizes,
                       points=points, deck=deck_of(args), rules=rules_of(args))  # fmt: skip
    print(t.render(args.format), end="")
    return 0


def add_derive_commands(sub: Any) -> None:
    """Define ``derive`` and ``strategies`` on the subcommands action ``sub``."""
    p = sub.add_parser("strategies", help="the player's strategies side by side, priced exactly: "
                       "house way, written strategies, derived cards, optimal play")
    p.add_argument("game", nargs="?", default="traditional",
                   help="a blind game (default traditional)")
    p.add_argument("--way", "--house-way", default=None, help="the dealer's way (default the "
                   "game's)")
    p.add_argument("--card", action="append", default=[], help="a strategy card to price "
                   "(repeat; default every card of data/strategies)")
    p.add_argument("--derived", default="5,12,30", help="rules of the derived cards shown "
                   "(default 5,12,30; empty: none)")
    p.add_argument("--points", default="11,29", help="rules of the derived cards before the "
                   "point count shown beside it (default 11,29: 12 and 30 rules in all; empty: "
                   "the point count alone)")
    p.add_argument("--no-points", action="store_true", help="leave out the point count")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
    p.set_defaults(func=cmd_strategies)
    p = sub.add_parser("derive", help="rule cards of 1..K rules from the exact tables: the curve "
                       "of house edges and the card (paigow derive strategy|way GAME)")
    sides = p.add_subparsers(dest="side", required=True, parser_class=type(p))
    for side, text in (("strategy", "a player's card for a blind game (traditional, ez, "
                                    "commission-free)"),
                       ("way", "a dealer's card (face-up, dealer-open against best-responding "
                               "players; any game against players who set by --player-way)")):
        q = sides.add_parser(side, help=text)
        q.add_argument("game", help="the game variant, e.g. traditional or face-up")
        q.add_argument("--rules", type=int, default=12, help="rules at most (default 12)")
        q.add_argument("--way", "--house-way", default=None,
                       help="the dealer's way (strategy: default the game's); for a dealer's "
                       "card, the same as --base")
        q.add_argument("--base", default=None, help="the card the derived rules go before "
                       "(default: the dealer's way)")
        q.add_argument("--player-way", default=None,
                       help="way: players who set by this way (blind) instead of best response")
        q.add_argument("--search", choices=SEARCH_NAMES, default="greedy",
                       help="greedy (default); wide: a beam three times as wide, and the "
                       "card refit at 5, 12, 20 and 30 rules (better cards, several times "
                       "slower); deep: a beam nine times as wide, and refit")
        q.add_argument("--format", choices=("md", "csv", "json", "card"), default="md",
                       help="md: the curve, the card as posted and the hands it still sets "
                       "worse; card: the card file")
        q.add_argument("--out", default=None, help="write the card of the most rules to FILE")
        q.add_argument("--top", type=int, default=20, help="patterns of hands shown (md)")
        q.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
        q.set_defaults(func=cmd_derive)
    q = sides.add_parser("points", help="a blind game's point-count card: each back and front "
                         "scored by its chance to beat the dealer's, refit to the exact EVs "
                         "(docs/derive.md)")
    q.add_argument("game", help="a blind game: traditional, ez or commission-free")
    q.add_argument("--way", "--house-way", default=None, help="the dealer's way (default the "
                   "game's)")
    q.add_argument("--chances", action="store_true", help="the chance chart, not refit")
    q.add_argument("--banker", action="store_true", help="fitted for the player who banks "
                   "(traditional)")
    q.add_argument("--out", default=None, help="write the card to FILE")
    q.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
    q.set_defaults(func=cmd_points)
