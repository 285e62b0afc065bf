"""The shipped games' math reports in the suite of ``paigow reports``: every game file of
``data/games`` (``docs/games.md``) priced on the suite's deck and wheel rule and written to
``games/<name>/`` as ``paigow report`` writes it (HTML, Markdown, PDF, a CSV and JSON file per
table).

A game's report is priced from the tables the suite's steps hold when they hold them
(``analysis.mathreport.build.Priced``), so the suite prices nothing twice: the base wagers
from the variants' step, the per-dealer table of best-responding players and the house-
optimal dealer from the house-way lab (games dealt face up), the optimal strategy from the
optimal step (blind games), the player who banks from the banking step. A game the suite's
tables do not cover (a variant file of its own, a way the suite does not price) is priced on
its own at the end, as ``paigow report`` would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.games.players import Player
from analysis.games.variants import get_variant
from analysis.mathreport.build import GamePricer, MathReport, Priced, math_report, wager_key
from analysis.mathreport.game import Game, load_game, shipped_games
from analysis.mathreport.tables import percent
from analysis.mathreport.write import write_document
from enumerate.errors import VariantError

if TYPE_CHECKING:
    from analysis.pricing.optimal import OptimalStrategy
    from analysis.pricing.returns import ReturnTable
    from analysis.waylab.wayedge import DealerLab, HouseOptimal
    from enumerate.rules import Deck, Rules

TITLE = "Games: a math report per game file"
FOLDER = "games"
BANKERS = {Player.BANKING: "house-way", Player.BANKING_OPTIMAL: "optimal"}
OPTIMAL_MODES = (Player.OPTIMAL, Player.BANKING_OPTIMAL)

# the suite's priced return tables: (variant, house way, player mode) -> table
Tables = dict[tuple[str, str, str], "ReturnTable"]


@dataclass
class SuiteGames:
    """The game reports of one run of the suite; each step hands in what it holds."""

    out: Path
    deck: Deck
    rules: Rules
    log: Callable[[str], None]
    command: str = "paigow reports"
    simulate: int | None = None  # Monte Carlo deals per mode (None: each game file's own)
    games: list[Game] = field(init=False)
    written: dict[str, MathReport] = field(default_factory=dict, init=False)
    # a game priced but for the parts a later step holds (the player who banks)
    pending: dict[str, GamePricer] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.games = [self._on_deck(load_game(p)) for p in shipped_games()]

    def _on_deck(self, game: Game) -> Game:
        simulate = game.simulate if self.simulate is None else self.simulate
        return replace(game, deck=self.deck, rules=self.rules, simulate=simulate)

    def _covered(self, game: Game, way: str) -> bool:
        """The suite's tables price ``game``: its variant as shipped, its way ``way``."""
        name = game.variant.name
        try:
            shipped = get_variant(name)
        except VariantError:  # a variant of the game's own file, under a name of its own
            return False
        return game.name not in self.written and game.way == way and game.variant == shipped

    @staticmethod
    def _returns(game: Game, tables: Tables) -> dict[str, ReturnTable]:
        v = game.variant.name
        return {wager_key(str(m)): tables[(v, game.way, str(m))] for m in game.players
                if (v, game.way, str(m)) in tables}  # fmt: skip

    def exposed(self, way: str, tables: Tables, lab: DealerLab | None,
                ceilings: dict[str, HouseOptimal]) -> None:  # fmt: skip
        """The games dealt face up against ``way``, from the variants' tables and the lab's."""
        for game in self.games:
            if game.variant.dealer_exposed and self._covered(game, way):
                priced = Priced(self._returns(game, tables), lab=lab,
                                ceiling=ceilings.get(game.variant.name))  # fmt: skip
                self._write(game, GamePricer(game, self.log, priced))

    def blind(self, opt: OptimalStrategy, way: str, tables: Tables) -> None:
        """The blind games of ``opt``'s variant against ``way``, while ``opt`` is at hand:
        every part but the player who banks, which waits for ``banking``."""
        for game in self.games:
            if game.variant.name != opt.variant.name or not self._covered(game, way):
                continue
            pricer = GamePricer(game, self.log, Priced(self._returns(game, tables),
                                                        optimal=opt))  # fmt: skip
            later = {wager_key(str(m)) for m in BANKERS}
            for part in pricer.parts():
                if part not in later:
                    pricer.part(part)
            pricer.release()
            if any(m in BANKERS for m in game.players):
                self.pending[game.name] = pricer
            else:
                self._write(game, pricer)

    def banking(self, way: str, tables: dict[str, ReturnTable]) -> None:
        """The games waiting for the player who banks against ``way``: ``tables`` by banker."""
        for name, pricer in list(self.pending.items()):
            game = pricer.game
            if game.way != way:
                continue
            for mode, banker in BANKERS.items():
                if mode in game.players and banker in tables:
                    pricer.priced.returns[wager_key(str(mode))] = tables[banker]
            del self.pending[name]
            self._write(game, pricer)

    def rest(self, optimal: bool) -> list[str]:
        """Every game not written yet, priced on its own; without ``optimal`` (the suite run
        without its optimal-strategy tables) a game that needs them is left out, and named
        in the lines returned."""
        left = []
        for game in self.games:
            if game.name in self.written:
                continue
            pricer = self.pending.pop(game.name, None)
            if not optimal and any(m in OPTIMAL_MODES for m in game.players):
                left.append(f"- {game.name}: not built in a run without the optimal-strategy "
                            f"tables (`paigow report {game.path}` builds it)")  # fmt: skip
                continue
            self._write(game, pricer or GamePricer(game, self.log))
        return left

    def _write(self, game: Game, pricer: GamePricer) -> None:
        self.log(f"math report of the game {game.name}")
        report = math_report(game, self.command, self.log, pricer)
        pricer.release()
        write_document(report.document, self.out / FOLDER / game.name)
        self.written[game.name] = report

    def lines(self) -> list[str]:
        """The index lines: a game per line, its report's three forms and its headline."""
        out = []
        for game in self.games:
            report = self.written.get(game.name)
            if report is None:
                continue
            base = f"{FOLDER}/{game.name}/report"
            mode = game.players[0]
            edge = report.returns[wager_key(str(mode))].house_edge
            out.append(f"- [{game.title}]({base}.html) ({game.variant.name}, house way "
                       f"{game.way}; [PDF]({base}.pdf), [Markdown]({base}.md)): base wager "
                       f"house edge {percent(edge)} ({mode})")  # fmt: skip
        return out
