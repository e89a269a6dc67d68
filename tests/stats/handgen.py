"""Random legal full histories for tests and benches, dealt and bet through the engine's
state machine and its next-event query (so every history is one the engine accepts), with a record of
when the engine closed the betting (the all-in moment)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from tracker.engine.announcements import normalize_announcements
from tracker.engine.cards import format_card
from tracker.engine.stakes import Stakes
from tracker.engine.stud import BET_VERBS, Phase, StudHand, Verb


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
    r = StudHand(
        variant=variant,
        stakes=Stakes(ante, bring_in, small, big),
        stacks=list(stacks),
        options=normalize_announcements(variant, options or {}),
    )
    r.post_antes()
    deck = list(range(52))
    rng.shuffle(deck)
    actions: list[str] = []
    closed_at = None
    contenders: tuple[int, ...] = ()

    for _ in range(500):
        if r.closed and closed_at is None:
            closed_at = r.street - 1 if r.phase is Phase.DEAL else r.street
            contenders = tuple(i for i in range(r.n) if r.in_hand[i])
        if r.phase is Phase.DEAL:
            if r.community_due:
                card = deck.pop()
                actions.append(f"d db {format_card(card)}")
                r.deal_community(card)
                continue
            for p in range(r.n):
                if r.pending[p] and r.phase is Phase.DEAL:
                    cards = [deck.pop() for _ in range(r.pending[p])]
                    actions.append(f"d dh p{p + 1} {''.join(format_card(c) for c in cards)}")
                    for card in cards:
                        r.deal(p, card, up=r.next_face(p).value == "up")
            continue
        if r.phase is not Phase.BET:
            break
        turn = r.next_event()
        p = turn.seat
        options = {o.verb: o for o in turn.options}
        bet = next((o for o in turn.options if o.verb in BET_VERBS), None)
        x = rng.random()
        if Verb.BRING_IN in options:
            if bet is not None and x < raise_p:
                actions.append(f"p{p + 1} cbr {bet.to}")
                r.complete_bet_or_raise(p, bet.to)
            else:
                actions.append(f"p{p + 1} pb")
                r.bring_in(p)
        elif Verb.FOLD in options and x < fold_p:
            actions.append(f"p{p + 1} f")
            r.fold(p)
        elif bet is not None and x < fold_p + raise_p:
            actions.append(f"p{p + 1} cbr {bet.to}")
            r.complete_bet_or_raise(p, bet.to)
        else:
            actions.append(f"p{p + 1} cc")
            r.check_or_call(p)
    return Generated(actions, closed_at, contenders)
