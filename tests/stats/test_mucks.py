"""A muck at the showdown, through recording, settlement and the statistics: the players who
reached the showdown count it (showdowns, WTSD, W$SD, seventh street seen) and the per-hand
rows list a mucker as at the showdown, not as folded."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.support.definitions import stats_for
from tests.support.hands import FIVE
from tracker.hands.models import HandSeat
from tracker.hands.services.recording import hand_record
from tracker.stats.selectors import settled_seats, tournament_hand_rows

pytestmark = pytest.mark.django_db

NAMES = ("Jo", "Sam", "Alex", "Kim", "Lee")


def test_mucks_count_as_showdowns_in_the_statistics(django_capture_on_commit_callbacks):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, names=NAMES)
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_record(
            tournament=tournament,
            by=admin,
            entry_mode="full",
            entry={"actions": FIVE},
            variant="seven_card_stud",
        )
    hand.refresh_from_db()
    # p1 .. p5 are positions from the dealer's left: p1 folds on sixth, p2 shows, p3 mucks.
    jo, sam, alex, p4, p5 = hand.positions
    rows = {s.player_id: s for s in HandSeat.objects.filter(hand=hand)}
    assert rows[alex].folded_street is None  # a muck is no fold
    assert rows[jo].folded_street == 6
    assert (rows[sam].facts["sd"], rows[alex].facts["sd"], rows[jo].facts["sd"]) == (1, 1, 0)
    assert rows[sam].won > 0 and rows[alex].won == 0

    def stats(pid):
        return stats_for(settled_seats(players=[pid], tournament=tournament))

    sam_stats, alex_stats, jo_stats = stats(sam), stats(alex), stats(jo)
    assert (sam_stats.showdowns, sam_stats.wtsd_pct, sam_stats.wsd_pct) == (1, 100.0, 100.0)
    assert (alex_stats.showdowns, alex_stats.wtsd_pct, alex_stats.wsd_pct) == (1, 100.0, 0.0)
    assert sam_stats.saw_pct[7] == alex_stats.saw_pct[7] == 100.0
    assert (jo_stats.showdowns, jo_stats.saw_pct[6], jo_stats.saw_pct[7]) == (0, 100.0, 0.0)

    by_player = {r["player_id"]: r for r in tournament_hand_rows(tournament)}
    assert (by_player[alex]["folded_street"], by_player[alex]["showdown"]) == (None, 1)
    assert (by_player[jo]["folded_street"], by_player[jo]["showdown"]) == (6, 0)
