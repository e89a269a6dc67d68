"""Check-in at the door: the yeses, the waitlist and walk-ins tapped in, undone before the
start; the start makes the tournament (the night's game, the league's money rules, the seat
draw), records the buy-ins paid at the door and the no-shows; the refusals (not on the
roster, more players than seats, a night already started, too few players); the API; and
a user's own nights (upcoming with their answer, past with their finish and money)."""

from __future__ import annotations

import random
import zoneinfo

import pytest
from django.test import Client

from tests.factories import add_member, api_client, make_league
from tests.schedule.helpers import schedule
from tests.support.money import play
from tests.support.threads import at_once, concurrent
from tracker.audit.models import AuditEntry
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.services import player_create
from tracker.money.models import MoneyEntry
from tracker.money.services import league_money_set
from tracker.schedule.models import CheckIn, Rsvp
from tracker.schedule.selectors import door_list, my_nights, upcoming_nights
from tracker.schedule.services import (
    night_check_in,
    night_check_out,
    night_start,
    rsvp_answer,
)
from tracker.tournaments.models import Tournament, TournamentStatus
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db


def answered(night, players, answers):
    for p, a in zip(players, answers, strict=True):
        rsvp_answer(night=night, player_id=p.pk, answer=a, by=p.user)


def test_the_door_list_puts_the_yeses_first_then_waiting_then_walk_ins(club):
    league, admin, (ann, bob, cat, dan, eve) = club
    walk = player_create(league=league, name="Abe", by=admin)  # no account, never answered
    night = schedule(league, admin, seats=2)
    answered(night, [cat, bob, ann, dan], ["yes", "yes", "yes", "maybe"])  # ann waitlisted
    rsvp_answer(night=night, player_id=eve.pk, answer="no", by=eve.user)
    door = door_list(night)
    assert [r.player for r in door.going] == [cat, bob]
    assert [r.player for r in door.waiting] == [ann, dan]
    assert [r.player for r in door.walk_ins] == [walk, eve]  # by name
    assert door.here == []


def test_check_in_then_start_seats_the_players_records_buy_ins_and_no_shows(
    club,
    django_capture_on_commit_callbacks,
):
    league, admin, (ann, bob, cat, dan, eve) = club
    league_money_set(league=league, by=admin, values={"buy_in": 2000, "fee": 500})
    walk = player_create(league=league, name="Abe", by=admin)
    night = schedule(league, admin, seats=4, variant="seven_card_stud")
    answered(night, [ann, bob, cat], ["yes", "yes", "yes"])
    keeper = add_member(league, "sam", "scorekeeper")
    night_check_in(night=night, player_id=ann.pk, by=keeper)
    night_check_in(night=night, player_id=bob.pk, by=keeper, buy_in=False)  # pays later
    night_check_in(night=night, player_id=walk.pk, by=keeper)  # a walk-in
    night_check_in(night=night, player_id=dan.pk, by=keeper)
    night_check_out(night=night, player_id=dan.pk, by=keeper)  # tapped by mistake
    again = night_check_in(night=night, player_id=ann.pk, by=keeper)  # twice: still one
    assert again.buy_in and CheckIn.objects.filter(night=night).count() == 3
    assert [r.player for r in door_list(night).here] == [ann, bob, walk]

    t = night_start(night=night, by=keeper, rng=random.Random(7))
    night.refresh_from_db()
    assert night.tournament == t and night.started_at is not None
    assert t.default_variant == "seven_card_stud" and t.seats_drawn
    zone = zoneinfo.ZoneInfo(league.time_zone)
    assert t.date == night.starts_at.astimezone(zone).date()
    assert "Alex's kitchen" in t.name
    seated = set(t.seats.values_list("player_id", flat=True))
    assert seated == {ann.pk, bob.pk, walk.pk}
    assert sorted(t.seats.values_list("number", flat=True)) == [0, 1, 2]
    entries = MoneyEntry.objects.filter(tournament=t)
    assert sorted(e.player_id for e in entries) == sorted([ann.pk, walk.pk])
    assert {(e.kind, e.paid) for e in entries} == {("buy_in", 2500)}
    assert [r.player for r in Rsvp.objects.filter(night=night, no_show=True)] == [cat]
    assert not Rsvp.objects.filter(night=night, player=ann, no_show=True).exists()
    assert tournament_state(t).stacks == {p: 1000 for p in seated}
    assert night not in upcoming_nights(league)
    actions = list(
        AuditEntry.objects.filter(action__startswith="night.").values_list("action", flat=True)
    )
    assert actions.count("night.check_in") == 4 and "night.check_out" in actions
    start = AuditEntry.objects.get(action="night.start")
    assert start.data["no_shows"] == ["Cat"]

    # Started: check-in, undo, answers and a second start are closed; nothing changes.
    for attempt in (
        lambda: night_check_in(night=night, player_id=dan.pk, by=keeper),
        lambda: night_check_out(night=night, player_id=ann.pk, by=keeper),
        lambda: night_start(night=night, by=keeper),
        lambda: rsvp_answer(night=night, player_id=dan.pk, answer="yes", by=dan.user),
    ):
        with pytest.raises(Conflict) as refused:
            attempt()
        assert refused.value.code == "night_started"
    assert Tournament.objects.count() == 1 and CheckIn.objects.count() == 3


def test_a_night_without_money_starts_with_no_entries(club):
    league, admin, (ann, bob, *_) = club
    night = schedule(league, admin)
    for p in (ann, bob):
        night_check_in(night=night, player_id=p.pk, by=admin)
    t = night_start(night=night, by=admin)
    assert t.default_variant == "" and t.seats.count() == 2
    assert not MoneyEntry.objects.exists()


def test_check_in_refusals_name_the_fault_and_change_nothing(club):
    league, admin, (ann, bob, cat, dan, eve) = club
    night = schedule(league, admin, seats=2)
    member = ann.user
    with pytest.raises(PermissionDenied, match="admin or scorekeeper"):
        night_check_in(night=night, player_id=ann.pk, by=member)
    elsewhere, their_admin = make_league(slug="other")
    other_league_player = player_create(league=elsewhere, name="Zed", by=their_admin)
    for bad in (other_league_player.pk, 999_999, "1", None):
        with pytest.raises(DomainError) as refused:
            night_check_in(night=night, player_id=bad, by=admin)
        assert refused.value.code == "not_on_roster" and list(refused.value.fields) == ["player"]
    night_check_in(night=night, player_id=ann.pk, by=admin)
    with pytest.raises(DomainError) as refused:
        night_start(night=night, by=admin)
    assert refused.value.code == "too_few_players"
    night_check_in(night=night, player_id=bob.pk, by=admin)
    with pytest.raises(DomainError) as refused:
        night_check_in(night=night, player_id=cat.pk, by=admin)
    assert refused.value.code == "seats_full" and "all 2 seats" in refused.value.message
    with pytest.raises(DomainError) as refused:
        night_check_out(night=night, player_id=cat.pk, by=admin)
    assert refused.value.code == "not_checked_in"
    with pytest.raises(DomainError):
        night_check_in(night=night, player_id=ann.pk, by=admin, buy_in="yes")
    assert CheckIn.objects.filter(night=night).count() == 2
    assert not Tournament.objects.exists()


def test_the_api_checks_in_undoes_and_starts(club, django_capture_on_commit_callbacks):
    league, admin, (ann, bob, cat, *_) = club
    league_money_set(league=league, by=admin, values={"buy_in": 1000})
    night = schedule(league, admin, seats=3)
    api = api_client(admin)
    base = f"/api/v1/nights/{night.pk}"
    for p in (ann, bob, cat):
        r = api.post(f"{base}/check-in/", {"player": p.pk}, format="json")
        assert r.status_code == 201, r.content
    assert r.json()["player_name"] == "Cat" and r.json()["buy_in"] is True
    r = api.post(f"{base}/check-in/", {"player": 0}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "not_on_roster"
    r = api.post(f"{base}/check-out/", {"player": cat.pk}, format="json")
    assert r.status_code == 200
    listed = api.get(f"{base}/check-in/").json()
    assert [c["player_name"] for c in listed] == ["Ann", "Bob"]
    r = api_client(ann.user).post(f"{base}/start/", format="json")
    assert r.status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post(f"{base}/start/", format="json")
    assert r.status_code == 201, r.content
    t = Tournament.objects.get(pk=r.json()["tournament"])
    assert t.seats.count() == 2 and MoneyEntry.objects.filter(tournament=t).count() == 2
    detail = api.get(f"{base}/").json()
    assert detail["tournament"] == t.pk and detail["started_at"]
    r = api.post(f"{base}/start/", format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "night_started"


def test_my_nights_lists_upcoming_answers_past_finishes_and_money(
    club,
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    league, admin, (ann, bob, cat, *_) = club
    league_money_set(
        league=league, by=admin, values={"buy_in": 2000, "payout_template": "winner_takes_all"}
    )
    played = schedule(league, admin, seats=3)
    answered(played, [ann, bob, cat], ["yes", "yes", "yes"])
    for p in (ann, bob):
        night_check_in(night=played, player_id=p.pk, by=admin)
    t = night_start(night=played, by=admin, rng=random.Random(1))
    Tournament.objects.filter(pk=t.pk).update(hand_limit=1)
    t.refresh_from_db()
    while not tournament_state(t).over:
        play(t, admin, capture, "fold")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    ahead = schedule(league, admin, place="Bob's garage")
    rsvp_answer(night=ahead, player_id=ann.pk, answer="maybe", by=ann.user)
    later = schedule(
        league,
        admin,
        place="The club",
        starts_at=ahead.starts_at.replace(year=ahead.starts_at.year + 1),
    )

    mine = my_nights(ann.user)
    assert [(u.night, u.answer_text) for u in mine.upcoming] == [
        (ahead, "maybe"),
        (later, "not answered yet"),
    ]
    (past,) = mine.past
    assert past.tournament_id == t.pk and past.finished and past.place in (1, 2)
    won = past.place == 1
    assert past.result == (2000 if won else -2000)
    (debt,) = past.debts
    assert debt.other == "Bob" and debt.owes is not won and debt.amount == 2000
    assert (mine.owed if won else mine.owe) == ["$20.00"]
    assert not (mine.owe if won else mine.owed)
    assert [n for n in my_nights(cat.user).missed] == [played]  # said yes, did not come
    assert my_nights(cat.user).past == []

    # The page and the API, signed in; the page sends visitors to the login page.
    client = Client()
    assert client.get("/me/nights/").status_code == 302
    client.force_login(ann.user)
    page = client.get("/me/nights/")
    assert page.status_code == 200
    assert b"Bob&#x27;s garage" in page.content and b"$20.00" in page.content
    body = api_client(ann.user).get("/api/v1/me/nights/").json()
    assert [n["place"] for n in body["upcoming"]] == ["Bob's garage", "The club"]
    assert body["upcoming"][0]["answer"] == "maybe"
    assert body["past"][0]["tournament"] == t.pk and body["past"][0]["result"] == past.result
    assert api_client().get("/api/v1/me/nights/").status_code == 401


def test_the_pages_check_in_show_refusals_and_are_for_organisers_only(club):
    league, admin, (ann, bob, cat, *_) = club
    night = schedule(league, admin, seats=2)
    url = f"/nights/{night.pk}/check-in/"
    member = Client()
    member.force_login(ann.user)
    assert b"open-check-in" not in member.get(f"/nights/{night.pk}/").content
    assert member.get(url).status_code == 403
    assert member.post(url, {"action": "in", "player": ann.pk}).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page
    organiser = Client()
    organiser.force_login(admin)
    assert b"open-check-in" in organiser.get(f"/nights/{night.pk}/").content
    for p in (ann, bob):
        organiser.post(url, {"action": "in", "player": p.pk, "buy_in": "1"})
    refused = organiser.post(url, {"action": "in", "player": cat.pk}, follow=True)
    assert b"all 2 seats are taken" in refused.content
    assert organiser.post(url, {"action": "in", "player": "x"}, follow=True).status_code == 200
    assert CheckIn.objects.filter(night=night).count() == 2
    started = organiser.post(url, {"action": "start"})
    t = Tournament.objects.get()
    assert started.status_code == 302 and started["Location"] == t.get_absolute_url()
    page = organiser.get(url)
    assert b"This night has started" in page.content and b"night-start" not in page.content
    assert b"No-shows" in organiser.get(f"/nights/{night.pk}/").content


@concurrent("concurrent check-ins")
def test_check_ins_and_starts_arriving_together_never_overfill_nor_start_twice(club):
    league, admin, players = club
    night = schedule(league, admin, seats=3)

    def together(calls):
        outcomes = at_once(calls)
        assert not [
            o for o in outcomes if isinstance(o, Exception) and not isinstance(o, DomainError)
        ]
        return outcomes

    outcomes = together(
        [lambda p=p: night_check_in(night=night, player_id=p.pk, by=admin) for p in players]
    )
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(refused) == 2 and {e.code for e in refused} == {"seats_full"}
    assert CheckIn.objects.filter(night=night).count() == 3
    outcomes = together([lambda: night_start(night=night, by=admin) for _ in range(3)])
    started = [o for o in outcomes if isinstance(o, Tournament)]
    assert len(started) == 1 and Tournament.objects.count() == 1
    assert {o.code for o in outcomes if isinstance(o, DomainError)} == {"night_started"}


def test_an_answer_from_my_nights_goes_back_there_and_never_off_the_site(club):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    client = Client()
    client.force_login(ann.user)
    url = f"/nights/{night.pk}/answer/"
    back = client.post(url, {"player": ann.pk, "answer": "yes", "next": "/me/nights/"})
    assert back.status_code == 302 and back["Location"] == "/me/nights/"
    away = client.post(url, {"player": ann.pk, "answer": "no", "next": "https://evil.example/"})
    assert away["Location"] == f"/nights/{night.pk}/"
    assert Rsvp.objects.get(night=night, player=ann).answer == "no"
