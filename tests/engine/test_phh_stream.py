"""Reading a .phhs text a table at a time: the same hands as reading it whole, wherever the
pieces are cut, with the line of each table; faults name the hand and the file's line."""

from __future__ import annotations

import pytest

from tracker.engine import phh

TEXT = """# a night
[1]
variant = "F7S"
antes = [1, 1]

[1._options]
game = "x"

[2] # the second hand
variant = "F7S"
actions = [
  "p1 f",
]
["three"]
variant = "F7S"
"""


@pytest.mark.parametrize("cut", [1, 2, 7, 50, 1000])
def test_the_stream_gives_the_hands_of_the_whole_text_wherever_it_is_cut(cut):
    pieces = [TEXT[k : k + cut] for k in range(0, len(TEXT), cut)]
    streamed = list(phh.stream_hands(pieces, source="n.phhs"))
    assert [(h.index, h.label, h.line) for h in streamed] == [
        (0, 1, 2),
        (1, 2, 9),
        (2, "three", 14),
    ]
    assert [(h.label, h.hand) for h in streamed] == phh.iter_hands(TEXT)


def test_skip_passes_over_the_first_tables():
    assert [h.label for h in phh.stream_hands([TEXT], skip=2)] == ["three"]


def test_a_phh_of_top_level_fields_is_one_section():
    text = 'variant = "F7S"\nantes = 1\n'
    (section,) = phh.iter_sections([text])
    assert (section.key, section.line, section.text) == (None, 1, text)
    assert [h.hand["antes"] for h in phh.stream_hands([text])] == [1]


@pytest.mark.parametrize(
    ("text", "words", "hand", "line"),
    [
        ("[1]\nantes = 1\n[2]\nantes = \n", "Invalid value (at line 4, column 9)", 2, 4),
        ("[1]\nantes = 1\n[2]\n[1]\n", "table [1] appears twice (line 4)", None, None),
        ("", "the text is empty", None, None),
        ("[1]\nantes = 1\n[1]\n", "Cannot declare", 1, 3),
    ],
)
def test_faults_name_the_hand_and_the_line(text, words, hand, line):
    with pytest.raises(phh.PHHError) as info:
        list(phh.stream_hands([text], source="n.phhs"))
    assert words in info.value.message
    assert (info.value.hand, info.value.line) == (hand, line)


def test_a_long_run_of_numbered_tables_keeps_no_set_of_labels():
    text = "".join(f"[{k}]\nantes = {k}\n" for k in range(1, 2001))
    hands = list(phh.stream_hands([text]))
    assert [h.hand["antes"] for h in hands] == list(range(1, 2001))
