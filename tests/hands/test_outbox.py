"""The live logger's outbox: a phone's changes, each with a client id and the version it was
made on, applied exactly once; another screen's moves are a conflict settled by a choice."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.factories import add_member, make_tournament
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.events import EVENT_TYPES, event_from_json
from tracker.engine.screen import phone_next_hand, phone_replay
from tracker.games.services import league_game_create, league_game_update
from tracker.hands.models import DraftChange, DraftHand, DraftStatus, Hand
from tracker.hands.selectors.live import draft_night, draft_state
from tracker.hands.services.live import draft_start, draft_step
from tracker.hands.services.outbox import OutboxChange, outbox_apply, outbox_resolve
from tracker.leagues.services import player_create
from tracker.money.services import entry_record, night_create

pytestmark = pytest.mark.django_db


def deal(seat, card):
    return {"event": "deal", "seat": seat, "cards": [None, None, card]}


def phone_hand(draft, *, start=None):
    """A whole hand as a phone logs it from version 0: third street (2c brings in), the
    bring-in, a completion, two folds, then "record" (``start``: of a hand the phone
    started itself, named by its start's client id)."""
    changes = [
        ("events", [deal(0, "2c"), deal(1, "Kd"), deal(2, "Qh")]),
        ("events", [{"event": "bring_in", "seat": 0}]),
        ("events", [{"event": "complete", "seat": 1, "to": 20}]),
        ("events", [{"event": "fold", "seat": 2}]),
        ("events", [{"event": "fold", "seat": 0}]),
        ("finish", []),
    ]
    return [
        OutboxChange(
            client_id=uuid.uuid4(),
            draft=None if start else draft.pk,
            base=k,
            op=op,
            events=tuple(ev),
            start=start,
        )  # fmt: skip
        for k, (op, ev) in enumerate(changes)
    ]


def phone_setup(draft):
    state = draft_state(draft)
    return {
        "variant": draft.variant, "options": draft.options, "level": draft.level,
        "stakes": {"ante": draft.ante, "bring_in": draft.bring_in,
                   "small_bet": draft.small_bet, "big_bet": draft.big_bet},
        "stacks": draft.starting_stacks, "names": state.names,
        "positions": draft.positions, "number": draft.number,
    }  # fmt: skip


def phone_next(draft, outbox, *, night=None, chosen=None, **changed):
    """The start of the next hand as the phone's engine deals it, offline, once the
    ``outbox`` of ``draft``'s hand is logged there (nothing of it sent yet): from the
    ``night`` the page carries (the draft's now unless given), with the game ``chosen``."""
    setup = phone_setup(draft)
    waiting = [{"op": c.op, "events": list(c.events)} for c in outbox]
    steps = json.loads(phone_replay(json.dumps(setup), "[]", json.dumps(waiting)))["steps"]
    night = draft_night(draft) if night is None else night
    answer = json.loads(phone_next_hand(json.dumps(night), json.dumps(setup), json.dumps(steps),
                                        json.dumps(chosen)))  # fmt: skip
    hand = {**answer["setup"], **changed}
    return OutboxChange(client_id=uuid.uuid4(), draft=None, base=0, op="start", hand=hand)


def two_hands(draft):
    """Hand 1 and the next, both logged on the phone offline: hand 2 started there."""
    first = phone_hand(draft)
    start = phone_next(draft, first)
    return first, start, phone_hand(draft, start=start.client_id)


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


def test_the_next_hand_started_offline_sent_twice_and_shuffled_records_once(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    first, start, second = two_hands(draft)
    assert start.hand["number"] == 2 and start.hand["positions"] != draft.positions
    outbox = [*first, start, *second]
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox[::-1])
    assert sorted(statuses(result)) == ["applied"] * 13
    hands = Hand.objects.filter(tournament=tournament).order_by("number")
    assert [h.number for h in hands] == [1, 2]
    later = hands[1].draft
    assert later.positions == start.hand["positions"]
    assert later.starting_stacks == start.hand["stacks"]  # hand 1's result, by the phone
    started = next(r for r in result.results if r.client_id == start.client_id)
    assert started.draft == later.pk and started.version == 0
    again = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(again) == ["already"] * 13
    assert Hand.objects.filter(tournament=tournament).count() == 2
    assert DraftChange.objects.filter(draft=later).count() == 7  # the start, six changes


def test_a_start_the_server_does_not_deal_is_refused_with_what_differs(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    first = phone_hand(draft)
    dealt = phone_next(draft, first).hand["stacks"]  # Cat, Ann, Bob: 1018/996/986
    start = phone_next(draft, first, stacks=[dealt[0] - 500, *dealt[1:]])
    second = phone_hand(draft, start=start.client_id)
    result = outbox_apply(tournament=tournament, by=admin, changes=[*first, start, *second])
    assert statuses(result) == ["applied"] * 6 + ["refused"] * 7
    refused = result.results[6].error
    assert refused.code == "start_refused" and refused.fields == {"hand": [refused.message]}
    assert refused.message.endswith("; reload to continue")
    # Each stack that differs, the server's and the phone's, and no more.
    assert "does not hold: Cat's stack is 1,018 here, 518 on the phone; reload" in refused.message
    assert "Ann's" not in refused.message and "was recorded" not in refused.message
    assert {r.error.code for r in result.results[7:]} == {"start_refused"}
    assert Hand.objects.count() == 1 and DraftHand.objects.count() == 1


def test_a_start_waits_while_the_hand_before_it_waits(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    first, start, second = two_hands(draft)
    result = outbox_apply(tournament=tournament, by=admin, changes=[*first[1:], start, *second])
    assert statuses(result) == ["waiting"] * 12
    assert DraftHand.objects.count() == 1


def test_a_start_of_a_number_the_server_has_is_the_same_hand_and_a_conflict(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    first, start, second = two_hands(draft)
    # The other phone, online: records hand 1, starts hand 2 and logs its third street.
    outbox_apply(tournament=tournament, by=admin, changes=phone_hand(draft))
    other = draft_start(tournament=tournament, by=admin)
    third = [deal(0, "3c"), deal(1, "Kd"), deal(2, "Qh")]
    events = [event_from_json(e, n=3) for e in third]
    draft_step(draft=other, by=admin, version=0, events=events)
    outbox = [*first, start, *second]
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    # Hand 1 was recorded on the other screen: a conflict; hand 2 waits for it.
    assert statuses(result) == ["conflict"] * 6 + ["waiting"] * 7
    (hand1,) = result.conflicts
    assert hand1.draft.status == DraftStatus.RECORDED
    outbox_resolve(
        tournament=tournament, by=admin, draft=draft.pk, keep="theirs", server_version=6,
        changes=first,
    )  # fmt: skip
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(result) == ["dropped"] * 6 + ["applied"] + ["conflict"] * 6
    (hand2,) = result.conflicts
    assert hand2.draft.pk == other.pk and hand2.server_version == 1 and hand2.base == 0
    kept = outbox_resolve(
        tournament=tournament, by=admin, draft=other.pk, keep="mine", server_version=1,
        changes=second,
    )  # fmt: skip
    assert statuses(kept) == ["applied"] * 6
    assert "2c" in Hand.objects.get(number=2).entry["actions"][0]  # the phone's cards
    assert Hand.objects.count() == 2


def test_a_start_of_a_hand_the_night_is_not_at_is_refused(night):
    _, admin, tournament, _ = night
    draft = draft_start(tournament=tournament, by=admin)
    first, start, second = two_hands(draft)
    outbox_apply(tournament=tournament, by=admin, changes=first[:1])
    result = outbox_apply(tournament=tournament, by=admin, changes=[start, *second])
    assert statuses(result) == ["refused"] * 7
    assert "hand 1 is open on another screen" in result.results[0].error.message


def test_a_dealers_choice_hand_started_offline_is_the_game_chosen_there(night):
    league, admin, _, players = night
    tournament = make_tournament(league=league, by=admin, names=("Dee", "Eve", "Fay"))[0]
    draft = draft_start(tournament=tournament, by=admin, variant="seven_card_stud")
    first = phone_hand(draft)
    games = draft_night(draft)["games"]
    assert [g["variant"] for g in games] == [
        "seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold",
    ]  # fmt: skip
    assert games[3]["announcements"].endswith("buy version: contributed; buy price: one big bet")
    chosen = {"variant": "low_hold", "options": {"buy_version": "buderick"}}
    start = phone_next(draft, first, chosen=chosen)
    assert start.hand["variant"] == "low_hold" and start.hand["title"] == "Hand 2 · Low Hold"
    assert start.hand["options"]["buy_version"] == "buderick"
    result = outbox_apply(tournament=tournament, by=admin, changes=[*first, start])
    assert statuses(result) == ["applied"] * 7
    later = DraftHand.objects.get(tournament=tournament, number=2)
    assert later.variant == "low_hold" and later.options == start.hand["options"]


def test_the_phones_engine_offers_only_the_nights_games(night):
    league, admin, _, _ = night
    tournament = make_tournament(league=league, by=admin, names=("Dee", "Eve", "Fay"))[0]
    draft = draft_start(tournament=tournament, by=admin, variant="seven_card_stud")
    setup = json.dumps(phone_setup(draft))
    waiting = [{"op": c.op, "events": list(c.events)} for c in phone_hand(draft)]
    steps = json.loads(phone_replay(setup, "[]", json.dumps(waiting)))["steps"]
    night_json = json.dumps(draft_night(draft))
    for chosen, field in (
        ({"variant": "razz"}, "variant"),
        ({"variant": "low_hold", "options": {"buy_price": -5}}, "options.buy_price"),
    ):
        answer = json.loads(phone_next_hand(night_json, setup, json.dumps(steps),
                                            json.dumps(chosen)))  # fmt: skip
        assert "setup" not in answer and answer["error"]["field"] == field
    same = json.loads(phone_next_hand(night_json, setup, json.dumps(steps)))["setup"]
    assert same["variant"] == "seven_card_stud"  # none chosen: the same game again


def test_a_start_with_a_game_the_night_does_not_offer_is_refused_with_the_field(night):
    league, admin, _, _ = night
    tournament = make_tournament(league=league, by=admin, names=("Dee", "Eve", "Fay"))[0]
    draft = draft_start(tournament=tournament, by=admin, variant="seven_card_stud")
    first = phone_hand(draft)
    for hand, field in (
        ({"variant": "razz"}, "hand.variant"),
        ({"variant": "low_hold", "options": {"buy_price": -5}}, "hand.options.buy_price"),
    ):
        start = phone_next(draft, first, **hand)
        result = outbox_apply(tournament=tournament, by=admin, changes=[*first, start])
        refused = result.results[-1]
        assert refused.status == "refused" and refused.error.code == "start_refused"
        assert list(refused.error.fields) == [field] and "does not offer" in refused.error.message
    assert DraftHand.objects.filter(tournament=tournament).count() == 1


def test_a_rebuy_recorded_while_the_phone_was_offline_is_named_and_a_fresh_night_starts_right(
    night, django_capture_on_commit_callbacks
):
    league, admin, _, _ = night
    ids = [player_create(league=league, name=n, by=admin).pk for n in ("Dee", "Eve", "Fay")]
    tournament = night_create(
        league=league, by=admin, name="Rebuy night", player_ids=ids,
        default_variant="seven_card_stud",
        money={"buy_in": 2000, "rebuy_price": 2000, "rebuy_chips": 1000,
               "rebuy_until_hand": 6, "rebuy_max": 2, "rebuy_when": "any"},
    )  # fmt: skip
    draft = draft_start(tournament=tournament, by=admin)
    offline = draft_night(draft)  # the night as the phone's page carries it
    first = phone_hand(draft)
    start = phone_next(draft, first, night=offline)
    with django_capture_on_commit_callbacks(execute=True):
        outbox_apply(tournament=tournament, by=admin, changes=first)  # hand 1, recorded
    dee = draft.positions[0]
    names = dict(zip(ids, ("Dee", "Eve", "Fay"), strict=True))
    entry_record(tournament=tournament, player_id=dee, kind="rebuy", by=admin)  # elsewhere
    result = outbox_apply(tournament=tournament, by=admin, changes=[start])
    refused = result.results[0].error
    seat = start.hand["positions"].index(dee)
    phone = start.hand["stacks"][seat]
    assert refused.message.endswith(
        f"{names[dee]}'s stack is {phone + 1000:,} here, {phone:,} on the phone: "
        "a rebuy was recorded; reload to continue"
    )
    assert not DraftHand.objects.filter(tournament=tournament, number=2).exists()
    # Back online before starting: the night as the server has it now deals it right.
    fresh = draft_night(DraftHand.objects.get(pk=draft.pk))
    assert fresh["bought"] == {str(dee): 1000}
    again = phone_next(draft, first, night=fresh)
    assert again.hand["stacks"][seat] == phone + 1000
    result = outbox_apply(tournament=tournament, by=admin, changes=[again])
    assert statuses(result) == ["applied"]
    later = DraftHand.objects.get(tournament=tournament, number=2)
    assert later.starting_stacks == again.hand["stacks"]


def house_night_hand(night):
    """A dealer's choice night of three with the league's Follow the Queen game (version 1),
    its hand 1 of seven-card stud logged on the phone offline (nothing sent yet)."""
    league, admin, _, _ = night
    tournament = make_tournament(league=league, by=admin, names=("Dee", "Eve", "Fay"))[0]
    queens = league_game_create(league=league, by=admin, name="Queens", preset="follow_the_queen")
    draft = draft_start(tournament=tournament, by=admin, variant="seven_card_stud")
    return admin, tournament, queens, draft, phone_hand(draft)


def test_a_house_game_hand_started_offline_sent_twice_records_once(night):
    admin, tournament, queens, draft, first = house_night_hand(night)
    games = draft_night(draft)["games"]
    house = [g for g in games if g.get("game")]
    assert [(g["variant"], g["game"], g["name"], g["version"]) for g in house] == [
        ("house", queens.slug, "Queens", 1)
    ]
    start = phone_next(draft, first, chosen={"game": queens.slug})
    assert start.hand["variant"] == "house" and start.hand["options"] == {}
    assert (start.hand["game_slug"], start.hand["game_version"]) == (queens.slug, 1)
    assert start.hand["title"] == "Hand 2 · Queens"
    assert start.hand["game"] == house[0]["definition"]  # what the phone's engine deals
    outbox = [*first, start, *phone_hand(draft, start=start.client_id)]
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(result) == ["applied"] * 13
    again = outbox_apply(tournament=tournament, by=admin, changes=outbox[::-1])
    assert statuses(again) == ["already"] * 13
    hands = Hand.objects.filter(tournament=tournament).order_by("number")
    assert [(h.number, h.variant) for h in hands] == [(1, "seven_card_stud"), (2, "house")]
    assert hands[1].game_version.game == queens and hands[1].game_version.number == 1
    assert DraftHand.objects.filter(tournament=tournament).count() == 2


def test_a_house_game_hand_dealt_offline_under_an_older_version_keeps_it(night):
    admin, tournament, queens, draft, first = house_night_hand(night)
    start = phone_next(draft, first, chosen={"game": queens.slug})  # the phone holds version 1
    changed = {**queens.versions.get(number=1).definition, "max_players": 6}
    league_game_update(game=queens, by=admin, definition=changed)  # version 2, on the server
    assert queens.versions.count() == 2
    outbox = [*first, start, *phone_hand(draft, start=start.client_id)]
    result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
    assert statuses(result) == ["applied"] * 13
    later = DraftHand.objects.get(tournament=tournament, number=2)
    assert later.game_version.number == 1
    assert later.hand.game_version.number == 1  # recorded under the version it was dealt
    # The phone's next hand after it: the same game, at the version the night holds now.
    night_now = draft_night(later)
    assert [g["version"] for g in night_now["games"] if g.get("game")] == [2]


def test_a_house_game_start_the_night_does_not_offer_is_refused_naming_the_field(night):
    admin, tournament, queens, draft, first = house_night_hand(night)
    for hand, field in (
        ({"game_slug": "no-such-game"}, "hand.game"),
        ({"game_version": 9}, "hand.game_version"),
    ):
        start = phone_next(draft, first, chosen={"game": queens.slug}, **hand)
        result = outbox_apply(tournament=tournament, by=admin, changes=[*first, start])
        refused = result.results[-1]
        assert refused.status == "refused" and refused.error.code == "start_refused"
        assert list(refused.error.fields) == [field] and "does not offer" in refused.error.message
    assert DraftHand.objects.filter(tournament=tournament).count() == 1
    assert Hand.objects.filter(tournament=tournament).count() == 1
    # The phone's engine refuses a house game the night does not offer, naming ``game``.
    setup = json.dumps(phone_setup(draft))
    waiting = [{"op": c.op, "events": list(c.events)} for c in first]
    steps = json.loads(phone_replay(setup, "[]", json.dumps(waiting)))["steps"]
    answer = json.loads(phone_next_hand(json.dumps(draft_night(draft)), setup,
                                        json.dumps(steps), json.dumps({"game": "nope"})))  # fmt: skip
    assert answer["error"]["field"] == "game"
