"""Sample hands of a game definition: dealt at random (seeded), valued and explained.

A preview shows how a house game plays before the league uses it: :func:`deal_sample`
deals one showdown under a definition -- street by street, each card of a street round
the table from the dealer's left, a card's face as its street says (``choice``: the player's
pick, here at random), an extra card at once for an up card of an extra-card rank (every
player pays what a pay rule asks; nobody buys), the order the up cards came in for
follow-the-X -- and :func:`preview_hands` values each with
:func:`~tracker.engine.game_showdown.evaluate_game`. :func:`wild_summary` says in words what
is wild in a hand. The same seed gives the same hands.

>>> from tracker.engine.game_presets import PRESETS
>>> game = PRESETS["follow_the_queen"]
>>> hands = preview_hands(game, seed=7, hands=2, players=4)
>>> [len(h["showdown"]["players"]) for h in hands]
[4, 4]
>>> hands == preview_hands(game, seed=7, hands=2, players=4)
True
>>> all(len(p["down"]) + len(p["up"]) == 7 for p in hands[0]["showdown"]["players"])
True
>>> wild_summary(game, ["7"])
'Queens are wild, and sevens: the rank dealt face up after the last face-up queen.'
>>> wild_summary(PRESETS["baseball"], [])
'Threes and nines are wild.'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import card_symbol, format_card, rank_name
from .game_showdown import evaluate_game
from .games import (
    DECK_SIZE,
    FixedWild,
    FollowWild,
    GameDefinition,
    KingsAndLowestWild,
    LowestHoleWild,
)

__all__ = ["PREVIEW_PLAYERS", "deal_sample", "preview_hands", "wild_summary"]

#: Players dealt in a preview unless asked (never more than the game seats).
PREVIEW_PLAYERS = 4


class _Deck:
    def __init__(self, rng: random.Random):
        self.cards = list(range(DECK_SIZE))
        rng.shuffle(self.cards)

    def draw(self) -> int | None:
        return self.cards.pop() if self.cards else None


def deal_sample(game: GameDefinition, *, players: int, rng: random.Random) -> dict | None:
    """One showdown of ``game`` for ``players`` players, in the form ``evaluate_game`` reads
    (cards as text); ``None`` when the deck ran out (extra cards can exhaust it).

    >>> from tracker.engine.game_presets import PRESETS
    >>> sd = deal_sample(PRESETS["seven_card_stud"], players=2, rng=random.Random(1))
    >>> [(len(p["down"]), len(p["up"])) for p in sd["players"]]
    [(3, 4), (3, 4)]
    """
    deck = _Deck(rng)
    extra = {e.rank: e.face for e in game.extra_cards}
    downs: list[list[int]] = [[] for _ in range(players)]
    ups: list[list[int]] = [[] for _ in range(players)]
    up_order: list[int] = []
    community = None
    for street in game.streets:
        for face in street.faces:
            if face == "community":
                community = deck.draw()
                if community is None:
                    return None
                up_order.append(community)
                continue
            for seat in range(players):
                if not _deal_to(deck, rng, face, extra, downs[seat], ups[seat], up_order):
                    return None
    showdown: dict[str, Any] = {
        "community": None if community is None else format_card(community),
        "players": [],
    }
    declaring = game.pot.kind == "high_low" and game.pot.declaration == "declare"
    for seat in range(players):
        entry: dict[str, Any] = {
            "down": [format_card(c) for c in downs[seat]],
            "up": [format_card(c) for c in ups[seat]],
        }
        if declaring:
            entry["declare"] = rng.choice(("high", "low", "both"))
        showdown["players"].append(entry)
    if game.up_order_needed:
        showdown["up_order"] = [format_card(c) for c in up_order]
    return showdown


def _deal_to(
    deck: _Deck,
    rng: random.Random,
    face: str,
    extra: dict[int, str],
    down: list[int],
    up: list[int],
    up_order: list[int],
) -> bool:
    """Deal one card of ``face`` to a player, and the extra cards an up card earns."""
    while True:
        card = deck.draw()
        if card is None:
            return False
        if face == "choice":
            face = rng.choice(("up", "down"))
        if face == "down":
            down.append(card)
            return True
        up.append(card)
        up_order.append(card)
        face = extra.get((card >> 2) + 2, "")
        if not face:
            return True


def preview_hands(
    game: GameDefinition, *, seed: int, hands: int = 3, players: int | None = None
) -> list[dict]:
    """``hands`` sample hands of ``game`` (seeded): each ``{"showdown", "result", "wild"}``,
    the result :func:`~tracker.engine.game_showdown.evaluate_game`'s and ``wild`` the
    sentence of :func:`wild_summary`. ``players`` defaults to :data:`PREVIEW_PLAYERS`, never
    above what the game seats."""
    rng = random.Random(seed)
    n = max(2, min(players or PREVIEW_PLAYERS, game.player_limit))
    out: list[dict] = []
    attempts = 0
    while len(out) < hands and attempts < hands * 10:
        attempts += 1
        showdown = deal_sample(game, players=n, rng=rng)
        if showdown is None:
            continue
        result = evaluate_game(game, showdown)
        out.append(
            {
                "showdown": showdown,
                "result": result,
                "wild": wild_summary(game, result.get("follow", [])),
            }
        )
    return out


def _ranks_text(ranks: Sequence[int]) -> str:
    words = [rank_name(r, plural=True) for r in ranks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _follow_text(w: FollowWild, follow: Sequence[str]) -> str:
    x = rank_name(w.rank)
    ranks = [_RANK_OF[r] for r in follow]
    lead = f"{rank_name(w.rank, plural=True).capitalize()} are wild" if w.x_wild else ""
    if ranks:
        which = _ranks_text(sorted(ranks))
        tail = f"{which}: the rank dealt face up after the last face-up {x}"
        if w.later_x != "replaces":
            tail = f"{which}: the ranks dealt face up after a face-up {x}"
        return f"{lead}, and {tail}" if lead else f"{tail[0].upper()}{tail[1:]} are wild"
    none = f"no rank follows a face-up {x} in this hand"
    return f"{lead}; {none}" if lead else f"Nothing is wild: {none}"


_RANK_OF = {c: i + 2 for i, c in enumerate("23456789TJQKA")}


def wild_summary(game: GameDefinition, follow: Sequence[str]) -> str:
    """What is wild in a hand of ``game``, in one sentence (``follow``: the hand's follow
    ranks, ``evaluate_game``'s ``"follow"``).

    >>> from tracker.engine.game_presets import PRESETS
    >>> wild_summary(PRESETS["one_eyed_jacks"], [])
    'The J♥ and the J♠ are wild.'
    >>> wild_summary(PRESETS["seven_card_stud"], [])
    'Nothing is wild.'
    """
    parts: list[str] = []
    for w in game.wild:
        if isinstance(w, FixedWild):
            bits = []
            if w.ranks:
                bits.append(_ranks_text(w.ranks))
            bits += [f"the {card_symbol(c)}" for c in w.cards]
            text = " and ".join(bits)
            parts.append(f"{text[0].upper()}{text[1:]} are wild")
        elif isinstance(w, FollowWild):
            parts.append(_follow_text(w, follow))
        elif isinstance(w, KingsAndLowestWild):
            need = " (for a player holding a king)" if w.king_required else ""
            parts.append(f"Kings are wild, and each player's lowest card{need}")
        elif isinstance(w, LowestHoleWild):
            same = {
                "all": ", and every card of its rank the player holds",
                "face_down": ", and every face-down card of its rank",
                "none": "",
            }[w.same_rank]
            parts.append(f"Each player's lowest face-down card is wild{same}")
    return ("; ".join(parts) if parts else "Nothing is wild") + "."
