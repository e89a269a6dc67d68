"""Audit entries' data made plain JSON, one entry or a whole import batch in one pass:
times, decimals and ids written as their text, tuples as lists, empty data as ``{}``, and
the same object given twice (a batch's cached data) written twice, not taken as circular."""

import datetime
import decimal
import doctest
import uuid

from tracker.audit import services
from tracker.audit.services import _jsonable


class _Odd:
    def __str__(self):
        return "odd"


def test_the_data_is_written_as_plain_json():
    when = datetime.datetime(2026, 12, 3, 19, 30, 1, 123456, tzinfo=datetime.UTC)
    shared = {"tournament": 1, "options": {"low": True}, "players": [3, 1, 2]}
    datas = [
        shared,
        shared,
        {"number": 2, "at": when, "amount": decimal.Decimal("1.50"), "pair": (1, 2)},
        {"id": uuid.UUID(int=7), "other": _Odd()},
        None,
        {},
        {"text": "NUL-free \\u0000 é"},
    ]
    assert _jsonable(datas) == [
        {"tournament": 1, "options": {"low": True}, "players": [3, 1, 2]},
        {"tournament": 1, "options": {"low": True}, "players": [3, 1, 2]},
        {"number": 2, "at": "2026-12-03 19:30:01.123456+00:00", "amount": "1.50", "pair": [1, 2]},
        {"id": "00000000-0000-0000-0000-000000000007", "other": "odd"},
        {},
        {},
        {"text": "NUL-free \\u0000 é"},
    ]


def test_each_entry_is_a_copy_of_its_own():
    shared = {"options": {"low": True}}
    first, second = _jsonable([shared, shared])
    first["options"]["low"] = False
    assert second == {"options": {"low": True}}
    assert shared == {"options": {"low": True}}


def test_the_docstring_example_holds():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(services._jsonable, "_jsonable", globs={"_jsonable": _jsonable}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries == 2  # the import, the example
