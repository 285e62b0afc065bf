"""What every command module of the command line shares: the user's error, the deck and rules
of the common options, and the one-line notices on stderr."""

from __future__ import annotations

import argparse
import sys

from enumerate.rules import Deck, Rules


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules of ``--wheel``."""
    return Rules(wheel=args.wheel)


def deck_of(args: argparse.Namespace) -> Deck:
    """The deck of ``--deck``."""
    return Deck.parse(args.deck)


def tell(message: str) -> None:
    """A one-line notice on stderr."""
    print(f"paigow: {message}", file=sys.stderr)
