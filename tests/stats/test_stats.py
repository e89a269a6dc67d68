"""Statistics in the database against the same sums done in Python, query counts that do
not grow with the hands, league points, the points formula service, the backfill."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tests.factories import add_member, make_league, make_tournament
from tests.support.definitions import stats_for, stats_table
from tracker.core.errors import PermissionDenied
from tracker.engine.errors import DomainError
from tracker.engine.facts import FACTS_VERSION
from tracker.hands.models import HandSeat, HandStatus, Pot
from tracker.hands.selectors import facts as facts_module
from tracker.leagues.selectors import league_results, league_standings
from tracker.stats import selectors as sel
from tracker.stats.services import league_points_formula_set, stats_refresh
from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus
from tracker.tournaments.services import standings_tallies_apply

pytestmark = pytest.mark.django_db


def reference(seats) -> dict:
    """Every statistic summed in Python from the rows (the definition, plainly)."""
    rows = list(seats.values_list("facts", "won", "contributed"))
    f = [r[0] for r in rows]

    def total(key):
        return sum(x.get(key, 0) for x in f)

    cats: dict[str, int] = {}
    for x in f:
        if "cat" in x:
            cats[x["cat"]] = cats.get(x["cat"], 0) + 1
    nets = [won - put for _, won, put in rows]
    return {
        "hands": len(rows),
        "full_hands": total("full"),
        "vpip": total("vpip"),
        "bring_ins": total("bi"),
        "completions": total("comp"),
        "raises3": total("r3"),
        "bets": total("bets"),
        "calls": total("calls"),
        "steal_tries": total("st_try"),
        "steals": total("steal"),
        "saw": {s: total(f"saw{s}") for s in (4, 5, 6, 7)},
        "showdowns": total("sd"),
        "showdowns_won": sum(1 for x, won, _ in rows if x.get("sd") and won > 0),
        "wild_cards": total("wild"),
        "wild_hands": sum(1 for x in f if "wild" in x),
        "net": sum(nets),
        "chips_won": sum(n for n in nets if n > 0),
        "chips_lost": -sum(n for n in nets if n < 0),
        "put_in": sum(put for _, _, put in rows),
        "biggest_pot": max((won for _, won, _ in rows), default=0),
        "allin_hands": total("ai"),
        "allin_expected": pytest.approx(sum(x.get("ev", 0) for x in f), abs=0.01),
        "allin_actual": sum(won for x, won, _ in rows if x.get("ai")),
        "categories": cats,
    }


def as_dict(stats: sel.Stats) -> dict:
    out = {k: getattr(stats, k) for k in reference(HandSeat.objects.none())}
    return out


def test_settlement_writes_the_facts_of_every_seat(world):
    seats = HandSeat.objects.filter(hand__tournament__league=world.league)
    assert seats.count() > 150
    assert not seats.exclude(facts__v=FACTS_VERSION).exists()
    allins = seats.filter(facts__ai=1)
    assert allins.count() >= 6 and set(allins.values_list("hand__entry_mode", flat=True)) == {
        "full"
    }
    by_hand: dict[int, float] = {}
    for hand_id, facts in allins.values_list("hand_id", "facts"):
        by_hand[hand_id] = by_hand.get(hand_id, 0) + facts["ev"]
    for h, ev in by_hand.items():
        pots = Pot.objects.filter(hand_id=h).aggregate(s=Sum("amount"))["s"]
        assert ev == pytest.approx(pots, abs=0.05)


def test_database_sums_equal_the_python_definitions(world):
    for player in world.players:
        seats = sel.settled_seats(players=[player.pk])
        assert as_dict(stats_for(seats)) == reference(seats), player.name
    league_rows = stats_table(sel.settled_seats(league=world.league))
    played = set(HandSeat.objects.values_list("player_id", flat=True))
    assert {s.key for s in league_rows} == played
    for row in league_rows:
        assert as_dict(row) == reference(sel.settled_seats(players=[row.key])), row.label


def test_scopes_tournament_and_variant(world):
    ann = world.players[0]
    t = Tournament.objects.filter(seats__player=ann).first()
    scope = sel.player_scope(None, ann, tournament=str(t.pk))
    seats = sel.scope_seats(scope)
    assert seats.count() == HandSeat.objects.filter(player=ann, hand__tournament=t).count()
    assert as_dict(stats_for(seats)) == reference(seats)
    scope = sel.player_scope(None, ann, variant="low_hole")
    assert set(sel.scope_seats(scope).values_list("hand__variant", flat=True)) <= {"low_hole"}
    by_variant = stats_table(sel.settled_seats(players=[ann.pk]), "hand__variant")
    assert sum(s.hands for s in by_variant) == stats_for(sel.settled_seats(players=[ann.pk])).hands
    with pytest.raises(Exception) as err:
        sel.player_scope(None, ann, variant="draw_poker")
    assert "No such game" in str(err.value)


def test_rates_and_their_denominators(world):
    stats = stats_for(sel.settled_seats(league=world.league))
    assert stats.vpip_pct == round(100 * stats.vpip / stats.full_hands, 1)
    assert stats.wtsd_pct == round(100 * stats.showdowns / stats.saw[4], 1)
    assert stats.wsd_pct == round(100 * stats.showdowns_won / stats.showdowns, 1)
    assert stats.aggression == round(stats.bets / stats.calls, 2)
    assert stats.net == 0  # chips only move between the players of a league
    assert stats.chips_won == stats.chips_lost
    empty = sel.Stats()
    assert empty.vpip_pct is None and empty.aggression is None and empty.luck == 0


def test_statistics_take_a_fixed_number_of_queries(world, django_assert_num_queries):
    seats = sel.settled_seats(league=world.league)
    with django_assert_num_queries(1):
        stats_for(seats)
    with django_assert_num_queries(1):
        stats_table(seats)
    with django_assert_num_queries(1):
        stats_table(seats, "hand__variant")
    with django_assert_num_queries(1):
        sel.player_hands(sel.Scope(players=[world.players[0].pk]))
    with django_assert_num_queries(1):  # all time: the stored running totals
        league_standings(world.league)


def test_league_standings_with_points(world):
    rows = league_standings(world.league)
    results = league_results(world.league)
    assert len(results) == FinalStanding.objects.filter(tournament__league=world.league).count()
    assert sum(r.points for r in rows) == pytest.approx(sum(r.points for r in results))
    # linear by default: each 4-player night hands out 4 + 3 + 2 + 1 points
    assert sum(r.points for r in rows) == 10 * 3
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert all(r.counted == r.events for r in rows)
    world.league.points_formula = {"formula": "table", "table": [10, 5], "best": 1}
    rows = league_standings(world.league)
    assert all(r.counted == min(1, r.events) for r in rows)
    assert max(r.points for r in rows) == 10


def test_ties_share_points_in_the_standings():
    league, admin = make_league(slug="ties", min_players=3)  # three-player nights count
    t, (ann, bob, cat) = make_tournament(league=league, by=admin)
    t.status = TournamentStatus.FINISHED
    t.entrants = 3  # as final_standings_write stores it
    t.save()
    FinalStanding.objects.bulk_create(
        [
            FinalStanding(tournament=t, player=ann, place=1, chips=1500),
            FinalStanding(tournament=t, player=bob, place=2, chips=750),
            FinalStanding(tournament=t, player=cat, place=2, chips=750),
        ]
    )
    standings_tallies_apply(tournament_ids=[t.pk], before={})  # as final_standings_write does
    rows = {r.name: r for r in league_standings(league)}
    assert (rows["Ann"].points, rows["Bob"].points, rows["Cat"].points) == (3.0, 1.5, 1.5)
    league.points_formula = {"formula": "pokerstars_tlb", "buy_in": 20}
    rows = {r.name: r for r in league_standings(league)}
    assert rows["Bob"].points == rows["Cat"].points < rows["Ann"].points


def test_points_formula_is_set_by_an_admin_or_the_authority():
    league, admin = make_league(slug="pts")
    member = add_member(league, "pts-member", "member")
    keeper = add_member(league, "pts-keeper", "scorekeeper")
    rob = add_member(league, "pts-rob", "authority")
    for user in (member, keeper):
        with pytest.raises(PermissionDenied):
            league_points_formula_set(league=league, formula={"formula": "table"}, by=user)
    league = league_points_formula_set(
        league=league, formula={"formula": "pokerstars_tlb", "buy_in": 5, "best": 10}, by=rob
    )
    league.refresh_from_db()
    assert league.points_formula == {"formula": "pokerstars_tlb", "buy_in": 5.0, "best": 10}
    with pytest.raises(DomainError) as err:
        league_points_formula_set(league=league, formula={"formula": "elo"}, by=admin)
    assert "points_formula.formula" in err.value.fields
    league_points_formula_set(league=league, formula=None, by=admin)
    league.refresh_from_db()
    assert league.points_formula == {"formula": "linear"}


def test_refresh_stats_rebuilds_the_facts(world):
    seats = HandSeat.objects.filter(hand__tournament__league=world.league)
    before = dict(seats.values_list("id", "facts"))
    seats.filter(hand__tournament=world.tournaments[0]).update(facts={})
    out = StringIO()
    call_command("refresh_stats", stdout=out)
    assert "refreshed the facts of" in out.getvalue()
    assert dict(seats.values_list("id", "facts")) == before
    assert stats_refresh(league=world.league) == 0  # nothing outdated left
    assert stats_refresh(tournament_id=world.tournaments[1].pk, everything=True) > 0
    assert dict(seats.values_list("id", "facts")) == before


def test_a_fault_in_the_statistics_never_blocks_settlement(
    monkeypatch, django_capture_on_commit_callbacks
):
    from tests.stats.seed import play

    league, admin = make_league(slug="fault")
    t, _ = make_tournament(league=league, by=admin)

    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(facts_module, "hand_facts", broken)
    import random

    with django_capture_on_commit_callbacks(execute=True):
        play(t, admin, random.Random(4), hands=2)
    seats = HandSeat.objects.filter(hand__tournament=t)
    assert set(seats.values_list("hand__status", flat=True)) == {HandStatus.VERIFIED}
    assert all("boom" in f["error"] for f in seats.values_list("facts", flat=True))
    monkeypatch.undo()
    assert stats_refresh(tournament_id=t.pk) == 2
    assert not seats.filter(facts__has_key="error").exists()


def test_all_time_adds_up_the_leagues_of_one_person(world, django_capture_on_commit_callbacks):
    import random

    from tests.stats.seed import play
    from tracker.leagues.models import Player
    from tracker.tournaments.services import tournament_create

    ann = world.players[0]
    person = add_member(world.league, "ann-person", "member")
    Player.objects.filter(pk=ann.pk).update(user=person)
    other, admin = make_league(slug="elsewhere")
    twin = Player.objects.create(league=other, name="Ann", user=person)
    rival = Player.objects.create(league=other, name="Zed")
    t = tournament_create(league=other, name="Away", player_ids=[twin.pk, rival.pk], by=admin)
    with django_capture_on_commit_callbacks(execute=True):
        play(t, admin, random.Random(9), hands=3)
    ann.refresh_from_db()
    scope = sel.player_scope(person, ann)
    assert sorted(scope.players) == sorted([ann.pk, twin.pk])
    total = stats_for(sel.scope_seats(scope)).hands
    assert total == HandSeat.objects.filter(player__in=[ann, twin]).count()
    other.is_public = False
    other.save()
    assert sel.player_scope(None, ann).players == [ann.pk]  # an outsider sees one league
