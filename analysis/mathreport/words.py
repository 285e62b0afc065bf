"""The game in words, the first section of a math report: generated from the game's files
(deck, joker, wheel, how the dealer's hand is dealt and settled, the commission, the side bets,
the house way as posted), so it says what was priced and nothing else.
"""

from __future__ import annotations

from analysis.games.players import Player
from analysis.mathreport.game import Game
from analysis.render.document import Column, Section, Table
from enumerate.houseways import get_way

EFFECT_TEXT = {
    "push": "every bet pushes",
    "dealer-wins": "the dealer wins every bet",
    "player-win-push": "a bet the player would win pushes; the others are settled as usual",
}


def _deck(game: Game) -> str:
    d = game.deck
    ranks = "".join(str(r.value) for r in d.ranks)
    suits = "".join(str(s.value) for s in d.suits)
    full = d.name == "full"
    what = "the standard 52 cards" if len(d.ranks) == 13 and len(d.suits) == 4 else (
        f"ranks {ranks} in suits {suits} ({len(d.ranks) * len(d.suits)} cards)")
    joker = (" and one joker, which counts as an ace in pairs, or completes a straight, a flush, "
             "a straight flush or a royal flush") if d.joker else ", no joker"
    deck = "The deck: " + what + joker + f"; {d.size} cards in all"
    return deck + ("." if full else f" (deck {d.name}).")


def game_words(game: Game) -> Section:
    """The section "The game": paragraphs, the rules as bullets, the house way as posted."""
    v = game.variant
    way = get_way(game.way)
    paragraphs: list[str | tuple[str, ...] | Table] = [f"{game.title}. {game.source}."]
    if game.notes:
        paragraphs.append(game.notes)
    wheel = ("A-2-3-4-5 (the wheel) is the second-highest straight and straight flush"
             if game.rules.wheel == "second" else "A-2-3-4-5 (the wheel) is the lowest straight")
    commission = ("Wins pay even money less a commission of "
                  f"{float(v.commission) * 100:g}% of the win ({float(v.win_pays):g} to 1)."
                  if v.commission else "Wins pay even money; no commission is taken.")  # fmt: skip
    if v.dealer_exposed:
        dealer = ("The dealer's seven cards are dealt face up and set by the house way before "
                  "the players set theirs: a player sees the dealer's setting.")
    else:
        dealer = ("The dealer's hand is hidden until every player has set his: a player sets "
                  "blind.")
    rules = [
        _deck(game),
        f"Ranking: the five-card back hand ranks as poker hands, {wheel}; the two-card front "
        "hand ranks as pairs and high cards. The back must outrank the front (a foul is not "
        "priced: every setting here is a legal one).",
        "The player and the dealer each get seven cards and set a back of five and a front of "
        "two. A player whose two hands both beat the dealer's wins; one who loses both loses; "
        "otherwise the bet pushes. Copies (equal hands) go to the dealer.",
        dealer,
        commission,
    ]
    for r in v.dealer_rules:
        rules.append(f"When the dealer's hand is {r.event} ({r.when}): "
                     f"{EFFECT_TEXT[r.effect]}.")  # fmt: skip
    if not v.dealer_rules:
        rules.append("The dealer's hand has no special rule: it always plays.")
    modes = [str(p) for p in game.players if p not in (Player.BANKING, Player.BANKING_OPTIMAL)]
    rules.append("Player modes priced: " + ", ".join(f"{p} ({Player(p).describe})"
                                                      for p in modes) + ".")  # fmt: skip
    if Player.BANKING in game.players:
        rules.append("Player banking: a player may bank against the table, paying the 5% "
                     "commission on his net win; priced one on one against a player who sets "
                     "by the house way.")  # fmt: skip
    for s in game.strategies:
        rules.append(f"Strategy card priced for the player: {get_way(s).name} "
                     f"({get_way(s).description}).")  # fmt: skip
    if game.side_bets:
        rules.append("Side bets offered: " + ", ".join(b.label for b in game.side_bets) + ".")
    paragraphs.append(tuple(rules))
    reading = ", ".join(f"{c}={a}" for c, a in way.reading)
    paragraphs.append(f"The house way: {way.name}, {way.description}"
                      + (f" (reading {reading})" if reading else "") + ". The dealer sets by "
                      "its rules, the first that applies; as posted:")  # fmt: skip
    rows = tuple((name,) for name in way.rules)
    paragraphs.append(Table("house-way", f"House way {way.name}, as posted", (Column("rule"),),
                            rows))  # fmt: skip
    if way.clauses:
        by_id = dict(way.reading)
        clause_rows = tuple((c.id, c.rule, c.text, by_id.get(c.id, c.literal),
                             c.meaning(by_id.get(c.id, c.literal))) for c in way.clauses)
        paragraphs.append(Table("house-way-readings", "Readings of the card's ambiguous "
                                "phrases, as priced", (Column("clause"), Column("rule"),
                                Column("text"), Column("reading"), Column("means")),
                                clause_rows))  # fmt: skip
    return Section("The game", tuple(paragraphs))
