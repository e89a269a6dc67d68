"""Recording hands and running tournaments through the services (both databases)."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from api.errors import http_status
from tests.factories import add_member, fold_seats, make_league, make_tournament
from tests.support.nights import all_in_night
from tests.support.recording import aces_against_kings, record, record_showdown
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand, HandStatus, Pot
from tracker.hands.services.settlement import tournament_settle
from tracker.tournaments.models import LedgerEntry, LedgerKind, TournamentStatus
from tracker.tournaments.selectors import tournament_stacks, tournament_standings, tournament_state
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


def walk(tournament, winner_position=0, bring_in=True):
    """A quick entry's seats where everyone folds to one player (who posts the bring-in)."""
    return fold_seats(tournament, winner_position, bring_in)


def test_tournament_starts_everyone_on_1000_with_the_default_schedule(night):
    _, _, tournament, players = night
    assert tournament_stacks(tournament) == {p.id: 1000 for p in players}
    assert tournament.stakes_schedule[0] == [4, 10, 20, 40]
    assert tournament.stakes_schedule[9] == [60, 150, 300, 600]
    state = tournament_state(tournament)
    assert state.next_number == 1 and state.next_dealer == 0 and state.hands_left == 50
    # Positions run clockwise from the dealer's left; the dealer is last.
    assert [s.number for s in state.next_positions()] == [1, 2, 0]


@pytest.mark.parametrize("count", [1, 9])
def test_tournament_seats_two_to_eight(count):
    league, admin = make_league()
    with pytest.raises(DomainError) as err:
        make_tournament(league=league, by=admin, names=[f"P{i}" for i in range(count)])
    assert "players" in err.value.fields


def test_a_showdown_is_verified_and_paid(night, settle):
    _, admin, tournament, _ = night
    with settle():
        hand = record_showdown(tournament, admin)
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    assert hand.engine_version
    first, second, third = hand.positions
    stacks = tournament_stacks(tournament)
    assert stacks == {first: 1000 + 24 + 4, second: 1000 - 24, third: 1000 - 4}
    pot = hand.pots.get()
    assert pot.amount == 52 and pot.award == {str(first): 52} and not pot.disputed
    assert hand.engine_reading["showdown"]["players"][0]["high"]["category"] == "three_of_a_kind"


def test_table_result_that_differs_is_disputed_and_stands(night, settle):
    _, admin, tournament, _ = night
    state = tournament_state(tournament)
    kings_player = state.next_positions()[1].player_id
    with settle():
        hand = record_showdown(tournament, admin, table_result={"winners": [kings_player]})
    hand.refresh_from_db()
    assert hand.status == HandStatus.DISPUTED
    pot = hand.pots.get()
    assert pot.disputed
    assert pot.table_award == {str(kings_player): 52}
    assert pot.award == pot.table_award != pot.engine_award
    assert tournament_stacks(tournament)[kings_player] == 1000 - 24 + 52


def test_table_result_that_agrees_is_verified(night, settle):
    _, admin, tournament, _ = night
    aces_player = tournament_state(tournament).next_positions()[0].player_id
    with settle():
        hand = record_showdown(tournament, admin, table_result={"winners": [aces_player]})
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED


def test_levels_rise_every_five_hands_and_the_dealer_moves(night, settle):
    _, admin, tournament, _ = night
    dealers = []
    for _ in range(6):
        with settle():
            hand = record(tournament, admin, {"seats": walk(tournament)})
        dealers.append(hand.dealer_seat)
    hands = list(Hand.objects.filter(tournament=tournament).order_by("number"))
    assert [h.level for h in hands] == [1, 1, 1, 1, 1, 2]
    assert (hands[5].ante, hands[5].bring_in, hands[5].small_bet, hands[5].big_bet) == (
        6,
        15,
        30,
        60,
    )
    assert dealers == [0, 1, 2, 0, 1, 2]


def test_hand_fifty_one_is_refused(settle):
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud", names=("Ann", "Bob")
    )
    for _ in range(50):
        with settle():
            record(tournament, admin, {"seats": walk(tournament, bring_in=False)})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    with pytest.raises(Conflict) as err:
        record(tournament, admin, {"seats": []})
    assert err.value.code == "tournament_over"
    assert Hand.objects.filter(tournament=tournament).count() == 50


def test_a_player_who_busts_is_out_skipped_and_ranked(settle):
    admin, tournament = all_in_night()
    state = tournament_state(tournament)
    ann, bob, cat = (s.player_id for s in state.next_positions())
    # Ann and Bob go all in (24 each); Ann's aces beat Bob's kings; Cat folds her ante.
    with settle():
        record_showdown(tournament, admin)
    stacks = tournament_stacks(tournament)
    assert stacks[bob] == 0
    state = tournament_state(tournament)
    assert state.out_seats == {next(s.number for s in state.seats if s.player_id == bob)}
    dealt = [s.player_id for s in state.next_positions()]
    assert bob not in dealt and len(dealt) == 2
    # Bob cannot be dealt in.
    entry = {"seats": walk(tournament) + [{"player": bob, "put_in": 4, "folded": "third"}]}
    with pytest.raises(DomainError) as err:
        record(tournament, admin, entry)
    assert "not dealt in" in err.value.message
    rows = {r.player_id: r for r in tournament_standings(tournament)}
    assert rows[bob].is_out and rows[bob].out_hand == 1 and rows[bob].place == 3
    assert rows[ann].place == 1


def test_no_hand_after_one_player_holds_every_chip(settle):
    admin, tournament = all_in_night(("Ann", "Bob"))
    with settle():
        record_showdown(tournament, admin)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    with pytest.raises(Conflict, match="over"):
        record(tournament, admin, {"seats": []})


def test_bad_input_names_the_field_and_stores_nothing(night):
    _, admin, tournament, _ = night
    entry = aces_against_kings(tournament)
    entry["seats"][1]["down"][0] = "Zz"
    with pytest.raises(DomainError) as err:
        record(tournament, admin, entry)
    assert list(err.value.fields) == ["entry.seats[1].down[0]"]
    entry["seats"][1]["down"][0] = "As"  # a card twice
    with pytest.raises(DomainError) as err:
        record(tournament, admin, entry)
    assert err.value.code == "duplicate_card"
    entry = aces_against_kings(tournament)
    entry["seats"][0]["put_in"] = 2000
    with pytest.raises(DomainError) as err:
        record(tournament, admin, entry)
    assert "entry.seats[0].put_in" in err.value.fields
    assert Hand.objects.count() == 0
    assert LedgerEntry.objects.exclude(kind=LedgerKind.START).count() == 0


def test_the_same_number_twice_is_a_conflict(night, settle):
    _, admin, tournament, _ = night
    with settle():
        record(tournament, admin, {"seats": walk(tournament)}, number=1)
    with pytest.raises(Conflict) as err:
        record(tournament, admin, {"seats": walk(tournament)}, number=1)
    assert http_status(err.value) == 409


def test_only_scorekeepers_and_admins_record(night):
    league, _, tournament, _ = night
    for role in ("member", "authority"):
        user = add_member(league, f"u-{role}", role)
        with pytest.raises(PermissionDenied):
            record(tournament, user, {"seats": walk(tournament)})
    keeper = add_member(league, "keeper", "scorekeeper")
    hand = record(tournament, keeper, {"seats": walk(tournament)})
    assert hand.number == 1


def test_full_history_is_checked_by_the_procedure(night, settle):
    _, admin, tournament, _ = night
    # p1..p3 are positions from the dealer's left. 2c is the lowest door card: p1 brings in.
    actions = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "d dh p3 7d8d9h", "p1 pb", "p2 f", "p3 f"]
    with settle():
        hand = record(tournament, admin, {"actions": actions}, mode="full")
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    assert tournament_stacks(tournament)[hand.positions[0]] == 1000 + 8
    bad = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "d dh p3 7d8d9h", "p2 pb"]
    with pytest.raises(DomainError) as err:
        record(tournament, admin, {"actions": bad}, mode="full")
    assert "entry.actions[3]" in err.value.fields


def test_settlement_runs_in_order_exactly_once_and_waits_behind_an_invalid_hand(night):
    _, admin, tournament, _ = night
    # Record three hands without running the on-commit settlement.
    for _ in range(3):
        record(tournament, admin, {"seats": walk(tournament)})
    assert tournament_settle(tournament_id=tournament.pk) == 3
    assert tournament_settle(tournament_id=tournament.pk) == 0  # idempotent
    assert LedgerEntry.objects.filter(kind=LedgerKind.CONTRIBUTION).count() == 9
    # A correction leaves the next hand's winner short of what it records.
    for _ in range(2):
        record(tournament, admin, {"seats": walk(tournament)})
    h4 = Hand.objects.get(tournament=tournament, number=4)
    victim = h4.positions[0]
    stack = tournament_stacks(tournament)[victim]
    other = h4.positions[1]
    LedgerEntry.objects.create(
        tournament=tournament, player_id=victim, kind=LedgerKind.CORRECTION, amount=-(stack - 5)
    )
    LedgerEntry.objects.create(
        tournament=tournament, player_id=other, kind=LedgerKind.CORRECTION, amount=stack - 5
    )
    assert tournament_settle(tournament_id=tournament.pk) == 0
    h4.refresh_from_db()
    assert h4.status == HandStatus.INVALID and "put in" in h4.status_reason
    assert Hand.objects.get(tournament=tournament, number=5).status == HandStatus.RECORDED


def test_reevaluation_changes_nothing_where_the_engine_agrees(night, settle):
    from tracker.hands.models import ReevaluationJob
    from tracker.hands.services.reevaluation import reevaluation_start

    league, admin, tournament, _ = night
    with settle():
        hand = record_showdown(tournament, admin)
    ledger_before = list(LedgerEntry.objects.values_list("id", "amount"))
    with settle():
        job = reevaluation_start(league=league, tournament=tournament, by=admin)
    job = ReevaluationJob.objects.get(pk=job.pk)
    assert (job.status, job.total, job.done, job.changed) == ("done", 1, 1, 0)
    # An older engine had read the pot differently: re-evaluation flags it, moves no chips.
    pot = Pot.objects.get(hand=hand)
    loser = str(hand.positions[1])
    Pot.objects.filter(pk=pot.pk).update(engine_award={loser: 52}, award={loser: 52})
    with settle():
        job = reevaluation_start(league=league, by=admin)
    job = ReevaluationJob.objects.get(pk=job.pk)
    assert job.changed == 1
    pot.refresh_from_db()
    hand.refresh_from_db()
    assert pot.disputed and pot.engine_award == {str(hand.positions[0]): 52}
    assert hand.status == HandStatus.DISPUTED
    assert list(LedgerEntry.objects.values_list("id", "amount")) == ledger_before


def test_stacks_always_add_up(night, settle):
    _, admin, tournament, players = night
    for k in range(7):
        with settle():
            record(tournament, admin, {"seats": walk(tournament, winner_position=k % 3)})
        total = LedgerEntry.objects.filter(tournament=tournament).aggregate(s=Sum("amount"))["s"]
        assert total == 1000 * len(players)


def test_dealers_choice_needs_a_variant_and_house_rules_apply(settle):
    league, admin = make_league(house_rules={"kings_and_little_ones": {"king_required": False}})
    tournament, _ = make_tournament(league=league, by=admin)
    with pytest.raises(DomainError) as err:
        record(tournament, admin, {"seats": walk(tournament)})
    assert "variant" in err.value.fields
    with settle():
        hand = record(
            tournament, admin, {"seats": walk(tournament)}, variant="kings_and_little_ones"
        )
    assert hand.options["king_required"] is False
    assert hand.options["all_lowest_wild"] is False


def test_schedule_is_checked():
    league, admin = make_league()
    with pytest.raises(DomainError) as err:
        make_tournament(league=league, by=admin, stakes_schedule=[[4, 10, 20, 30]])
    assert "stakes_schedule[0]" in err.value.fields


def test_eight_players_cannot_play_a_seven_player_game():
    league, admin = make_league()
    with pytest.raises(DomainError):
        make_tournament(
            league=league,
            by=admin,
            names=[f"P{i}" for i in range(8)],
            default_variant="seven_card_stud",
        )
    tournament, _ = make_tournament(
        league=league, by=admin, names=[f"Q{i}" for i in range(8)], default_variant="low_hole"
    )
    assert tournament.seats.count() == 8


def test_tournament_create_checks_players_belong_to_the_league():
    league, admin = make_league()
    other, other_admin = make_league(slug="other")
    _, players = make_tournament(league=other, by=other_admin, names=("X", "Y"))
    with pytest.raises(DomainError) as err:
        tournament_create(league=league, name="n", player_ids=[p.id for p in players], by=admin)
    assert "players[0]" in err.value.fields


def test_finished_tournaments_feed_league_standings(settle):
    from tracker.leagues.selectors import league_standings
    from tracker.tournaments.models import FinalStanding

    league, admin = make_league()
    league.min_players = 2  # heads-up nights count in this league (the default minimum is 4)
    league.save()
    for k in range(2):
        tournament, _ = make_tournament(
            league=league,
            by=admin,
            default_variant="seven_card_stud",
            starting_chips=24,
            names=("Ann", "Bob") if k == 0 else ("Ann2", "Bob2"),
            name=f"Night {k}",
        )
        with settle():
            record_showdown(tournament, admin)
    assert FinalStanding.objects.count() == 4
    rows = league_standings(league)
    assert [r.events for r in rows] == [1, 1, 1, 1]
    winners = [r for r in rows if r.wins == 1]
    assert len(winners) == 2 and all(r.net_chips == 24 and r.average_place == 1 for r in winners)
    assert rows[0].wins == 1 and rows[-1].wins == 0
    league.min_players = 3
    assert league_standings(league) == []


def test_settle_pending_command_picks_up_waiting_hands(night):
    from io import StringIO

    from django.core.management import call_command

    _, admin, tournament, _ = night
    record(tournament, admin, {"seats": walk(tournament)})
    assert Hand.objects.get().status == HandStatus.RECORDED  # its on-commit task never ran
    out = StringIO()
    call_command("settle_pending", stdout=out)
    assert "1 tournament" in out.getvalue()
    assert Hand.objects.get().status == HandStatus.VERIFIED


@pytest.mark.parametrize(
    "variant, options, status, kept",
    [
        # not the high-low default of 8
        ("low_hole", {"game": "high_low", "low_qualifier": None}, None, ("low_qualifier", None)),
        ("low_hold", {"same_rank_wild": "none"}, HandStatus.VERIFIED, ("same_rank_wild", "none")),
    ],
)
def test_full_history_keeps_the_options_as_given(settle, variant, options, status, kept):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin)
    actions = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "d dh p3 7d8d9h", "p1 pb", "p2 f", "p3 f"]
    with settle():
        hand = record(
            tournament, admin, {"actions": actions}, mode="full", variant=variant, options=options
        )
    hand.refresh_from_db()
    if status is not None:
        assert hand.status == status
    name, value = kept
    assert hand.options[name] == value
    assert hand.engine_reading["options"][name] == value
