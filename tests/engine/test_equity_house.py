"""All-in equity of house games against a brute-force oracle: every runout of a small all-in
played through the real machine (``StudHand(game=...)``, dealt card by card in the order it
asks for, then ``settle()``), each weighted by its chance, against ``all_in_equity``."""

from __future__ import annotations

import copy
import math
import random
from dataclasses import replace

import pytest

from tests.support.house_equity import (
    STAKES,
    bet_until_closed,
    brute_force,
    cards,
    deal_known,
    deal_out,
    oracle,
    pots_of,
    random_all_in,
    seats_of,
)
from tracker.engine.cards import parse_card
from tracker.engine.equity import EquityError, Pot, Seat, all_in_equity
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game, load_game
from tracker.engine.stud import Phase, StudHand

STACK = 8  # antes 1, the bring-in 2 called, then a bet of 5 puts both all in


def all_in_at(game, queues: dict[int, list[int]], street: int, stacks=(STACK, STACK)) -> StudHand:
    """Heads-up, all in when ``street``'s betting ends (its first actor bets all in)."""
    hand = StudHand(game=game, stakes=STAKES, stacks=list(stacks))
    hand.post_antes()
    bet_until_closed(hand, street, lambda h: deal_known(h, queues))
    assert hand.phase is Phase.DEAL
    return hand


def check(game, queues: dict[int, list[int]], street: int, unseen: str, stacks=None, **kw):
    hand = all_in_at(game, {k: list(v) for k, v in queues.items()}, street, stacks or (8, 8))
    rest = cards(unseen)
    dead = [c for c in range(52) if c not in hand.known and c not in rest]
    pots = [Pot(p.amount, p.eligible) for p in hand.pots()]
    want = oracle(hand, rest)
    got = all_in_equity(
        "house",
        None,
        seats_of(hand),
        pots,
        dead=dead,
        game=game,
        up_order=[c for c in hand.up_order if c is not None],
        dealt=hand.dealt,
        exact_limit=10**9,
        board=hand.community,
        **kw,
    )
    assert got.method == "exact"
    assert got.expected == pytest.approx([float(x) for x in want], abs=1e-9)
    assert 0 < min(want) and max(want) < sum(p.amount for p in pots)  # both can win
    return hand, got, rest, dead, pots


def test_five_card_stud_two_up_cards_to_come():
    queues = {0: cards("Ah Kd 9c Qs Tc"), 1: cards("Jd Jh 3s 2s 8c")}
    check(PRESETS["five_card_stud"], queues, 1, "Ac Kc 2h 3h 7d 8d 4s")


def test_follow_the_queen_the_runout_order_sets_the_wild_rank():
    # a queen to come, then whatever follows it is wild; the known cards have none
    queues = {0: cards("Ah Ad 5c 6h 7s Jd 3h"), 1: cards("Kc Ks 8h 9d 4c Tc 6s")}
    check(PRESETS["follow_the_queen"], queues, 2, "Qd Qh 5d 9s Kd 2c 7h")


def test_follow_the_queen_a_queen_already_up_and_the_seventh_down():
    queues = {0: cards("Ah Ad 5c Qh 7s 2d"), 1: cards("Kc Ks 8h 9d 4c Jh")}  # the 9d follows
    check(PRESETS["follow_the_queen"], queues, 3, "9s Qd 2c Kd 5s 8s")


def test_baseball_extra_cards_and_pays_in_the_runout():
    # fours to come earn an extra card at once; threes (wild) cost an all-in player nothing
    queues = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    hand, got, *_ = check(PRESETS["baseball"], queues, 2, "4d 4s 3h 9c Kd 2c 7d")
    assert got.runouts > math.perm(7, 4)  # the runouts with an extra card are longer


def test_baseball_the_deck_runs_short_and_a_community_card_comes():
    # four players' worth of cards are gone: an extra card leaves too few for a seventh each
    game = PRESETS["baseball"]
    queues = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    hand = all_in_at(game, {k: list(v) for k, v in queues.items()}, 2)
    rest = cards("4d 4s 3h 9c Kd")
    dealt = 52 - len(game.streets) - 4  # four cards a sixth and seventh street without extras
    dead = [c for c in range(52) if c not in hand.known and c not in rest]
    hand.dealt = dealt  # as if folded players' cards had been dealt too
    want = oracle(hand, rest)
    got = all_in_equity(
        "house", None, seats_of(hand), [Pot(p.amount, p.eligible) for p in hand.pots()],
        dead=dead, game=game, dealt=dealt, exact_limit=10**9,
    )  # fmt: skip
    assert got.expected == pytest.approx([float(x) for x in want], abs=1e-9)


@pytest.mark.parametrize("name", ["low_chicago", "high_chicago"])
def test_chicago_the_spade_half_follows_the_hole_cards(name):
    queues = {0: cards("Ah 3s 5c 6h 7d Jd"), 1: cards("Kc 9s 8h 9d 4c Tc")}
    check(PRESETS[name], queues, 3, "2s Qs 5d 9h Kd 2c 7h As")


def test_a_six_card_house_game_with_extra_cards():
    game = load_game(
        {
            "name": "six",
            "title": "Six",
            "streets": [
                {"faces": ["down", "up"]},
                {"faces": ["up"]},
                {"faces": ["up"], "unit": "big"},
                {"faces": ["up"], "unit": "big"},
                {"faces": ["down"], "unit": "big"},
            ],
            "extra_cards": [{"rank": "5", "face": "down"}],
        }
    )
    queues = {0: cards("Ah Ad 6c 8h"), 1: cards("Kc Ks 7h 9d")}
    check(game, queues, 2, "5d 5s Kd 2c 7d Ac")


def test_monte_carlo_agrees_with_the_oracle():
    queues = {0: cards("Ah Ad 5c 6h 7s Jd 3h"), 1: cards("Kc Ks 8h 9d 4c Tc 6s")}
    game = PRESETS["follow_the_queen"]
    hand, exact, rest, dead, pots = check(game, queues, 2, "Qd Qh 5d 9s Kd 2c 7h")
    mc = all_in_equity(
        "house", None, seats_of(hand), pots, dead=dead, game=game,
        up_order=list(hand.up_order), exact_limit=0, samples=4000, seed=7,
    )  # fmt: skip
    assert mc.method == "monte_carlo" and mc.runouts == 4000
    for i in range(2):
        assert mc.stderr[i] > 0
        assert abs(mc.expected[i] - exact.expected[i]) < 5 * mc.stderr[i]


def test_baseball_a_player_with_chips_pays_the_pot_for_each_three_up():
    # seat 1 has 32 chips left at the all-in: a first three costs it the pot (16), a second
    # one the pot again (32), all in if short (16); what it pays joins the main pot
    queues = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    game = PRESETS["baseball"]
    hand, got, *_ = check(game, queues, 2, "3h 3d 4s 9c Kd 2c", stacks=(STACK, 40))
    assert hand.stacks == [0, 32]
    assert got.expected[0] + got.expected[1] > sum(p.amount for p in hand.pots())
    flat = all_in_equity(
        "house", None, [replace(s, chips=0) for s in seats_of(hand)], pots_of(hand),
        dead=[c for c in range(52) if c not in hand.known and c not in cards("3h 3d 4s 9c Kd 2c")],
        game=game, up_order=list(hand.up_order), dealt=hand.dealt, exact_limit=10**9,
    )  # fmt: skip
    assert flat.expected[0] + flat.expected[1] == pytest.approx(16)  # all in: nothing paid
    assert got.expected[0] > flat.expected[0]  # the all-in player can win what seat 1 paid


COMMUNITY_STREET = {
    "name": "board",
    "title": "Board Stud",
    "streets": [
        {"faces": ["down", "down", "up"]},
        {"faces": ["up"]},
        {"faces": ["community"], "unit": "big"},
        {"faces": ["up"], "unit": "big"},
        {"faces": ["down"], "unit": "big"},
    ],
}


@pytest.mark.parametrize(
    "definition,street",
    [
        (COMMUNITY_STREET, 1),  # the community card to come, then one up and one down each
        (COMMUNITY_STREET, 2),  # the community card dealt (``board``), then two cards each
        ({**COMMUNITY_STREET, "wild": [{"kind": "follow", "rank": "Q"}]}, 1),
    ],
)
def test_a_community_street_is_one_card_for_everyone(definition, street):
    game = load_game(definition)
    queues = {0: cards("Ah Ad 5c 6h 7d 9c"), 1: cards("Kc Ks 8h 9d Jc 2s")}
    if street == 2:  # the board card is dealt before the all-in
        queues = {0: cards("Ah Ad 5c 6h"), 1: cards("Kc Ks 8h 9d"), None: cards("Jh")}
    hand, got, *_ = check(game, queues, street, "Qd 5s 2c Kd 8s 6d")
    assert (hand.community is not None) == (street == 2)


def test_a_community_street_dealt_needs_its_card():
    game = load_game(COMMUNITY_STREET)
    a = Seat(cards("Ah Ad"), cards("5c 6h 7d"), (False,))
    b = Seat(cards("Kc Ks"), cards("8h 9d Jc"), (False,))
    with pytest.raises(EquityError) as err:  # after sixth street: the board card is out
        all_in_equity("house", None, [a, b], game=game)
    assert "board" in err.value.fields
    early = [Seat(s.down, s.up[:1], (True, True, False)) for s in (a, b)]
    with pytest.raises(EquityError) as err:  # after third street: no board yet
        all_in_equity("house", None, early, game=game, board=parse_card("2c"))
    assert "board" in err.value.fields


def test_follow_the_queen_needs_the_up_order():
    a = Seat(cards("Ah Ad"), cards("5c 6h 7s"), (True, False))
    b = Seat(cards("Kc Ks"), cards("8h 9d 4c"), (True, False))
    with pytest.raises(EquityError) as err:
        all_in_equity("house", None, [a, b], game=PRESETS["follow_the_queen"])
    assert "up_order" in err.value.fields


@pytest.mark.parametrize(
    "name,stacks,street",
    [
        ("follow_the_queen", (STACK, STACK), 2),
        ("baseball", (STACK, STACK), 2),
        ("baseball", (STACK, 40), 2),  # seat 1 has chips left and pays for its 3h in the runout
        ("five_card_stud", (STACK, STACK), 1),
        ("board", (STACK, STACK), 1),  # the community street comes in the runout
        ("board", (STACK, 40), 2),  # it came before the all-in: the facts give it as board
    ],
)
def test_the_facts_of_a_house_all_in_value_the_runout_the_machine_deals(name, stacks, street):
    from tracker.engine.facts import FactsObserver, hand_facts

    game = load_game(COMMUNITY_STREET) if name == "board" else PRESETS[name]
    first = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc"), None: cards("Jh")}
    if name == "five_card_stud":
        first = {0: cards("Ah 5c 6h"), 1: cards("Kc 7h Td")}
    observer = FactsObserver(2)
    hand = StudHand(game=game, stakes=STAKES, stacks=list(stacks), observers=[observer])
    hand.post_antes()
    queues = {k: list(v) for k, v in first.items()}
    bet_until_closed(hand, street, lambda h: deal_known(h, queues))
    moment = copy.deepcopy(hand)
    rest = iter(cards("4d Qd 3h 9c 2c Kd 7d 8d"))
    deal_out(hand, rest.__next__)
    reading = hand.settle().to_dict()
    facts = hand_facts(
        variant="house", options={}, entry_mode="full", entry={}, reading=reading,
        observed=observer, game=game,
    )  # fmt: skip
    assert "ai_skip" not in facts[0] and facts[0]["ai"] == 1
    want = all_in_equity(
        "house", None, seats_of(moment), [Pot(p.amount, p.eligible) for p in moment.pots()],
        game=game, up_order=list(moment.up_order), dealt=moment.dealt, board=moment.community,
    )  # fmt: skip
    assert (moment.community is not None) == (name == "board" and street == 2)
    assert facts[0]["eq"] == round(want.equity[0], 4) and facts[1]["ev"] == round(
        want.expected[1], 2
    )
    assert facts[0]["ai_st"] == street + 3
    # seat 1's 3h in the runout: with chips it paid the pot of the all-in moment
    assert hand.paid == [0, moment.pot_total() if game.pays and stacks[1] > STACK else 0]


# Random multiway all-ins (three and four contenders, unequal stacks: side pots by the engine's
# pots code) against the brute force: every runout the machine deals from the unseen cards,
# each pot decided among its own contenders by tests/engine/games_oracle.py.
def seventh_up(name: str):
    """A preset dealt with its seventh card up: after sixth street one up card each is to
    come, so the runouts deal Baseball's fours (an extra card at once) and threes (the
    contender with chips pays), and Follow the Queen's queens and followers."""
    d = dump_game(PRESETS[name])
    d["streets"][-1] = {**d["streets"][-1], "faces": ["up"]}
    return load_game(d)


MULTIWAY = [
    # game, contenders, the street they go all in on, spare unseen cards, ranks among them
    ("baseball", 3, 3, 2, (3, 4)),
    ("baseball", 4, 3, 1, (3, 4)),
    ("follow_the_queen", 4, 3, 1, (12,)),
    ("seven_card_stud_high_low", 4, 3, 0, ()),
    ("low_chicago", 4, 3, 1, ()),
    ("deuces_wild", 4, 3, 0, (2,)),
    ("razz", 3, 3, 2, ()),
]


@pytest.mark.parametrize("name,players,street,spare,ranks", MULTIWAY)
def test_multiway_side_pots_against_the_brute_force(name, players, street, spare, ranks):
    game = seventh_up(name) if name in ("baseball", "follow_the_queen") else PRESETS[name]
    rng = random.Random(f"{name}-{players}")
    value = brute_force(game)
    checked = 0
    side_pots = 0
    for _ in range(40):
        drawn = random_all_in(game, rng, players, street, spare, ranks)
        if drawn is None:
            continue
        hand, unseen, dead = drawn
        pots = pots_of(hand)
        want = oracle(hand, unseen, value)
        got = all_in_equity(
            "house", None, seats_of(hand), pots, dead=dead, game=game,
            up_order=[c for c in hand.up_order if c is not None], dealt=hand.dealt,
            exact_limit=10**9,
        )  # fmt: skip
        assert got.method == "exact"
        assert got.expected == pytest.approx([float(x) for x in want], abs=1e-9)
        checked += 1
        side_pots += len(pots) > 1
        if checked == 2:
            break
    assert checked == 2 and side_pots  # two all-ins checked, at least one with a side pot
