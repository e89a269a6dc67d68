import pytest

from tracker.demo.services import DEMO_SLUG, demo_seed
from tracker.hands.models import Hand, HandStatus
from tracker.leagues.models import League
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
    count = hands.count()
    with django_capture_on_commit_callbacks(execute=True):
        report = demo_seed()
    assert "nothing to do" in report[-1]
    assert Hand.objects.count() == count


def test_the_readme_lists_every_demo_account_with_its_role():
    import re
    from pathlib import Path

    from tracker.core.permissions import ROLE_CAPABILITIES
    from tracker.demo.services import DEMO_USERS

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    listed = dict(re.findall(r"^\| `([a-z]+)` \| (\w+) \|", readme, re.MULTILINE))
    assert listed == {name: str(role) for name, role in DEMO_USERS.items()}
    # The role's description names reading the audit log exactly when the role may.
    for name, role in DEMO_USERS.items():
        line = next(x for x in readme.splitlines() if x.startswith(f"| `{name}` |"))
        assert ("audit log" in line) == ("view_audit" in ROLE_CAPABILITIES[role]), name
