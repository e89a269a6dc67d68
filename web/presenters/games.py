"""The house games' pages: the presets offered, a definition in words, the preview's hands.

The preview deals sample hands (tracker/engine/game_preview.py) to players named Ann, Bob,
Cat, ... and shows every card, the wild ones marked "wild" (and what each stood for in the
hand played), each hand's value, and who wins each share and why (``evaluate_game``'s
texts, with the seats said by name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.cards import card_symbol, parse_card, rank_name
from tracker.engine.game_preview import wild_summary
from tracker.engine.game_showdown import share_text
from tracker.engine.games import GameDefinition
from tracker.games.selectors import HOUSE_PRESETS, game_preview

# One line per preset, as docs/games/README.md says it.
PRESET_SUMMARIES = {
    "follow_the_queen": "Queens and the rank after an up queen are wild.",
    "baseball": "Threes and nines wild; a four up gets an extra card; a three up pays or folds.",
    "low_chicago": "Half the pot to the lowest spade in the hole.",
    "high_chicago": "Half the pot to the highest spade in the hole.",
    "razz": "Ace-to-five low; the highest door card brings in.",
    "seven_card_stud_high_low": "High-low split, eight or better.",
    "deuces_wild": "Every two is wild.",
    "one_eyed_jacks": "The J♠ and J♥ are wild.",
    "five_card_stud": "One card down, four up.",
}

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
FACE_WORDS = {
    "down": "down",
    "up": "up",
    "choice": "up or down (the player's choice)",
    "community": "one community card",
}
POT_WORDS = {
    "high": "The best high hand wins the pot.",
    "low": "The best low hand wins the pot.",
    "high_low": "The pot is split between the best high and the best low hand.",
    "high_chicago": "Half the pot to the best high hand, half to the highest spade in the hole.",
    "low_chicago": "Half the pot to the best high hand, half to the lowest spade in the hole.",
}


@dataclass(frozen=True)
class PresetOption:
    name: str
    title: str
    summary: str


def preset_options() -> list[PresetOption]:
    return [
        PresetOption(name, game.title, PRESET_SUMMARIES.get(name, ""))
        for name, game in HOUSE_PRESETS.items()
    ]


def definition_lines(game: GameDefinition) -> list[str]:
    """The definition in a few sentences: the deal, what is wild, the pot, the table."""
    streets = "; ".join(
        ", ".join(FACE_WORDS[f] for f in s.faces) + f" ({s.unit} bet)" for s in game.streets
    )
    lines = [f"{game.cards_per_player} cards a player, street by street: {streets}."]
    lines.append(wild_summary(game, []) if not game.up_order_needed else _follow_line(game))
    lines.append(POT_WORDS[game.pot.kind])
    if game.pot.low is not None:
        q = game.pot.low.qualifier
        ranking = game.pot.low.ranking.replace("_", " ")
        lines.append(f"Low hands ranked {ranking}, " + (f"{q} or better." if q else "any low."))
    for e in game.extra_cards:
        lines.append(f"A {rank_name(e.rank)} dealt up gets one more card, dealt {e.face}.")
    for p in game.pays:
        price = "as much as the pot holds" if p.price == "pot" else f"{p.price} chips"
        lines.append(f"A {rank_name(p.rank)} dealt up costs {price}, or the player folds.")
    lines.append(f"{game.player_limit} players at most; {game.bring_in} door card brings in.")
    return lines


def _follow_line(game: GameDefinition) -> str:
    text = wild_summary(game, [])
    return text.replace("no rank follows a face-up", "and the rank dealt face up after a face-up")


@dataclass
class PreviewCard:
    """One card as tracker/_cards.html shows it."""

    code: str
    up: bool
    wild: bool = False
    played_as: str = ""

    @property
    def flags(self) -> str:
        return ",".join(([] if self.up else ["down"]) + (["wild"] if self.wild else []))

    @property
    def wild_note(self) -> str:
        if not self.wild:
            return ""
        return f"wild, as {self.played_as}" if self.played_as else "wild"


@dataclass
class PreviewSeat:
    name: str
    cards: list[PreviewCard]
    high: str | None
    low: str | None
    spade: str | None
    wins: list[str] = field(default_factory=list)


@dataclass
class PreviewHand:
    number: int
    wild: str
    seats: list[PreviewSeat]
    shares: list[str]
    up_order: list[PreviewCard]
    community: list[PreviewCard]


def _seat(i: int, sd: dict, res: dict) -> PreviewSeat:
    wild = set(res["wild"])
    stood = {}
    for half in ("high", "low"):
        for w in (res.get(half) or {}).get("wild", []):
            stood.setdefault(w["card"], card_symbol(parse_card(w["as"])))
    cards = [PreviewCard(c, False, c in wild, stood.get(c, "")) for c in sd["down"]]
    cards += [PreviewCard(c, True, c in wild, stood.get(c, "")) for c in sd["up"]]
    high = (res.get("high") or {}).get("text")
    low = res.get("low")
    low_text = None if low is None else low["text"]
    spade = res.get("spade")
    return PreviewSeat(
        NAMES[i], cards, high, low_text, card_symbol(parse_card(spade)) if spade else None
    )


def preview(game: GameDefinition, *, seed: int) -> list[PreviewHand]:
    """The preview's sample hands of ``game`` dealt with ``seed``, ready to show."""
    out = []
    for n, hand in enumerate(game_preview(game, seed=seed), start=1):
        sd, result = hand["showdown"], hand["result"]
        seats = [
            _seat(i, p, r)
            for i, (p, r) in enumerate(zip(sd["players"], result["players"], strict=True))
        ]
        for share in result["shares"]:
            for i in share["winners"]:
                seats[i].wins.append(share["share"] if share["portion"] == "half" else "pot")
        wild = set()
        for r in result["players"]:
            wild |= set(r["wild"])
        order = [PreviewCard(c, True, c in wild) for c in sd.get("up_order", [])]
        community = sd.get("community")
        out.append(
            PreviewHand(
                number=n,
                wild=hand["wild"],
                seats=seats,
                shares=[share_text(s, NAMES) for s in result["shares"]],
                up_order=order,
                community=[PreviewCard(community, True, community in wild)] if community else [],
            )
        )
    return out
