"""Driving a live house-game draft through the services in tests: cards by text, a step,
and a whole hand played out passively (check or call, deal, show)."""

from __future__ import annotations

from tracker.engine.cards import parse_card
from tracker.engine.events import DealHole, Show, event_for
from tracker.engine.stud import Verb
from tracker.hands.selectors.live import draft_state
from tracker.hands.services.live import draft_step

PREFER = (Verb.CHECK, Verb.CALL, Verb.BRING_IN)


def cards(text):
    return tuple(None if t == "??" else parse_card(t) for t in text.split())


def step(draft, by, *events):
    return draft_step(draft=draft, by=by, version=draft.version, events=list(events))


def play_out(draft, by, deals):
    """Check or call every bet, deal each seat's next cards from ``deals`` (by seat, in
    order), show at the showdown; return the draft when the hand is over."""
    for _ in range(60):
        state = draft_state(draft)
        nxt = state.next
        if nxt.showdown and nxt.seat is None and not nxt.deals:
            shows = []
            for seat in nxt.showdown:
                held = list(state.hand.cards[seat])
                rest = [parse_card(t) for t in deals[seat]]
                shows.append(Show(seat, tuple(c if c is not None else rest.pop(0) for c in held)))
            return step(draft, by, *shows)
        if nxt.over:
            return draft
        if nxt.deals:
            seat = nxt.deals[0].seat
            count = sum(1 for d in nxt.deals if d.seat == seat)
            draft = step(draft, by, DealHole(seat, cards(" ".join(deals[seat][:count]))))
            del deals[seat][:count]
        else:
            option = next(o for verb in PREFER for o in nxt.options if o.verb is verb)
            draft = step(draft, by, event_for(option))
    raise AssertionError("the hand did not end")


def record_live(tournament, by, game, first, deals):
    """A whole house hand of ``game`` logged live and recorded: ``first`` the first
    street's cards by seat ({0: "9h 7d Qd", ...}), then :func:`play_out` with ``deals``;
    run it inside ``django_capture_on_commit_callbacks(execute=True)`` to settle it."""
    from tracker.hands.services.live import draft_finish, draft_start

    draft = draft_start(tournament=tournament, by=by, game=game.slug)
    draft = step(draft, by, *(DealHole(seat, cards(text)) for seat, text in first.items()))
    draft = play_out(draft, by, deals)
    draft.refresh_from_db()
    hand = draft_finish(draft=draft, by=by, version=draft.version)
    return hand


def house_table(name="Follow the Queen", preset="follow_the_queen"):
    """A league with Ann and Bob at a dealer's choice night and one house game:
    (league, admin, tournament, players, game)."""
    from tests.factories import make_league, make_tournament
    from tracker.games.services import league_game_create

    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant=""
    )
    game = league_game_create(league=league, by=admin, name=name, preset=preset)
    return league, admin, tournament, players, game
