"""manage.py evaluate: one JSON showdown, or one per line with --jsonl."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

LOW_HOLD = {
    "variant": "low_hold",
    "players": [{"down": ["K♦", "3♠", "9♦"], "up": ["8♥", "8♣", "K♥", "K♠"]}],
}


def run(text, *args):
    out = io.StringIO()
    error = None
    try:
        call_command("evaluate", *args, stdin=io.StringIO(text), stdout=out)
    except CommandError as exc:
        error = exc
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()], error


def test_one_showdown():
    lines, error = run(json.dumps(LOW_HOLD))
    assert error is None and len(lines) == 1
    assert lines[0]["players"][0]["high"]["ranks"] == [13, 13, 13, 13, 9]
    assert lines[0]["high_winners"] == [0]


def test_one_bad_showdown_prints_the_error_and_fails():
    bad = {
        "variant": "low_hold",
        "players": [{"down": ["Zz", "3s", "9d"], "up": ["8h", "8c", "Kh", "Ks"]}],
    }
    lines, error = run(json.dumps(bad))
    assert error is not None
    assert lines == [
        {
            "error": {
                "code": "invalid_card",
                "message": "'Zz' is not a card",
                "fields": {"players[0].down[0]": ["'Zz' is not a card"]},
            }
        }
    ]


def test_not_json():
    lines, error = run("{nope")
    assert error is not None and lines[0]["error"]["code"] == "invalid_json"


def test_jsonl_keeps_order_and_reports_bad_lines_at_the_end():
    stud = {
        "variant": "seven_card_stud",
        "players": [{"down": ["As", "Ks", "2c"], "up": ["Qs", "Js", "Ts", "3d"]}],
    }
    text = "\n".join(
        [json.dumps(LOW_HOLD), "not json", "", json.dumps({"variant": "x"}), json.dumps(stud)]
    )
    lines, error = run(text, "--jsonl")
    assert error is not None and "2 of 4" in str(error)
    assert len(lines) == 4
    assert lines[0]["players"][0]["high"]["category"] == "four_of_a_kind"
    assert lines[1]["error"]["code"] == "invalid_json" and lines[1]["error"]["line"] == 2
    assert lines[2]["error"]["fields"] == {"variant": [lines[2]["error"]["message"]]}
    assert lines[3]["players"][0]["high"]["text"] == "royal flush"


def test_jsonl_all_good_exits_cleanly():
    lines, error = run(json.dumps(LOW_HOLD) + "\n" + json.dumps(LOW_HOLD) + "\n", "--jsonl")
    assert error is None and len(lines) == 2


@pytest.mark.parametrize("flag", [[], ["--jsonl"]])
def test_empty_input(flag):
    lines, error = run("", *flag)
    if flag:
        assert error is None and lines == []
    else:
        assert error is not None and lines[0]["error"]["code"] == "invalid_json"
