"""Cards: parsing every accepted spelling, one canonical output form, clear refusals."""

import pytest

from tracker.engine.cards import (
    _EXACT,
    DECK,
    card_of_text,
    card_symbol,
    format_card,
    is_unknown,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from tracker.engine.errors import DomainError


@pytest.mark.parametrize(
    "token, canonical",
    [
        ("K♦", "Kd"),
        ("Kd", "Kd"),
        ("KD", "Kd"),
        ("kd", "Kd"),
        ("10♣", "Tc"),
        ("Tc", "Tc"),
        ("tC", "Tc"),
        ("10c", "Tc"),
        ("10C", "Tc"),
        (" As ", "As"),
        ("A♠", "As"),
        ("2♥", "2h"),
        ("9\u2662", "9d"),  # white diamond
        ("Q\u2660\ufe0f", "Qs"),  # emoji variation selector
    ],
)
def test_parse_spellings(token, canonical):
    assert format_card(parse_card(token)) == canonical


def test_every_card_round_trips_in_both_forms():
    for c in DECK:
        assert parse_card(format_card(c)) == c
        assert parse_card(card_symbol(c)) == c
    assert len({format_card(c) for c in DECK}) == 52


def test_symbol_form_and_encoding():
    kd = parse_card("Kd")
    assert card_symbol(kd) == "K♦"
    assert card_symbol(parse_card("Tc")) == "10♣"
    assert (rank_of(kd), suit_of(kd)) == (13, 1)
    assert make_card(1, 3) == make_card(14, 3) == parse_card("As")


def test_int_order_is_rank_then_suit_clubs_lowest():
    order = [parse_card(t) for t in ("2c", "2d", "2h", "2s", "3c", "As")]
    assert order == sorted(order)
    assert order[0] == 0 and order[-1] == 51


@pytest.mark.parametrize("token", ["Zz", "", "1c", "10", "K", "Kx", "11c", "KdK", None, 13, ["Kd"]])
def test_not_a_card(token):
    with pytest.raises(DomainError) as exc:
        parse_card(token, "players[1].down[0]")
    err = exc.value
    assert err.code == "invalid_card"
    assert list(err.fields) == ["players[1].down[0]"]
    assert "not a card" in err.message


def test_zz_message_is_exact():
    with pytest.raises(DomainError) as exc:
        parse_card("Zz", "players[1].down[0]")
    assert exc.value.as_dict() == {
        "code": "invalid_card",
        "message": "'Zz' is not a card",
        "fields": {"players[1].down[0]": ["'Zz' is not a card"]},
    }


def test_unknown_token():
    assert is_unknown("??") and is_unknown(" ?? ")
    assert not is_unknown("Kd") and not is_unknown(None) and not is_unknown("?")
    with pytest.raises(DomainError) as exc:
        parse_card("??", "players[0].down[0]")
    assert "unknown card" in exc.value.message
    assert "players[0].down[0]" in exc.value.fields


def test_parse_cards_names_the_index():
    assert parse_cards(["Kd", "10♣"], "up") == [parse_card("Kd"), parse_card("Tc")]
    with pytest.raises(DomainError) as exc:
        parse_cards(["Kd", "Qq"], "players[2].up")
    assert list(exc.value.fields) == ["players[2].up[1]"]
    with pytest.raises(DomainError):
        parse_cards("KdQd", "up")


def test_the_spellings_looked_up_at_once_parse_the_same():
    assert all(parse_card(text) == card for text, card in _EXACT.items())
    assert {card_of_text(format_card(c)) for c in DECK} == set(DECK)
    for token in (" As", "as", "10c", "??", "Zz", "", None, 7, ["As"]):
        assert card_of_text(token) is None or card_of_text(token) == parse_card(token)
