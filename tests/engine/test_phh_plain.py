"""The fast path for plain PHH TOML (``phh._toml_plain``) reads what ``tomllib`` reads, or
declines: on every TOML text of the project's tests, code and examples, on the tables
:func:`tracker.engine.phh.dumps` writes, on random texts built from plain and unusual TOML
pieces, and on those texts edited at random. Where ``tomllib`` refuses a text, the fast path
declines it (so the error is ``tomllib``'s)."""

from __future__ import annotations

import ast
import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interchange.histories import FOLD, LOW_HOLD, SHOWDOWN
from tests.support.hands import phh_stakes
from tracker.engine import phh

ROOT = Path(__file__).resolve().parents[2]


def same_as_tomllib(text: str) -> bool:
    """Whether the fast path read ``text`` (True) or declined it (False); fails the test
    if it read it otherwise than ``tomllib``."""
    fast = phh._toml_plain(text)
    try:
        slow = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):  # ValueError: 5000 digits
        assert fast is None, text
        return False
    if fast is None:
        return False
    # repr: True and 1 are equal in Python, not in TOML
    assert repr(fast) == repr(slow), text
    return True


def project_texts() -> list[str]:
    """Every string constant of the tests and the code that holds a line ``key = ...``,
    the example files, and each of their tables on its own (as the import reads them)."""
    texts = [p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "examples").iterdir()]
    for folder in ("tests", "tracker"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if " = " in node.value or "]\n" in node.value:
                        texts.append(node.value)
    sections = []
    for text in texts:
        try:
            sections += [s.text for s in phh.iter_sections([text])]
        except phh.PHHError:
            pass
    return texts + sections


def test_every_project_text_reads_the_same():
    texts = project_texts()
    read = sum(same_as_tomllib(text) for text in texts)
    assert len(texts) > 400 and read >= 20, (len(texts), read)  # 497 and 23 when written


HAND = {
    **phh_stakes(),
    "antes": [4, 4, 4],  # an array, as a table may give them
    "starting_stacks": [1000, 1000, 1000],
    "actions": SHOWDOWN,
    "players": ["Ann", "Bob", "Cat"],
    "hand": 3,
}


@pytest.mark.parametrize(
    "hand",
    [
        HAND,
        dict(HAND, actions=FOLD, finishing_stacks=[1008, 996, 996]),
        dict(HAND, players=['Ann "the hat"', "Bob\\", "Çat\t"], author="#1 = ok"),
        dict(HAND, **LOW_HOLD),
        dict(HAND, _seventh_card=["", "up", ""], _declarations=[None, "low", "high"]),
    ],
)
def test_written_tables_read_the_same(hand):
    whole = phh.dumps([hand, dict(hand, hand=4)])
    for text in [whole, phh.dumps(hand)] + [s.text for s in phh.iter_sections([whole])]:
        same_as_tomllib(text)
    assert phh.loads(whole) == [phh._from_toml(t) for t in tomllib.loads(whole).values()]


def test_the_bench_archive_tables_take_the_fast_path():
    text = phh.dumps([dict(HAND, finishing_stacks=[1064, 932, 1004])])
    (section,) = phh.iter_sections([text])
    assert same_as_tomllib(section.text)


# Pieces of TOML, plain and not: random texts are lines of them.
KEYS = ["variant", "antes", "a", "A-b_9", "1", "true", '"quoted"', "'lit'", "a.b", " a", "a "]
VALUES = [
    '"F7S"', '""', '"a b # c"', '"x = y"', '"tab\there"', '"\\n"', '"\\u0000"', "'literal'",
    '"""multi"""', "'''lit'''", '"é"', '"\x7f"', '"\x01"', '"a', 'a"',
    "0", "1", "-1", "-0", "+1", "01", "1_000", "12345678901234567890", "1.5", "1e3", "inf",
    "nan", "9" * 5000, "0x1F", "0o7", "0b1", "true", "false", "True", "1979-05-27", "07:32:00",
    "[]", "[ ]", "[1]", "[1,]", "[1, 2]", "[1 , 2 ,]", "[,]", "[1,,2]", '["a", 1, true]',
    '["a,b", "c]"]', "[[1], 2]", "[1, [2]]", "{a = 1}", "{}", "[\t1\t]", "[1 2]", "",
]  # fmt: skip
LINES = st.one_of(
    st.tuples(st.sampled_from(KEYS), st.sampled_from([" = ", "=", " =", "\t=\t", " == "]),
              st.sampled_from(VALUES), st.sampled_from(["", " ", "\t", " # c", "#"]))
    .map("".join),
    st.sampled_from(["", " ", "# a comment", "[1]", "[ 1 ]", "[2]", "[1._options]", "[[1]]",
                     '["three"]', "[a]  ", "[a] # c", "[]", "[1", "\ufeff", "x", "\u00a0a = 1"]),
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(LINES, max_size=8), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_random_texts_read_the_same(lines, newline, last):
    same_as_tomllib(newline.join(lines) + (newline if last else ""))


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 6))
def test_texts_edited_at_random_read_the_same(seed, edits):
    rng = random.Random(seed)
    text = phh.dumps([dict(HAND, hand=rng.randint(1, 9))])
    alphabet = " \t\n\r\"'\\[]{}=,.#-+_01289aeftx\x00\x7fé"
    for _ in range(edits):
        k = rng.randrange(len(text) + 1)
        how = rng.randrange(3)
        if how == 0:
            text = text[:k] + rng.choice(alphabet) + text[k:]
        elif how == 1:
            text = text[:k] + text[k + 1 :]
        else:
            text = text[:k] + rng.choice(alphabet) + text[k + 1 :]
    same_as_tomllib(text)


PLAIN_LINES = st.tuples(
    st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True),
    st.sampled_from([" = ", "=", "\t= "]),
    st.sampled_from([v for v in VALUES if phh._toml_plain(f"a = {v}") is not None]),
    st.sampled_from(["", " ", "\t"]),
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["", "[1]\n", "[a-b]\n", " [2] \n", "\n[3]\n"]),
    st.lists(PLAIN_LINES, max_size=8),
    st.one_of(st.none(), LINES),
    st.integers(0, 8),
)
def test_plain_texts_with_at_most_one_odd_line_read_the_same(header, lines, odd, at):
    if odd is not None:
        lines.insert(min(at, len(lines)), odd)
    same_as_tomllib(header + "\n".join(lines) + "\n")
