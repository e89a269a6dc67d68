"""The machine kept between a draft's changes: after every change (events, check around,
undo, a refused change) the kept machine, the table and the log are those of a replay from
the start, as the live logger walked them before it kept machines; and a hand logged change
after change is replayed only when it must be (the first change, after an undo)."""

from __future__ import annotations

import random

import pytest

from tests.factories import make_league, make_tournament
from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.events import DealBoard, DealHole, Show, event_for
from tracker.engine.frames import FramesObserver
from tracker.engine.live import checks_around
from tracker.engine.screen import table_now
from tracker.engine.stud import Verb
from tracker.hands.selectors import live as live_selectors
from tracker.hands.selectors.live import (
    DraftState,
    draft_machine_forget,
    draft_state,
    draft_walk,
)
from tracker.hands.services.live import (
    draft_check_around,
    draft_start,
    draft_step,
    draft_undo,
)
from web.presenters.live import live_answer, live_page

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def replayed(draft, names):
    """Where the draft stands, walked from the start with the replayer's frames (the
    live logger's reads as they were before machines were kept)."""
    frames = FramesObserver(names)
    hand = draft_walk(draft, names=names, observers=[frames])
    table = frames.snapshot(frames.number, hand)
    log = [line for step in frames.steps for line in step.actions]
    return hand, table, log


def answer(state):
    """The outbox's answer for ``state`` (its fragment rendered without a request)."""
    return live_answer(live_page(state), tournament=state.draft.tournament, log=True)


def assert_as_replayed(draft):
    state = draft_state(draft)
    hand, table, log = replayed(draft, state.names)
    assert state.next == hand.next_event()
    assert state.table == table
    assert state.log == log
    assert (state.hand.stacks, state.hand.pot_total()) == (hand.stacks, hand.pot_total())
    assert state.hand.labels == hand.labels
    now = table_now(
        variant=draft.variant,
        options=draft.options,
        stakes=draft.stakes,
        stacks=draft.starting_stacks,
        names=state.names,
        steps=draft.steps,
    )
    fresh = DraftState(draft, state.names, now.hand, now.next, now.table, now.log, now)
    # The outbox's answer (its fragment: the buttons, the table, the log).
    assert answer(state) == answer(fresh)
    return state


def a_change(state, deck, rng):
    """The events of a legal change from where ``state`` stands (a street's cards for the
    first seat due, one of the actions offered, a show)."""
    nxt = state.next
    if nxt.deals:
        seat = nxt.deals[0].seat
        if seat is None:
            return [DealBoard(deck.pop())]
        return [DealHole(seat, tuple(deck.pop() for d in nxt.deals if d.seat == seat))]
    if nxt.seat is not None:
        options = [o for o in nxt.options if o.verb is not Verb.FOLD] or list(nxt.options)
        if rng.random() < 0.15:
            options = list(nxt.options)  # now and then a fold
        return [event_for(rng.choice(options))]
    if nxt.showdown:
        return [Show(nxt.showdown[0])]
    raise AssertionError(f"no change to make from {nxt}")


@pytest.mark.parametrize("variant", ["seven_card_stud", "low_hole", "kings_and_little_ones"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_machine_is_the_replayed_one_after_every_change(variant, seed, monkeypatch):
    rng = random.Random(seed)
    deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    walks = []
    real_live_hand = live_selectors.live_hand

    def counted(**kwargs):
        walks.append(len(kwargs["events"]))
        return real_live_hand(**kwargs)

    monkeypatch.setattr(live_selectors, "live_hand", counted)
    draft_machine_forget()
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, names=NAMES, default_variant=variant)
    draft = draft_start(tournament=tournament, by=admin)
    state = assert_as_replayed(draft)
    undos = refused = changes = 0
    while not state.next.over:
        roll = rng.random()
        if roll < 0.08 and draft.steps:
            draft = draft_undo(draft=draft, by=admin, version=draft.version)
            undos += 1
        elif roll < 0.16:  # a change the machine refuses: nothing kept from it
            with pytest.raises(DomainError):
                draft_step(
                    draft=draft,
                    by=admin,
                    version=draft.version,
                    events=[DealHole(0, (deck[-1],) * 9)],
                )
            draft.refresh_from_db()
            refused += 1
        elif roll < 0.3 and len(checks_around(state.hand)) > 1:
            draft = draft_check_around(draft=draft, by=admin, version=draft.version)
            changes += 1
        else:
            events = a_change(state, deck, rng)
            draft = draft_step(draft=draft, by=admin, version=draft.version, events=events)
            changes += 1
        state = assert_as_replayed(draft)
    assert changes > 20
    # Replayed by the reads above (one walk each), and by the machine only at the start,
    # after an undo and after a refused change.
    reads = 1 + undos + refused + changes
    assert len(walks) - reads <= 1 + undos + refused


def test_a_change_on_a_kept_machine_answers_as_a_replay_does(monkeypatch):
    """The page's answer after a change (the outbox's, the form's) is the same whether the
    change found a kept machine or replayed."""
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, names=NAMES[:3], default_variant="seven_card_stud"
    )
    draft = draft_start(tournament=tournament, by=admin)
    cards = iter(["2c", "Kd", "Qh"])
    for seat in range(3):
        events = [DealHole(seat, (None, None, parse_card(next(cards))))]
        draft = draft_step(draft=draft, by=admin, version=draft.version, events=events)
    draft_state(draft)  # keeps the machine with the log's words
    step = {"draft": draft, "by": admin, "version": draft.version}
    kept = draft_step(**step, events=[event_for(draft_state(draft).next.options[0])])
    kept_answer = answer(draft_state(kept))
    draft_undo(draft=kept, by=admin, version=kept.version)
    draft.refresh_from_db()
    draft_machine_forget()
    step["version"] = draft.version
    replay = draft_step(**step, events=[event_for(draft_state(draft).next.options[0])])
    draft_machine_forget()
    replay_answer = answer(draft_state(replay))
    for one, version in ((kept_answer, kept.version), (replay_answer, replay.version)):
        one.pop("version")  # the two drafts' versions differ (an undo between), and so do
        one["html"] = one["html"].replace(f'name="version" value="{version}"', "")  # forms'
    assert kept_answer == replay_answer


def test_the_pages_log_is_each_line_escaped_in_a_list_item():
    from django.template import Context, Template

    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann & <Bo>", "Bob"), default_variant="seven_card_stud"
    )
    draft = draft_start(tournament=tournament, by=admin)
    for seat, card in enumerate(("2c", "Kd")):
        events = [DealHole(seat, (None, None, parse_card(card)))]
        draft = draft_step(draft=draft, by=admin, version=draft.version, events=events)
    page = live_page(draft_state(draft))
    loop = Template("{% for line in page.log %}<li>{{ line }}</li>{% endfor %}")
    assert page.log_items == loop.render(Context({"page": page}))
    assert "Ann &amp; &lt;Bo&gt; K♦.</li>" in page.log_items
