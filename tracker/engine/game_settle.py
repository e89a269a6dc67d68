"""Pay the pots of a house game's hand: :func:`settle_game_pots`, the game-definition
companion of :func:`tracker.engine.pots.settle_pots`.

Each pot is read by :func:`tracker.engine.game_showdown.evaluate_game` over its
contenders only (follow-the-X: with every up card of the hand in the order dealt,
folded players' included, which the machine passes itself). The pots are paid by the
loop of today's games, :func:`tracker.engine.pots.pay_pots` (one contender, or no
showdown: that contender's), each contested pot's shares as
:func:`tracker.engine.pots.award_pot` pays them: a high or a low pot whole; a
high-low pot in halves, the high half taking the odd chip, a half nobody wins going to
the other; Chicago as a high half and a spade half (no spade in the hole: the high hand
takes it all).

>>> from tracker.engine.game_presets import PRESETS
>>> from tracker.engine.pots import Pot
>>> hands = {0: {"down": ["As", "2d", "9h"], "up": ["Kh", "7c", "7d", "4s"]},
...          1: {"down": ["Ac", "Ad", "Jh"], "up": ["Ah", "8c", "8d", "3c"]}}
>>> s = settle_game_pots([Pot(21, (0, 1))], n_players=2, game=PRESETS["high_chicago"],
...                      hands=hands, community=None, up_order=[])
>>> s.winnings, s.showdown["spade_winners"], s.payouts[0].spade_winners
([10, 11], [0], (0,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .game_showdown import _shares, evaluate_game
from .games import GameDefinition
from .pots import Evaluate, Pot, PotAward, Settlement, award_pot, pay_pots

__all__ = ["settle_game_pots"]

_Reading = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], Mapping[str, Any]]


def settle_game_pots(
    pots: Sequence[Pot],
    *,
    n_players: int,
    game: GameDefinition,
    hands: Mapping[int, Mapping[str, Any]],
    community: str | None,
    up_order: Sequence[str],
    evaluate: Evaluate | None = None,
) -> Settlement:
    """Pay every pot of a house game's hand.

    ``hands`` maps each seat at the showdown to ``{"down", "up"}`` (and ``declare``);
    ``up_order`` is every up card of the hand in the order dealt. ``evaluate`` (a showdown
    in :func:`evaluate_game`'s form -> its result) replaces ``evaluate_game(game, ...)``.
    The showdown reading is ``settle_pots``'s, plus the game's name, ``spade_winners``,
    ``shares`` (winners as seats), ``follow`` and ``up_order`` (follow-the-X), and per
    player ``spade`` and ``wild``.
    """
    readings: dict[tuple[int, ...], _Reading] = {}
    showdown_seats = tuple(sorted(hands))

    def read(seats: tuple[int, ...]) -> _Reading:
        cached = readings.get(seats)
        if cached is None:
            data: dict[str, Any] = {
                "community": community,
                "players": [dict(hands[s]) for s in seats],
            }
            if game.up_order_needed:
                data["up_order"] = list(up_order)
            result = evaluate(data) if evaluate is not None else evaluate_game(game, data)
            high, low, spade = (
                tuple(sorted(seats[i] for i in result.get(key, ())))
                for key in ("high_winners", "low_winners", "spade_winners")
            )
            cached = readings[seats] = (high, low, spade, result)
        return cached

    showdown = _showdown(game, read, showdown_seats, hands, community, up_order, n_players)
    kind = "high_low" if game.pot.chicago else game.pot.kind
    chicago = game.pot.chicago

    def split(k: int, pot: Pot) -> PotAward:
        high, low, spade, _ = read(pot.eligible)
        awards = award_pot(pot.amount, kind, high, spade if chicago else low, pot.eligible)
        return PotAward(
            k, pot.amount, pot.eligible, "showdown", high, low, awards,
            spade_winners=spade if chicago else None,
        )  # fmt: skip

    payouts, winnings = pay_pots(
        pots, n_players=n_players, contested=len(showdown_seats) >= 2, split=split
    )
    return Settlement(payouts, winnings, showdown)


def _showdown(
    game: GameDefinition,
    read: Any,
    seats: tuple[int, ...],
    hands: Mapping[int, Mapping[str, Any]],
    community: str | None,
    up_order: Sequence[str],
    n_players: int,
) -> dict | None:
    """The reading of the whole showdown, per seat (``None`` without a showdown)."""
    if len(seats) < 2:
        return None
    high, low, spade, result = read(seats)
    per_seat: list[dict | None] = [None] * n_players
    for k, seat in enumerate(seats):
        reading = result["players"][k]
        entry: dict[str, Any] = {"down": list(hands[seat]["down"]), "up": list(hands[seat]["up"])}
        if "declare" in hands[seat]:
            entry["declare"] = hands[seat]["declare"]
        for key in ("high", "low", "spade", "wild"):
            entry[key] = reading.get(key)
        per_seat[seat] = entry
    out: dict[str, Any] = {
        "game": game.name,
        "community": community,
        "players": per_seat,
        "high_winners": list(high),
        "low_winners": list(low),
        "spade_winners": list(spade),
        "shares": _shares(game, per_seat, list(high), list(low), list(spade)),  # type: ignore[arg-type]
    }
    if game.up_order_needed:
        out["follow"] = list(result.get("follow", []))
        out["up_order"] = list(up_order)
    return out
