"""A game file: one pai gow game as a casino deals it, everything its math report needs
(``docs/games.md``).

A game names its variant (a shipped name, a reading, a variant file, or the variant's fields
inline), the dealer's house way (a name, a reading or a card file), the deck and the wheel rule,
the player modes to report, the strategy cards a blind player may follow, the side bets offered
(bet files, or side bets by name under a paytable and an envy table), player banking where the
variant allows it, derived cards and the Monte Carlo cross-check. Paths are relative to the
game file's folder. Every mistake is one ``GameFileError`` line naming the file and the entry,
raised before anything is computed or written.

>>> g = load_game(GAME_DIR / "face-up.toml")
>>> g.variant.name, g.way, [str(p) for p in g.players], [b.label for b in g.side_bets]
('face-up', 'gli', ['best-response', 'house-way'], ['push-ace-high-5-15-40'])
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from analysis.bets.files import find_bet, names_bet_file
from analysis.bets.paytables import find_paytable
from analysis.derive import MAX_RULES
from analysis.games.players import Player
from analysis.games.variants import VARIANT_DIR, Variant, get_variant, variant_from_doc
from analysis.pricing.sidebets import BETS
from enumerate.datafile import fail, read_toml, text_field
from enumerate.errors import DataFileError, GameFileError
from enumerate.houseways import get_way
from enumerate.paths import data_dir
from enumerate.rules import Deck, Rules

GAME_DIR = data_dir() / "games"
FIELDS = ("name", "title", "source", "notes", "variant", "way", "deck", "wheel", "players",
          "strategies", "banking", "derived", "simulate", "side_bet")  # fmt: skip
SIDE_BET_FIELDS = ("bet", "paytable", "envy")
BLIND_MODES = (Player.HOUSE_WAY, Player.OPTIMAL)
EXPOSED_MODES = (Player.BEST_RESPONSE, Player.HOUSE_WAY)
BANKING_MODES = (Player.BANKING, Player.BANKING_OPTIMAL)
DEFAULT_SIMULATE = 200_000  # deals of the Monte Carlo cross-check of each main table

_fail = partial(fail, GameFileError)
_text = partial(text_field, GameFileError)


@dataclass(frozen=True)
class SideBetSpec:
    """A side bet of the game: a bet file (``bet`` its name or path), or a side bet by name
    under ``paytable`` (and ``envy``, for the bets that have one); ``uses_way``: it is
    settled on the dealer's house-way setting (priced under the game's way)."""

    bet: str
    paytable: str | None = None
    envy: str | None = None
    uses_way: bool = False

    @property
    def label(self) -> str:
        """The bet's name in the report: ``bet-paytable`` (or the bet file's name)."""
        stem = Path(self.bet).stem if self.bet.endswith(".toml") else self.bet
        return stem if self.paytable is None else f"{stem}-{Path(self.paytable).stem}"


@dataclass(frozen=True)
class Game:
    """A game, checked: what its math report prices."""

    name: str
    title: str
    source: str
    notes: str
    variant: Variant
    way: str  # the dealer's house way, as ``get_way`` takes it (a card file by its path)
    deck: Deck
    rules: Rules
    players: tuple[Player, ...]
    strategies: tuple[str, ...]  # a blind player's strategy cards (ways)
    side_bets: tuple[SideBetSpec, ...]
    derived: int  # rules of the derived cards (0: none)
    simulate: int  # deals of the Monte Carlo cross-check (0: none)
    path: Path | None = None
    inputs: tuple[tuple[str, Path], ...] = ()  # (what, file) of every file read

    def digests(self) -> list[tuple[str, str, str]]:
        """(what, file, SHA-256) of every input file: the report's provenance."""
        return [(what, str(p), hashlib.sha256(p.read_bytes()).hexdigest())
                for what, p in self.inputs]  # fmt: skip


def _local(spec: str, folder: Path) -> str:
    """A file named in the game (ends in .toml or holds a slash) as a path from the game's
    folder; any other text unchanged (a shipped name)."""
    if spec.endswith(".toml") or "/" in spec.partition("[")[0]:
        base, bracket, rest = spec.partition("[")
        path = Path(base.strip())
        if not path.is_absolute():
            path = folder / path
        return f"{path}{bracket}{rest}"
    return spec


def _file_of(spec: str) -> Path | None:
    base = spec.partition("[")[0].strip()
    return Path(base) if base.endswith(".toml") else None


def _variant(doc: dict[str, Any], path: Path, folder: Path,
             inputs: list[tuple[str, Path]]) -> Variant:  # fmt: skip
    raw = doc.get("variant")
    if raw is None:
        raise _fail(path, "variant", "missing (a variant name, a variant file, or a table)")
    if isinstance(raw, dict):
        try:
            return variant_from_doc(raw, f"{path}: variant")
        except DataFileError as err:
            raise GameFileError(str(err)) from None
    if not isinstance(raw, str):
        raise _fail(path, "variant", f"expected a name, a file or a table, got {raw!r}")
    spec = _local(raw, folder)
    file = _file_of(spec)
    if file is not None and not file.is_file():
        raise _fail(path, "variant", f"no such file {file}")
    try:
        variant = get_variant(spec)
    except DataFileError as err:
        raise _fail(path, "variant", str(err)) from None
    inputs.append(("variant", file or VARIANT_DIR / f"{variant.name.partition('[')[0]}.toml"))
    return variant


def _way(spec: str, field: str, path: Path, folder: Path,
         inputs: list[tuple[str, Path]]) -> str:  # fmt: skip
    way = _local(spec, folder)
    file = _file_of(way)
    if file is not None and not file.is_file():
        raise _fail(path, field, f"no such file {file}")
    try:
        name = get_way(way).name
    except (ValueError, DataFileError) as err:
        raise _fail(path, field, str(err)) from None
    shipped = GAME_DIR.parent / "ways" / f"{name.partition('[')[0]}.toml"
    if file is not None:
        inputs.append((field, file))
    elif shipped.is_file():
        inputs.append((field, shipped))
    return way if file is not None else name


def _players(doc: dict[str, Any], variant: Variant, path: Path) -> tuple[Player, ...]:
    default = EXPOSED_MODES if variant.dealer_exposed else BLIND_MODES
    raw = doc.get("players", [str(p) for p in default])
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        raise _fail(path, "players", f"expected a list of player modes, got {raw!r}")
    out = []
    for i, name in enumerate(raw):
        where = f"players[{i}]"
        try:
            mode = Player(name)
        except ValueError:
            known = ", ".join(p.value for p in Player)
            raise _fail(path, where, f"unknown player mode {name!r} (known: {known})") from None
        if mode in BANKING_MODES:
            raise _fail(path, where, "player banking is the field banking = true, not a mode")
        allowed = EXPOSED_MODES if variant.dealer_exposed else BLIND_MODES
        if mode not in allowed:
            how = "exposes" if variant.dealer_exposed else "hides"
            raise _fail(path, where, f"variant {variant.name} {how} the dealer's hand: its "
                        f"player modes are {', '.join(allowed)}")  # fmt: skip
        if mode in out:
            raise _fail(path, where, f"{mode} is listed twice")
        out.append(mode)
    return tuple(out)


def _side_bets(doc: dict[str, Any], path: Path, folder: Path,
               inputs: list[tuple[str, Path]]) -> tuple[SideBetSpec, ...]:  # fmt: skip
    raw = doc.get("side_bet", [])
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        raise _fail(path, "side_bet", "expected [[side_bet]] tables")
    out: list[SideBetSpec] = []
    for i, entry in enumerate(raw):
        where = f"side_bet[{i}]"
        for key in entry:
            if key not in SIDE_BET_FIELDS:
                raise _fail(path, f"{where}.{key}",
                            f"unknown field (known: {', '.join(SIDE_BET_FIELDS)})")  # fmt: skip
        bet = _text(entry, "bet", f"{path}: {where}")
        paytable, envy = entry.get("paytable"), entry.get("envy")
        for field, value in (("paytable", paytable), ("envy", envy)):
            if value is not None and not isinstance(value, str):
                raise _fail(path, f"{where}.{field}", f"expected a name or a file, got {value!r}")
        spec = _local(bet, folder)
        try:
            if names_bet_file(spec):
                if paytable is not None or envy is not None:
                    raise _fail(path, where, f"{bet} is a bet file, with its own pays: "
                                "paytable and envy are for a side bet by name")  # fmt: skip
                if spec.endswith(".toml") and not Path(spec).is_file():
                    raise _fail(path, f"{where}.bet", f"no such file {spec}")
                found = find_bet(spec)
                inputs.append((f"side bet {found.name}", Path(found.path)))
                item = SideBetSpec(spec, uses_way=found.hand == "deal" or found.uses_way)
            else:
                if bet not in BETS:
                    known = ", ".join(BETS)
                    raise _fail(path, f"{where}.bet", f"unknown bet {bet!r} (side bets: "
                                f"{known}; or a bet file of data/bets or a path)")  # fmt: skip
                side = BETS[bet]
                table = paytable if paytable is None else _local(paytable, folder)
                pt = find_paytable(side.name, table or side.default_paytable)
                inputs.append((f"{bet} paytable", Path(pt.path)))
                env = envy if envy is None else _local(envy, folder)
                if env is not None:
                    if not side.has_envy:
                        raise _fail(path, f"{where}.envy", f"side bet {bet} has no envy bonus")
                    inputs.append((f"{bet} envy table", Path(find_paytable("envy", env).path)))
                item = SideBetSpec(bet, table or side.default_paytable, env,
                                   side.uses_house_way)
        except GameFileError:
            raise
        except (DataFileError, ValueError) as err:
            raise _fail(path, where, str(err)) from None
        if item.label in {b.label for b in out}:
            raise _fail(path, where, f"side bet {item.label} is listed twice")
        out.append(item)
    return tuple(out)


def _count(doc: dict[str, Any], key: str, path: Path, default: int, top: int | None) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (
            top is not None and value > top):
        most = f" to {top}" if top is not None else " or more"
        raise _fail(path, key, f"expected a whole number from 0{most}, got {value!r}")
    return value


def load_game(path: str | Path) -> Game:
    """Read and check a game file: a path, or the name of a game of ``data/games``."""
    path = Path(path)
    if path.suffix != ".toml" and not path.exists():
        shipped = GAME_DIR / f"{path}.toml"
        if not shipped.is_file():
            known = ", ".join(p.stem for p in sorted(GAME_DIR.glob("*.toml")))
            raise GameFileError(f"unknown game {str(path)!r} (known: {known}; or a game file)")
        path = shipped
    return game_from_doc(read_toml(path, GameFileError, FIELDS), path)


def game_from_doc(doc: dict[str, Any], path: Path, where: str = "") -> Game:
    """The game of a game file's fields (``doc``), files named in it found from ``path``'s
    folder; errors name ``path`` and, for a game inlined in another file, ``where`` (the
    table)."""
    folder = path.parent
    if where:
        for key in doc:
            if key not in FIELDS:
                raise GameFileError(f"{path}: {where}.{key}: unknown field (known: "
                                    f"{', '.join(FIELDS)})")  # fmt: skip
        path = Path(f"{path}: {where}")
    inputs: list[tuple[str, Path]] = [("game", folder / path.name)] if not where else []
    variant = _variant(doc, path, folder, inputs)
    way = _way(_text(doc, "way", path, variant.house_way), "way", path, folder, inputs)
    try:
        deck = Deck.parse(_text(doc, "deck", path, "full"))
    except ValueError as err:
        raise _fail(path, "deck", str(err)) from None
    try:
        rules = Rules(wheel=_text(doc, "wheel", path, "second"))  # type: ignore[arg-type]
    except ValueError as err:
        raise _fail(path, "wheel", str(err)) from None
    players = _players(doc, variant, path)
    raw = doc.get("strategies", [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise _fail(path, "strategies", "expected a list of ways or card files")
    if raw and variant.dealer_exposed:
        raise _fail(path, "strategies", f"variant {variant.name} exposes the dealer's hand: the "
                    "player's best response needs no strategy card")  # fmt: skip
    strategies = tuple(_way(s, f"strategies[{i}]", path, folder, inputs)
                       for i, s in enumerate(raw))  # fmt: skip
    banking = doc.get("banking", False)
    if not isinstance(banking, bool):
        raise _fail(path, "banking", f"expected true or false, got {banking!r}")
    if banking:
        if variant.name != "traditional":
            raise _fail(path, "banking", f"player banking is priced for traditional pai gow, "
                        f"not {variant.name}")  # fmt: skip
        players = (*players, *BANKING_MODES)
    derived = _count(doc, "derived", path, 0, MAX_RULES)
    simulate = _count(doc, "simulate", path, DEFAULT_SIMULATE, None)
    return Game(
        name=_text(doc, "name", path),
        title=_text(doc, "title", path),
        source=_text(doc, "source", path),
        notes=_text(doc, "notes", path, ""),
        variant=variant,
        way=way,
        deck=deck,
        rules=rules,
        players=players,
        strategies=strategies,
        side_bets=_side_bets(doc, path, folder, inputs),
        derived=derived,
        simulate=simulate,
        path=path,
        inputs=tuple((what, p) for what, p in dict.fromkeys(inputs) if p.is_file()),
    )


def shipped_games() -> list[Path]:
    """The game files of ``data/games``."""
    return sorted(GAME_DIR.glob("*.toml"))
