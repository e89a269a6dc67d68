"""The worked examples of docs/games/*.md are tests: each ```json example block names a preset,
the house choices it changes (``changes``: top-level fields of the definition, replaced), the
showdown, and what the engine must say (``expect``)."""

import json
import re
from pathlib import Path

import pytest

from tracker.engine.game_presets import PRESETS
from tracker.engine.game_showdown import evaluate_game
from tracker.engine.games import dump_game, load_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
BLOCK = re.compile(r"```json example\n(.*?)```", re.S)


def examples():
    out = []
    for page in sorted(DOCS.glob("*.md")):
        for i, block in enumerate(BLOCK.findall(page.read_text())):
            out.append(pytest.param(json.loads(block), id=f"{page.stem}-{i}"))
    return out


EXAMPLES = examples()


def test_every_preset_page_has_examples():
    pages = {p.stem.replace("-", "_") for p in DOCS.glob("*.md")}
    named = {e.values[0]["game"] for e in EXAMPLES}
    presets = set(PRESETS) - {"seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold"}
    assert presets <= pages
    assert presets <= named


@pytest.mark.parametrize("example", EXAMPLES)
def test_worked_example(example):
    data = dump_game(PRESETS[example["game"]])
    data.update(example.get("changes", {}))
    result = evaluate_game(load_game(data), example["showdown"])
    expect = example["expect"]
    shares = {s["share"]: s["winners"] for s in result["shares"]}
    assert shares == expect["shares"]
    if "texts" in expect:
        assert [s["text"] for s in result["shares"]] == expect["texts"]
    if "follow" in expect:
        assert result["follow"] == expect["follow"]
    for half in ("high", "low"):
        if half in expect:
            got = [None if p[half] is None else p[half]["text"] for p in result["players"]]
            assert got == expect[half]
    if "wild" in expect:
        assert [p["wild"] for p in result["players"]] == expect["wild"]
    if "spade" in expect:
        assert [p["spade"] for p in result["players"]] == expect["spade"]
