"""The live logger's outbox: a phone's changes, each with a client id and the version it was
made on, applied exactly once; another screen's moves are a conflict settled by a choice."""

from __future__ import annotations

import uuid

import pytest

from tests.factories import add_member
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.events import EVENT_TYPES
from tracker.hands.models import DraftChange, DraftStatus, Hand
from tracker.hands.selectors.live import draft_state
from tracker.hands.services.live import draft_start, draft_step
from tracker.hands.services.outbox import OutboxChange, outbox_apply, outbox_resolve

pytestmark = pytest.mark.django_db


def deal(seat, card):
    return {"event": "deal", "seat": seat, "cards": [None, None, card]}


def phone_hand(draft):
    """A whole hand as a phone logs it from version 0: third street (2c brings in), the
    bring-in, a completion, two folds, then "record"."""
    changes = [
        ("events", [deal(0, "2c"), deal(1, "Kd"), deal(2, "Qh")]),
        ("events", [{"event": "bring_in", "seat": 0}]),
        ("events", [{"event": "complete", "seat": 1, "to": 20}]),
        ("events", [{"event": "fold", "seat": 2}]),
        ("events", [{"event": "fold", "seat": 0}]),
        ("finish", []),
    ]
    return [
        OutboxChange(client_id=uuid.uuid4(), draft=draft.pk, base=k, op=op, events=tuple(ev))
        for k, (op, ev) in enumerate(changes)
    ]


def statuses(result):
    return [r.status for r in result.results]


def test_an_outbox_sent_twice_records_once(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    first = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(first) == ["applied"] * 6
    hand_id = first.results[-1].hand
    assert hand_id is not None
    again = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(again) == ["already"] * 6
    assert again.results[-1].hand == hand_id  # the re-sent "record" names the same hand
    assert Hand.objects.filter(tournament=tournament).count() == 1
    draft.refresh_from_db()
    assert draft.status == DraftStatus.RECORDED and draft.version == 6
    assert DraftChange.objects.filter(draft=draft).count() == 6


def test_an_outbox_sent_out_of_order_records_once(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    # In one batch, shuffled: applied in the order of their versions.
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox[::-1])
    assert sorted(statuses(result)) == ["applied"] * 6
    assert Hand.objects.filter(tournament=tournament).count() == 1


def test_a_later_change_sent_first_waits_for_the_earlier_one(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    early = outbox_apply(tournament=tournament, by=admin, changes=outbox[2:4])
    assert statuses(early) == ["waiting", "waiting"]
    draft.refresh_from_db()
    assert draft.version == 0 and draft.steps == []
    partial = outbox_apply(tournament=tournament, by=admin, changes=outbox[:2])
    assert statuses(partial) == ["applied", "applied"]
    rest = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(rest) == ["already", "already"] + ["applied"] * 4
    assert Hand.objects.filter(tournament=tournament).count() == 1
    assert draft_state(Hand.objects.get().draft).next.over


def test_another_screen_moved_the_draft_a_conflict_nothing_applied(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    outbox_apply(tournament=tournament, by=admin, changes=outbox[:2])  # version 2
    draft.refresh_from_db()
    # The other phone: Bob folds (not what this phone logged).
    draft_step(draft=draft, by=admin, version=2, events=[EVENT_TYPES["fold"](1)])
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox[2:])
    assert statuses(result) == ["conflict"] * 4
    (conflict,) = result.conflicts
    assert conflict.server_version == 3 and conflict.base == 2
    assert [c.client_id for c in conflict.pending] == [c.client_id for c in outbox[2:]]
    draft.refresh_from_db()
    assert draft.version == 3 and draft.steps[-1] == {"event": "fold", "seat": 1}
    assert not Hand.objects.exists()


def theirs_first(admin, tournament):
    """This phone's hand sent up to version 2, then the other phone's fold of Bob recorded
    (version 3): the draft and this phone's whole outbox."""
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    outbox_apply(tournament=tournament, by=admin, changes=outbox[:2])
    draft_step(draft=draft, by=admin, version=2, events=[EVENT_TYPES["fold"](1)])
    return draft, outbox


def test_keep_theirs_drops_mine_and_a_resend_stays_dropped(night):
    _, admin, tournament, _ = night
    draft, outbox = theirs_first(admin, tournament)
    mine = outbox[2:]
    result = outbox_resolve(
        tournament=tournament, by=admin, draft=draft.pk, keep="theirs", server_version=3,
        changes=mine,
    )  # fmt: skip
    assert statuses(result) == ["dropped"] * 4
    again = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(again) == ["already", "already"] + ["dropped"] * 4
    draft.refresh_from_db()
    assert draft.version == 3 and not Hand.objects.exists()


def test_keep_mine_replaces_theirs_and_applies_mine_once(night):
    _, admin, tournament, _ = night
    draft, outbox = theirs_first(admin, tournament)
    result = outbox_resolve(
        tournament=tournament, by=admin, draft=draft.pk, keep="mine", server_version=3,
        changes=outbox[2:],
    )  # fmt: skip
    assert statuses(result) == ["applied"] * 4
    hand = Hand.objects.get()
    assert hand.entry["actions"][-4:] == ["p1 pb", "p2 cbr 20", "p3 f", "p1 f"]
    assert DraftChange.objects.filter(draft=draft, op="replace").count() == 1
    again = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(again) == ["already"] * 6
    assert Hand.objects.count() == 1


def test_a_choice_offered_for_an_older_version_is_refused(night):
    _, admin, tournament, _ = night
    draft, outbox = theirs_first(admin, tournament)
    with pytest.raises(Conflict) as err:
        outbox_resolve(
            tournament=tournament, by=admin, draft=draft.pk, keep="mine", server_version=2,
            changes=outbox[2:],
        )  # fmt: skip
    assert err.value.code == "stale_draft"
    assert not DraftChange.objects.filter(client_id=outbox[2].client_id).exists()


def test_keep_mine_on_a_hand_recorded_elsewhere_is_refused(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    other = phone_hand(draft)  # the other phone logs the same hand and records it
    outbox_apply(tournament=tournament, by=admin, changes=other)
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(result) == ["conflict"] * 6
    with pytest.raises(Conflict) as err:
        outbox_resolve(
            tournament=tournament, by=admin, draft=draft.pk, keep="mine", server_version=6,
            changes=outbox,
        )  # fmt: skip
    assert err.value.code == "draft_closed"
    assert Hand.objects.count() == 1


def test_a_refused_change_names_its_rule_and_the_later_ones_wait(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    outbox = phone_hand(draft)
    wrong = OutboxChange(
        client_id=uuid.uuid4(), draft=draft.pk, base=1, op="events",
        events=({"event": "call", "seat": 1},),
    )  # fmt: skip
    result = outbox_apply(tournament=tournament, by=admin, changes=[outbox[0], wrong, *outbox[2:]])
    assert statuses(result) == ["applied", "refused"] + ["waiting"] * 4
    assert result.results[1].error.code == "out_of_turn"
    assert not DraftChange.objects.filter(client_id=wrong.client_id).exists()
    draft.refresh_from_db()
    assert draft.version == 1


def test_only_scorekeepers_send_an_outbox(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    member = add_member(tournament.league, "jo", "member")
    with pytest.raises(PermissionDenied):
        outbox_apply(tournament=tournament, by=member, changes=phone_hand(draft))
    assert not DraftChange.objects.exists()
