"""The quick read of a showdown (``_quick_read``) answers as the field-by-field read does."""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from tests.engine.showdowns import random_showdown
from tracker.engine import decide_winners, evaluate_showdown, hand_keys, parse_showdown
from tracker.engine.errors import DomainError
from tracker.engine.showdown import _quick_read


def _slow(showdown: dict) -> MappingProxyType:
    """The same showdown as a mapping that is not a dict: read field by field."""
    return MappingProxyType(showdown)


def test_random_showdowns_read_quickly_answer_as_read_field_by_field():
    rng = random.Random(11)
    quick = 0
    for _ in range(600):
        sd = random_showdown(rng)
        want = evaluate_showdown(_slow(sd))
        assert evaluate_showdown(sd) == want
        assert evaluate_showdown(sd) == want  # the second of its options: read quickly
        quick += _quick_read(sd) is not None
        # the winners kept seat by seat are decide_winners' of the hands' keys
        variant, ann, community, seats = parse_showdown(sd)
        keys = [hand_keys(variant, ann, s.down, s.up, community) for s in seats]
        declares = [s.declare for s in seats] if seats[0].declare is not None else None
        high, low = [k[0] for k in keys], [k[1] for k in keys]
        assert (want["high_winners"], want["low_winners"]) == decide_winners(high, low, declares)
    assert quick > 300  # most of them went the quick way


def test_two_down_and_five_up_is_read_quickly_where_the_variant_allows_it():
    sd = {
        "variant": "kings_and_little_ones",
        "players": [
            {"down": ["Kd", "4c"], "up": ["2c", "4s", "7h", "9h", "Jd"]},
            {"down": ["Qs", "Qd"], "up": ["3c", "5s", "8h", "Th", "Ad"]},
        ],
    }
    evaluate_showdown(sd)
    assert _quick_read(sd) is not None
    assert evaluate_showdown(sd) == evaluate_showdown(_slow(sd))
    seats = parse_showdown(sd)[3]
    assert [len(s.down) for s in seats] == [2, 2] and [len(s.up) for s in seats] == [5, 5]


@pytest.mark.parametrize(
    "change",
    [
        lambda sd: sd["players"][1]["up"].__setitem__(0, "Kd"),  # a card twice
        lambda sd: sd["players"][1]["up"].__setitem__(0, "1x"),  # no card
        lambda sd: sd["players"][0].__setitem__("pot", 1),  # an unknown field
        lambda sd: sd.__setitem__("pot", 1),
        lambda sd: sd["players"][0]["down"].pop(),  # six cards
        lambda sd: sd.__setitem__("players", sd["players"] * 5),  # too many players
    ],
)
def test_what_the_quick_read_refuses_is_refused_as_before(change):
    sd = {
        "variant": "low_hole",
        "options": {"game": "high_low"},
        "players": [
            {"down": ["Kd", "4c", "2c"], "up": ["4s", "7h", "9h", "Jd"]},
            {"down": ["Qs", "Qd", "3c"], "up": ["5s", "8h", "Th", "Ad"]},
        ],
    }
    evaluate_showdown(sd)
    change(sd)
    assert _quick_read(sd) is None
    with pytest.raises(DomainError) as quick:
        evaluate_showdown(sd)
    with pytest.raises(DomainError) as slow:
        evaluate_showdown(_slow(sd))
    assert type(quick.value) is type(slow.value)
    assert (str(quick.value), quick.value.as_dict()) == (str(slow.value), slow.value.as_dict())
