"""Game variants as data: TOML files under ``data/variants/``, read into a frozen ``Variant``.

A variant says how the main wager is settled; nothing in it is code::

    name = "face-up"
    title = "Face Up Pai Gow Poker"
    dealer_exposed = true      # the player sees the dealer's setting before setting his own
    commission = "0"           # on wins, exact: 0, "5%", "0.05" or "1/20"
    house_way = "gli"          # the dealer's way (a registered house way)

    [dealer_rules]             # dealer event = effect; the first rule (file order) that a
    "ace-high pai gow" = "push"  # dealer hand holds applies

    [readings.winning-bets-push]  # a named reading: ``face-up[winning-bets-push]``
    means = "only the player's winning bets push"
    dealer_rules = { "ace-high pai gow" = "player-win-push" }

Dealer events (``DEALER_EVENTS``) are the flags the pair engine sorts dealer hands by; effects:

- ``push``: every bet pushes;
- ``dealer-wins``: the dealer wins at once, whatever the player holds;
- ``player-win-push``: a bet the player would win pushes (pushes and losses stand).

A reading replaces the effects of the dealer rules it names; the variant it makes is named with
the reading in brackets, ``commission-free[winning-bets-push]``, anywhere a variant is asked for.

The flags a variant needs (``flag_mask``) follow from its rules, so pricing a new variant or
house way needs no engine code: ``analysis.pricing.returns.price`` is a pure function of the counts,
the variant and the player mode.

>>> v = get_variant("face-up")
>>> v.flag_mask, v.default_player is Player.BEST_RESPONSE, v.commission
(3, True, Fraction(0, 1))
>>> get_variant("traditional").win_pays
Fraction(19, 20)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from pathlib import Path
from typing import Any, Literal, cast

import numpy as np

from analysis.games.players import Player
from enumerate.conditions import (
    DEALER_HAND,
    ArrayRows,
    ConditionError,
    evaluate,
    facts_used,
    read,
)
from enumerate.datafile import exact, fail, quoted, read_toml, text_field
from enumerate.errors import VariantError
from enumerate.houseways import get_way
from enumerate.paths import data_dir
from enumerate.vocabulary import ALL_DEALER_EVENTS

VARIANT_DIR = data_dir() / "variants"


DEALER_EVENTS_FILE = data_dir() / "dealer_events.toml"


@cache
def dealer_events() -> dict[str, str]:
    """The named dealer events (``data/dealer_events.toml``): name -> condition."""
    doc = read_toml(DEALER_EVENTS_FILE, VariantError, ("events",))
    events = doc.get("events", {})
    for name, when in events.items():
        _holds(when, f"{DEALER_EVENTS_FILE}: events.{quoted(name)}")
    return dict(events)


def _has(bits: np.ndarray, bit: int) -> Callable[[], np.ndarray]:
    return lambda: (bits & bit) != 0


@cache
def _holds(when: str, where: str) -> tuple[tuple[bool, ...], int]:
    """For each combination of dealer event bits, whether the condition ``when`` (over the
    dealer's hand) holds; and the bits it reads."""
    try:
        node = read(when, DEALER_HAND, where)
    except ConditionError as err:
        raise VariantError(str(err)) from None
    bits = np.arange(ALL_DEALER_EVENTS + 1)
    facts = DEALER_HAND.facts
    rows = ArrayRows(len(bits), {name: _has(bits, f.event) for name, f in facts.items()})
    held = evaluate(node, rows)
    mask = 0
    for name in facts_used(node):
        mask |= int(facts[name].event)
    return tuple(bool(x) for x in held), mask


Effect = Literal["push", "dealer-wins", "player-win-push"]
EFFECTS: tuple[Effect, ...] = ("push", "dealer-wins", "player-win-push")
FIELDS = (
    "commission", "dealer_exposed", "dealer_rules", "description", "house_way", "name",
    "readings", "source", "title",
)  # fmt: skip
READING_FIELDS = ("dealer_rules", "means")


_fail = partial(fail, VariantError)
_text = partial(text_field, VariantError)


@dataclass(frozen=True)
class DealerRule:
    """When the dealer's hand holds ``event`` (a named dealer event, or a condition over the
    dealer's hand), ``effect`` settles the bet."""

    event: str
    effect: Effect

    @property
    def when(self) -> str:
        return dealer_events().get(self.event, self.event)

    @property
    def bits(self) -> int:
        """The dealer event bits the rule reads (the pair counts keep them apart)."""
        return _holds(self.when, self.event)[1]

    def holds(self, bits: int) -> bool:
        """Whether a dealer hand with these event bits holds the rule's event."""
        return _holds(self.when, self.event)[0][bits]

    @property
    def label(self) -> str:
        """The row name in a return table."""
        if self.effect == "push":
            return f"dealer {self.event}: push"
        if self.effect == "dealer-wins":
            return f"dealer {self.event}: dealer wins"
        return f"player win pushed: dealer {self.event}"

    @property
    def outcome(self) -> str:
        return "loss" if self.effect == "dealer-wins" else "push"


@dataclass(frozen=True)
class Reading:
    """A named alternative of a variant's dealer rules: new effects for some of its events."""

    name: str
    means: str
    effects: tuple[tuple[str, Effect], ...]  # (dealer event, effect)


@dataclass(frozen=True)
class Variant:
    """How the main wager of one game is settled."""

    name: str
    dealer_exposed: bool
    commission: Fraction
    dealer_rules: tuple[DealerRule, ...] = ()
    house_way: str = "gli"
    title: str = ""
    description: str = ""
    source: str = ""
    readings: tuple[Reading, ...] = ()  # named alternatives of the file's dealer rules
    reading: str = ""  # the reading this variant takes ("" for the file's own rules)

    @property
    def flag_mask(self) -> int:
        """The dealer flags the pair counts must keep apart for this variant."""
        mask = 0
        for rule in self.dealer_rules:
            mask |= int(rule.bits)
        return mask

    @property
    def default_player(self) -> Player:
        """Best response when the dealer is exposed, else the house way."""
        return Player.BEST_RESPONSE if self.dealer_exposed else Player.HOUSE_WAY

    @property
    def win_pays(self) -> Fraction:
        """What a winning bet pays, to 1."""
        return 1 - self.commission

    def rule_for(self, bits: int) -> DealerRule | None:
        """The rule settling a dealer hand with these flag bits (first match), or None."""
        for rule in self.dealer_rules:
            if rule.holds(bits):
                return rule
        return None


def load_variant(path: str | Path) -> Variant:
    """Read and check one variant file (one-line ``VariantError`` on any problem)."""
    path = Path(path)
    return variant_from_doc(read_toml(path, VariantError, FIELDS), path)


def variant_from_doc(doc: dict[str, Any], path: Path | str) -> Variant:
    """The variant of a variant file's fields (``doc``), checked; errors name ``path``: the
    file, or the file and the table the fields are inlined in (a game file's ``variant``)."""
    for key in doc:
        if key not in FIELDS:
            raise _fail(path, quoted(key), f"unknown field (known: {', '.join(FIELDS)})")
    name = _text(doc, "name", path)
    if "dealer_exposed" not in doc:
        raise _fail(path, "dealer_exposed", "missing (required)")
    exposed = doc["dealer_exposed"]
    if not isinstance(exposed, bool):
        raise _fail(path, "dealer_exposed", f"expected true or false, got {exposed!r}")
    if "commission" not in doc:
        raise _fail(path, "commission", "missing (required)")
    commission = exact(doc["commission"])
    if commission is None or not 0 <= commission < 1:
        raise fail(VariantError,
            path, "commission",
            f"expected a share of a win from 0 to below 1 (0, \"5%\", 0.05), got "
            f"{doc['commission']!r}",
        )  # fmt: skip
    way = _text(doc, "house_way", path, default="gli")
    try:
        get_way(way)
    except ValueError as err:
        raise _fail(path, "house_way", str(err)) from None
    effects = _effects(doc.get("dealer_rules", {}), "dealer_rules", path)
    rules = [DealerRule(event, effect) for event, effect in effects]
    readings = _readings(doc.get("readings", {}), {r.event for r in rules}, path)
    return Variant(
        name=name,
        dealer_exposed=exposed,
        commission=commission,
        dealer_rules=tuple(rules),
        house_way=way,
        title=_text(doc, "title", path, default=name),
        description=_text(doc, "description", path, default=""),
        source=_text(doc, "source", path, default=""),
        readings=readings,
    )


def _effects(table: object, field: str, path: Path | str) -> list[tuple[str, Effect]]:
    """The (dealer event, effect) pairs of a ``dealer_rules`` table, checked."""
    if not isinstance(table, dict):
        raise _fail(path, field, "expected a table of dealer event = effect")
    out = []
    for event, effect in table.items():
        where = f"{field}.{quoted(event)}"
        if event not in dealer_events():
            try:
                _holds(event, "")
            except VariantError as err:
                known = ", ".join(dealer_events())
                raise _fail(path, where, f"unknown dealer event (known: {known}; or a condition "
                            f"over the dealer's hand: {err!s})") from None  # fmt: skip
        if effect not in EFFECTS:
            raise _fail(path, where, f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})")
        out.append((event, cast(Effect, effect)))
    return out


def _readings(table: object, events: set[str], path: Path | str) -> tuple[Reading, ...]:
    if not isinstance(table, dict):
        raise _fail(path, "readings", "expected a table of named readings")
    out = []
    for name, body in table.items():
        field = f"readings.{quoted(name)}"
        if not isinstance(body, dict):
            raise _fail(path, field, "expected a table (means, dealer_rules)")
        for key in body:
            if key not in READING_FIELDS:
                raise _fail(path, f"{field}.{quoted(key)}",
                            f"unknown field (known: {', '.join(READING_FIELDS)})")  # fmt: skip
        effects = _effects(body.get("dealer_rules", {}), f"{field}.dealer_rules", path)
        for event, _ in effects:
            if event not in events:
                raise _fail(path, f"{field}.dealer_rules.{quoted(event)}",
                            "the variant has no dealer rule for this event")  # fmt: skip
        out.append(Reading(name, _text(body, "means", path, ""), tuple(effects)))
    return tuple(out)


def with_reading(variant: Variant, name: str) -> Variant:
    """``variant`` under its reading ``name`` (one-line ``VariantError`` naming the readings).

    >>> with_reading(get_variant("ez"), "winning-bets-push").dealer_rules[0].effect
    'player-win-push'
    """
    found = next((r for r in variant.readings if r.name == name), None)
    if found is None:
        known = ", ".join(r.name for r in variant.readings) or "none"
        raise VariantError(f"variant {variant.name!r} has no reading {name!r} (readings: {known})")
    effects = dict(found.effects)
    rules = tuple(DealerRule(r.event, effects.get(r.event, r.effect)) for r in variant.dealer_rules)
    return replace(variant, name=f"{variant.name}[{name}]", dealer_rules=rules, reading=name)


@cache
def _shipped(directory: Path) -> dict[str, Variant]:
    out: dict[str, Variant] = {}
    for path in sorted(directory.glob("*.toml")):
        v = load_variant(path)
        if v.name != path.stem:
            raise _fail(path, "name", f"{v.name!r} differs from the file name {path.stem!r}")
        out[v.name] = v
    return out


def variant_names(directory: Path = VARIANT_DIR) -> list[str]:
    """Names of the variants shipped under ``data/variants``."""
    return sorted(_shipped(directory))


def exposed_variants(directory: Path = VARIANT_DIR) -> list[Variant]:
    """The shipped variants in which the player sees the dealer's hand, by name.

    >>> [v.name for v in exposed_variants()]
    ['dealer-open', 'face-up']
    """
    return [v for v in (get_variant(n, directory) for n in variant_names(directory))
            if v.dealer_exposed]  # fmt: skip


def get_variant(spec: str | Variant, directory: Path = VARIANT_DIR) -> Variant:
    """A shipped variant by name, or a variant file (a path ending in ``.toml``), either with
    a reading in brackets (``ez[winning-bets-push]``)."""
    if isinstance(spec, Variant):
        return spec
    base, bracket, rest = spec.partition("[")
    if bracket:
        if not rest.endswith("]"):
            raise VariantError(f"bad variant name {spec!r}: write variant[reading]")
        return with_reading(get_variant(base, directory), rest[:-1].strip())
    if spec.endswith(".toml") or ("/" in spec and Path(spec).is_file()):
        return load_variant(spec)
    shipped = _shipped(directory)
    if spec not in shipped:
        known = ", ".join(sorted(shipped))
        raise VariantError(f"unknown variant {spec!r} (known: {known})")
    return shipped[spec]
