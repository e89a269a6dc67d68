"""pokerkit as the reference for natural seven-card stud.

pokerkit (a test dependency) plays random hands with random legal actions
-- all-ins with varied small stacks, side pots, folds on every street,
capped rounds, eight-handed tables that run out of cards -- and writes
them to PHH. Our replay must accept every one of them and give the same
finishing stacks, and reject the same hands made illegal.

Where our rules (RULES.md) differ from pokerkit's, ours win; each test
below says where:

* Community card. RULES.md: a card is burned before each of the five
  streets, and when the cards left cannot give every player still in a
  seventh card, one community card is dealt instead. pokerkit burns no
  card before third street and, when the deck runs short, reshuffles
  burned and folded cards to keep dealing; it deals a community card only
  when even that is not enough. So a pokerkit hand that deals seventh
  cards where our count says the deck is short (e.g. seven players
  reaching seventh street: 52 - 5 burns - 42 = 5 cards for 7 players) is
  rejected by ours. Every pokerkit community card is one ours requires too.
* Player count. RULES.md deals seven-card stud to at most 7; pokerkit
  plays up to 8. Ours refuses 8-handed stud by default; the eight-handed
  hands are replayed with ``max_players=8`` (the option for foreign
  histories) to compare the community-card settlement.
* Partial antes. A player whose stack is less than the ante posts it all.
  RULES.md: "a player wins from each opponent at most what they put in"
  -- so ours caps that player's main pot at their ante from each
  opponent. pokerkit puts all antes into a pot every player can win. In
  those hands only chip conservation is compared.
* Folding with nothing to call: pokerkit (cash-game mode) only warns;
  ours refuses it (RULES.md's tournaments are chips only; folding when
  you may check is not an action we record). The generator never does it.

Checked equal: the bring-in (lowest door card, clubs < diamonds < hearts
< spades, which is pokerkit's suit order too), the first to act from
fourth street (best up cards, no straights or flushes, ties to the first
clockwise from the dealer), odd chips (pokerkit gives the whole remainder
of a split to the first winner in seat order, as RULES.md does), side
pots (pokerkit merges consecutive pots with the same contenders, as ours
does, which matters for odd chips), uncalled bets returned, all-ins for
less not reopening the betting.
"""

from __future__ import annotations

import random
import warnings

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    FixedLimitSevenCardStud,
    HandHistory,
    Mode,
)
from pokerkit.notation import parse_action  # noqa: E402

from tests.support.hands import ODD_CHIP_STREETS  # noqa: E402
from tests.support.pokerkit import (  # noqa: E402
    REPLAY_AUTOMATIONS,
    play_random_hand,
    stud_game,
)
from tracker.engine import phh  # noqa: E402
from tracker.engine.procedure import ProcedureError, replay_hand  # noqa: E402
from tracker.engine.showdown import decide_winners, hand_keys  # noqa: E402


def natural_evaluate(showdown: dict) -> dict:
    """The hand-value engine for natural stud beyond seven players.

    evaluate_showdown refuses an eighth player (RULES.md: stud seats 7);
    this calls the same engine's hand_keys/decide_winners directly.
    """
    from tracker.engine.cards import parse_card

    community = showdown["community"]
    c = None if community is None else parse_card(community)
    highs = []
    for p in showdown["players"]:
        high, _ = hand_keys(
            "seven_card_stud",
            {"double_ace_flush": False, "game": "high"},
            [parse_card(x) for x in p["down"]],
            [parse_card(x) for x in p["up"]],
            c,
        )
        highs.append(high)
    hi, lo = decide_winners(highs, [None] * len(highs), None)
    return {
        "players": [{"high": None, "low": None} for _ in highs],
        "high_winners": hi,
        "low_winners": lo,
    }


def _replay_state(hand: dict):
    """pokerkit's state for ``hand``, before its actions."""
    game = FixedLimitSevenCardStud(
        REPLAY_AUTOMATIONS,
        False,
        hand["antes"],
        hand["bring_in"],
        hand["small_bet"],
        hand["big_bet"],
        mode=Mode.CASH_GAME,
    )
    return game(hand["starting_stacks"], len(hand["starting_stacks"]))


def pokerkit_replays(hand: dict) -> bool:
    """pokerkit's state machine replays the actions strictly: True if it accepts
    every action and the hand ends; False at the first refusal."""
    state = _replay_state(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for action in hand["actions"]:
                parse_action(state, action)
        except ValueError:
            return False
    return not state.status


def pokerkit_finishing_stacks(hand: dict) -> list[int]:
    state = _replay_state(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for action in hand["actions"]:
            parse_action(state, action)
    return list(state.stacks)


# --------------------------------------------------------------------------
# Mutations that make a hand illegal


def _betting_indices(actions: list[str]) -> list[int]:
    return [i for i, a in enumerate(actions) if not a.startswith("d ") and " sm" not in a]


def mutate_bet_size(hand: dict, rng: random.Random) -> dict | None:
    actions = hand["actions"]
    cbr = [i for i, a in enumerate(actions) if " cbr " in a]
    if not cbr:
        return None
    i = rng.choice(cbr)
    actor, verb, amount = actions[i].split()
    bad = dict(hand, actions=list(actions))
    bad["actions"][i] = f"{actor} {verb} {int(amount) + rng.choice([1, 5, hand['small_bet']])}"
    return bad


def mutate_wrong_player(hand: dict, rng: random.Random) -> dict | None:
    actions = hand["actions"]
    idx = _betting_indices(actions)
    if not idx:
        return None
    i = rng.choice(idx)
    actor, *rest = actions[i].split()
    n = len(hand["starting_stacks"])
    other = rng.choice([p for p in range(1, n + 1) if p != int(actor[1:])])
    bad = dict(hand, actions=list(actions))
    bad["actions"][i] = " ".join([f"p{other}", *rest])
    return bad


def mutate_fourth_raise(hand: dict) -> dict | None:
    """Insert a raise right after a round's fourth bet (a bet and three raises)."""
    antes = hand["antes"]
    game = FixedLimitSevenCardStud(
        REPLAY_AUTOMATIONS,
        False,
        antes,
        hand["bring_in"],
        hand["small_bet"],
        hand["big_bet"],
        mode=Mode.CASH_GAME,
    )
    state = game(hand["starting_stacks"], len(hand["starting_stacks"]))
    actions = hand["actions"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, action in enumerate(actions):
            parse_action(state, action)
            if (
                " cbr " in action
                and state.completion_betting_or_raising_count == 4
                and state.actor_index is not None
                and state.stacks[state.actor_index]
                > max(state.bets) - state.bets[state.actor_index]
            ):
                actor = state.actor_index
                unit = state.street.min_completion_betting_or_raising_amount
                raise_to = max(state.bets) + unit
                bad = dict(hand, actions=list(actions))
                bad["actions"].insert(i + 1, f"p{actor + 1} cbr {raise_to}")
                return bad
    return None


def mutate_duplicate_card(hand: dict, rng: random.Random) -> dict | None:
    actions = hand["actions"]
    deals = [i for i, a in enumerate(actions) if a.startswith("d dh")]
    if len(deals) < 2:
        return None
    i, j = sorted(rng.sample(deals, 2))
    first = actions[i].split()[3][:2]
    _, _, player, cards = actions[j].split()
    bad = dict(hand, actions=list(actions))
    bad["actions"][j] = f"d dh {player} {first}{cards[2:]}"
    return bad


# --------------------------------------------------------------------------
# The checks


def check_hands(seeds: range) -> dict[str, int]:
    counts: dict[str, int] = {}

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for seed in seeds:
        rh = play_random_hand(seed)
        hand = rh.hand
        count("hands")
        for tag in rh.tags:
            count(tag)
        if rh.players == 8:
            with pytest.raises(ProcedureError) as info:
                replay_hand(hand)
            assert info.value.code == "player_count", (seed, info.value)
            count("refused_8_players")
            options = {"max_players": 8, "evaluate": natural_evaluate}
        else:
            options = {}
        if rh.board:
            # Every community card pokerkit deals is one ours requires.
            assert rh.ours_community, (seed, rh.text)
            count("community_card")
        if rh.ours_community and not rh.board:
            with pytest.raises(ProcedureError) as info:
                replay_hand(hand, **options)
            assert info.value.code == "community_card", (seed, str(info.value), rh.text)
            count("rejected_community_rule")
            continue
        result = replay_hand(hand, **options)
        assert sum(result.finishing_stacks) == sum(hand["starting_stacks"])
        if rh.partial_ante:
            count("partial_ante")
        else:
            assert result.finishing_stacks == rh.finishing_stacks, (seed, rh.text, result.to_dict())
            count("same_finishing_stacks")
        if len(result.pots) > 1:
            count("side_pots")
        for award in result.payouts:
            if len(award.awards) > 1:
                count("split_pot")
        if result.showdown is None:
            count("no_showdown")

        # The same hand made illegal: both refuse.
        rng = random.Random(seed)
        for name, bad in (
            ("bet_size", mutate_bet_size(hand, rng)),
            ("wrong_player", mutate_wrong_player(hand, rng)),
            ("fourth_raise", mutate_fourth_raise(hand)),
        ):
            if bad is None:
                continue
            assert not pokerkit_replays(bad), (seed, name, bad["actions"])
            with pytest.raises(ProcedureError):
                replay_hand(bad, **options)
            count(f"mutant_{name}")
        bad = mutate_duplicate_card(hand, rng)
        if bad is not None:
            with pytest.raises(ProcedureError) as info:
                replay_hand(bad, **options)
            assert info.value.code == "duplicate_card", (seed, str(info.value))
            count("mutant_duplicate_card")
            if pokerkit_replays(bad):
                count("pokerkit_accepts_duplicate")  # it only warns
    return counts


def test_pokerkit_reference_200_hands():
    counts = check_hands(range(200))
    assert counts["same_finishing_stacks"] >= 150, counts
    assert counts.get("pokerkit_accepts_duplicate"), counts
    for key in (
        "side_pots",
        "no_showdown",
        "mutant_bet_size",
        "mutant_wrong_player",
        "mutant_fourth_raise",
        "mutant_duplicate_card",
        "rejected_community_rule",
        "refused_8_players",
        "capped",
    ):
        assert counts.get(key), (key, counts)


@pytest.mark.slow
def test_pokerkit_reference_2000_hands():
    counts = check_hands(range(1000, 3000))
    assert counts["same_finishing_stacks"] >= 1500, counts
    assert counts.get("community_card"), counts
    for street in range(5):
        assert counts.get(f"fold{street}"), (street, counts)


def test_pokerkit_loads_our_phh():
    """Our PHH output loads in pokerkit and replays to the same stacks."""
    for seed in range(40):
        rh = play_random_hand(seed)
        if rh.players == 8 or rh.ours_community and not rh.board:
            continue
        hand = dict(rh.hand, _variant="seven_card_stud", _options={"double_ace_flush": False})
        text = phh.dumps(hand)
        history = HandHistory.loads(text)
        assert history.user_defined_fields["_variant"] == "seven_card_stud"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, final = history  # pokerkit replays our text to the end
        assert list(final.stacks) == rh.finishing_stacks
        assert not final.status
        many = phh.dumps([hand, hand])
        assert len(list(HandHistory.loads_all(many))) == 2


def test_seven_players_to_seventh_street_is_rejected():
    """pokerkit gives seven players their own seventh card; RULES.md counts
    52 - 5 burns - 42 = 5 cards for 7 players and deals a community card."""
    game = stud_game()
    random.seed(7)
    state = game([500] * 7, 7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_post_bring_in():
                state.post_bring_in()
            elif state.actor_index is not None:
                state.check_or_call()
            else:
                state.show_or_muck_hole_cards(True)
    (hand,) = phh.loads(HandHistory.from_game_state(game, state).dumps())
    assert not any(a.startswith("d db") for a in hand["actions"])
    with pytest.raises(ProcedureError) as info:
        replay_hand(hand)
    assert info.value.code == "community_card"
    assert "5 left" in info.value.message
    # Written the way our rules deal it -- one community card -- it is accepted.
    actions = []
    seventh = {}
    for a in hand["actions"]:
        if a.startswith("d dh"):
            player = a.split()[2]
            seventh[player] = seventh.get(player, 0) + len(a.split()[3]) // 2
            if seventh[player] == 7:
                if not any(x.startswith("d db") for x in actions):
                    actions.append("d db " + a.split()[3])
                continue
        if " sm " in a:
            actor, verb, cards = a.split()
            a = f"{actor} {verb} {cards[:12]}"
        actions.append(a)
    # The community card is one of the dealt seventh cards; drop the rest.
    result = replay_hand(dict(hand, actions=actions))
    assert result.community is not None
    assert sum(result.finishing_stacks) == 3500


def test_high_hand_lookup_agrees_on_first_to_act():
    """Our best-up-cards order agrees with pokerkit's on every pair of 2-4 up
    cards we try (pokerkit's HIGH_HAND opening)."""
    from tracker.engine.stud import up_key as _up_key

    state = stud_game()([100, 100], 2)
    lookup = state._State__high_hand_opening_lookup  # pokerkit's opener lookup
    from pokerkit import Card

    rng = random.Random(5)
    deck = list(Card.parse("".join(r + s for r in "23456789TJQKA" for s in "cdhs")))
    from tracker.engine.cards import parse_card

    for _ in range(3000):
        k = rng.randint(1, 4)
        a, b = rng.sample(deck, k), rng.sample(deck, k)
        ka = _up_key([parse_card(repr(c)) for c in a])
        kb = _up_key([parse_card(repr(c)) for c in b])
        ea, eb = lookup.get_entry(a), lookup.get_entry(b)
        assert (ka > kb) == (ea > eb) and (ka == kb) == (ea == eb), (a, b)


def _pokerkit_stacks(hand: dict) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pokerkit_finishing_stacks(hand)


def test_pokerkit_agrees_on_odd_chips_and_bring_in_suits():
    """Odd chips: the whole remainder to the first winner in seat order (RULES.md:
    the first clockwise from the dealer), in pokerkit as in ours. Bring-in: two
    deuces showing, the club brings in, in pokerkit as in ours."""
    third = ["d dh p1 Ts9s8c", "d dh p2 3h3d2d", "d dh p3 Td8d2c", "p3 pb", "p1 cc", "p2 cc"]
    shown = ["p1 sm Ts9s8c7h6hKh3c", "p3 sm Td8d2c9h7c6d4s"]
    actions = third + ODD_CHIP_STREETS + shown
    hand = {
        "variant": "F7S",
        "antes": [1, 1, 1],
        "bring_in": 2,
        "small_bet": 4,
        "big_bet": 8,
        "starting_stacks": [500, 500, 500],
        "actions": actions,
    }
    ours = replay_hand(hand)
    assert [a.awards for a in ours.payouts] == [((0, 9), (2, 8))]
    assert ours.finishing_stacks == _pokerkit_stacks(hand) == [502, 497, 501]
    assert not pokerkit_replays(dict(hand, actions=actions[:3] + ["p2 pb"]))
    with pytest.raises(ProcedureError):
        replay_hand(dict(hand, actions=actions[:3] + ["p2 pb"]))
    # The odd chip of 17 went to seat 0, the first winner clockwise from the dealer.
