"""Random legal full histories for tests and benches, dealt and bet by the engine's own
replay state machine (so every history is one the engine accepts), with a record of
when the engine closed the betting (the all-in moment)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from tracker.engine.cards import format_card
from tracker.engine.procedure import _BET, _DEAL, _read_spec, _Replay


@dataclass
class Generated:
    actions: list[str]
    closed_at: (
        int | None
    )  # street index (0 third .. 4 seventh) after whose betting nobody could bet
    contenders: tuple[int, ...]  # positions still in at that moment


def random_history(
    rng: random.Random,
    *,
    stacks: list[int],
    stakes: tuple[int, int, int, int] = (4, 10, 20, 40),
    variant: str = "seven_card_stud",
    options: dict | None = None,
    fold_p: float = 0.15,
    raise_p: float = 0.25,
) -> Generated:
    """One hand with random legal actions; ``stakes`` are ante, bring-in, small, big bet."""
    ante, bring_in, small, big = stakes
    spec = _read_spec(
        {
            "variant": "F7S",
            "antes": ante,
            "bring_in": bring_in,
            "small_bet": small,
            "big_bet": big,
            "starting_stacks": list(stacks),
            "actions": [],
            "_variant": variant,
            "_options": options or {},
        },
        None,
    )
    r = _Replay(spec)
    deck = list(range(52))
    rng.shuffle(deck)
    actions: list[str] = []
    closed_at = None
    contenders: tuple[int, ...] = ()

    def note(action: str) -> None:
        r.index = len(actions)
        r.action = action
        actions.append(action)

    for _ in range(500):
        if r.closed and closed_at is None:
            closed_at = r.street - 1 if r.phase == _DEAL else r.street
            contenders = tuple(i for i in range(r.n) if r.in_hand[i])
        if r.phase == _DEAL:
            if r.community_due:
                card = format_card(deck.pop())
                note(f"d db {card}")
                r.deal_community(card)
                continue
            for p in range(r.n):
                if r.pending[p] and r.phase == _DEAL:
                    text = "".join(format_card(deck.pop()) for _ in range(r.pending[p]))
                    note(f"d dh p{p + 1} {text}")
                    r.deal_hole(p, text)
            continue
        if r.phase != _BET:
            break
        p = r.actors[0]
        to_call = r.max_bet - r.bets[p]
        others = any(
            i != p and r.in_hand[i] and r.stacks[i] + r.bets[i] > r.max_bet for i in range(r.n)
        )
        blocked = bool(r.short) and sum(r.short) < r.last_inc and p in r.acted
        can_raise = r.count < 4 and r.stacks[p] > to_call and others and not blocked
        if r.completion_due:
            full = small
        elif r.max_bet == 0:
            full = r.unit
        else:
            full = r.max_bet + r.unit
        target = min(full, r.stacks[p] + r.bets[p])
        x = rng.random()
        if r.bring_in_due:
            if can_raise and x < raise_p:
                note(f"p{p + 1} cbr {target}")
                r.complete_bet_or_raise(p, str(target))
            else:
                note(f"p{p + 1} pb")
                r.post_bring_in(p)
        elif to_call > 0 and x < fold_p:
            note(f"p{p + 1} f")
            r.fold(p)
        elif can_raise and x < fold_p + raise_p:
            note(f"p{p + 1} cbr {target}")
            r.complete_bet_or_raise(p, str(target))
        else:
            note(f"p{p + 1} cc")
            r.check_or_call(p)
    return Generated(actions, closed_at, contenders)
