"""A house game logged live on a dealer's choice night: the draft deals the league's game
at its latest version, its machine offers the pay rule and the extra card, and the hand is
recorded with the version and settled by the machine that deals the definition."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.support.live_house import cards, play_out, step
from tracker.engine.errors import DomainError
from tracker.engine.events import DealHole, event_for, event_from_json
from tracker.engine.stud import Verb
from tracker.games.services import league_game_archive, league_game_create, league_game_update
from tracker.hands.models import DraftStatus, HandStatus
from tracker.hands.selectors.live import draft_state
from tracker.hands.services.live import draft_finish, draft_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def house_night():
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant=""
    )
    baseball = league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    return league, admin, tournament, players, baseball


def test_a_baseball_hand_is_logged_live_with_the_pay_and_the_extra_card(
    house_night, django_capture_on_commit_callbacks
):
    league, admin, tournament, players, baseball = house_night
    draft = draft_start(tournament=tournament, by=admin, game=baseball.slug)
    assert draft_start(tournament=tournament, by=admin) == draft  # one open draft
    assert (draft.variant, draft.game_version.number) == ("house", 1)
    assert draft.game_version.game == baseball
    assert draft.options == {}
    draft = step(draft, admin, DealHole(0, cards("As Ks 2c")), DealHole(1, cards("Qh Qd 3c")))
    nxt = draft_state(draft).next
    assert nxt.seat == 1  # the three up: pay the pot or fold, before any bet
    assert [(o.verb, o.amount) for o in nxt.options] == [(Verb.PAY, 8), (Verb.FOLD, 0)]
    draft = step(draft, admin, event_from_json({"event": "pay", "seat": 1}, n=2))
    assert draft.steps[-1] == {"event": "pay", "seat": 1}
    assert draft_state(draft).hand.stacks[1] == 1000 - 4 - 8  # the ante and the price
    # The bring-in and its call, then a four up to seat 0: its extra card comes next.
    draft = step(draft, admin, event_for(draft_state(draft).next.options[0]))
    call = next(o for o in draft_state(draft).next.options if o.verb is Verb.CALL)
    draft = step(draft, admin, event_for(call))
    draft = step(draft, admin, DealHole(0, cards("4h")))
    nxt = draft_state(draft).next
    assert [(d.seat, d.face.value) for d in nxt.deals][:1] == [(0, "up")]
    draft = step(draft, admin, DealHole(0, cards("Td")))  # the extra card
    assert [d.seat for d in draft_state(draft).next.deals] == [1]  # then seat 1's card
    draft = play_out(draft, admin, {0: "Ah 7d 8d".split(), 1: "5d 6d 7s 8s".split()})
    draft.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        hand = draft_finish(draft=draft, by=admin, version=draft.version)
    hand.refresh_from_db()
    draft.refresh_from_db()
    assert draft.status == DraftStatus.RECORDED and draft.hand == hand
    assert hand.variant == "house" and hand.game_version == draft.game_version
    # the same full history of PHH actions the API takes: the pay, the extra card a deal
    actions = hand.entry["actions"]
    assert set(hand.entry) == {"actions"}
    assert actions[:3] == ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p2 _pay"]
    four = actions.index("d dh p1 4h")
    assert actions[four + 1 : four + 3] == ["d dh p1 Td", "d dh p2 5d"]
    assert hand.status == HandStatus.VERIFIED
    reading = hand.engine_reading
    assert reading["game"]["name"] == "baseball"
    showdown = reading["showdown"]
    assert len(showdown["players"][0]["down"] + showdown["players"][0]["up"]) == 8  # the extra
    assert showdown["players"][1]["wild"] == ["3c"]  # threes are wild: a straight to the nine
    assert showdown["high_winners"] == [1]
    assert showdown["shares"][0]["winners"] == [1]
    winner = hand.positions[1]
    assert hand.projected_net_chips[winner] == 4 + 10
    assert reading["paid"] == [0, 8]
    assert all("error" not in seat.facts for seat in hand.hand_seats.all())  # statistics too


def test_a_three_up_folded_ends_the_hand(house_night, django_capture_on_commit_callbacks):
    _, admin, tournament, _, baseball = house_night
    draft = draft_start(tournament=tournament, by=admin, game=baseball.slug)
    draft = step(draft, admin, DealHole(0, cards("As Ks 2c")), DealHole(1, cards("Qh Qd 3c")))
    draft = step(draft, admin, event_from_json({"event": "fold", "seat": 1}, n=2))
    assert draft_state(draft).next.over
    with django_capture_on_commit_callbacks(execute=True):
        hand = draft_finish(draft=draft, by=admin, version=draft.version)
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    assert hand.engine_reading["finishing_stacks"] == [1004, 996]


def test_the_draft_keeps_its_version_when_the_game_changes(house_night):
    league, admin, tournament, _, baseball = house_night
    draft = draft_start(tournament=tournament, by=admin, game=baseball.slug)
    changed = dict(draft.game_version.definition, pays=[])
    league_game_update(game=baseball, by=admin, definition=changed)
    assert baseball.versions.count() == 2
    draft = step(draft, admin, DealHole(0, cards("As Ks 2c")), DealHole(1, cards("Qh Qd 3c")))
    draft.refresh_from_db()
    assert draft.game_version.number == 1
    assert draft_state(draft).next.options[0].verb is Verb.PAY  # version 1's pay rule


def test_a_house_game_is_refused_where_the_night_does_not_deal_it(house_night):
    league, admin, tournament, _, baseball = house_night
    with pytest.raises(DomainError) as err:
        draft_start(tournament=tournament, by=admin, game="no-such-game")
    assert "game" in err.value.fields
    with pytest.raises(DomainError) as err:
        draft_start(tournament=tournament, by=admin, game=baseball.slug, variant="razz")
    assert "variant" in err.value.fields
    league_game_archive(game=baseball, by=admin)
    with pytest.raises(DomainError) as err:
        draft_start(tournament=tournament, by=admin, game=baseball.slug)
    assert "archived" in err.value.message
    fixed, _ = make_tournament(
        league=league,
        by=admin,
        names=("Cy", "Di"),
        default_variant="low_hold",
        name="Low Hold night",
    )
    with pytest.raises(DomainError) as err:
        draft_start(tournament=fixed, by=admin, game=baseball.slug)
    assert list(err.value.fields) == ["game"]


def test_the_phone_engine_draws_and_steps_an_open_house_draft_offline(house_night):
    """The logger's setup holds the game's definition, so the phone's own engine (what it
    runs offline) offers the pay and takes it as the server does."""
    import json

    from tracker.engine.screen import phone_screen, phone_step
    from web.presenters.live import live_page

    _, admin, tournament, _, baseball = house_night
    draft = draft_start(tournament=tournament, by=admin, game=baseball.slug)
    draft = step(draft, admin, DealHole(0, cards("?? ?? 3c")))
    setup = json.dumps(live_page(draft_state(draft)).phone_setup)
    assert json.loads(setup)["game"]["name"] == "baseball"
    drawn = json.loads(phone_screen(setup, json.dumps(draft.steps)))
    assert [b["label"] for b in drawn["buttons"]][:2] == ["Pay 8", "Fold"]
    tap = {"op": "act", "seat": "0", "verb": "pay"}
    answer = json.loads(phone_step(setup, json.dumps(draft.steps), json.dumps(tap)))
    assert answer["events"] == [{"event": "pay", "seat": 0}]
    server = step(draft, admin, *[event_from_json(e, n=2) for e in answer["events"]])
    assert server.steps == answer["steps"]
