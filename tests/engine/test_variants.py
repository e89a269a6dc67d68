"""The four games through the stud state machine: the seventh card (the community card
when the deck runs short, Kings and Little Ones up or down, Low Hold buys in both
versions) and random legal hands of every game, driven only through next_event() and
replayed from the PHH history they record (helpers from test_stud.py)."""

from __future__ import annotations

import random

import pytest

from tests.support import stud
from tests.support.hands import phh_hand
from tracker.engine.cards import format_card
from tracker.engine.procedure import replay_hand
from tracker.engine.stud import (
    BET_VERBS,
    Code,
    Deal,
    Option,
    Phase,
    ProcedureError,
    Subject,
    Verb,
    declaring,
)
from tracker.engine.variants import Face, Street

VARIANTS = ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold")
SEEDS = 20  # random hands per game

# --- The seventh card -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["seven_card_stud", "kings_and_little_ones", "low_hold"])
def test_seven_players_at_seventh_street_get_a_community_card(variant):
    hand = stud.autoplay(stud.new_hand([1000] * 7, variant), stud.deck(), stud.at_seventh_deal)
    ev = hand.next_event()
    assert (ev.deals, ev.choices) == ((Deal(None, Face.COMMUNITY),), ())
    stud.assert_refused(
        hand, lambda h: h.verify_deal(0, 0, up=False), lambda h: h.deal_down(0, 0),
        Code.COMMUNITY_CARD, 0, Subject.ACTION,
    )  # fmt: skip
    hand.deal_community(0)
    assert (hand.community, hand.next_event().phase) == (0, Phase.BET)
    six = stud.autoplay(stud.new_hand([1000] * 6, variant), stud.deck(), stud.at_seventh_deal)
    assert set(stud.deals(six)) == {(i, stud.D) for i in range(6)}  # 52 - 5 - 36 = 11 cards left
    # Seven dealt to sixth street, one folds there: 52 - 5 - 42 = 5 cards for 6 players.
    cards = stud.deck()
    folded = stud.autoplay(
        stud.new_hand([1000] * 7, variant), cards,
        lambda e: e.phase is Phase.BET and e.street is Street.SIXTH,
    )  # fmt: skip
    first = folded.next_event().seat
    folded.bet(first)
    folded.fold(folded.next_event().seat)
    stud.autoplay(folded, cards, stud.at_seventh_deal)
    assert folded.n_in == 6 and stud.deals(folded) == [(None, Face.COMMUNITY)]


def test_kings_and_little_ones_seventh_up_when_chosen():
    hand = stud.autoplay(
        stud.new_hand(variant="kings_and_little_ones"), stud.deck(), stud.at_seventh_deal
    )
    ev = hand.next_event()
    assert ev.choices == (Option(Verb.CHOOSE_SEVENTH, 0), Option(Verb.CHOOSE_SEVENTH, 1))
    assert stud.deals(hand) == [(0, stud.D), (1, stud.D)]
    hand.choose_seventh(1, True)
    assert stud.deals(hand) == [(0, stud.D), (1, stud.U)]
    hand.deal(0, 0, up=False)
    assert hand.next_event().choices == ()  # chosen before the seventh card, not after
    stud.assert_refused(
        hand, lambda h: h.verify_choose_seventh(1, False), lambda h: h.choose_seventh(1, False),
        Code.INVALID_CHOICE, 1, Subject.SEVENTH,
    )  # fmt: skip
    hand.deal(1, 1, up=True)
    assert hand.faces[1][-1] is True and hand.up_cards(1)[-1] == 1


@pytest.mark.parametrize(
    "announced, price, before, bought, buyers",
    [
        # one big bet; p3's 36 is short
        ({"buy_version": "contributed"}, 40, stud.D, stud.U, (0, 1)),
        ({"buy_version": "buderick", "buy_price": 25}, 25, stud.U, stud.D, (0, 1, 2)),
    ],
)
def test_low_hold_buys(announced, price, before, bought, buyers):
    hand = stud.autoplay(
        stud.new_hand((1000, 1000, 50), "low_hold", announced), stud.deck(), stud.at_seventh_deal
    )
    ev = hand.next_event()
    assert ev.choices == tuple(Option(Verb.BUY, i, price) for i in buyers)
    assert stud.deals(hand) == [(0, before), (1, before), (2, before)]
    pots, stacks, total = hand.pots(), list(hand.stacks), hand.pot_total()
    hand.buy(1)
    assert hand.stacks == [stacks[0], stacks[1] - price, stacks[2]]
    assert hand.buys == [0, price, 0] and hand.bets == [0, 0, 0]
    # Dead money in the main pot, which everyone still in can win.
    assert hand.pots()[0].amount == pots[0].amount + price
    assert hand.pots()[0].eligible == pots[0].eligible == (0, 1, 2)
    assert hand.pot_total() == total + price
    assert [o.seat for o in hand.next_event().choices] == [i for i in buyers if i != 1]
    assert stud.deals(hand) == [(0, before), (1, bought), (2, before)]
    stud.autoplay(hand, stud.deck()[:30], lambda e: e.phase is Phase.BET)
    # The seventh street betting starts fresh: the buy is no bet.
    assert (hand.next_event().seat, stud.options(hand)) == (2, [("check", 0, 0), ("bet", 36, 36)])


# --- Random hands of the four games, driven only through next_event() -------------


def random_options(rng, variant):
    if variant == "low_hole":
        announced = {"game": rng.choice(["high", "low", "high_low"])}
        if announced["game"] == "high_low" and rng.random() < 0.5:
            announced["declaration"] = "declare"
        return announced
    if variant == "low_hold":
        announced = {"buy_version": rng.choice(["contributed", "buderick"])}
        if rng.random() < 0.5:
            announced["buy_price"] = rng.choice([5, 25, 60])
        return announced
    if variant == "kings_and_little_ones":
        return {"king_required": rng.random() < 0.5}
    return {}


def may_muck(hand, seat):
    """Whether the muck's verify companion lets ``seat`` muck now."""
    try:
        hand.verify_muck(seat)
    except ProcedureError:
        return False
    return True


def check_offer(hand, ev):
    """Every option offered passes its verify companion at its amount; the others fail."""
    seat, by = ev.seat, {o.verb: o for o in ev.options}
    bet = [o for o in ev.options if o.verb in BET_VERBS]
    if bet:
        assert hand.verify_complete_bet_or_raise(seat) == (bet[0].verb, bet[0].to)
        assert bet[0].to == hand.bets[seat] + bet[0].amount <= hand.bets[seat] + hand.stacks[seat]
    for verb, verify in (
        (None, hand.verify_complete_bet_or_raise), (Verb.FOLD, hand.verify_fold),
        (Verb.CHECK, hand.verify_check), (Verb.CALL, hand.verify_call),
        (Verb.BRING_IN, hand.verify_bring_in),
    ):  # fmt: skip
        offered = bool(bet) if verb is None else verb in by
        try:
            got = verify(seat)
        except ProcedureError:
            assert not offered, (verb, ev)
        else:
            assert offered, (verb, ev)
            if verb is Verb.CALL:
                assert got == by[Verb.CALL].amount


def drive(seed, variant):
    rng = random.Random(seed)
    n = 7 if rng.random() < 0.25 else rng.randint(2, 6)  # seven: the deck may run short
    stacks = [rng.choice([3, 20, 45, 90, 300, 1000, 1000]) for _ in range(n)]
    announced = random_options(rng, variant)
    fold_p, raise_p = rng.choice([(0.0, 0.3), (0.1, 0.3), (0.25, 0.2)])
    recorder = stud.Recorder()
    hand = stud.new_hand(stacks, variant, announced, observers=[recorder])
    cards = list(range(52))
    rng.shuffle(cards)
    actions, buys, seventh, declared = [], [False] * n, [None] * n, [None] * n
    hand.post_antes()
    chosen = False
    while not (ev := hand.next_event()).over:
        if ev.phase is Phase.DEAL and ev.choices and not chosen:
            chosen = True
            for choice in ev.choices:
                if choice.verb is Verb.BUY and rng.random() < 0.5:
                    hand.buy(choice.seat)
                    buys[choice.seat] = True
                elif choice.verb is Verb.CHOOSE_SEVENTH and rng.random() < 0.6:
                    up = rng.random() < 0.5
                    hand.choose_seventh(choice.seat, up)
                    seventh[choice.seat] = "up" if up else "down"
        elif ev.phase is Phase.DEAL:
            deal, card = ev.deals[0], cards.pop()
            if deal.face is Face.COMMUNITY:
                hand.deal_community(card)
                actions.append(f"d db {format_card(card)}")
            else:
                hand.deal(deal.seat, card, up=deal.face is stud.U)
                actions.append(f"d dh p{deal.seat + 1} {format_card(card)}")
        else:
            check_offer(hand, ev)
            seat, by, x = ev.seat, {o.verb: o for o in ev.options}, rng.random()
            bet = next((o for o in ev.options if o.verb in BET_VERBS), None)
            if Verb.BRING_IN in by and (bet is None or x >= raise_p):
                hand.bring_in(seat)
                actions.append(f"p{seat + 1} pb")
            elif Verb.FOLD in by and x < fold_p:
                hand.fold(seat)
                actions.append(f"p{seat + 1} f")
            elif bet is not None and (Verb.BRING_IN in by or x < fold_p + raise_p):
                method = {Verb.COMPLETE: hand.complete, Verb.BET: hand.bet}.get(bet.verb)
                (method or hand.raise_to)(seat, bet.to)
                actions.append(f"p{seat + 1} cbr {bet.to}")
            else:
                (hand.call if Verb.CALL in by else hand.check)(seat)
                actions.append(f"p{seat + 1} cc")
    for seat in ev.showdown[:-1]:
        if rng.random() < 0.3 and may_muck(hand, seat):
            hand.muck(seat)
            actions.append(f"p{seat + 1} sm")
        elif rng.random() < 0.5:
            hand.show(seat)
            actions.append(f"p{seat + 1} sm -")
    if declaring(hand.options):
        for seat in hand.next_event().showdown:
            declared[seat] = rng.choice(["high", "low", "both"])
            hand.declare(seat, declared[seat])
    history = phh_hand(
        actions, stacks, variant=variant, options=announced,
        _buys=buys, _seventh_card=seventh, _declarations=declared,
    )  # fmt: skip
    return hand, history, recorder


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(SEEDS))
def test_random_hands_driven_by_next_event_replay_from_their_phh(variant, seed):
    hand, history, recorder = drive(seed, variant)
    settled = hand.settle()
    replayed = replay_hand(history)
    assert replayed.finishing_stacks == settled.finishing_stacks
    assert replayed.pots == settled.pots
    assert replayed.to_dict() == settled.to_dict()
    assert sum(settled.finishing_stacks) == sum(history["starting_stacks"])
    assert sum(p.amount for p in settled.pots) == sum(settled.contributions)
    assert all(pots == put_in for pots, put_in in recorder.ledger)


def test_the_random_hands_reach_every_corner():
    seen = set()
    for variant in VARIANTS:
        for seed in range(SEEDS):
            hand, history, _ = drive(seed, variant)
            seen.add(hand.phase)
            seen |= {"community"} if hand.community is not None else set()
            seen |= {"buy"} if any(history["_buys"]) else set()
            seen |= {"choice"} if any(history["_seventh_card"]) else set()
            seen |= {"declare"} if any(history["_declarations"]) else set()
            seen |= {"muck"} if any(a.endswith(" sm") for a in history["actions"]) else set()
            seen |= {"runout"} if hand.closed else set()
            seen |= {"cap"} if hand.count == 4 else set()
    assert seen >= {Phase.OVER, Phase.SHOWDOWN, "community", "buy", "choice", "declare", "muck"}
    assert seen >= {"runout", "cap"}
