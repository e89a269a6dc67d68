"""The rulings' side-by-side view names players in every award it shows (awards are stored
with string keys and read through ChipsByPlayer)."""

from __future__ import annotations

import pytest

from tests.rulings.helpers import disputed_hand, league_with_roles
from tracker.leagues.models import Player
from tracker.rulings.services import ruling_make
from web.presenters.rulings import pot_case

pytestmark = pytest.mark.django_db


def test_a_superseding_ruling_names_the_players_of_what_it_replaced(
    django_capture_on_commit_callbacks,
):
    league, users = league_with_roles()
    _, hand, order = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    pot, rob = hand.pots.get(), users["authority"]
    ruling_make(pot=pot, by=rob, result="engine", reason="aces win")
    ruling_make(pot=pot, by=rob, result="table", reason="on reflection: house rule")
    names = dict(Player.objects.filter(pk__in=order).values_list("pk", "name"))
    view = pot_case(users["member"], hand.pk, 0).rulings[-1]
    assert {n for n, _ in view.previous} <= set(names.values())
    assert {n for n, _ in view.correction} == {names[order[0]], names[order[1]]}
    assert {n for n, _ in view.award} <= set(names.values())
