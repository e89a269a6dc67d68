"""The stud machine deals and bets house games by their definitions (``StudHand(game=...)``):
whole hands of the presets played verb by verb and as events, and random legal play of every
preset to the end."""

from __future__ import annotations

import random

import pytest

from tests.support.house_hands import CHOICE_GAME, CHOICE_SEATS
from tests.support.stud_games import (
    STAKES,
    cards,
    conserved,
    deal_due,
    new,
    passive,
    play_out,
    settled,
)
from tracker.engine.cards import format_card, parse_card
from tracker.engine.events import (
    DealBoard,
    DealHole,
    Declare,
    Fold,
    Pay,
    PostAntes,
    Show,
    event_for,
)
from tracker.engine.game_presets import PRESETS
from tracker.engine.game_showdown import evaluate_game
from tracker.engine.games import dump_game, load_game
from tracker.engine.stud import Face, Phase, ProcedureError, StudHand, Verb

# --- Follow the Queen -----------------------------------------------------------------------

FTQ_SEATS = {  # down down up | 4th 5th 6th up | 7th down
    0: "Ah Ad Qd 2c 8s Jd 3h",
    1: "Kc Ks 7h 5d 9c Tc 6s",
    2: "4d 4h 4c 3c 5c 7c 9h",
}


@pytest.mark.parametrize("events", [False, True], ids=["verbs", "events"])
def test_follow_the_queen_a_queen_up_then_a_seven_makes_sevens_wild(events):
    hand = new(PRESETS["follow_the_queen"], 3)
    play_out(hand, {s: cards(c) for s, c in FTQ_SEATS.items()}, events=events)
    assert hand.up_order[:3] == cards("Qd 7h 4c")  # the seven follows the queen
    result = hand.settle()
    sd = result.showdown
    assert sd["follow"] == ["7"] and sd["players"][2]["wild"] == ["7c"]
    assert sd["high_winners"] == [2]  # four fours with the 7c; else p1's three aces would win
    assert sd["players"][2]["high"]["category"] == "four_of_a_kind"
    assert sd["shares"][0]["winners"] == [2]
    # the 4c brought it in (2 chips), everyone called, then checked: antes 3 + 6
    assert result.winnings == [0, 0, 9] and result.finishing_stacks == [97, 97, 106]
    conserved(hand, result)


LATE_QUEEN = {
    0: "Ah Ad Qd 2c 8s Jd 3h",
    1: "Kc Ks 7h 5d Qs Tc 6s",
    2: "4d 4h 4c 3c 9h 7c 9d",
}


@pytest.mark.parametrize(
    ("later_x", "follow", "winner"),
    [("replaces", ["9"], 2), ("adds", ["7", "9"], 2), ("ignored", ["7"], 1)],
)
def test_follow_the_queen_a_later_queen_as_the_house_chose(later_x, follow, winner):
    data = dump_game(PRESETS["follow_the_queen"])
    data["wild"][0]["later_x"] = later_x
    hand = new(load_game(data), 3)
    play_out(hand, {s: cards(c) for s, c in LATE_QUEEN.items()})
    sd = hand.settle().showdown
    assert sd["follow"] == follow
    assert sd["high_winners"] == [winner]
    # the machine's reading is evaluate_game on the hand's own up order
    direct = evaluate_game(
        hand.game,
        {"up_order": sd["up_order"], "players": [dict(hand.showdown_hands()[i]) for i in range(3)]},
    )
    assert direct["high_winners"] == [winner]


# --- Baseball -------------------------------------------------------------------------------


@pytest.mark.parametrize("events", [False, True], ids=["verbs", "events"])
def test_baseball_a_four_up_gets_an_extra_card_a_three_up_pays_or_folds(events):
    hand = new(PRESETS["baseball"], 3)
    hand.apply(PostAntes()) if events else hand.post_antes()
    q = {
        0: cards("As Ks 4h 8c Kd 7s 2c Jh"),
        1: cards("Qh Qd 3c 9h Td 6c 5h"),
        2: cards("2d 5s 3d"),
    }
    for seat in (0, 1, 2, 0, 1, 2, 0):  # two down each round the table, then p1's door, 4h
        hand.deal(seat, q[seat].pop(0))
    assert hand.up_cards(0) == cards("4h")
    deals = hand.next_event().deals
    assert (deals[0].seat, deals[0].face) == (0, Face.UP)  # the extra card comes at once
    assert [d.seat for d in deals] == [0, 1, 2]
    hand.deal(0, q[0].pop(0))
    hand.deal(1, q[1].pop(0))  # the 3c: p2 pays the pot or folds
    nxt = hand.next_event()
    assert nxt.phase is Phase.DEAL and nxt.seat == 1
    assert [(o.verb, o.amount) for o in nxt.options] == [(Verb.PAY, 3), (Verb.FOLD, 0)]
    with pytest.raises(ProcedureError) as err:
        hand.deal(2, q[2][0])
    assert err.value.code == "out_of_turn"
    hand.apply(Pay(1)) if events else hand.pay(1)
    hand.deal(2, q[2].pop(0))  # the 3d: p3 folds instead
    assert hand.next_event().seat == 2
    with pytest.raises(ProcedureError) as err:
        hand.verify_pay(1)
    assert err.value.code == "invalid_pay"
    hand.apply(Fold(2)) if events else hand.fold(2)
    assert hand.folded == [None, None, "third"] and hand.paid == [0, 3, 0]
    assert hand.next_event().seat == 1  # the lowest door card (3c) brings it in
    while not hand.over:
        passive(hand, events=events)
        deal_due(hand, q, events=events)
    result = hand.settle()
    sd = result.showdown
    assert len(sd["players"][0]["up"]) == 5  # 4h, its extra card 8c, and three more
    assert sd["high_winners"] == [1]  # Qh Qd with the 3c and 9h wild: four queens
    assert sd["players"][1]["high"]["category"] == "four_of_a_kind"
    assert result.buys == [0, 3, 0] and result.to_dict()["paid"] == [0, 3, 0]
    # antes 3, the pay 3, the bring-in 2 called by p1
    assert result.winnings == [0, 10, 0] and result.finishing_stacks == [97, 104, 99]
    conserved(hand, result)


def test_baseball_the_pot_price_counts_what_is_in_the_pot_and_a_short_stack_pays_all():
    hand = StudHand(game=PRESETS["baseball"], stakes=STAKES, stacks=[100, 2])
    hand.post_antes()
    for token in "As Qh Ks Qd 2c 3c".split():
        hand.deal(hand.next_event().deals[0].seat, parse_card(token))
    assert hand.verify_pay(1) == 1  # the pot holds 2; p2 has 1 chip left: all in
    hand.pay(1)
    assert hand.stacks == [99, 0]


def test_a_pay_is_refused_in_a_game_without_one():
    hand = new(PRESETS["deuces_wild"], 2)
    with pytest.raises(ProcedureError) as err:
        hand.verify_pay(0)
    assert err.value.code == "invalid_pay" and "no pay rule" in err.value.message


# --- Razz -----------------------------------------------------------------------------------


def test_razz_the_highest_door_brings_in_and_the_lowest_board_acts_first():
    hand = new(PRESETS["razz"], 3)
    q = {
        0: cards("9s Td Kc 2d 8h Jh Qc"),
        1: cards("2s 4h Ah 3s 6d 7c 8c"),
        2: cards("3h 6h 5d 9c Tc Jc Qs"),
    }
    hand.post_antes()
    deal_due(hand, q)
    assert hand.next_event().seat == 0  # the king is the highest door card (aces low)
    passive(hand)
    deal_due(hand, q)
    assert hand.next_event().seat == 1  # A-3 is the lowest board
    while not hand.over:
        passive(hand)
        deal_due(hand, q)
    result = hand.settle()
    assert result.showdown["low_winners"] == [1]  # 6-4-3-2-A
    assert result.showdown["players"][1]["low"]["ranks"] == [6, 4, 3, 2, 1]
    assert result.winnings == [0, 9, 0]
    conserved(hand, result)


# --- Five-Card Stud --------------------------------------------------------------------------


def test_five_card_stud_ten_players_four_streets_and_the_community_card():
    game = PRESETS["five_card_stud"]
    hand = new(game, 10)
    assert hand.street_names == ("second", "third", "fourth", "fifth")
    deck = [format_card(c) for c in range(52)]
    rng = random.Random(5)
    rng.shuffle(deck)
    q = {s: [parse_card(deck.pop()) for _ in range(4)] for s in range(10)}
    q[-1] = [parse_card(deck.pop())]
    streets = []
    hand.post_antes()
    while not hand.over:
        streets.append(hand.street)
        deal_due(hand, q)
        passive(hand)
    assert len(set(streets)) == 4
    # 10 players x 4 cards + 4 burns leaves 8: one community card for the last street
    assert hand.community is not None and all(len(c) == 4 for c in hand.cards)
    result = hand.settle()
    direct = evaluate_game(
        game,
        {
            "community": format_card(hand.community),
            "players": [hand.showdown_hands()[i] for i in range(10)],
        },
    )
    assert result.showdown["high_winners"] == direct["high_winners"]
    assert sum(result.winnings) == 10 + 2 * 10  # antes and the bring-in called round
    conserved(hand, result)


def test_five_card_stud_each_gets_a_fifth_card_when_the_deck_serves():
    seats = {0: "As Kd Qd 2c 3c", 1: "Ks 7h Qh 8c 9c", 2: "2d 5h 6h 7d 4s", 3: "3d 4h Th Jd Js"}
    hand, result = settled(PRESETS["five_card_stud"], seats)
    assert hand.community is None and all(len(c) == 5 for c in hand.cards)
    assert hand.folded == [None] * 4
    assert result.showdown["high_winners"] == [3]  # a pair of jacks


# --- Low Chicago, Deuces Wild ------------------------------------------------------------------


def test_low_chicago_half_to_the_lowest_spade_in_the_hole():
    seats = {0: "2s Kd Ah Ad Ac 7h 9d", 1: "5c 6d Qh Qd 8c 9h 4c"}
    _, result = settled(PRESETS["low_chicago"], seats)
    sd = result.showdown
    assert sd["high_winners"] == [0] and sd["spade_winners"] == [0]  # the 2s in the hole
    assert [s["share"] for s in sd["shares"]] == ["high", "spade"]
    assert result.payouts[0].to_dict()["spade_winners"] == [0]


def test_low_chicago_the_spade_half_goes_to_the_other_player():
    seats = {0: "Kh Kd Ah Ad Ac 7h 9d", 1: "3s 6c Qh Qd 8c 9c 4c"}
    _, result = settled(PRESETS["low_chicago"], seats)
    # pot 2 antes + 2 bring-in + 2 call = 6: the high half 3, the spade half 3
    assert result.showdown["spade_winners"] == [1] and result.winnings == [3, 3]


def test_deuces_wild_a_deuce_makes_the_winner():
    hand = new(PRESETS["deuces_wild"], 2)
    q = {0: cards("2d 9s Kh 7c 7d 4s Ks"), 1: cards("Ac Ad Qh 8c 9d 3s Jh")}
    play_out(hand, q)
    result = hand.settle()
    assert result.showdown["high_winners"] == [0]  # kings full with the 2d as a king
    assert result.showdown["players"][0]["wild"] == ["2d"]
    conserved(hand, result)


# --- choices, buys, results ---------------------------------------------------------------------


def test_a_choice_card_follows_the_players_choice():
    game = PRESETS["kings_and_little_ones"]
    hand = new(game, 2)
    q = {0: cards("As Ks 2c Ah Kh Jc 9s"), 1: cards("Qh Qd 3c 4d 5d 6d 8s")}
    hand.post_antes()
    while hand.street < hand.last_street:
        deal_due(hand, q)
        passive(hand)
    choices = hand.next_event().choices
    assert [(o.verb, o.seat) for o in choices] == [(Verb.CHOOSE_SEVENTH, 0)] * 1 + [
        (Verb.CHOOSE_SEVENTH, 1)
    ]
    hand.choose_seventh(1, True)
    deal_due(hand, q)
    passive(hand)
    assert hand.showdown_hands()[1]["up"][-1] == "8s"
    conserved(hand, hand.settle())


@pytest.mark.parametrize("events", [False, True], ids=["verbs", "events"])
@pytest.mark.parametrize(("up", "winner"), [(False, 1), (True, 0)], ids=["down", "up"])
def test_a_house_games_choice_street_deals_the_card_as_chosen(up, winner, events):
    """A house game's last card up or down as each player says (Follow the Queen): p2's Qs
    taken up is the last up card, and with ``no_follow`` the sevens are wild no more."""
    game = load_game(CHOICE_GAME)
    hand = new(game, 2)
    queues = {s: cards(c) for s, c in CHOICE_SEATS.items()}
    hand.post_antes()
    while hand.street < hand.last_street:
        deal_due(hand, queues, events=events)
        passive(hand, events=events)
    offered = hand.next_event().choices
    assert [(o.verb, o.seat) for o in offered] == [
        (Verb.CHOOSE_SEVENTH, 0),
        (Verb.CHOOSE_SEVENTH, 1),
    ]
    play_out(hand, queues, events=events, choices={1: up})
    shown = hand.showdown_hands()
    assert shown[0]["down"][-1] == "8s"  # p1 did not choose: down
    assert ("Qs" in shown[1]["up"], "Qs" in shown[1]["down"]) == (up, not up)
    assert (format_card(hand.up_order[-1]) == "Qs") is up
    result = hand.settle()
    sd = result.showdown
    assert sd["high_winners"] == [winner]
    assert sd["follow"] == ([] if up else ["7"])
    assert sorted(sd["players"][1]["wild"]) == (["Qs"] if up else ["7h", "Qs"])
    conserved(hand, result)


def test_a_game_buy_turns_the_last_card_over():
    hand = new(PRESETS["low_hold"], 2)
    q = {0: cards("As Ks 2c Ah Kh Jc 9s"), 1: cards("Qh Qd 3c 4d 5d 6d 8s")}
    hand.post_antes()
    while hand.street < hand.last_street:
        deal_due(hand, q)
        passive(hand)
    assert [(o.verb, o.amount) for o in hand.next_event().choices] == [(Verb.BUY, 10)] * 2
    hand.buy(0)
    deal_due(hand, q)
    passive(hand)
    assert hand.showdown_hands()[0]["up"][-1] == "9s"
    result = hand.settle()
    assert result.buys == [10, 0]
    conserved(hand, result)


def test_a_results_hand_of_a_house_game():
    hand = StudHand(game=PRESETS["baseball"], stakes=STAKES, stacks=[100, 100], results=True)
    hand.post_antes()
    q = {0: cards("As Ks 4h 8c Kd 7s 2c Jh"), 1: cards("Qh Qd 3c 9h Td 6c 5h")}
    while not hand.over:
        deal_due(hand, q)
        if hand.paying is not None:
            hand.pay(hand.paying)
            continue
        if hand.phase is Phase.BET:
            hand.contribute(0, 5)
            hand.contribute(1, 5)
            hand.end_betting()
    result = hand.settle()
    assert result.showdown["high_winners"] == [1]
    assert result.winnings == [0, 2 + 2 + 50]  # antes, the pay, 25 each
    conserved(hand, result)


def test_the_machine_refuses_more_players_than_the_game_seats():
    with pytest.raises(ProcedureError) as err:
        new(PRESETS["follow_the_queen"], 8)
    assert err.value.code == "player_count" and "stacks" in err.value.fields


def test_a_hand_needs_a_variant_or_a_game():
    with pytest.raises(ProcedureError) as err:
        StudHand(stakes=STAKES, stacks=[100, 100])
    assert "variant" in err.value.fields


# --- random legal play of every preset ------------------------------------------------------------


def random_hand(game, rng: random.Random) -> StudHand:
    """Play one hand of ``game`` to its end: random verbs from ``next_event()``, random
    cards, random choices and buys, random stacks (all-ins happen)."""
    n = rng.randint(2, min(game.player_limit, 8))
    stacks = [rng.choice((3, 8, 20, 60, 200)) for _ in range(n)]
    hand = StudHand(game=game, stakes=STAKES, stacks=stacks)
    deck = list(range(52))
    rng.shuffle(deck)
    for _ in range(400):
        nxt = hand.next_event()
        assert hand.deals_due() == nxt.deals  # the cheap answer is the same
        if nxt.phase is Phase.ANTES:
            hand.apply(PostAntes())
        elif nxt.options:
            hand.apply(event_for(rng.choice(nxt.options)))
        elif nxt.phase is Phase.DEAL and nxt.deals:
            if nxt.choices and rng.random() < 0.3:
                option = rng.choice(nxt.choices)
                if option.verb is Verb.BUY:
                    hand.buy(option.seat)
                else:
                    hand.choose_seventh(option.seat, rng.random() < 0.5)
                continue
            d = rng.choice(nxt.deals[:2])
            card = deck.pop()
            if d.face is Face.COMMUNITY:
                hand.apply(DealBoard(card))
            else:
                hand.apply(DealHole(d.seat, (card,)))
        else:
            break
    assert hand.over
    for seat in hand.next_event().showdown:
        hand.apply(Show(seat))
        if hand.declares:
            hand.apply(Declare(seat, rng.choice(("high", "low", "both"))))
    return hand


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_legal_play_of_every_preset(name):
    game = PRESETS[name]
    rng = random.Random(name)
    showdowns = 0
    for _ in range(40):
        hand = random_hand(game, rng)
        result = hand.settle()
        conserved(hand, result)
        assert all(s >= 0 for s in result.finishing_stacks)
        if result.showdown is None:
            continue
        showdowns += 1
        seats = sorted(hand.showdown_hands())
        data = {
            "community": result.community,
            "players": [hand.showdown_hands()[s] for s in seats],
        }
        if game.up_order_needed:
            data["up_order"] = [format_card(c) for c in hand.up_order]
        direct = evaluate_game(game, data)
        for key in ("high_winners", "low_winners", "spade_winners"):
            assert result.showdown[key] == [seats[i] for i in direct[key]]
        for k, seat in enumerate(seats):
            for key in ("high", "low", "spade", "wild"):
                assert result.showdown["players"][seat][key] == direct["players"][k][key]
    assert showdowns > 0


def test_the_best_board_is_the_four_games_order_of_action():
    """first_to_act of a best-board definition picks the seat today's order of action
    (``up_key``: what the up cards make, then their ranks) picks, on boards of any size."""
    from tracker.engine.games import first_to_act
    from tracker.engine.stud import up_key

    rng = random.Random(7)
    for _ in range(3000):
        deck = list(range(52))
        rng.shuffle(deck)
        if rng.random() < 0.5:  # crowd the ranks for pairs, trips and quads
            deck.sort(key=lambda c: (c >> 2) % rng.randint(2, 5))
        n = rng.randint(2, 7)
        boards = [[deck.pop() for _ in range(rng.randint(1, 5))] for _ in range(n)]
        keys = [up_key(b) for b in boards]
        expected = keys.index(max(keys))
        assert first_to_act(PRESETS["seven_card_stud"], boards) == expected


def test_an_extra_card_of_the_extra_rank_earns_another_and_a_down_extra_card():
    data = dump_game(PRESETS["baseball"])
    data["pays"] = []
    hand = new(load_game(data), 2)
    hand.post_antes()
    for seat, token in zip((0, 1, 0, 1, 0), "As Qh Ks Qd 4h".split(), strict=True):
        hand.deal(seat, parse_card(token))
    hand.deal(0, parse_card("4c"))  # the extra card is a four too: one more
    assert hand.cards_due(0) == 1 and hand.next_event().deals[0].seat == 0
    hand.deal(0, parse_card("8d"))
    assert hand.up_cards(0) == cards("4h 4c 8d") and hand.cards_due(1) == 1
    data["extra_cards"] = [{"rank": "4", "face": "down"}]
    hand = new(load_game(data), 2)
    hand.post_antes()
    for seat, token in zip((0, 1, 0, 1, 0), "As Qh Ks Qd 4h".split(), strict=True):
        hand.deal(seat, parse_card(token))
    assert hand.next_face(0) is Face.DOWN
    with pytest.raises(ProcedureError):
        hand.deal(0, parse_card("9c"), up=True)


def test_the_deck_runs_short_with_extra_cards_and_a_community_card_comes():
    game = PRESETS["baseball"]
    hand = new(game, 7, stacks=1000)
    hand.post_antes()
    deck = [c for c in range(52) if (c >> 2) + 2 != 3]  # no threes: nobody pays
    fours = [c for c in deck if (c >> 2) + 2 == 4]
    rest = [c for c in deck if c not in fours]
    order = rest[:14] + fours + rest[14:]  # the door cards: four fours, four extra cards
    while not hand.over:
        nxt = hand.next_event()
        if nxt.phase is Phase.BET:
            passive(hand)
        elif nxt.deals:
            d = nxt.deals[0]
            card = order.pop(0)
            hand.deal_community(card) if d.face is Face.COMMUNITY else hand.deal(d.seat, card)
    # 7 players x 6 cards and the extra cards leave fewer than 7 of the 52 - 5 burns
    extras = sum(len(c) for c in hand.cards) - 7 * 6
    assert extras >= 2 and 52 - 5 - 42 - extras < 7
    assert hand.community is not None
    conserved(hand, hand.settle())
