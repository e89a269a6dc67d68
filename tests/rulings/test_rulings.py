"""Disputes and rulings through the services (both databases)."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from tests.factories import make_user
from tests.rulings.helpers import (
    ACES,
    KINGS,
    disputed_hand,
    league_with_roles,
    positions,
    showdown,
)
from tests.support.recording import record
from tracker.core.errors import Conflict, NotFound, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.hands.models import Dispute, Evaluation, HandSeat, HandStatus, Pot
from tracker.hands.services.reevaluation import hand_reevaluate
from tracker.rulings.models import Ruling
from tracker.rulings.selectors import hand_ruling_state, hand_ruling_states
from tracker.rulings.services import dispute_raise, ruling_make
from tracker.tournaments.models import FinalStanding, LedgerEntry, LedgerKind, TournamentStatus
from tracker.tournaments.selectors import tournament_stacks, tournament_standings
from web.presenters.rulings import dispute_queue, pot_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    tournament, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks
    )
    return {
        "league": league,
        "users": users,
        "rob": users["authority"],
        "tournament": tournament,
        "hand": hand,
        "pot": hand.pots.get(),
        "aces": order[0],
        "kings": order[1],
        "folder": order[2],
        "capture": django_capture_on_commit_callbacks,
    }


def total_chips(tournament) -> int:
    return LedgerEntry.objects.filter(tournament=tournament).aggregate(s=Sum("amount"))["s"]


def test_settlement_flags_the_dispute_and_keeps_the_evaluation(case):
    hand, pot = case["hand"], case["pot"]
    assert hand.status == HandStatus.DISPUTED and pot.disputed
    dispute = Dispute.objects.get(pot=pot)
    assert dispute.source == "settlement" and dispute.raised_by is None
    assert dispute.engine_version == hand.engine_version
    evaluation = Evaluation.objects.get(hand=hand)
    assert evaluation.source == "settlement"
    assert evaluation.engine_version == hand.engine_version
    assert evaluation.awards == [{str(case["aces"]): 52}]
    assert evaluation.reading["showdown"] == hand.engine_reading["showdown"]
    assert hand_ruling_state(hand) == "open"


def test_queue_shows_both_readings_side_by_side(django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    _, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks, variant="kings_and_little_ones"
    )
    queue = dispute_queue(users["member"], league.slug)
    assert queue.counts == {"open": 1, "ruled": 0} and not queue.can_rule
    (item,) = queue.cases
    assert item.hand == hand and item.state == "open"
    by_player = {p.player_id: p for p in item.players}
    wild = by_player[order[0]]
    assert [c.code for c in wild.cards] == ["Kd", "4c", "2c", "4s", "7h", "9h", "Jd"]
    assert wild.high["category"] == "four_of_a_kind"
    assert ("K♦", "4♥") in wild.wild and ("2♣", "4♦") in wild.wild
    assert [c.code for c in wild.cards if c.wild_as] == ["Kd", "2c"]
    assert (wild.engine, wild.table, wild.stands) == (132, 0, 0)
    other = by_player[order[1]]
    assert (other.engine, other.table, other.stands) == (0, 132, 132)
    assert order[2] not in by_player  # folded: neither eligible nor shown
    assert dispute_queue(users["authority"], league.slug).can_rule


def test_only_the_authority_rules(case):
    for role in ("admin", "scorekeeper", "member"):
        with pytest.raises(PermissionDenied):
            ruling_make(pot=case["pot"], by=case["users"][role], result="engine", reason="aces win")
    with pytest.raises(PermissionDenied):
        ruling_make(pot=case["pot"], by=make_user("stranger"), result="engine", reason="x")
    assert not Ruling.objects.exists()


def test_private_league_pots_do_not_exist_for_outsiders(django_capture_on_commit_callbacks):
    league, users = league_with_roles(slug="secret", public=False)
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    outsider = make_user("outsider")
    with pytest.raises(NotFound):
        dispute_queue(outsider, "secret")
    with pytest.raises(NotFound):
        pot_case(outsider, hand.pk, 0)
    with pytest.raises(NotFound):
        ruling_make(pot=hand.pots.get(), by=outsider, result="engine", reason="x")
    with pytest.raises(NotFound):
        dispute_raise(pot=hand.pots.get(), by=outsider, reason="x")


def test_upholding_the_engine_moves_chips_with_corrections(case):
    tournament, pot = case["tournament"], case["pot"]
    aces, kings = str(case["aces"]), str(case["kings"])
    before = tournament_stacks(tournament)
    ruling = ruling_make(
        pot=pot, by=case["rob"], result="engine", reason="aces beat kings, the table misread"
    )
    assert ruling.award == {aces: 52} and ruling.previous_award == {kings: 52}
    assert ruling.correction == {aces: 52, kings: -52}
    assert not ruling.override and ruling.supersedes is None
    corrections = LedgerEntry.objects.filter(kind=LedgerKind.CORRECTION)
    assert sorted((e.player_id, e.amount, e.hand_id, e.pot_id) for e in corrections) == sorted(
        [
            (case["aces"], 52, case["hand"].pk, pot.pk),
            (case["kings"], -52, case["hand"].pk, pot.pk),
        ]
    )
    after = tournament_stacks(tournament)
    assert after[case["aces"]] == before[case["aces"]] + 52
    assert after[case["kings"]] == before[case["kings"]] - 52
    assert total_chips(tournament) == 3000
    pot.refresh_from_db()
    assert pot.award == {aces: 52} and not pot.disputed and not pot.overridden
    hand = case["hand"]
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED and "rob" in hand.status_reason
    assert hand_ruling_state(hand) == "ruled"
    won = dict(HandSeat.objects.filter(hand=hand).values_list("player_id", "won"))
    assert won[case["aces"]] == 52 and won[case["kings"]] == 0
    leader = tournament_standings(tournament)[0]
    assert leader.player_id == case["aces"] and leader.chips == 1028


def test_keeping_the_table_result_is_an_override_that_reevaluation_respects(case):
    pot = case["pot"]
    ledger = LedgerEntry.objects.count()
    ruling = ruling_make(
        pot=pot, by=case["rob"], result="table", reason="house rule: kings over aces tonight"
    )
    assert ruling.override and ruling.correction == {}
    assert LedgerEntry.objects.count() == ledger  # the table's award already stood
    pot.refresh_from_db()
    assert pot.overridden and not pot.disputed
    # A later engine reads the pot the same way: re-evaluation leaves the overridden pot alone.
    hand = case["hand"]
    hand.refresh_from_db()
    Pot.objects.filter(pk=pot.pk).update(engine_award={str(case["folder"]): 52})
    hand_reevaluate(hand=hand)
    pot.refresh_from_db()
    hand.refresh_from_db()
    assert pot.award == {str(case["kings"]): 52} and pot.overridden and not pot.disputed
    assert hand.status == HandStatus.VERIFIED
    assert hand.evaluations.filter(source="reevaluation").count() == 1


def test_an_explicit_award_must_add_up_and_name_eligible_players(case):
    pot, rob = case["pot"], case["rob"]
    aces, kings, folder = case["aces"], case["kings"], case["folder"]
    bad = [
        ({str(aces): 30, str(kings): 20}, "award"),  # 50 != 52
        ({str(aces): 52, str(folder): 0}, f"award.{folder}"),  # folded: not eligible
        ({str(aces): -2, str(kings): 54}, f"award.{aces}"),
        ({"x": 52}, "award.x"),
        ({str(aces): "52"}, f"award.{aces}"),
        ({}, "award"),
        (None, "award"),
    ]
    for award, field in bad:
        with pytest.raises(DomainError) as err:
            ruling_make(pot=pot, by=rob, result="award", award=award, reason="split it")
        assert field in err.value.fields, (award, err.value.fields)
    ruling = ruling_make(
        pot=pot,
        by=rob,
        result="award",
        award={str(aces): 26, str(kings): 26},
        reason="the cards were exposed early: chop",
    )
    assert ruling.override and ruling.award == {str(aces): 26, str(kings): 26}
    assert ruling.correction == {str(aces): 26, str(kings): -26}
    assert total_chips(case["tournament"]) == 3000


def test_a_reason_is_required_and_a_result_must_be_known(case):
    for reason in ("", "   ", None):
        with pytest.raises(DomainError) as err:
            ruling_make(pot=case["pot"], by=case["rob"], result="engine", reason=reason)
        assert "reason" in err.value.fields
    with pytest.raises(DomainError) as err:
        ruling_make(pot=case["pot"], by=case["rob"], result="coin", reason="flip")
    assert "result" in err.value.fields
    assert not Ruling.objects.exists() and not LedgerEntry.objects.filter(kind="correction")


def verified_showdown(settle):
    """A league with every role and one settled natural stud showdown, aces over kings."""
    from tests.factories import make_tournament

    league, users = league_with_roles()
    tournament, _ = make_tournament(
        league=league, by=users["admin"], default_variant="seven_card_stud"
    )
    with settle():
        hand = record(tournament, users["admin"], showdown(tournament, [ACES, KINGS], 24))
    return league, users, hand


def test_no_table_result_means_no_table_ruling(settle):
    league, users, hand = verified_showdown(settle)
    with pytest.raises(DomainError) as err:
        ruling_make(pot=hand.pots.get(), by=users["authority"], result="table", reason="x")
    assert err.value.code == "no_table_result"


def test_a_later_ruling_supersedes_and_both_stay(case):
    pot, rob = case["pot"], case["rob"]
    first = ruling_make(pot=pot, by=rob, result="engine", reason="aces win")
    second = ruling_make(pot=pot, by=rob, result="table", reason="on reflection: house rule")
    assert second.supersedes == first and first.superseded_by == second
    assert second.previous_award == first.award
    assert second.correction == {str(case["aces"]): -52, str(case["kings"]): 52}
    assert Ruling.objects.filter(pot=pot).count() == 2
    case_view = pot_case(case["users"]["member"], case["hand"].pk, 0)
    assert [r.current for r in case_view.rulings] == [False, True]
    assert tournament_stacks(case["tournament"])[case["kings"]] == 1000 - 24 + 52
    assert total_chips(case["tournament"]) == 3000


def test_a_member_disputes_a_verified_pot_once_and_the_authority_closes_it(settle):
    league, users, hand = verified_showdown(settle)
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    pot = hand.pots.get()
    member = users["member"]
    with pytest.raises(DomainError):
        dispute_raise(pot=pot, by=member, reason="  ")
    dispute = dispute_raise(pot=pot, by=member, reason="the 2c was my door card, not a hole card")
    assert dispute.source == "member" and dispute.raised_by == member
    pot.refresh_from_db()
    hand.refresh_from_db()
    assert pot.disputed and hand.status == HandStatus.DISPUTED
    with pytest.raises(Conflict):
        dispute_raise(pot=pot, by=member, reason="again")
    assert dispute_queue(member, league.slug).counts["open"] == 1
    ruling = ruling_make(pot=pot, by=users["authority"], result="engine", reason="cards speak")
    assert ruling.dispute == dispute and ruling.correction == {} and not ruling.override
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    assert dispute_queue(member, league.slug).counts == {"open": 0, "ruled": 1}
    # After the ruling the member may dispute again.
    dispute_raise(pot=pot, by=member, reason="new evidence")
    assert hand_ruling_states([hand]) == {hand.pk: "open"}


def test_reevaluation_never_closes_a_dispute(case):
    hand, pot = case["hand"], case["pot"]
    # An engine that now agrees with the table: the pot stays open until the authority rules.
    Pot.objects.filter(pk=pot.pk).update(engine_award={str(case["folder"]): 52})
    hand_reevaluate(hand=hand)
    pot.refresh_from_db()
    assert pot.disputed and pot.engine_award == {str(case["aces"]): 52}


def test_reevaluation_flags_a_new_disagreement_as_a_dispute(case):
    pot, hand = case["pot"], case["hand"]
    ruling_make(pot=pot, by=case["rob"], result="engine", reason="aces")
    hand.refresh_from_db()
    # Pretend the stored reading came from an older engine that read the pot for kings.
    Pot.objects.filter(pk=pot.pk).update(
        engine_award={str(case["kings"]): 52}, award={str(case["kings"]): 52}
    )
    assert hand_reevaluate(hand=hand)
    pot.refresh_from_db()
    hand.refresh_from_db()
    assert pot.disputed and hand.status == HandStatus.DISPUTED
    flag = Dispute.objects.filter(pot=pot).order_by("-id").first()
    assert flag.source == "reevaluation" and flag.engine_version in flag.reason


def test_a_correction_that_makes_a_later_hand_impossible_flags_it_for_review(case):
    tournament, rob = case["tournament"], case["rob"]
    kings, folder = case["kings"], case["folder"]
    admin = case["users"]["admin"]
    stacks = tournament_stacks(tournament)
    assert stacks[kings] == 1028 and stacks[folder] == 996
    # Hand 2: the kings player calls the third player's whole stack (996) and wins.
    order = positions(tournament)
    shown = {kings: (["Qs", "Qh", "Qc"], ["Qd", "6c", "7d", "8s"]), folder: KINGS}
    entry = {"seats": []}
    for pid in order:
        if pid in shown:
            down, up = shown[pid]
            entry["seats"].append({"player": pid, "put_in": 996, "down": down, "up": up})
        else:
            entry["seats"].append({"player": pid, "put_in": 4, "folded": "third"})
    with case["capture"](execute=True):
        hand2 = record(tournament, admin, entry)
    hand2.refresh_from_db()
    assert hand2.status == HandStatus.VERIFIED
    assert tournament_stacks(tournament)[folder] == 0  # the third player is out
    # The ruling on hand 1 takes 52 chips back from the kings player: 976 < 996 put in.
    ruling = ruling_make(pot=case["pot"], by=rob, result="engine", reason="aces beat kings")
    assert ruling.flagged_hands == [2]
    hand2.refresh_from_db()
    assert hand2.needs_review
    assert f"Ruling {ruling.pk}" in hand2.review_reason
    assert "put in 996 chips but would have had 976" in hand2.review_reason
    # Never silently altered: hand 2's record, pots and ledger are as they were.
    assert hand2.status == HandStatus.VERIFIED
    assert hand2.pots.get().award == {str(kings): 2 * 996 + 4}
    assert not LedgerEntry.objects.filter(hand=hand2, kind="correction").exists()
    assert total_chips(tournament) == 3000


def test_a_ruling_on_a_finished_tournament_rewrites_the_final_standings(
    django_capture_on_commit_callbacks,
):
    league, users = league_with_roles()
    tournament, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks, hand_limit=1
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    first = FinalStanding.objects.get(tournament=tournament, place=1)
    assert first.player_id == order[1] and first.chips == 1028
    ruling_make(pot=hand.pots.get(), by=users["authority"], result="engine", reason="aces")
    first = FinalStanding.objects.get(tournament=tournament, place=1)
    assert first.player_id == order[0] and first.chips == 1028
    assert FinalStanding.objects.get(tournament=tournament, player_id=order[1]).chips == 976


def test_a_ruling_that_would_leave_a_finished_nights_player_below_zero_is_refused(
    django_capture_on_commit_callbacks,
):
    league, users = league_with_roles()
    tournament, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks, hand_limit=2
    )
    aces, kings, folder = order
    # Hand 2, the last: the kings player (1028 as the table had it) calls the third
    # player's whole stack (996) and loses it; the night is over.
    shown = {folder: ACES, kings: (["Qs", "Qh", "2h"], ["Qd", "6c", "7d", "8s"])}
    entry = {"seats": []}
    for pid in positions(tournament):
        if pid in shown:
            down, up = shown[pid]
            entry["seats"].append({"player": pid, "put_in": 996, "down": down, "up": up})
        else:
            entry["seats"].append({"player": pid, "put_in": 4, "folded": "third"})
    with django_capture_on_commit_callbacks(execute=True):
        record(tournament, users["admin"], entry)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    before = list(
        FinalStanding.objects.filter(tournament=tournament).values_list("player", "chips")
    )
    # Hand 1's pot to the aces takes 52 from the kings player: 976 at hand 2, 996 bet there.
    with pytest.raises(DomainError) as exc:
        ruling_make(pot=hand.pots.get(), by=users["authority"], result="engine", reason="aces")
    assert exc.value.code == "below_zero" and "award" in exc.value.fields
    assert "(-20)" in exc.value.message and "hands 2" in exc.value.message
    # nothing changed: no ruling, no correction, the standings as they were
    assert not Ruling.objects.exists()
    assert not LedgerEntry.objects.filter(tournament=tournament, kind="correction").exists()
    after = list(FinalStanding.objects.filter(tournament=tournament).values_list("player", "chips"))
    assert after == before


def test_rulings_in_a_running_tournament_let_play_go_on(case):
    ruling_make(pot=case["pot"], by=case["rob"], result="engine", reason="aces")
    tournament = case["tournament"]
    with case["capture"](execute=True):
        hand = record(tournament, case["users"]["admin"], showdown(tournament, [ACES, KINGS], 24))
    hand.refresh_from_db()
    assert hand.number == 2 and hand.status == HandStatus.VERIFIED
    assert total_chips(tournament) == 3000
