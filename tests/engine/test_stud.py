"""StudHand, the stud state machine, event by event: what next_event() offers (the
acting seat, the legal verbs with their exact amounts, the cards due), typed refusals
that leave the hand untouched, observers, and results mode. The seventh card of the
four games and random hands driven through next_event() are in test_variants.py."""

from __future__ import annotations

import random

import pytest

from tests.support.hands import SMALL_STAKES, phh_hand
from tests.support.stud import (
    D,
    Recorder,
    U,
    assert_refused,
    at_seventh_deal,
    autoplay,
    deals,
    deck,
    new_hand,
    options,
    play,
    snapshot,
)
from tracker.engine.cards import parse_card
from tracker.engine.procedure import walk_history
from tracker.engine.stakes import Stakes
from tracker.engine.stud import (
    Code,
    Option,
    Phase,
    ProcedureError,
    Subject,
    Verb,
    _up_key,
    up_key,
)
from tracker.engine.variants import Street

# Three-handed third street: p1's 2c brings in.
THREE = ("d p1 AsKs2c", "d p2 QhQd9c", "d p3 JhJd8c")
# Heads-up (test_procedure.py): p2's 2c brings in; p1's up cards lead from fourth street.
TWO = ("d p1 9s8s7c", "d p2 KhKd2c")
TWO_TO_SEVENTH = (
    *TWO, "p2 pb", "p1 cc",
    "d p1 6d", "d p2 3h", "p1 cc", "p2 cc",
    "d p1 5c", "d p2 4h", "p1 cc", "p2 cc",
    "d p1 Jd", "d p2 Th", "p1 cc", "p2 cc",
)  # fmt: skip


# --- 1. The next-event query ----------------------------------------------------------


def test_antes_then_third_street_down_down_up_round_the_table():
    hand = new_hand((1000, 1000, 1000))
    ev = hand.next_event()
    assert (ev.phase, ev.street, ev.options, ev.over) == (
        Phase.ANTES, Street.THIRD, (Option(Verb.ANTE),), False,
    )  # fmt: skip
    hand.post_antes()
    assert hand.next_event().phase is Phase.DEAL
    assert deals(hand) == [(0, D), (1, D), (2, D), (0, D), (1, D), (2, D), (0, U), (1, U), (2, U)]
    play(hand, THREE[0])
    assert deals(hand) == [(1, D), (2, D), (1, D), (2, D), (1, U), (2, U)]


def test_third_street_bring_in_or_complete_then_calls_and_raises():
    hand = play(new_hand((1000, 1000, 1000)), *THREE)
    ev = hand.next_event()
    assert (ev.phase, ev.street, ev.seat) == (Phase.BET, Street.THIRD, 0)
    assert options(hand) == [("bring_in", 10, 10), ("complete", 20, 20)]
    hand.bring_in(0)
    assert hand.next_event().seat == 1
    assert options(hand) == [("fold", 0, 0), ("call", 10, 10), ("complete", 20, 20)]
    hand.complete(1)
    assert options(hand) == [("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)]
    hand.call(2)
    assert hand.next_event().seat == 0
    assert options(hand) == [("fold", 0, 0), ("call", 10, 20), ("raise", 30, 40)]
    hand.call(0)
    ev = hand.next_event()
    assert (ev.phase, ev.street) == (Phase.DEAL, Street.FOURTH)
    assert deals(hand) == [(0, U), (1, U), (2, U)]
    # p2's A-9 showing leads; fourth street bets the small bet.
    play(hand, "d p1 3d", "d p2 Ah", "d p3 4h")
    assert hand.next_event().seat == 1
    assert options(hand) == [("check", 0, 0), ("bet", 20, 20)]
    hand.bet(1)
    assert options(hand) == [("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)]
    hand.fold(2)
    hand.call(0)
    assert deals(hand) == [(0, U), (1, U)]  # no card for the folded p3


def test_small_bet_on_fourth_big_bet_from_fifth_and_down_on_seventh():
    hand = play(new_hand(), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h")
    assert (hand.next_event().seat, options(hand)) == (0, [("check", 0, 0), ("bet", 20, 20)])
    play(hand, "p1 cc")
    assert (hand.next_event().seat, options(hand)) == (1, [("check", 0, 0), ("bet", 20, 20)])
    play(hand, "p2 cc", "d p1 5c", "d p2 4h")
    assert options(hand) == [("check", 0, 0), ("bet", 40, 40)]
    hand.bet(0)
    assert options(hand) == [("fold", 0, 0), ("call", 40, 40), ("raise", 80, 80)]
    play(hand, "p2 cc", "d p1 Jd", "d p2 Th")
    assert options(hand) == [("check", 0, 0), ("bet", 40, 40)]
    play(hand, "p1 cc", "p2 cc")
    assert (hand.next_event().street, deals(hand)) == (Street.SEVENTH, [(0, D), (1, D)])
    play(hand, "d p1 2d", "d p2 Ac")
    assert options(hand) == [("check", 0, 0), ("bet", 40, 40)]
    play(hand, "p1 cc", "p2 cc")
    ev = hand.next_event()
    assert (ev.phase, ev.street, ev.showdown, ev.over) == (
        Phase.SHOWDOWN, Street.SEVENTH, (0, 1), True,
    )  # fmt: skip
    assert (ev.seat, ev.options, ev.deals) == (None, (), ())
    assert hand.over and hand.settle().finishing_stacks == [1054, 946]


def test_everyone_folds_and_the_hand_is_over():
    hand = play(new_hand((1000, 1000, 1000)), *THREE, "p1 pb", "p2 f", "p3 f")
    ev = hand.next_event()
    assert (ev.phase, ev.over, ev.showdown, ev.options) == (Phase.OVER, True, (), ())
    assert hand.settle().finishing_stacks == [1008, 996, 996]


def test_bring_in_short_of_the_bring_in_goes_all_in():
    hand = play(new_hand((11, 1000, 1000)), *THREE)  # 7 chips after the ante
    # Posting or "completing" are both all in for 7 (pokerkit offers the same).
    assert options(hand) == [("bring_in", 7, 7), ("complete", 7, 7)]
    hand.bring_in(0)
    assert (hand.stacks[0], hand.next_event().seat) == (0, 1)
    assert options(hand) == [("fold", 0, 0), ("call", 7, 7), ("complete", 20, 20)]


def test_bring_in_of_the_full_small_bet_is_the_bet_and_raises_follow():
    stakes = Stakes(4, 20, 20, 40)
    posted = play(new_hand((1000, 1000, 1000), stakes=stakes), *THREE)
    assert options(posted) == [("bring_in", 20, 20)]  # the bring-in is the completion
    completed = play(new_hand((1000, 1000, 1000), stakes=stakes), *THREE)
    posted.bring_in(0)
    completed.complete(0)
    assert snapshot(posted) == snapshot(completed)  # the same 20 chips, the same round
    assert options(posted) == [("fold", 0, 0), ("call", 20, 20), ("raise", 40, 40)]
    play(posted, "p2 cbr 40", "p3 cbr 60", "p1 cbr 80")
    assert options(posted) == [("fold", 0, 0), ("call", 40, 80)]  # the bring-in was the bet


def test_a_bet_and_three_raises_then_no_raise():
    hand = play(new_hand(), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h")
    play(hand, "p1 cbr 20", "p2 cbr 40", "p1 cbr 60")
    assert options(hand) == [("fold", 0, 0), ("call", 20, 60), ("raise", 40, 80)]
    play(hand, "p2 cbr 80")
    assert options(hand) == [("fold", 0, 0), ("call", 20, 80)]


def test_all_in_for_less_caps_the_call_and_the_raise():
    # p2 has 36 chips on fourth street: a raise goes all in to 36.
    hand = play(new_hand((1000, 50)), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h", "p1 cbr 20")
    assert options(hand) == [("fold", 0, 0), ("call", 20, 20), ("raise", 36, 36)]
    hand.raise_to(1, 36)
    assert options(hand) == [("fold", 0, 0), ("call", 16, 36)]  # p2 all in: nothing to raise
    hand.call(0)
    ev = hand.next_event()  # nobody left to bet against: the cards run out
    assert (ev.phase, ev.street, ev.showdown) == (Phase.DEAL, Street.FIFTH, (0, 1))
    # With 16 chips facing 20 there is only the call, all in.
    hand = play(new_hand((1000, 30)), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h", "p1 cbr 20")
    assert options(hand) == [("fold", 0, 0), ("call", 16, 16)]


def test_nobody_to_bet_against_after_a_full_all_in_raise():
    hand = play(new_hand((1000, 54)), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h", "p1 cbr 20")
    hand.raise_to(1, 40)  # a full raise, all in
    assert options(hand) == [("fold", 0, 0), ("call", 20, 40)]


def reopen_hand():
    """Fourth street: p2 bets 20, p3 goes all in to 36 (less than a full raise)."""
    hand = play(new_hand((1000, 1000, 50)), *THREE, "p1 pb", "p2 cc", "p3 cc")
    return play(hand, "d p1 3d", "d p2 Ah", "d p3 4h", "p2 cbr 20", "p3 cbr 36")


def test_short_all_in_does_not_reopen_for_who_acted():
    hand = reopen_hand()
    assert (hand.next_event().seat, options(hand)) == (
        0, [("fold", 0, 0), ("call", 36, 36), ("raise", 56, 56)],
    )  # fmt: skip
    hand.call(0)
    assert (hand.next_event().seat, options(hand)) == (1, [("fold", 0, 0), ("call", 16, 36)])


# --- 2. Typed refusals that change nothing --------------------------------------------


def bring_in_due():
    return play(new_hand((1000, 1000, 1000)), *THREE)


def facing_bring_in():
    return play(bring_in_due(), "p1 pb")


def fourth_street():
    return play(new_hand(), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h")


def capped():
    return play(fourth_street(), "p1 cbr 20", "p2 cbr 40", "p1 cbr 60", "p2 cbr 80")


def all_in_raised():
    return play(new_hand((1000, 54)), *TWO, "p2 pb", "p1 cc", "d p1 6d", "d p2 3h",
                "p1 cbr 20", "p2 cbr 40")  # fmt: skip


def dealing():
    return play(new_hand((1000, 1000, 1000)), "d p1 AsKs")


def seventh_stud():
    return play(new_hand(), *TWO_TO_SEVENTH)


def showdown_stud():
    return play(seventh_stud(), "d p1 2d", "d p2 Ac", "p1 cc", "p2 cc")


def won():
    return play(facing_bring_in(), "p2 f", "p3 f")


def low_hold_seventh():
    return autoplay(new_hand((1000, 1000, 50), "low_hold"), deck(), at_seventh_deal)


AS, QH, H3 = parse_card("As"), parse_card("Qh"), parse_card("3h")
A, C, S, B, K, DC = (
    Subject.ACTION, Subject.CARDS, Subject.SEVENTH, Subject.BUY, Subject.COMMUNITY,
    Subject.DECLARATION,
)  # fmt: skip
REFUSALS = {
    "out of turn": (bring_in_due, "check_or_call", (1,), Code.OUT_OF_TURN, 1, A),
    "bring-in must post": (bring_in_due, "fold", (0,), Code.BRING_IN, 0, A),
    "bet size": (facing_bring_in, "complete_bet_or_raise", (1, 30), Code.BET_SIZE, 1, A),
    "not a bet now": (facing_bring_in, "bet", (1,), Code.ILLEGAL_ACTION, 1, A),
    "raise cap": (capped, "raise_to", (0,), Code.RAISE_CAP, 0, A),
    "reopen": (lambda: play(reopen_hand(), "p1 cc"), "raise_to", (1,), Code.REOPEN, 1, A),
    "nobody to bet against": (all_in_raised, "raise_to", (0,), Code.ILLEGAL_ACTION, 0, A),
    "fold with nothing to call": (fourth_street, "fold", (0,), Code.ILLEGAL_ACTION, 0, A),
    "call with nothing to call": (fourth_street, "call", (0,), Code.ILLEGAL_ACTION, 0, A),
    "check facing a bet": (facing_bring_in, "check", (1,), Code.ILLEGAL_ACTION, 1, A),
    "unknown face-up card": (dealing, "deal_up", (0, None), Code.UNKNOWN_CARD, 0, C),
    "duplicate card": (dealing, "deal_down", (1, AS), Code.DUPLICATE_CARD, 1, C),
    "wrong face": (dealing, "deal_up", (1, QH), Code.DEAL_COUNT, 1, A),
    "deal while betting is due": (bring_in_due, "deal_up", (0, H3), Code.OUT_OF_TURN, None, A),
    "no community card": (dealing, "deal_community", (QH,), Code.COMMUNITY_CARD, None, K),
    "antes twice": (dealing, "post_antes", (), Code.ILLEGAL_ACTION, None, A),
    "buy outside Low Hold": (seventh_stud, "buy", (0,), Code.INVALID_BUY, 0, B),
    "buy short of the price": (low_hold_seventh, "buy", (2,), Code.INVALID_BUY, 2, B),
    "choice outside Kings": (seventh_stud, "choose_seventh", (0, True), Code.INVALID_CHOICE, 0, S),
    "declare, no declare game": (showdown_stud, "declare", (0, "high"), Code.DECLARATION, 0, DC),
    "show other cards": (showdown_stud, "show", (0, [AS, QH, H3]), Code.INVALID_SHOW, 0, C),
    "muck an uncontested pot": (won, "muck", (0,), Code.ILLEGAL_ACTION, 0, A),
    "act after the hand": (won, "check_or_call", (0,), Code.HAND_OVER, 0, A),
    "results fold before the deal": (lambda: results_hand(), "fold", (0,), Code.OUT_OF_TURN, 0, A),
}
VERIFIERS = {"deal_up": "deal", "deal_down": "deal"}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_every_refusal_is_typed_and_changes_nothing(case):
    setup, verb, args, code, seat, subject = REFUSALS[case]
    hand = setup()
    name = VERIFIERS.get(verb, verb)
    kwargs = {"up": verb == "deal_up"} if name == "deal" else {}
    assert_refused(
        hand, lambda h: getattr(h, f"verify_{name}")(*args, **kwargs),
        lambda h: getattr(h, verb)(*args), code, seat, subject,
    )  # fmt: skip


# --- 3. Observers ---------------------------------------------------------------------


def test_the_events_of_a_hand_won_on_third_street():
    recorder = Recorder()
    hand = new_hand((1000, 1000, 1000))
    hand.watch(recorder)
    play(hand, *THREE, "p1 pb", "p2 f", "p3 f")
    got = [(e.verb, e.seat, e.amount, e.to) for e in recorder.events]
    assert got[:4] == [(Verb.ANTE, i, 4, 0) for i in range(3)] + [(Verb.STREET, None, 0, 0)]
    assert [e.verb for e in recorder.events[4:13]] == [
        Verb.DEAL_DOWN,
        Verb.DEAL_DOWN,
        Verb.DEAL_UP,
    ] * 3
    assert (recorder.events[12].seat, recorder.events[12].cards) == (2, (parse_card("8c"),))
    assert got[13:] == [
        (Verb.BRING_IN, 0, 10, 10), (Verb.FOLD, 1, 0, 0), (Verb.FOLD, 2, 0, 0),
        (Verb.RETURN, 0, 10, 0), (Verb.END, None, 0, 0),
    ]  # fmt: skip
    assert [pots for pots, _ in recorder.ledger[13:]] == [22, 22, 22, 12, 12]
    assert all(pots == put_in for pots, put_in in recorder.ledger)


# p3 is all in on fourth street; p2 folds to p1's sixth street bet (returned uncalled);
# the seventh card is dealt without betting; p1 and p3 reach the showdown.
SIDE_POT = [
    "d dh p1 AsKs9c", "d dh p2 AhKh8c", "d dh p3 AdKd2c", "p3 pb", "p1 cc", "p2 cc",
    "d dh p1 3s", "d dh p2 4s", "d dh p3 5s", "p1 cbr 5", "p2 cc", "p3 cc",
    "d dh p1 7d", "d dh p2 8d", "d dh p3 6d", "p2 cbr 10", "p1 cc",
    "d dh p1 9d", "d dh p2 Td", "d dh p3 Tc", "p1 cbr 10", "p2 f",
    "d dh p1 2h", "d dh p3 3h",
]  # fmt: skip


def test_observers_see_every_event_and_the_pots_so_far():
    a, b = Recorder(), Recorder()
    hand = walk_history(
        phh_hand([*SIDE_POT, "p3 sm"], (100, 100, 8), stakes=SMALL_STAKES), observers=[a, b]
    )
    assert a.events == b.events and len(a.events) == hand.events
    events = a.events
    assert [(e.seat, e.amount) for e in events if e.verb is Verb.ANTE] == [(0, 1), (1, 1), (2, 1)]
    assert [e.street for e in events if e.verb is Verb.STREET] == list(Street)
    assert [(e.street, e.seat, e.amount) for e in events if e.verb is Verb.RETURN] == [
        (Street.SIXTH, 0, 10)
    ]
    verbs = [e.verb for e in events]
    assert verbs[-2:] == [Verb.SHOWDOWN, Verb.MUCK] and events[-1].seat == 2
    assert [e.seat for e in events if e.verb is Verb.FOLD] == [1]  # a muck is no fold
    assert hand.folded == [None, "sixth", "showdown"] and hand.at_showdown == (0, 2)
    assert hand.next_event().showdown == (0,)
    assert all(pots == put_in for pots, put_in in a.ledger), a.ledger
    assert a.ledger[-1] == (44, 44)
    assert hand.settle().finishing_stacks == [126, 82, 0]


def test_mucking_the_only_contender_of_a_side_pot():
    hand = walk_history(phh_hand(SIDE_POT, (100, 100, 8), stakes=SMALL_STAKES))
    assert [p.to_dict() for p in hand.pots()] == [
        {"amount": 24, "eligible": [0, 2]},
        {"amount": 20, "eligible": [0]},
    ]
    hand.muck(0)  # p1 gives up the main pot to p3, not p1's own side pot
    assert [p.to_dict() for p in hand.pots()] == [
        {"amount": 24, "eligible": [2]},
        {"amount": 20, "eligible": [0]},
    ]
    result = hand.settle()
    assert result.winnings == [20, 0, 24]


# --- 4. Results mode --------------------------------------------------------------------


def results_hand():
    hand = new_hand((1000, 1000, 1000), results=True)
    hand.post_antes()
    return hand


def test_results_mode_folds_any_seat_and_ends_each_street():
    hand = play(results_hand(), "d p1 AsKs??", "d p2 QhQd9c", "d p3 JhJd8c")  # p1's door unseen
    assert hand.cards[0] == [AS, parse_card("Ks"), None]
    ev = hand.next_event()
    assert (ev.phase, ev.seat) == (Phase.BET, None)
    assert ev.options == (*(Option(Verb.FOLD, i) for i in range(3)), Option(Verb.END_BETTING))
    hand.contribute(0, 20)
    hand.contribute(1, 20)
    hand.fold(2)  # out of turn is no matter: there are no turns
    assert hand.next_event().options == (
        Option(Verb.FOLD, 0), Option(Verb.FOLD, 1), Option(Verb.END_BETTING),
    )  # fmt: skip
    assert_refused(
        hand, lambda h: h.verify_check_or_call(0), lambda h: h.check_or_call(0),
        Code.INVALID_ACTION, 0, Subject.ACTION,
    )  # fmt: skip
    assert_refused(
        hand, lambda h: h.verify_contribute(1, 977), lambda h: h.contribute(1, 977),
        Code.OVER_STACK, 1, Subject.CHIPS,
    )  # fmt: skip
    hand.end_betting()
    ev = hand.next_event()
    assert (ev.phase, ev.street, deals(hand)) == (Phase.DEAL, Street.FOURTH, [(0, U), (1, U)])
    play(hand, "d p1 ??", "d p2 2c")
    hand.fold(1)
    assert hand.next_event().phase is Phase.OVER
    assert hand.settle().finishing_stacks == [1028, 976, 996]


def test_end_betting_and_contribute_only_in_results_mode():
    hand = facing_bring_in()
    assert_refused(
        hand, lambda h: h.verify_end_betting(), lambda h: h.end_betting(),
        Code.ILLEGAL_ACTION, None, Subject.ACTION,
    )  # fmt: skip
    assert_refused(
        hand, lambda h: h.verify_contribute(1, 5), lambda h: h.contribute(1, 5),
        Code.ILLEGAL_ACTION, 1, Subject.ACTION,
    )  # fmt: skip


# --- Faults found while writing these tests, now refused ----------------------------------------


def test_end_betting_before_the_cards_are_dealt_blames_no_seat():
    with pytest.raises(ProcedureError) as info:
        results_hand().verify_end_betting()
    assert (info.value.code, info.value.seat) == (Code.OUT_OF_TURN, None)


def test_return_uncalled_is_checked():
    hand = play(new_hand(), *TWO)  # a hand played out, not results
    with pytest.raises(ProcedureError):
        hand.return_uncalled(0, 50)  # p1 has 4 chips in, and no hand returns chips by hand


@pytest.mark.parametrize("card", [52, -1])
def test_a_card_is_an_int_from_0_to_51(card):
    hand = new_hand()
    hand.post_antes()
    with pytest.raises(ProcedureError) as info:
        hand.verify_deal(0, card, up=False)
    assert info.value.code == Code.INVALID_CARD


def test_two_who_muck_cannot_leave_a_pot_only_they_contest():
    """p1 and p4 (all in) bet past two smaller all-in players: the top side pot is theirs
    alone. p1 mucks (p4 may still win it); p4 may not muck too -- one of them must show."""
    actions = [
        "d dh p1 As9dKc", "d dh p2 Jh5hTs", "d dh p3 2cQhJs", "d dh p4 4d9c7s",
        "d dh p5 4h7d5d", "d dh p6 2s5c3c", "p6 pb", "p1 cc", "p2 f", "p3 f", "p4 cc",
        "d dh p1 Tc", "d dh p4 Ac", "d dh p5 8d", "d dh p6 9s", "p4 cbr 20", "p6 cc", "p1 cc",
        "d dh p1 8h", "d dh p4 2h", "d dh p5 Kd", "d dh p6 2d", "p4 cbr 40", "p6 cc",
        "p1 cbr 80", "p4 cc", "d dh p1 Td", "d dh p4 6c", "d dh p5 3s", "d dh p6 Qd",
        "d dh p1 Jd", "d dh p4 Ks", "d dh p5 Jc", "d dh p6 9h", "p1 sm",
    ]  # fmt: skip
    history = phh_hand(
        actions, [1000, 45, 20, 90, 3, 45], variant="kings_and_little_ones",
        _seventh_card=["down", None, None, None, "up", None],
    )  # fmt: skip
    hand = walk_history(history)
    assert hand.pots()[-1].to_dict() == {"amount": 90, "eligible": [3]}  # p1 gave it up
    assert_refused(
        hand, lambda h: h.verify_muck(3), lambda h: h.muck(3), Code.ILLEGAL_ACTION, 3,
        Subject.ACTION,
    )  # fmt: skip


def test_up_key_worked_out_once_per_multiset_of_ranks():
    rng = random.Random(3)
    for _ in range(2000):
        up = rng.sample(range(52), rng.randint(1, 5))
        assert up_key(up) == _up_key(up)
        assert up_key(up) == up_key([(c & ~3) | rng.randrange(4) for c in up])  # suits aside
