"""The replayer marks the wild cards as they stood on each street: in Follow the Queen the
wild rank moves as up cards fall; the end of the hand shows the engine's reading."""

from __future__ import annotations

import pytest

from tests.support.live_house import house_table, record_live
from web.presenters.hands import hand_replay

pytestmark = pytest.mark.django_db


def _wild(street):
    return [sorted(c.code for c in seat.cards if c.wild) for seat in street.seats]


def test_follow_the_queen_marks_each_streets_wild_cards(django_capture_on_commit_callbacks):
    league, admin, tournament, players, game = house_table()
    # third street: a queen up, then a seven up: sevens are wild; fourth street: a
    # second queen, then a nine: nines replace sevens
    deals = {0: "Qs 4d 5s Jh".split(), 1: "9d 6c Tc 8c".split()}
    with django_capture_on_commit_callbacks(execute=True):
        hand = record_live(tournament, admin, game, {0: "9h 7d Qd", 1: "2c 3c 7h"}, deals)
    hand.refresh_from_db()
    page = hand_replay(admin, hand.pk)
    by_number = {s.number: s for s in page.streets}
    assert _wild(by_number[3]) == [["7d", "Qd"], ["7h"]]
    assert _wild(by_number[4]) == [["9h", "Qd", "Qs"], ["9d"]]
    end = page.streets[-1]
    reading = hand.engine_reading["showdown"]["players"]
    assert _wild(end) == [sorted(p["wild"]) for p in reading]
    assert _wild(by_number[7]) == _wild(end)  # nothing fell after the last nine
    # a wild card says so in words on the street shown, not only by colour
    assert "wild" in by_number[3].seats[1].cards[2].flags
    # the share sentences name the winners from the engine's winner lists
    seats = {s.player_id: s.player.name for s in tournament.seats.select_related("player")}
    names = [seats[pid] for pid in hand.positions]
    shares = hand.engine_reading["showdown"]["shares"]
    assert len(page.shares) == len(shares)
    for sentence, share in zip(page.shares, shares, strict=True):
        who = " and ".join(names[w] for w in share["winners"])
        assert (
            sentence
            == who + share["text"][len(share["text"].split(" wins")[0].split(" split")[0]) :]
        )
        assert "Seat" not in sentence and "seat" not in sentence
