"""Money settings: a league's currency, unit and locale; a night's money rules from the
league's defaults, changed per night by an admin; in the services, the API and the pages."""

from __future__ import annotations

import doctest

import pytest
from django.test import Client

from tests.factories import add_member, api_client, make_league
from tracker.audit.models import AuditEntry
from tracker.core.errors import PermissionDenied
from tracker.engine.errors import DomainError
from tracker.money import formatting
from tracker.money.models import NightMoney
from tracker.money.selectors import league_money, night_money
from tracker.money.services import league_money_set, night_create
from tracker.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def ids(league):
    return [p.pk for p in league.roster]


def create(league, by, **night):
    """A night called N of the league's roster, made by ``by``."""
    return night_create(league=league, by=by, name="N", player_ids=ids(league), **night)


def test_formatting_doctests():
    result = doctest.testmod(formatting)
    assert result.attempted >= 3 and result.failed == 0


def test_a_league_without_settings_has_dollars_whole_dollars_and_no_money(league):
    row = league_money(league)
    assert (row.currency, row.unit, row.locale) == ("USD", 100, "en_US")
    assert row.rules.buy_in == 0 and not row.rules.rebuys_on and not row.rules.addon_on


def test_a_new_currency_takes_one_whole_unit_of_it_unless_a_unit_is_given(league):
    row = league_money_set(league=league, by=league.admin, values={"currency": "jpy"})
    assert (row.currency, row.unit) == ("JPY", 1)
    row = league_money_set(
        league=league, by=league.admin, values={"currency": "EUR", "unit": 50, "locale": "de-DE"}
    )
    assert (row.currency, row.unit, row.locale) == ("EUR", 50, "de_DE")
    assert AuditEntry.objects.filter(action="league.money_set").count() == 2


@pytest.mark.parametrize(
    "values, field, code",
    [
        ({"currency": "XYZ"}, "currency", "invalid_currency"),
        ({"locale": "zz_QQ"}, "locale", "invalid_locale"),
        ({"unit": 0}, "unit", "invalid"),
        ({"buy_in": 2050}, "buy_in", "invalid_amount"),
        ({"rebuy_price": 1000}, "rebuy_chips", "invalid"),
        ({"rebuy_when": "sometimes"}, "rebuy_when", "invalid"),
        (
            {"payout_template": "custom_percent", "payout_custom": [50, 30]},
            "payout_custom",
            "invalid",
        ),
        ({"jackpot": 5}, "jackpot", "invalid"),
    ],
)
def test_bad_league_settings_are_refused_naming_the_field_and_nothing_changes(
    league, values, field, code
):
    with pytest.raises(DomainError) as info:
        league_money_set(league=league, by=league.admin, values=values)
    assert field in info.value.fields and info.value.code == code
    assert league_money(league).pk is None


@pytest.mark.parametrize("who", ["scorekeeper", "member"])
def test_only_an_admin_sets_the_league_money(league, who):
    with pytest.raises(PermissionDenied):
        league_money_set(league=league, by=getattr(league, who), values={"buy_in": 1000})


def test_a_night_takes_the_league_defaults_and_keeps_its_currency(league):
    league_money_set(
        league=league,
        by=league.admin,
        values={"currency": "EUR", "buy_in": 2000, "fee": 200, "payout_template": "65_35"},
    )
    t = create(league, league.scorekeeper)
    money = night_money(t)
    assert (money.currency, money.unit, money.buy_in, money.fee) == ("EUR", 100, 2000, 200)
    assert money.payout_template == "65_35"
    league_money_set(league=league, by=league.admin, values={"currency": "GBP", "buy_in": 500})
    money = night_money(t)
    assert (money.currency, money.buy_in) == ("EUR", 2000)
    # the chips of the night are today's defaults
    assert (t.starting_chips, t.hands_per_level, t.hand_limit) == (1000, 5, 50)


def test_an_admin_changes_the_rules_for_one_night(league):
    t = create(
        league,
        league.admin,
        money={
            "buy_in": 1000,
            "rebuy_price": 1000,
            "rebuy_chips": 1000,
            "rebuy_until_hand": 20,
            "rebuy_max": 2,
            "rebuy_when": "any",
            "addon_price": 500,
            "addon_chips": 1500,
            "addon_at_hand": 21,
            "bounty": 500,
        },
    )
    rules = night_money(t).rules
    assert rules.rebuys_on and rules.rebuy_when == "any" and rules.addon_at_hand == 21
    assert AuditEntry.objects.filter(action="tournament.money_set", target_id=str(t.pk)).exists()


def test_a_scorekeeper_may_start_a_night_but_not_change_its_money(league):
    league_money_set(league=league, by=league.admin, values={"buy_in": 1000})
    same = create(league, league.scorekeeper, money={"buy_in": 1000})
    assert night_money(same).buy_in == 1000
    before = Tournament.objects.count()
    with pytest.raises(PermissionDenied) as info:
        create(league, league.scorekeeper, money={"buy_in": 5000})
    assert "buy_in" in info.value.message
    assert Tournament.objects.count() == before


def test_a_rule_past_the_hand_limit_is_refused_and_no_night_is_made(league):
    with pytest.raises(DomainError) as info:
        create(
            league,
            league.admin,
            hand_limit=10,
            money={"addon_price": 500, "addon_chips": 500, "addon_at_hand": 12},
        )
    assert "money.addon_at_hand" in info.value.fields
    assert not Tournament.objects.exists() and not NightMoney.objects.exists()


# --------------------------------------------------------------------------- the API


def test_api_creates_a_night_with_money_and_names_a_bad_rule(league):
    client = api_client(league.admin)
    body = {"league": "friday", "name": "N", "players": ids(league)}
    r = client.post(
        "/api/v1/tournaments/", {**body, "money": {"buy_in": 2000, "fee": 500}}, format="json"
    )
    assert r.status_code == 201, r.content
    assert night_money(Tournament.objects.get(pk=r.json()["id"])).buy_in == 2000
    r = client.post("/api/v1/tournaments/", {**body, "money": {"buy_in": 2050}}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["fields"] == {
        "money.buy_in": ["buy_in: 2050 is not a whole number of the unit (100)"]
    }
    assert Tournament.objects.count() == 1


def test_api_a_night_without_money_keeps_todays_rules(league):
    r = api_client(league.scorekeeper).post(
        "/api/v1/tournaments/",
        {"league": "friday", "name": "N", "players": ids(league)},
        format="json",
    )
    assert r.status_code == 201, r.content
    t = Tournament.objects.get(pk=r.json()["id"])
    assert night_money(t).rules.buy_in == 0 and t.starting_chips == 1000


def test_api_league_money_read_by_members_set_by_admins(league):
    r = api_client(league.admin).put(
        "/api/v1/leagues/friday/money/", {"currency": "GBP", "locale": "en_GB"}, format="json"
    )
    assert r.status_code == 200, r.content
    assert r.json()["currency"] == "GBP" and r.json()["unit"] == 100
    r = api_client(league.member).get("/api/v1/leagues/friday/money/")
    assert r.status_code == 200 and r.json()["locale"] == "en_GB"
    r = api_client(league.scorekeeper).put(
        "/api/v1/leagues/friday/money/", {"buy_in": 100}, format="json"
    )
    assert r.status_code == 403
    r = api_client(league.admin).put(
        "/api/v1/leagues/friday/money/", {"currency": "ZZZ"}, format="json"
    )
    assert r.status_code == 400 and "currency" in r.json()["error"]["fields"]


def test_api_league_money_is_not_shown_outside_the_league(league):
    outsider = api_client(add_member(make_league(slug="other")[0], "olly", "member"))
    assert outsider.get("/api/v1/leagues/friday/money/").status_code == 403
    league.is_public = False
    league.save()
    assert outsider.get("/api/v1/leagues/friday/money/").status_code == 404


# --------------------------------------------------------------------------- the pages


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def night_form(league, **money) -> dict:
    data = {"name": "Money night", "seating": "chosen", "stakes": "default"}
    data.update({"starting_chips": 1000, "hands_per_level": 5, "hand_limit": 50})
    data.update({"rebuy_when": "busted", "payout_template": "winner_takes_all"})
    for p in league.roster:
        data[f"play_{p.pk}"] = "on"
    data.update(money)
    return data


def test_the_new_night_page_takes_money_in_the_currency_and_the_page_shows_it(league):
    league_money_set(league=league, by=league.admin, values={"currency": "EUR", "locale": "de_DE"})
    client = page_client(league.admin)
    page = client.get("/leagues/friday/nights/new/")
    assert page.status_code == 200 and b'data-testid="night-money"' in page.content
    assert "Buy-in (EUR)" in page.content.decode()
    assert "Amounts in EUR; 0 is none." in page.content.decode()
    r = client.post("/leagues/friday/nights/new/", night_form(league, buy_in="20", fee="2.00"))
    assert r.status_code == 302, r.content.decode()[:2000]
    t = Tournament.objects.get()
    assert (night_money(t).buy_in, night_money(t).fee) == (2000, 200)
    html = client.get(t.get_absolute_url()).content.decode()
    assert "20,00\xa0€ (fee 2,00\xa0€)" in html


def test_the_new_night_page_shows_a_bad_amount_by_its_field_and_keeps_the_input(league):
    client = page_client(league.admin)
    r = client.post("/leagues/friday/nights/new/", night_form(league, buy_in="20.50"))
    assert r.status_code == 400  # the form answers its errors with 400
    form = r.context["form"]
    assert form.errors["buy_in"] == ["buy_in: 2050 is not a whole number of the unit (100)"]
    assert form["buy_in"].value() == "20.50"
    assert not Tournament.objects.exists()


def test_a_scorekeeper_sees_the_league_money_fixed_on_the_new_night_page(league):
    league_money_set(league=league, by=league.admin, values={"buy_in": 1000})
    client = page_client(league.scorekeeper)
    page = client.get("/leagues/friday/nights/new/")
    assert page.context["form"].fields["buy_in"].disabled
    r = client.post("/leagues/friday/nights/new/", night_form(league, buy_in="99"))
    assert r.status_code == 302
    assert night_money(Tournament.objects.get()).buy_in == 1000


def test_the_money_is_shown_to_members_only(league):
    t = create(league, league.admin, money={"buy_in": 1000})
    assert b'data-testid="money"' in page_client(league.member).get(t.get_absolute_url()).content
    anonymous = Client().get(t.get_absolute_url())
    assert anonymous.status_code == 200 and b'data-testid="money"' not in anonymous.content


def league_form(**values) -> dict:
    data = {"currency": "USD", "locale": "en_US", "unit": "1"}
    data.update({"rebuy_when": "busted", "payout_template": "winner_takes_all"})
    data.update(values)
    return data


def test_the_league_money_page_sets_the_currency_and_the_rules(league):
    client = page_client(league.admin)
    assert b'data-testid="league-money"' in client.get("/leagues/friday/").content
    page = client.get("/leagues/friday/money/")
    assert page.status_code == 200 and page.context["form"]["unit"].value() == 1
    assert "Amounts in USD; 0 is none." in page.content.decode()
    r = client.post(
        "/leagues/friday/money/",
        league_form(currency="eur", locale="de_DE", unit="5", buy_in="20", payout_template="65_35"),
    )
    assert r.status_code == 302, r.content.decode()[:3000]
    row = league_money(league)
    assert (row.currency, row.locale, row.unit, row.buy_in) == ("EUR", "de_DE", 500, 2000)
    assert row.payout_template == "65_35"
    assert "Buy-in (EUR)" in client.get("/leagues/friday/money/").content.decode()


def test_the_league_money_page_names_a_bad_field_and_saves_nothing(league):
    client = page_client(league.admin)
    r = client.post("/leagues/friday/money/", league_form(currency="ZZZ"))
    assert r.status_code == 400
    assert "is not an ISO 4217 currency code" in r.context["form"].errors["currency"][0]
    r = client.post("/leagues/friday/money/", league_form(unit="5", buy_in="12"))
    assert r.status_code == 400
    assert r.context["form"].errors["buy_in"] == [
        "buy_in: 1200 is not a whole number of the unit (500)"
    ]
    assert league_money(league).pk is None


@pytest.mark.parametrize("who", ["scorekeeper", "member"])
def test_only_admins_open_the_league_money_page(league, who):
    client = page_client(getattr(league, who))
    assert client.get("/leagues/friday/money/").status_code == 403
    assert client.post("/leagues/friday/money/", league_form()).status_code == 403
    assert b'data-testid="league-money"' not in client.get("/leagues/friday/").content
    anonymous = Client().get("/leagues/friday/money/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
