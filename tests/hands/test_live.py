"""The live logger's services: steps saved as they happen, checked by the state machine,
undone, guarded by a version, and recorded as a full history that settles like any hand."""

from __future__ import annotations

import pytest

from tests.factories import add_member, make_tournament
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.events import EVENT_TYPES, Buy, ChooseSeventh, DealHole
from tracker.hands.models import DraftStatus, HandStatus
from tracker.hands.selectors.live import draft_state
from tracker.hands.services.live import (
    draft_check_around,
    draft_discard,
    draft_finish,
    draft_start,
    draft_step,
    draft_undo,
)

pytestmark = pytest.mark.django_db


def deal_third(draft, admin, cards=("2c", "Kd", "Qh")):
    events = [DealHole(i, (None, None, parse_card(c))) for i, c in enumerate(cards)]
    return draft_step(draft=draft, by=admin, version=draft.version, events=events)


def complete_and_fold(draft, admin):
    """Seat 0 brings in, seat 1 completes, seats 2 and 0 fold: the hand is over."""
    for seat, verb in ((0, "bring_in"), (1, "complete"), (2, "fold"), (0, "fold")):
        draft = draft_step(
            draft=draft, by=admin, version=draft.version, events=[EVENT_TYPES[verb](seat)]
        )
    return draft


def test_a_hand_logged_live_is_recorded_and_settles(night, django_capture_on_commit_callbacks):
    league, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    assert draft_start(tournament=tournament, by=admin) == draft  # one open draft
    state = draft_state(draft)
    assert [d.face.value for d in state.next.deals[:3]] == ["down", "down", "down"]
    draft = deal_third(draft, admin)
    state = draft_state(draft)
    assert state.next.seat == 0  # 2c brings in
    assert [(o.verb.value, o.amount) for o in state.next.options] == [
        ("bring_in", 10),
        ("complete", 20),
    ]
    draft = complete_and_fold(draft, admin)
    assert draft_state(draft).next.over
    with django_capture_on_commit_callbacks(execute=True):
        hand = draft_finish(draft=draft, by=admin, version=draft.version)
    hand.refresh_from_db()
    draft.refresh_from_db()
    assert draft.status == DraftStatus.RECORDED and draft.hand == hand
    assert hand.entry_mode == "full" and hand.status == HandStatus.VERIFIED
    assert hand.entry["actions"][-4:] == ["p1 pb", "p2 cbr 20", "p3 f", "p1 f"]
    assert sum(s.facts.get("vpip", 0) for s in hand.hand_seats.all()) == 1  # statistics count it


def test_wrong_steps_are_refused_and_nothing_is_saved(night):
    _, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    with pytest.raises(DomainError) as err:
        draft_step(
            draft=draft, by=admin, version=draft.version,
            events=[EVENT_TYPES["call"](1)],
        )  # fmt: skip
    assert err.value.code == "out_of_turn"
    draft.refresh_from_db()
    assert len(draft.steps) == 3 and draft.version == 1


def test_undo_and_two_screens(night):
    _, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    seen = draft.version
    draft = draft_step(draft=draft, by=admin, version=seen, events=[EVENT_TYPES["bring_in"](0)])
    # A second phone still showing the earlier version cannot log over it.
    with pytest.raises(Conflict) as err:
        draft_step(draft=draft, by=admin, version=seen, events=[EVENT_TYPES["fold"](0)])
    assert err.value.code == "stale_draft" and "reload" in err.value.message
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert draft_state(draft).next.options[0].verb.value == "bring_in"
    draft = draft_discard(draft=draft, by=admin, version=draft.version)
    assert draft.status == DraftStatus.DISCARDED
    assert draft_start(tournament=tournament, by=admin).pk != draft.pk


def test_only_scorekeepers_log(night):
    league, _, tournament, _ = night
    member = add_member(league, "member", "member")
    with pytest.raises(PermissionDenied):
        draft_start(tournament=tournament, by=member)


def test_statistics_count_the_hands_logged_live(
    night, client, django_capture_on_commit_callbacks, django_assert_num_queries
):
    from tests.support.definitions import stats_for, stats_table
    from tracker.stats.selectors import settled_seats

    league, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    draft = complete_and_fold(draft, admin)
    with django_capture_on_commit_callbacks(execute=True):
        draft_finish(draft=draft, by=admin, version=draft.version)
    seats = settled_seats(tournament=tournament)
    with django_assert_num_queries(1):  # the live count comes with the other sums
        total = stats_for(seats)
    assert (total.hands, total.full_hands, total.live_hands) == (3, 3, 3)
    with django_assert_num_queries(1):
        rows = stats_table(seats)
    assert [r.live_hands for r in rows] == [1, 1, 1]
    client.force_login(admin)
    page = client.get(f"/tournaments/{tournament.pk}/stats/").content.decode()
    assert '3 from full histories (<span data-testid="live-count">3 logged live</span>)' in page
    player = rows[0].key
    page = client.get(f"/players/{player}/stats/").content.decode()
    assert "1 logged live" in page and "1 of them logged live" in page


def test_settling_a_hand_logged_live_counts_it_live_in_the_running_totals(
    night, django_capture_on_commit_callbacks
):
    from tracker.stats.models import TournamentTally
    from tracker.stats.selectors import seat_tallies

    league, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    draft = complete_and_fold(draft, admin)
    with django_capture_on_commit_callbacks(execute=True):
        draft_finish(draft=draft, by=admin, version=draft.version)
    tallies = TournamentTally.objects.filter(tournament=tournament)
    assert sorted((t.hands, t.live) for t in tallies) == [(1, 1)] * 3
    # the totals settlement kept from the seats in memory are those the seats give read back
    hand_ids = list(tournament.hands.values_list("id", flat=True))
    read = {t.tournament_key: t.counters for t in seat_tallies(hand_ids=hand_ids)}
    fields = [*read[next(iter(read))]]
    kept = {(t.player_id, t.tournament_id, t.variant): t for t in tallies}
    assert {k: {f: getattr(kept[k], f) for f in fields} for k in read} == read


def act(draft, admin, seat, verb):
    return draft_step(
        draft=draft, by=admin, version=draft.version,
        events=[EVENT_TYPES[verb](seat)],
    )  # fmt: skip


def deal_up(draft, admin):
    """Deal the face-up cards of the street due (fresh cards, one per seat asked)."""
    used = {c for step in draft.steps for c in step.get("cards", ()) if c}
    fresh = iter(c for c in (f"{r}{s}" for r in "3456789TJQ" for s in "cdhs") if c not in used)
    events = []
    for deal in draft_state(draft).next.deals:
        card = parse_card(next(fresh)) if deal.face.value == "up" else None
        events.append(DealHole(deal.seat, (card,)))
    return draft_step(draft=draft, by=admin, version=draft.version, events=events)


def looks(draft):
    """What the page is built from: the steps, who acts, the options, the deals asked."""
    state = draft_state(draft)
    nxt = state.next
    return (
        list(draft.steps),
        nxt.phase, nxt.seat,
        [(o.verb, o.seat, o.amount) for o in nxt.options],
        [(o.verb, o.seat, o.amount) for o in nxt.choices],
        list(nxt.deals),
        state.log,
    )  # fmt: skip


def test_check_around_is_one_change_and_one_undo(night):
    _, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    with pytest.raises(DomainError):  # facing the bring-in: nobody can check
        draft_check_around(draft=draft, by=admin, version=draft.version)
    draft.refresh_from_db()
    assert draft.version == 1
    for seat, verb in ((0, "bring_in"), (1, "call"), (2, "call")):
        draft = act(draft, admin, seat, verb)
    for _street in ("fourth", "fifth"):
        draft = deal_up(draft, admin)
        draft = draft_check_around(draft=draft, by=admin, version=draft.version)
    draft = deal_up(draft, admin)  # sixth street
    before, version = looks(draft), draft.version
    first = draft_state(draft).next.seat
    draft = draft_check_around(draft=draft, by=admin, version=version)
    state = draft_state(draft)
    checks = [s for s in draft.steps[len(before[0]) :] if s.get("event") == "check"]
    assert len(checks) == 3 and checks[0]["seat"] == first  # in order, from the first to act
    # Seventh street is all face down: dealt by itself, and the next street's betting is on.
    assert state.hand.street.name == "SEVENTH" and state.next.seat is not None
    assert draft.version == version + 1  # one change
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == before  # the checks and the cards that followed, all back
    assert draft.version == version + 2  # the version only goes forward (stale screens)


def test_a_street_dealt_at_once_is_undone_at_once(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    before = looks(draft)
    draft = deal_third(draft, admin)
    assert len(draft.steps) == 3
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == before


def test_a_forced_bring_in_follows_the_deal_and_goes_back_with_it(night):
    league, admin, _, _ = night
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Dee", "Eli"), name="Big bring-in",
        default_variant="seven_card_stud", stakes_schedule=[[4, 20, 20, 40]],
    )  # fmt: skip
    draft = draft_start(tournament=tournament, by=admin)
    before = looks(draft)
    draft = deal_third(draft, admin, cards=("2c", "Kd"))
    assert draft.steps[-1] == {"event": "bring_in", "seat": 0, "auto": True}
    assert draft_state(draft).next.seat == 1  # the bring-in was the only thing to do
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == before


def to_seventh_street(league, admin, variant):
    """A three-player hand of ``variant`` checked down to seventh street (choices open)."""
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Dee", "Eli", "Fay"), name=variant,
        default_variant=variant,
    )  # fmt: skip
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin, ("2c", "Kd", "Qh"))
    for seat, verb in ((0, "bring_in"), (1, "call"), (2, "call")):
        draft = act(draft, admin, seat, verb)
    for _street in ("fourth", "fifth", "sixth"):
        draft = deal_up(draft, admin)
        draft = draft_check_around(draft=draft, by=admin, version=draft.version)
    assert draft_state(draft).next.choices
    return draft


@pytest.mark.parametrize(
    ("variant", "choice", "verb"),
    [
        ("low_hold", lambda seat: Buy(seat), "buy"),
        ("kings_and_little_ones", lambda seat: ChooseSeventh(seat, True), "choose_seventh"),
    ],
)
def test_undo_a_seventh_street_choice_and_the_card_after_it(night, variant, choice, verb):
    """Undo right after a Low Hold buy (or a Kings and Little Ones seventh card up), and
    after the card that follows it: the draft is exactly as before each time."""
    league, admin, _, _ = night
    draft = to_seventh_street(league, admin, variant)
    open_choices = looks(draft)
    assert [(c[0].value, c[1]) for c in open_choices[4]] == [(verb, 0), (verb, 1), (verb, 2)]
    assert all(d.face.value == "down" for d in open_choices[5])  # nobody chose yet
    version = draft.version

    draft = draft_step(draft=draft, by=admin, version=version, events=[choice(1)])
    chosen = looks(draft)
    assert {0, 2} <= {c[1] for c in chosen[4]}  # the others may still choose
    assert [d.face.value for d in chosen[5]] == ["down", "up", "down"]  # seat 1's comes up
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == open_choices and draft.version == version + 2

    draft = draft_step(draft=draft, by=admin, version=draft.version, events=[choice(1)])
    assert looks(draft) == chosen
    version = draft.version
    draft = deal_up(draft, admin)  # the seventh cards: seat 1's face up, the others unseen
    state = draft_state(draft)
    assert state.next.seat is not None and not state.next.choices  # betting on seventh
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == chosen and draft.version == version + 2
    draft = draft_undo(draft=draft, by=admin, version=draft.version)
    assert looks(draft) == open_choices


def test_a_change_with_no_event_is_refused_and_the_version_stays(night):
    """Nothing to log moves nothing: the other phone is not told that the draft changed."""
    _, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    with pytest.raises(DomainError) as err:
        draft_step(draft=draft, by=admin, version=draft.version, events=[])
    assert "events" in err.value.fields
    draft.refresh_from_db()
    assert draft.version == 1 and len(draft.steps) == 3


def test_the_phones_engine_makes_the_steps_and_the_screen_the_server_makes(night):
    """tracker/engine/screen.py as the phone calls it (JSON in and out) against the
    services: each tap's events, applied by the server, store the very steps the phone
    holds, and the server's page shows the phone's prompt and buttons."""
    import json

    from tracker.engine.events import event_from_json
    from tracker.engine.screen import phone_replay, phone_step
    from web.presenters.live import live_page

    league, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    setup = json.dumps(live_page(draft_state(draft)).phone_setup)
    steps = json.dumps(draft.steps)
    taps = [
        {"op": "deal", "card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"},
        {"op": "act", "seat": "0", "verb": "bring_in"},
        {"op": "act", "seat": "1", "verb": "call"},
        {"op": "act", "seat": "2", "verb": "call"},
        {"op": "deal", "card-0-0": "3c", "card-1-0": "Jd", "card-2-0": "Th"},
        {"op": "check_around"},
    ]
    changes = []
    for tap in taps:
        answer = json.loads(phone_step(setup, steps, json.dumps(tap)))
        assert "error" not in answer, answer
        if tap["op"] == "check_around":
            draft = draft_check_around(draft=draft, by=admin, version=draft.version)
            changes.append({"op": "check_around"})
        else:
            events = [event_from_json(e, n=3) for e in answer["events"]]
            draft = draft_step(draft=draft, by=admin, version=draft.version, events=events)
            changes.append({"op": "events", "events": answer["events"]})
        assert draft.steps == answer["steps"]
        page = live_page(draft_state(draft))
        assert answer["screen"]["prompt"] == page.prompt
        assert [b["label"] for b in answer["screen"]["buttons"]] == [b.label for b in page.buttons]
        assert answer["screen"]["pot"] == page.pot
        steps = json.dumps(answer["steps"])
    # The outbox's changes replayed from the start (a reload offline) give the same hand.
    assert json.loads(phone_replay(setup, "[]", json.dumps(changes)))["steps"] == draft.steps
    refused = json.loads(phone_step(setup, steps, json.dumps({"op": "act", "seat": "0",
                                                              "verb": "raise"})))  # fmt: skip
    assert refused["error"]["message"]  # the machine names the rule; nothing is changed


def stored(row) -> dict:
    """A row's stored values, by column."""
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def test_a_change_keeps_the_steps_before_it_and_answers_the_draft_as_stored(night):
    """Each change (events, a check-around, an undo) keeps what "keep mine" and a re-send
    need: the steps before it, its op, base, version and client id; and returns the draft,
    its tournament and its league as a fresh read of the database gives them."""
    import uuid

    from tracker.hands.models import DraftChange, DraftHand

    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)

    def step(d, cid, seat, verb):
        events = [EVENT_TYPES[verb](seat)]
        return draft_step(draft=d, by=admin, version=d.version, events=events, client_id=cid)

    changes = [
        ("events", lambda d, cid: deal_third(d, admin)),
        ("events", lambda d, cid: step(d, cid, 0, "bring_in")),
        ("events", lambda d, cid: step(d, cid, 1, "call")),
        ("undo", lambda d, cid: draft_undo(draft=d, by=admin, version=d.version, client_id=cid)),
        ("events", lambda d, cid: step(d, cid, 1, "call")),
        ("events", lambda d, cid: step(d, cid, 2, "call")),
        ("events", lambda d, cid: deal_up(d, admin)),
        ("check_around", lambda d, cid: draft_check_around(
            draft=d, by=admin, version=d.version, client_id=cid,
        )),
    ]  # fmt: skip
    for k, (op, change) in enumerate(changes):
        client_id = uuid.uuid4() if k in (1, 3, 4, 7) else None  # as the outbox sends them
        before, version = list(draft.steps), draft.version
        draft = change(draft, client_id)
        read = DraftHand.objects.select_related("tournament__league").get(pk=draft.pk)
        assert stored(draft) == stored(read)
        assert stored(draft.tournament) == stored(read.tournament)
        assert stored(draft.tournament.league) == stored(read.tournament.league)
        assert draft.version == version + 1 and draft.steps != before
        kept = DraftChange.objects.filter(draft=draft).latest("pk")
        assert (kept.op, kept.base, kept.version, kept.steps_before, kept.outcome) == (
            op, version, version + 1, before, DraftChange.Outcome.APPLIED,
        )  # fmt: skip
        assert kept.client_id == client_id
        assert kept.created_at <= read.updated_at
    assert DraftChange.objects.filter(draft=draft).count() == len(changes)


def test_a_change_through_the_services_costs_the_same_queries_early_and_late(night):
    """A change through the services: the roles, the draft locked once (with its
    tournament and league: the next change reads no league), the change kept and the
    draft written (one statement on PostgreSQL); as many at the street's last action as at
    its first."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, admin, tournament, _ = night
    draft = deal_third(draft_start(tournament=tournament, by=admin), admin)
    counts = []
    for seat, verb in ((0, "bring_in"), (1, "complete"), (2, "call"), (0, "call")):
        with CaptureQueriesContext(connection) as queries:
            draft = act(draft, admin, seat, verb)
        sql = [
            q["sql"] for q in queries.captured_queries
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        ]  # fmt: skip
        assert not any('FROM "tracker_league"' in s for s in sql), sql
        if connection.features.has_select_for_update:  # PostgreSQL: SQLite locks the database
            assert sum("FOR UPDATE" in s for s in sql) == 1, sql
        counts.append(len(sql))
    assert counts == [3 if connection.vendor == "postgresql" else 4] * 4, counts
