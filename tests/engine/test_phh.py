"""Reading and writing PHH (.phh one hand, .phhs many), and replaying files."""

from __future__ import annotations

import io
import json

import pytest

from tracker.engine import phh
from tracker.engine.procedure import ProcedureError, replay_hand

HAND = {
    "variant": "F7S",
    "antes": [4, 4],
    "bring_in": 10,
    "small_bet": 20,
    "big_bet": 40,
    "starting_stacks": [1000, 1000],
    "actions": [
        "d dh p1 9s8s7c",
        "d dh p2 KhKd2c",
        "p2 pb",
        "p1 cc",
        "d dh p1 6d",
        "d dh p2 3h",
        "p1 cc",
        "p2 cc",
        "d dh p1 5c",
        "d dh p2 4h",
        "p1 cc",
        "p2 cc",
        "d dh p1 Jd",
        "d dh p2 Th",
        "p1 cc",
        "p2 cc",
        "d dh p1 2d",
        "d dh p2 Ac",
        "p1 cc",
        "p2 cc # checked down",
        "p1 sm 9s8s7c6d5cJd2d",
        "p2 sm KhKdAc",
    ],
}

WILD = dict(
    HAND,
    _variant="low_hole",
    _options={"game": "high_low", "low_qualifier": None, "declaration": "declare"},
    _declarations=["low", "high"],
    players=["Ann", "Bob"],
    hand=7,
)


def test_one_hand_round_trips():
    text = phh.dumps(WILD)
    assert text.splitlines()[:2] == ['variant = "F7S"', "antes = [4, 4]"]
    assert 'low_qualifier = "none"' in text  # TOML has no null
    (back,) = phh.loads(text)
    assert back == WILD
    assert replay_hand(back).showdown is not None


def test_many_hands_as_numbered_tables():
    text = phh.dumps([HAND, WILD])
    assert text.startswith("[1]\n") and "\n[2]\n" in text
    assert phh.loads(text) == [HAND, WILD]
    assert [label for label, _ in phh.iter_hands(text)] == [1, 2]


def test_per_player_nulls_are_empty_strings():
    hand = dict(WILD, _declarations=["low", None])
    assert '_declarations = ["low", ""]' in phh.dumps(hand)
    assert phh.loads(phh.dumps(hand))[0]["_declarations"] == ["low", None]


def test_load_and_dump_files(tmp_path):
    path = tmp_path / "night.phhs"
    phh.dump([HAND, HAND], path)
    assert len(phh.load(path)) == 2
    buffer = io.StringIO()
    phh.dump(HAND, buffer)
    assert phh.load(io.StringIO(buffer.getvalue())) == [HAND]
    assert phh.load(io.BytesIO(buffer.getvalue().encode())) == [HAND]


def test_a_uniform_ante_may_be_written_as_one_number():
    assert phh.dumps(dict(HAND, antes=4)).splitlines()[1] == "antes = [4, 4]"
    assert replay_hand(dict(HAND, antes=4)).finishing_stacks == replay_hand(HAND).finishing_stacks


def test_not_phh():
    with pytest.raises(phh.PHHError) as info:
        phh.loads("variant = ", source="bad.phh")
    assert str(info.value).startswith("bad.phh: not valid TOML")
    with pytest.raises(phh.PHHError) as info:
        phh.loads('stray = 1\n[1]\nvariant = "F7S"\n')
    assert info.value.fields == {"stray": [info.value.message]}
    with pytest.raises(phh.PHHError):
        phh.loads("")


def test_replaying_a_file_names_the_hand_and_the_action():
    bad = dict(HAND, actions=HAND["actions"][:10] + ["p2 cbr 40"] + HAND["actions"][11:])
    lines = list(phh.replay_text(phh.dumps([HAND, bad]), source="night.phhs"))
    assert lines[0]["ok"] is True
    assert set(lines[0]) == {
        "ok",
        "hand",
        "contributions",
        "pots",
        "showdown",
        "payouts",
        "finishing_stacks",
    }
    assert lines[1]["ok"] is False
    error = lines[1]["error"]
    assert error["hand"] == 2 and error["action_index"] == 10 and error["action"] == "p2 cbr 40"
    assert error["message"].startswith("night.phhs, hand 2, action 10 'p2 cbr 40': it is p1's turn")
    assert error["code"] == "out_of_turn" and error["field"] == "actions[10]"
    json.dumps(lines)  # JSON-ready


def test_field_errors_name_the_field():
    lines = list(phh.replay_text(phh.dumps([dict(HAND, _options={"king_required": False})])))
    assert lines[0]["error"]["field"] == "_options.king_required"
    assert lines[0]["error"]["action_index"] is None


def test_procedure_error_text():
    err = ProcedureError("no", action_index=3, action="p1 f", hand=2, source="x.phhs")
    assert str(err) == "x.phhs, hand 2, action 3 'p1 f': no"
    assert err.as_dict()["fields"] == {"actions[3]": ["no"]}


# --- the management command -----------------------------------------------------


def test_replay_command(tmp_path):
    from django.core.management import CommandError, call_command

    good = tmp_path / "good.phhs"
    phh.dump([HAND, WILD], good)
    out = io.StringIO()
    call_command("replay", str(good), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["ok"] for line in lines] == [True, True]
    assert lines[0]["finishing_stacks"] == [1014, 986]

    bad = tmp_path / "bad.phh"
    phh.dump(dict(HAND, actions=HAND["actions"][:3]), bad)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 hand"):
        call_command("replay", str(bad), stdout=out)
    line = json.loads(out.getvalue())
    assert line == {
        "ok": False,
        "hand": 1,
        "error": {
            "hand": 1,
            "action_index": 3,
            "action": None,
            "message": f"{bad}, hand 1, after the last action (3 actions): the hand is "
            "incomplete: p1 is to act on third street",
            "code": "incomplete_hand",
            "field": "actions[3]",
        },
    }
    (tmp_path / "junk.phh").write_text("variant = ")
    with pytest.raises(CommandError, match="not valid TOML"):
        call_command("replay", str(tmp_path / "junk.phh"), stdout=io.StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path / "missing.phh"), stdout=io.StringIO())


def test_replay_command_reads_stdin(monkeypatch):
    from django.core.management import call_command

    monkeypatch.setattr("sys.stdin", io.StringIO(phh.dumps(HAND)))
    out = io.StringIO()
    call_command("replay", "-", stdout=out)
    assert json.loads(out.getvalue())["ok"] is True


def test_the_example_of_docs_phh_md():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "phh.md").read_text()
    text = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    (hand,) = phh.loads(text)
    result = replay_hand(hand)
    assert result.buys == [40, 0, 0]
    assert result.showdown["players"][0]["high"]["category"] == "five_of_a_kind"
    assert result.winnings == [sum(p.amount for p in result.pots), 0, 0]


def test_a_plain_phh_reader_loads_the_betting_of_our_wild_games():
    """pokerkit reads a Low Hold hand of ours (variant F7S, our fields under '_')
    and plays its betting to the end; it knows nothing of buys or wild cards."""
    import warnings
    from pathlib import Path

    pokerkit = pytest.importorskip("pokerkit")
    doc = (Path(__file__).resolve().parents[2] / "docs" / "phh.md").read_text()
    text = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    history = pokerkit.HandHistory.loads(text)
    assert history.user_defined_fields["_buys"] == [True, False, False]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, final = history
    assert not final.status and sum(final.stacks) == 3000
