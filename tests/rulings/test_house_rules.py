"""House rules: the authority sets them; a recorded hand keeps what it was dealt under."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament, make_user
from tests.rulings.helpers import PAIR_FIVES, WILD_FOURS, api_client, league_with_roles, showdown
from tests.support.recording import record
from tracker.core.errors import NotFound, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand
from tracker.hands.services.reevaluation import hand_reevaluate
from tracker.leagues.models import League
from tracker.rulings.services import house_rules_set

pytestmark = pytest.mark.django_db


def test_only_the_authority_and_the_admins_set_house_rules():
    league, users = league_with_roles()
    rules = {"kings_and_little_ones": {"king_required": False}}
    for role in ("scorekeeper", "member"):
        with pytest.raises(PermissionDenied):
            house_rules_set(league=league, house_rules=rules, by=users[role])
    with pytest.raises(PermissionDenied):
        house_rules_set(league=league, house_rules=rules, by=make_user("someone"))
    league = house_rules_set(league=league, house_rules=rules, by=users["authority"])
    assert League.objects.get(pk=league.pk).house_rules == rules
    league = house_rules_set(league=league, house_rules={}, by=users["admin"])
    assert League.objects.get(pk=league.pk).house_rules == {}


def test_private_league_house_rules_do_not_exist_for_outsiders():
    league, users = league_with_roles(slug="secret", public=False)
    with pytest.raises(NotFound):
        house_rules_set(league=league, house_rules={}, by=make_user("outsider"))
    r = api_client(make_user("nosy")).get("/api/v1/leagues/secret/house-rules/")
    assert r.status_code == 404


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"poker": {}}, "house_rules.poker"),
        ({"kings_and_little_ones": {"king_required": "yes"}}, "house_rules.kings_and_little_ones"),
        ({"low_hole": {"game": "lowball"}}, "house_rules.low_hole"),
        ({"seven_card_stud": {"no_such_thing": True}}, "house_rules.seven_card_stud"),
        ([1, 2], "house_rules"),
    ],
)
def test_house_rules_are_checked_with_the_rules_names(rules, field):
    league, users = league_with_roles()
    with pytest.raises(DomainError) as err:
        house_rules_set(league=league, house_rules=rules, by=users["authority"])
    assert any(k.startswith(field) for k in err.value.fields), err.value.fields
    assert League.objects.get(pk=league.pk).house_rules == {}


def wild_fours_win(tournament, admin):
    """A Kings and Little Ones showdown for 64: the wild fours against a pair of fives."""
    return record(
        tournament,
        admin,
        showdown(tournament, [WILD_FOURS, PAIR_FIVES], 64),
        variant="kings_and_little_ones",
    )


def test_changing_house_rules_never_changes_a_recorded_hand(settle):
    league, users = league_with_roles()
    admin, rob = users["admin"], users["authority"]
    tournament, _ = make_tournament(league=league, by=admin)  # dealer's choice
    with settle():
        first = wild_fours_win(tournament, admin)
    first.refresh_from_db()
    assert first.options["king_required"] is True
    options, reading = dict(first.options), dict(first.engine_reading)
    pots = list(first.pots.values_list("engine_award", "award"))

    # Without the king rule, the 2c would be wild for the other player too; no matter:
    # the hand was dealt under king_required and stays so.
    house_rules_set(
        league=league,
        house_rules={"kings_and_little_ones": {"king_required": False, "all_lowest_wild": True}},
        by=rob,
    )
    first = Hand.objects.get(pk=first.pk)
    assert first.options == options
    assert hand_reevaluate(hand=first) is False  # the same reading, under the same rules
    first = Hand.objects.get(pk=first.pk)
    assert first.options == options and first.engine_reading == reading
    assert list(first.pots.values_list("engine_award", "award")) == pots
    assert first.evaluations.count() == 2  # settlement and the re-evaluation

    with settle():
        second = wild_fours_win(tournament, admin)
    assert second.options["king_required"] is False and second.options["all_lowest_wild"] is True
    assert Hand.objects.get(pk=first.pk).options == options


def test_house_rules_over_the_api():
    league, users = league_with_roles()
    url = f"/api/v1/leagues/{league.slug}/house-rules/"
    assert api_client().get(url).json() == {"league": league.slug, "house_rules": {}}
    body = {"house_rules": {"low_hold": {"same_rank_wild": "face_down", "buy_price": 30}}}
    assert api_client().put(url, body, format="json").status_code == 401
    r = api_client(users["scorekeeper"]).put(url, body, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    r = api_client(users["authority"]).put(url, body, format="json")
    assert r.status_code == 200 and r.json()["house_rules"] == body["house_rules"]
    r = api_client(users["authority"]).put(
        url, {"house_rules": {"low_hold": {"buy_price": -1}}}, format="json"
    )
    assert r.status_code == 400 and "house_rules.low_hold.buy_price" in r.json()["error"]["fields"]
    assert League.objects.get(pk=league.pk).house_rules == body["house_rules"]
