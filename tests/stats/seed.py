"""Play whole tournaments through the services for the statistics tests and benches:
full histories from the engine's own state machine (tests/stats/handgen.py) mixed
with quick entries, every variant, short stacks so that players go all in."""

from __future__ import annotations

import random

from tests.stats.handgen import random_history
from tracker.engine.cards import format_card
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state

VARIANTS = (
    ("seven_card_stud", {}),
    ("kings_and_little_ones", {}),
    ("low_hole", {}),
    ("low_hold", {"same_rank_wild": "face_down"}),
    ("low_hole", {"game": "high_low"}),
)


def quick_entry(rng: random.Random, state, stacks: list[int], players: list[int]) -> dict:
    """Two or three players show down for the same chips; the others fold on third."""
    stakes = state.next_stakes
    n = len(players)
    contenders = sorted(rng.sample(range(n), min(n, rng.choice((2, 2, 3)))))
    bet = stakes.ante + rng.choice((1, 2, 3)) * stakes.small_bet  # a short stack is all in
    deck = list(range(52))
    rng.shuffle(deck)
    seats = []
    for i, pid in enumerate(players):
        if i in contenders:
            cards = [format_card(deck.pop()) for _ in range(7)]
            put_in = min(stacks[i], bet)
            seats.append({"player": pid, "put_in": put_in, "down": cards[:3], "up": cards[3:]})
        else:
            seats.append({"player": pid, "put_in": min(stacks[i], stakes.ante), "folded": "third"})
    return {"seats": seats}


def play(
    tournament,
    by,
    rng: random.Random,
    hands: int = 50,
    full_share: float = 0.7,
    fold_p: float = 0.2,
    raise_choices: tuple[float, ...] = (0.1, 0.3, 0.6),
) -> int:
    """Record up to ``hands`` hands (fewer if the tournament ends); returns how many.
    Settlement runs when the caller's transaction commits (or eagerly in a test's
    ``django_capture_on_commit_callbacks``)."""
    done = 0
    for _ in range(hands):
        state = tournament_state(tournament)
        if state.over:
            break
        order = [s.player_id for s in state.next_positions()]
        stacks = [state.stacks[pid] for pid in order]
        variant, options = VARIANTS[rng.randrange(len(VARIANTS))]
        stakes = state.next_stakes
        if rng.random() < full_share:
            g = random_history(
                rng,
                stacks=stacks,
                stakes=(stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet),
                variant=variant,
                options=options,
                fold_p=fold_p,
                raise_p=rng.choice(raise_choices),
            )
            hand_record(
                tournament=tournament,
                by=by,
                entry_mode="full",
                variant=variant,
                options=options,
                entry={"actions": g.actions},
            )
        else:
            hand_record(
                tournament=tournament,
                by=by,
                entry_mode="quick",
                variant=variant,
                options=options,
                entry=quick_entry(rng, state, stacks, order),
            )
        done += 1
    return done
