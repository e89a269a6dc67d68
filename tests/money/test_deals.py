"""Deals: the players still in agree to stop before the hand limit. The options side by side
(service and API), the agreement ending the night, the deal's amounts as the payouts
(money conserved), the refusals naming their rule with nothing stored, and the worked example
of docs/money.md."""

from __future__ import annotations

import itertools

import pytest
from django.db.models import Sum
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import api_client
from tests.support.money import nights, random_night, random_nights, still_in
from tracker.audit.models import AuditEntry
from tracker.engine import deals as engine
from tracker.engine.errors import DomainError
from tracker.money.deal_selectors import deal_offer
from tracker.money.deal_services import deal_record
from tracker.money.models import Deal, MoneyEntry
from tracker.money.selectors import night_money_summary
from tracker.money.services import entry_record
from tracker.tournaments.models import FinalStanding, TournamentStatus

pytestmark = pytest.mark.django_db

_slugs = itertools.count()


def test_the_offer_shows_each_option_for_the_places_still_open(night):
    t, _, _, _ = night
    offer = deal_offer(t)
    assert offer.refusal is None and len(offer.players) == 3
    summary = night_money_summary(t)
    assert offer.payouts == summary.place_payouts[:3] and offer.pool == summary.pool.prize_pool
    stacks = [p.chips for p in offer.players]
    assert offer.options == engine.deal_options(stacks, offer.payouts, unit=100)
    for amounts in offer.options.values():
        assert sum(amounts) == offer.pool and all(a % 100 == 0 for a in amounts)


@pytest.mark.parametrize("option", ["icm", "chip_chop", "even"])
def test_a_deal_ends_the_night_and_its_amounts_are_the_payouts(night, option):
    t, league, admin, roster = night
    offer = deal_offer(t)
    players = still_in(t)
    deal = deal_record(tournament=t, by=admin, option=option, agreed_by=players)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.finished_at is not None
    assert deal.by_player == dict(zip(players, offer.options[option], strict=True))
    summary = night_money_summary(t)
    assert summary.deal is not None and summary.deal.pk == deal.pk
    for pid, amount in deal.by_player.items():
        assert summary.payouts[pid] == amount
    busted = set(summary.payouts) - set(players)
    assert len(busted) == 1 and summary.payouts[busted.pop()] == 0
    # money conserved: paid out + fees = paid in
    assert summary.paid_out + summary.pool.fees + summary.pool.bounties == summary.pool.paid_in
    # the players still in are placed by chips, above the one who busted
    places = dict(FinalStanding.objects.filter(tournament=t).values_list("player_id", "place"))
    chips = {p.player_id: p.chips for p in offer.players}
    by_chips = sorted(players, key=lambda pid: -chips[pid])
    assert sorted(places[pid] for pid in players) == [1, 2, 3]
    assert [places[pid] for pid in by_chips] == sorted(places[pid] for pid in by_chips)
    audit = AuditEntry.objects.get(action="tournament.deal")
    assert audit.data["option"] == option and audit.data["agreed_by"] == players
    # nothing more may happen at the night
    with pytest.raises(DomainError) as err:
        deal_record(tournament=t, by=admin, option="even", agreed_by=players)
    assert err.value.code == "night_over"
    with pytest.raises(DomainError) as err:
        entry_record(tournament=t, player_id=players[0], kind="rebuy", by=admin)
    assert err.value.code == "night_over"
    assert Deal.objects.count() == 1


def test_amounts_typed_in_must_add_up_to_the_prize_money_left(night):
    t, _, admin, _ = night
    players = still_in(t)
    pool = deal_offer(t).pool
    wrong = {str(pid): pool // 3 for pid in players}
    with pytest.raises(DomainError) as err:
        deal_record(tournament=t, by=admin, option="custom", agreed_by=players, amounts=wrong)
    assert err.value.code == "invalid_deal" and "remaining pool" in err.value.message
    assert not Deal.objects.exists()
    t.refresh_from_db()
    assert t.status != TournamentStatus.FINISHED and not FinalStanding.objects.exists()
    typed = {str(players[0]): pool - 1000, str(players[1]): 500, str(players[2]): 500}
    deal = deal_record(tournament=t, by=admin, option="custom", agreed_by=players, amounts=typed)
    summary = night_money_summary(t)
    assert {pid: summary.payouts[pid] for pid in players} == {int(k): v for k, v in typed.items()}
    assert deal.option == "custom"
    assert summary.paid_out + summary.pool.fees == summary.pool.paid_in


def test_refusals_name_the_rule_and_store_nothing(night):
    t, league, admin, roster = night
    players = still_in(t)
    busted = next(p.pk for p in roster.values() if p.pk not in players)
    cases = [
        ({"option": "icm", "agreed_by": players + [busted]}, "not_still_in", "agreed_by"),
        ({"option": "icm", "agreed_by": players[:2]}, "deal_needs_everyone", "agreed_by"),
        ({"option": "best", "agreed_by": players}, "invalid_deal", "option"),
        (
            {
                "option": "custom",
                "agreed_by": players,
                "amounts": {str(pid): 0 for pid in [*players, busted]},
            },
            "not_still_in",
            f"amounts.{busted}",
        ),
        (
            {"option": "custom", "agreed_by": players, "amounts": {str(players[0]): -5}},
            "invalid_deal",
            f"amounts.{players[1]}",
        ),
    ]
    for kwargs, code, field in cases:
        with pytest.raises(DomainError) as err:
            deal_record(tournament=t, by=admin, **kwargs)
        assert err.value.code == code and field in err.value.fields, (kwargs, err.value)
    from tracker.core.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        deal_record(tournament=t, by=league.scorekeeper, option="icm", agreed_by=players)
    assert not Deal.objects.exists() and not AuditEntry.objects.filter(action="tournament.deal")
    t.refresh_from_db()
    assert t.status != TournamentStatus.FINISHED


def test_the_api_offers_and_records_a_deal(night):
    t, league, admin, _ = night
    players = still_in(t)
    url = f"/api/v1/tournaments/{t.pk}/deal/"
    body = api_client(league.member).get(url).json()
    assert body["deal"] is None and body["refusal"] is None
    assert set(body["options"]) == {"icm", "chip_chop", "even"}
    assert [p["player"] for p in body["players"]] == players
    assert sum(body["options"]["icm"]) == body["pool"] == sum(body["payouts"])
    member = api_client(league.member).post(
        url, {"option": "icm", "agreed_by": players}, format="json"
    )
    assert member.status_code == 403
    bad = api_client(admin).post(
        url,
        {"option": "custom", "agreed_by": players, "amounts": {str(players[0]): 1}},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_deal"
    assert not Deal.objects.exists()
    made = api_client(admin).post(url, {"option": "chip_chop", "agreed_by": players}, format="json")
    assert made.status_code == 201, made.json()
    assert [a["amount"] for a in made.json()["amounts"]] == body["options"]["chip_chop"]
    money = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/money/").json()
    paid = {p["player"]: p["amount"] for p in money["payouts"]}
    assert {pid: paid[pid] for pid in players} == dict(
        zip(players, body["options"]["chip_chop"], strict=True)
    )
    assert sum(paid.values()) + money["pool"]["fees"] == money["pool"]["paid_in"]
    after = api_client(league.member).get(url).json()
    assert after["deal"]["option"] == "chip_chop" and after["refusal"]["code"] == "night_over"
    again = api_client(admin).post(url, {"option": "even", "agreed_by": players}, format="json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "night_over"


def test_the_worked_example_of_the_docs(night):
    t, _, admin, roster = night
    names = {p.pk: n for n, p in roster.items()}
    offer = deal_offer(t)
    summary = offer.summary
    assert (summary.pool.paid_in, summary.pool.fees, summary.pool.prize_pool) == (
        10000,
        2000,
        8000,
    )
    assert summary.place_payouts == [4000, 2400, 1600]
    stacks = {names[p.player_id]: p.chips for p in offer.players}
    rows = {names[r["player"]]: (r["icm"], r["chip_chop"], r["even"]) for r in offer.rows()}
    assert stacks == EXAMPLE_STACKS
    assert rows == EXAMPLE_ROWS
    players = [p.player_id for p in offer.players]
    deal_record(tournament=t, by=admin, option="icm", agreed_by=players)
    paid = {names[pid]: amount for pid, amount in night_money_summary(t).payouts.items()}
    assert paid == {"Bob": 3100, "Ann": 2500, "Dan": 2400, "Cat": 0}
    assert sum(paid.values()) + summary.pool.fees == summary.pool.paid_in == 10000
    places = {
        names[pid]: place
        for pid, place in FinalStanding.objects.filter(tournament=t).values_list(
            "player_id", "place"
        )
    }
    assert places == {"Bob": 1, "Ann": 2, "Dan": 3, "Cat": 4}


# docs/money.md, "Deals": the chips after hand 2 and (ICM, chip count, even split) each
EXAMPLE_STACKS = {"Ann": 1004, "Bob": 2004, "Dan": 992}
EXAMPLE_ROWS = {"Ann": (2500, 2400, 2700), "Bob": (3100, 3200, 2700), "Dan": (2400, 2400, 2600)}


@random_nights(12)
@given(night=nights(), data=st.data())
def test_random_nights_ended_by_a_deal_conserve_money_and_pay_whole_units(
    night, data, django_capture_on_commit_callbacks
):
    unit, money, limit, players, hands, tries = night
    money = {**money, "buy_in": max(money["buy_in"], unit)}  # prize money to deal
    stop = data.draw(st.integers(1, limit), label="hands before the deal")
    option = data.draw(st.sampled_from(["icm", "chip_chop", "even", "custom"]), label="option")
    night = (unit, money, limit, players, hands, tries)
    t, league, admin, roster = random_night(
        night,
        django_capture_on_commit_callbacks,
        slug=f"dealt-{next(_slugs)}",
        buy_in=True,
        stop=stop,
    )
    t.refresh_from_db()
    offer = deal_offer(t)
    players_in = [p.player_id for p in offer.players]
    if offer.refusal is not None:
        # the night ended by itself or has no prize money: the deal is refused, nothing stored
        with pytest.raises(DomainError) as err:
            deal_record(tournament=t, by=admin, option="even", agreed_by=players_in)
        assert err.value.code == offer.refusal[0]
        assert not Deal.objects.filter(tournament=t).exists()
        return
    expected = offer.options.get(option)
    typed = None
    if option == "custom":
        even = offer.options["even"]
        expected = even[1:] + even[:1]  # any split adding up to the pool
        typed = {str(pid): a for pid, a in zip(players_in, expected, strict=True)}
    deal_record(tournament=t, by=admin, option=option, agreed_by=players_in, amounts=typed)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    summary = night_money_summary(t)
    assert [summary.payouts[pid] for pid in players_in] == expected
    paid_in = (
        MoneyEntry.objects.filter(tournament=t, undone_at__isnull=True).aggregate(s=Sum("paid"))[
            "s"
        ]
        or 0
    )
    assert summary.paid_out + summary.pool.fees + summary.pool.bounties == paid_in  # money
    assert all(a % unit == 0 for a in summary.payouts.values())
    assert set(summary.payouts) == {p.pk for p in roster}
    # the players still in hold the top places, the others are paid as their places say
    places = summary.places
    assert max(places[pid] for pid in players_in) < min(
        (places[p.pk] for p in roster if p.pk not in players_in), default=len(roster) + 1
    )
