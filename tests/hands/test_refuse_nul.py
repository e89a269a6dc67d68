"""The NUL check of a hand's JSON values (entry, table result, announcements): the JSON text
of them all first, the walk only where a NUL may be; the same error, at the same place, as
the walk alone."""

import pytest

from tracker.engine.errors import DomainError
from tracker.hands.services.recording import _refuse_nul, _refuse_nul_at

CASES = [
    ({"actions": ["d dh p1 AcKd", "p1 cbr 10"]}, None, {"low_hand": True}),
    ({"actions": ["p1 f"], "note": "a \\u0000 written out, no NUL"}, None, None),
    ({"actions": ["p1 f", "p2 cc\x00"]}, None, None),
    ({"actions": ["p1 f"]}, {"winners": ["p1"], "k\x00": 1}, None),
    ({"actions": ["p1 f"]}, None, {"game": ["a", {"b": "\x00"}]}),
    ({"a\x00": 1, "actions": ["\x00"]}, {"x": "\x00"}, None),
    ({"actions": ("p1 f", "p2 \x00")}, None, None),
    ({"actions": ["p1 f"], "odd": {1, 2}}, {"x\x00": 1}, None),  # not JSON: walked
    ({"actions": ["p1 f"], 3: "\x00"}, None, None),
]


def _walked(entry, table_result, options):
    for path, value in (("entry", entry), ("table_result", table_result), ("options", options)):
        _refuse_nul_at(value, path)


@pytest.mark.parametrize(("entry", "table_result", "options"), CASES)
def test_the_check_refuses_as_the_walk_does(entry, table_result, options):
    try:
        _walked(entry, table_result, options)
        expected = None
    except DomainError as exc:
        expected = (exc.message, exc.fields)
    try:
        _refuse_nul(("entry", entry), ("table_result", table_result), ("options", options))
        got = None
    except DomainError as exc:
        got = (exc.message, exc.fields)
    assert got == expected
