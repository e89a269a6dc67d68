"""Entries at the table: buy-ins, rebuys and add-ons recorded under the night's rules, their
chips in the ledger from the next hand (so chips stay conserved and settlement carries them),
undone until the next hand is recorded; in the services, the API and the tournament page."""

from __future__ import annotations

import pytest
from django.db.models import Sum
from django.test import Client

from tests.factories import (
    ACES,
    KINGS,
    add_member,
    api_client,
    fold_entry,
    make_league,
    showdown_entry,
)
from tracker.audit.models import AuditEntry
from tracker.core.errors import PermissionDenied
from tracker.engine.errors import DomainError
from tracker.hands.models import HandSeat
from tracker.hands.services.recording import hand_record
from tracker.hands.services.settlement import tournament_settle
from tracker.leagues.services import player_create
from tracker.money.models import MoneyEntry
from tracker.money.selectors import night_money_summary
from tracker.money.services import entry_record, entry_undo, night_create
from tracker.tournaments.models import LedgerEntry
from tracker.tournaments.selectors import (
    stack_history,
    tournament_live,
    tournament_stacks,
    tournament_state,
)

pytestmark = pytest.mark.django_db

REBUYS = {
    "buy_in": 2000,
    "fee": 500,
    "bounty": 500,
    "rebuy_price": 2000,
    "rebuy_chips": 1000,
    "rebuy_until_hand": 6,
    "rebuy_max": 2,
    "rebuy_when": "busted",
    "addon_price": 1000,
    "addon_chips": 1500,
    "addon_at_hand": 3,
}


def night(league, **money):
    return night_create(
        league=league,
        by=league.admin,
        name="Money night",
        player_ids=[p.pk for p in league.roster],
        money={**REBUYS, **money},
    )


@pytest.fixture
def record(django_capture_on_commit_callbacks):
    def record(t, entry, by, settle=True):
        with django_capture_on_commit_callbacks(execute=settle):
            return hand_record(
                tournament=t, entry_mode="quick", entry=entry, variant="seven_card_stud", by=by
            )

    return record


def bust_second(t, by, record):
    """The first player by position shows aces, the second kings, both all in: the second is
    busted. Returns the busted player's id."""
    positions = tournament_state(t).next_positions()
    loser = positions[1].player_id
    stack = tournament_state(t).stacks[loser]
    record(t, showdown_entry(t, [ACES, KINGS], stack), by)
    assert tournament_state(t).stacks[loser] == 0
    return loser


def refused(code, **kwargs):
    before = (MoneyEntry.objects.count(), LedgerEntry.objects.count())
    with pytest.raises(DomainError) as info:
        entry_record(**kwargs)
    assert info.value.code == code, info.value.message
    assert (MoneyEntry.objects.count(), LedgerEntry.objects.count()) == before
    return info.value


def test_buy_ins_fill_the_pool_and_a_second_is_refused(league):
    t = night(league)
    for p in league.roster:
        entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=league.scorekeeper)
    summary = night_money_summary(t)
    # each pays the buy-in, the fee and the bounty
    assert (summary.pool.paid_in, summary.pool.fees, summary.pool.bounties) == (9000, 1500, 1500)
    assert summary.pool.prize_pool == 6000
    ann = league.roster[0].pk
    err = refused("buy_in_recorded", tournament=t, player_id=ann, kind="buy_in", by=league.admin)
    assert "one a player" in err.message
    assert AuditEntry.objects.filter(action="money.entry_record").count() == 3


def test_a_busted_player_rebuys_and_plays_on_with_the_chips(league, record):
    t = night(league)
    loser = bust_second(t, league.admin, record)
    entry = entry_record(tournament=t, player_id=loser, kind="rebuy", by=league.scorekeeper)
    assert (entry.chips, entry.paid, entry.at_hand) == (1000, 2500, 2)
    assert tournament_state(t).stacks[loser] == 1000
    assert loser in [s.player_id for s in tournament_state(t).next_positions()]
    record(t, fold_entry(t), league.admin)
    # conserved: 3 x 1000 starting chips and one rebuy of 1000 (tests/conftest.py checks it
    # after every batch too)
    assert sum(tournament_stacks(t).values()) == 4000
    seat = HandSeat.objects.get(hand__tournament=t, hand__number=2, player_id=loser)
    assert seat.starting_stack == 1000
    # the stacks chart counts the rebuy after hand 2, the hand it was bought before
    history = stack_history(t)
    assert len(history[loser]) == 3
    assert history[loser][1] == 0 and history[loser][-1] == tournament_stacks(t)[loser]
    # the standings see the rebuy: the player is in, not out in hand 1
    live = tournament_live(t)
    row = next(r for r in live.standings if r.player_id == loser)
    assert not row.is_out


def test_a_rebuy_while_holding_chips_is_refused_when_the_night_says_only_when_busted(league):
    t = night(league)
    err = refused(
        "rebuy_only_when_busted",
        tournament=t,
        player_id=league.roster[0].pk,
        kind="rebuy",
        by=league.scorekeeper,
    )
    assert err.message == "a rebuy only when busted: the player still holds 1000 chips"
    assert err.fields == {"kind": [err.message]}


def test_rebuys_at_any_time_stop_at_the_limit_per_player(league):
    t = night(league, rebuy_when="any", rebuy_max=1)
    ann = league.roster[0].pk
    entry_record(tournament=t, player_id=ann, kind="rebuy", by=league.scorekeeper)
    assert tournament_state(t).stacks[ann] == 2000
    err = refused("rebuy_limit", tournament=t, player_id=ann, kind="rebuy", by=league.scorekeeper)
    assert "at most 1 rebuy a player" in err.message


def test_a_rebuy_outside_its_window_is_refused(league, record):
    t = night(league, rebuy_when="any", rebuy_until_hand=1)
    record(t, fold_entry(t), league.admin)
    err = refused(
        "rebuy_window", tournament=t, player_id=league.roster[0].pk, kind="rebuy", by=league.admin
    )
    assert err.message == "rebuys up to hand 1: the next hand is 2"


def test_the_add_on_is_taken_before_its_hand_once(league, record):
    t = night(league, addon_at_hand=2)
    ann = league.roster[0].pk
    err = refused("addon_window", tournament=t, player_id=ann, kind="addon", by=league.admin)
    assert err.message == "the add-on is taken before hand 2: the next hand is 1"
    record(t, fold_entry(t), league.admin)
    entry_record(tournament=t, player_id=ann, kind="addon", by=league.admin)
    refused("addon_taken", tournament=t, player_id=ann, kind="addon", by=league.admin)
    record(t, fold_entry(t), league.admin)
    refused(
        "addon_window", tournament=t, player_id=league.roster[1].pk, kind="addon", by=league.admin
    )
    assert sum(tournament_stacks(t).values()) == 4500


def test_a_night_without_rebuys_or_add_on_refuses_them(league):
    t = night_create(
        league=league, by=league.admin, name="N", player_ids=[p.pk for p in league.roster]
    )
    ann = league.roster[0].pk
    refused("no_buy_in", tournament=t, player_id=ann, kind="buy_in", by=league.admin)
    refused("no_rebuys", tournament=t, player_id=ann, kind="rebuy", by=league.admin)
    refused("no_addon", tournament=t, player_id=ann, kind="addon", by=league.admin)


def test_an_entry_is_undone_until_the_next_hand_is_recorded(league, record):
    t = night(league, rebuy_when="any")
    ann = league.roster[0].pk
    entry = entry_record(tournament=t, player_id=ann, kind="rebuy", by=league.scorekeeper)
    undone = entry_undo(entry=entry, by=league.scorekeeper)
    assert undone.undone_at is not None and undone.reversal.amount == -1000
    assert tournament_state(t).stacks[ann] == 1000
    assert night_money_summary(t).pool.paid_in == 0
    with pytest.raises(DomainError) as info:
        entry_undo(entry=entry, by=league.scorekeeper)
    assert info.value.code == "entry_undone"
    again = entry_record(tournament=t, player_id=ann, kind="rebuy", by=league.scorekeeper)
    record(t, fold_entry(t), league.admin)
    with pytest.raises(DomainError) as info:
        entry_undo(entry=again, by=league.scorekeeper)
    assert info.value.code == "entry_final"
    assert "hand 1 has been recorded since" in info.value.message
    assert sum(tournament_stacks(t).values()) == 4000


def test_chips_bought_between_unsettled_hands_count_from_their_hand(league, record):
    """Hand 1 recorded (not settled), a rebuy, hand 2 recorded; both settle in one batch:
    hand 1 is played with the stacks before the rebuy, hand 2 with it."""
    t = night(league, rebuy_when="any")
    ann = league.roster[0].pk
    record(t, fold_entry(t), league.admin, settle=False)
    entry_record(tournament=t, player_id=ann, kind="rebuy", by=league.scorekeeper)
    record(t, fold_entry(t), league.admin, settle=False)
    assert tournament_settle(tournament_id=t.pk) == 2  # one batch
    starts = dict(
        HandSeat.objects.filter(hand__tournament=t, player_id=ann).values_list(
            "hand__number", "starting_stack"
        )
    )
    state = tournament_state(t)
    assert state.pending == 0
    hand1 = HandSeat.objects.get(hand__tournament=t, hand__number=1, player_id=ann)
    assert starts[1] == 1000
    assert starts[2] == 1000 - hand1.contributed + (hand1.won or 0) + 1000
    ledger = LedgerEntry.objects.filter(tournament=t).aggregate(s=Sum("amount"))["s"]
    assert ledger == 4000


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_only_scorekeepers_and_admins_record_entries(league, who):
    from django.contrib.auth.models import AnonymousUser

    t = night(league)
    user = AnonymousUser() if who == "anonymous" else league.member
    with pytest.raises(PermissionDenied):
        entry_record(tournament=t, player_id=league.roster[0].pk, kind="buy_in", by=user)


def test_a_player_not_seated_is_refused_by_field(league):
    t = night(league)
    other = player_create(league=league, name="Dee", by=league.admin)
    with pytest.raises(DomainError) as info:
        entry_record(tournament=t, player_id=other.pk, kind="buy_in", by=league.admin)
    assert "player" in info.value.fields


# --------------------------------------------------------------------------- the API


def test_api_records_and_undoes_entries_and_shows_the_money(league):
    t = night(league)
    client = api_client(league.scorekeeper)
    ann = league.roster[0].pk
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/entries/", {"player": ann, "kind": "buy_in"}, format="json"
    )
    assert r.status_code == 201, r.content
    assert r.json()["paid"] == 3000 and r.json()["before_hand"] == 1
    entry_id = r.json()["id"]
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/entries/", {"player": ann, "kind": "rebuy"}, format="json"
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "rebuy_only_when_busted"
    assert r.json()["error"]["fields"] == {"kind": [r.json()["error"]["message"]]}
    money = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/money/")
    assert money.status_code == 200
    body = money.json()
    assert body["pool"]["prize_pool"] == 2000 and body["pool"]["prize_pool_text"] == "$20.00"
    assert body["rules"]["rebuy_max"] == 2 and body["entries"][0]["kind"] == "buy_in"
    r = client.post(f"/api/v1/tournaments/{t.pk}/entries/{entry_id}/undo/")
    assert r.status_code == 200 and r.json()["undone_at"]
    assert client.get(f"/api/v1/tournaments/{t.pk}/money/").json()["entries"] == []


def test_api_entries_are_for_scorekeepers_and_money_for_members(league):
    t = night(league)
    body = {"player": league.roster[0].pk, "kind": "buy_in"}
    member = api_client(league.member)
    assert (
        member.post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json").status_code == 403
    )
    assert (
        api_client().post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json").status_code
        == 401
    )
    assert api_client().get(f"/api/v1/tournaments/{t.pk}/money/").status_code == 403
    league.is_public = False
    league.save()
    outsider = api_client(add_member(make_league(slug="other")[0], "olly", "admin"))
    assert outsider.get(f"/api/v1/tournaments/{t.pk}/money/").status_code == 404
    assert (
        outsider.post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json").status_code
        == 404
    )


# --------------------------------------------------------------------------- the page


def test_one_tap_entries_and_undo_on_the_tournament_page(league, record):
    t = night(league)
    loser = bust_second(t, league.admin, record)
    client = Client()
    client.force_login(league.scorekeeper)
    html = client.get(t.get_absolute_url()).content.decode()
    assert f'data-testid="entry-rebuy-{loser}"' in html
    assert (
        f'data-testid="entry-rebuy-{league.roster[0].pk}"' not in html
        or loser == league.roster[0].pk
    )
    r = client.post(f"/tournaments/{t.pk}/entries/", {"player": loser, "kind": "rebuy"})
    assert r.status_code == 302 and r["Location"].endswith("#money")
    entry = MoneyEntry.objects.get(kind="rebuy")
    page = client.get(t.get_absolute_url())
    html = page.content.decode()
    assert "rebuy recorded (undo until the next hand)" in html
    assert f'data-testid="entry-undo-{entry.pk}"' in html
    r = client.post(f"/tournaments/{t.pk}/entries/", {"player": loser, "kind": "addon"})
    assert (
        "Not recorded: the add-on is taken before hand 3: the next hand is 2."
        in client.get(t.get_absolute_url()).content.decode()
    )
    client.post(f"/tournaments/{t.pk}/entries/{entry.pk}/undo/")
    entry.refresh_from_db()
    assert entry.undone_at is not None


def test_members_see_the_money_without_buttons(league):
    t = night(league)
    client = Client()
    client.force_login(league.member)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-entries"' in html and "entry-buy_in-" not in html
    r = client.post(
        f"/tournaments/{t.pk}/entries/", {"player": league.roster[0].pk, "kind": "buy_in"}
    )
    assert r.status_code == 403
    assert not MoneyEntry.objects.exists()


def test_the_table_screen_version_moves_with_a_buy_in_and_its_undo(league):
    # The table screen shows the prize pool: a poll must not answer 304 across a buy-in.
    from web.presenters.table import table_screen_etag

    t = night(league)
    before = table_screen_etag(league.admin, t.pk)
    entry = entry_record(
        tournament=t, player_id=league.roster[0].pk, kind="buy_in", by=league.scorekeeper
    )
    paid = table_screen_etag(league.admin, t.pk)
    assert paid != before
    entry_undo(entry=entry, by=league.scorekeeper)
    assert table_screen_etag(league.admin, t.pk) not in (before, paid)
