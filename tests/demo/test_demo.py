import datetime as dt

import pytest

from tracker.core.permissions import capabilities
from tracker.demo.services import DEMO_SLUG, DEMO_USERS, demo_seed
from tracker.hands.models import Hand, HandStatus
from tracker.leagues.models import League
from tracker.leagues.selectors import league_results, league_season, season_nights
from tracker.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_demo_seed_records_a_real_league_once(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        demo_seed()
    league = League.objects.get(slug=DEMO_SLUG)
    assert Tournament.objects.filter(league=league).count() == 2
    hands = Hand.objects.filter(tournament__league=league)
    assert set(hands.values_list("variant", flat=True)) == {
        "seven_card_stud",
        "kings_and_little_ones",
        "low_hole",
        "low_hold",
    }
    statuses = set(hands.values_list("status", flat=True))
    assert HandStatus.DISPUTED in statuses and HandStatus.VERIFIED in statuses
    assert HandStatus.RECORDED not in statuses and HandStatus.INVALID not in statuses
    assert hands.filter(entry_mode="full").exists()
    # the finished night's results are in the league's money ledger, adding up to zero
    from tracker.money.ledger_selectors import league_ledger

    ledger = league_ledger(league)
    assert ledger.balances and sum(ledger.balances.values()) == 0 and ledger.transfers
    count = hands.count()
    with django_capture_on_commit_callbacks(execute=True):
        report = demo_seed()
    assert "nothing to do" in report[-1]
    assert Hand.objects.count() == count


@pytest.mark.parametrize(
    "today, finished_on",
    [
        (dt.date(2026, 12, 1), dt.date(2026, 11, 17)),
        # Early in a season the finished night moves up to its first day, not into the last.
        (dt.date(2027, 1, 5), dt.date(2027, 1, 1)),
    ],
)
def test_the_current_season_has_the_demo_nights_and_standings(
    django_capture_on_commit_callbacks, today, finished_on
):
    with django_capture_on_commit_callbacks(execute=True):
        demo_seed(today=today)
    league = League.objects.get(slug=DEMO_SLUG)
    nights = {t.name: t.date for t in league.tournaments.all()}
    assert nights == {"Kitchen table, three-handed": finished_on, "Big night, five players": today}
    season = league_season(league, today=today)
    [night] = season_nights(league, season)  # the finished one; the other is running
    assert night.counts and night.players == 3, night.reason
    results = league_results(league, season)
    assert sorted(r.place for r in results) == [1, 2, 3]


def test_the_league_page_shows_the_demo_standings(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        demo_seed()
    body = client.get(f"/leagues/{DEMO_SLUG}/").content.decode()
    assert "1 night counted" in body
    standings = body.split('data-testid="league-standings"')[1].split("</table>")[0]
    shown = sorted(n for n in ("Rob", "Sam", "Alex", "Jo", "Kim") if f">{n}</a>" in standings)
    assert shown == ["Jo", "Rob", "Sam"]  # the finished night's three players


def test_one_demo_account_holds_two_roles(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        demo_seed()
    league = League.objects.get(slug=DEMO_SLUG)
    for name, roles in DEMO_USERS.items():
        user = league.memberships.filter(user__username=name).first().user
        assert set(capabilities(user, league).roles) == set(roles), name
    alex = league.memberships.filter(user__username="alex").first().user
    assert capabilities(alex, league).role == "admin and authority"


def test_the_readme_lists_every_demo_account_with_its_role():
    import re
    from pathlib import Path

    from tracker.core.permissions import ROLE_CAPABILITIES
    from tracker.demo.services import DEMO_USERS

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    listed = dict(re.findall(r"^\| `([a-z]+)` \| ([\w ]+?) \|", readme, re.MULTILINE))
    assert listed == {name: " and ".join(roles) for name, roles in DEMO_USERS.items()}
    # The roles' description names reading the audit log exactly when one of them may.
    for name, roles in DEMO_USERS.items():
        line = next(x for x in readme.splitlines() if x.startswith(f"| `{name}` |"))
        may = any("view_audit" in ROLE_CAPABILITIES[role] for role in roles)
        assert ("audit log" in line) == may, name


def test_docstring_examples():
    import doctest

    import tracker.demo.services as services

    result = doctest.testmod(services)
    assert result.attempted > 0 and result.failed == 0


def test_the_demo_nights_have_money(django_capture_on_commit_callbacks):
    from tracker.money.selectors import night_money_summary

    with django_capture_on_commit_callbacks(execute=True):
        demo_seed()
    finished, running = (
        Tournament.objects.filter(league__slug=DEMO_SLUG).order_by("date", "pk").all()
    )
    done = night_money_summary(finished)
    # three buy-ins of $20 and a $5 fee, paid 65/35 to the nearest $5
    assert (done.pool.paid_in, done.pool.fees, done.pool.prize_pool) == (7500, 1500, 6000)
    assert sorted(done.payouts.values(), reverse=True) == [4000, 2000, 0]
    live = night_money_summary(running)
    assert live.rules.payout_template == "50_30_20" and live.rules.addon_on
    assert live.pool.prize_pool == 5 * 2000 and live.place_payouts == [5000, 3000, 2000]
