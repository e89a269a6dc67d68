"""An import batch's audit entries' data made plain JSON in one pass: the same data as each
entry's own pass (times, decimals, ids, tuples, objects written as text, empty data)."""

import datetime
import decimal
import uuid

from tracker.audit.services import _jsonable, _jsonable_many


def test_the_batch_pass_gives_what_each_entry_gives():
    when = datetime.datetime(2026, 12, 3, 19, 30, 1, 123456, tzinfo=datetime.UTC)
    shared = {"tournament": 1, "options": {"low": True}, "players": [3, 1, 2]}
    datas = [
        shared,
        shared,  # the same object twice (the batch's cached data): not a circular value
        {"number": 2, "at": when, "amount": decimal.Decimal("1.50"), "pair": (1, 2)},
        {"id": uuid.UUID(int=7), "other": object.__new__(type("Odd", (), {}))},
        None,
        {},
        {"text": "NUL-free \\u0000 é"},
    ]
    many = _jsonable_many(datas)
    each = [_jsonable(d) for d in datas]
    # an object's text names its address: the same object, the same text
    assert many == each
