"""The mails after a night (its results, money and the league table) and about a disputed
pot (opened, ruled): one per player, through the outbox, exactly once however often the
code that asks for them runs; checked in Django's test outbox."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from tests.factories import add_member
from tests.rulings.helpers import disputed_hand, league_with_roles
from tests.schedule.helpers import verified
from tests.support.money import finish, still_in, three_handed
from tracker.leagues.services import player_link
from tracker.mail.models import MailKind, MailOptOut, OutboxMessage, OutboxStatus
from tracker.money.deal_services import deal_record
from tracker.money.results_mail import night_results_mail, night_results_sweep
from tracker.money.selectors import night_money_summary
from tracker.rulings.services import dispute_raise, ruling_make
from tracker.tournaments.services import tournament_finish_if_over, tournament_finished_tell

pytestmark = pytest.mark.django_db


def _link(league, admin, player, username):
    user = verified(add_member(league, username, "member"))
    player_link(league=league, player=player, username=username, by=admin)
    player.refresh_from_db()
    return user


def test_a_finished_night_mails_each_player_its_results_once(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = three_handed(capture, slug="results-mail")
    league.min_players = 2  # three players count toward the table
    league.save(update_fields=["min_players"])
    ann = _link(league, admin, roster["Ann"], "ann")
    _link(league, admin, roster["Bob"], "bob")
    cat = add_member(league, "cat", "member")  # an account with no verified address
    player_link(league=league, player=roster["Cat"], username="cat", by=admin)
    mail.outbox.clear()
    finish(t, admin, capture)
    rows = OutboxMessage.objects.filter(kind=MailKind.NIGHT_RESULTS)
    assert sorted(rows.values_list("user__username", "status")) == [
        ("ann", OutboxStatus.SENT),
        ("bob", OutboxStatus.SENT),
        ("cat", OutboxStatus.SKIPPED),
    ]
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    message = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    standings = list(t.final_standings.order_by("place").select_related("player"))
    mine = next(s for s in standings if s.player.name == "Ann")
    assert message.subject == f"Bounty night: you finished {mine.place} of 3"
    for s in standings:
        assert f"{s.place}. {s.player.name}: {s.chips} chips" in message.body
    assert "Your money: paid $30.00" in message.body  # buy-in, fee and bounty
    assert "Results-Mail table" in message.body
    assert f"1. {standings[0].player.name}: " in message.body.split("table")[1]
    assert "points, 1 night, " in message.body
    html = message.alternatives[0][0]
    assert "<table>" in html and "Final standings" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert cat.pk  # (no mail without a verified address)
    # The finishing path again, the task again: nothing more is asked for or sent.
    mail.outbox.clear()
    with capture(execute=True):
        tournament_finish_if_over(tournament=t)
        tournament_finished_tell(tournament=t)
        tournament_finished_tell(tournament=t)
    assert night_results_mail(tournament_id=t.pk) == 0
    assert mail.outbox == [] and rows.count() == 3
    assert ann.pk in rows.values_list("user_id", flat=True)


def test_the_results_mail_respects_the_choice_and_waits_for_the_end(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = three_handed(capture, slug="results-off")
    ann = _link(league, admin, roster["Ann"], "ann")
    _link(league, admin, roster["Bob"], "bob")
    MailOptOut.objects.create(user=ann, kind=MailKind.NIGHT_RESULTS)
    assert night_results_mail(tournament_id=t.pk) == 0  # not finished: nothing
    mail.outbox.clear()
    finish(t, admin, capture)
    assert [m.to[0] for m in mail.outbox] == ["bob@example.org"]
    assert OutboxMessage.objects.get(user=ann, kind=MailKind.NIGHT_RESULTS).status == "skipped"


def _disputed(capture):
    league, users = league_with_roles(slug="pots")
    t, hand, order = disputed_hand(league, users["admin"], capture)
    players = {p.pk: p for p in league.players.all()}
    by_pos = [players[pid] for pid in order]
    ann = _link(league, users["admin"], by_pos[0], "ann")  # the engine's winner
    bob = _link(league, users["admin"], by_pos[1], "bob")  # the table's winner
    cat = _link(league, users["admin"], by_pos[2], "cat")  # folded: not in the pot
    return league, users, hand, hand.pots.get(index=0), (ann, bob, cat), by_pos


def test_a_dispute_and_its_ruling_mail_the_players_of_the_pot_once(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    league, users, hand, pot, (ann, bob, cat), by_pos = _disputed(capture)
    mail.outbox.clear()
    with capture(execute=True):
        dispute = dispute_raise(pot=pot, by=bob, reason="My kings were dealt face up")
    (opened,) = mail.outbox  # to Ann; not to Bob, who opened it; not to Cat, who folded
    assert opened.to == ["ann@example.org"]
    assert opened.subject.startswith(f"Disputed: hand {hand.number}, the main pot")
    assert "My kings were dealt face up" in opened.body and "bob disputed" in opened.body
    assert f"{pot.amount} chips between" in opened.body
    mail.outbox.clear()
    with capture(execute=True):
        ruling = ruling_make(
            pot=pot, by=users["authority"], result="engine", reason="Aces beat kings"
        )
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    ruled = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert ruled.subject.startswith("Ruled:")
    assert "The engine's result stands. Aces beat kings" in ruled.body
    assert "My kings were dealt face up" in ruled.body  # the claim it answers
    assert f"{by_pos[0].name}: {pot.amount} chips" in ruled.body
    keys = sorted(
        OutboxMessage.objects.filter(kind=MailKind.POT_DISPUTE).values_list(
            "subject_key", "user__username"
        )
    )
    assert keys == [
        (f"dispute:{dispute.pk}", "ann"),
        (f"ruling:{ruling.pk}", "ann"),
        (f"ruling:{ruling.pk}", "bob"),
    ]
    assert cat.pk not in OutboxMessage.objects.values_list("user_id", flat=True)


def test_a_player_who_turned_dispute_mail_off_gets_none(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    league, users, hand, pot, (ann, bob, cat), _ = _disputed(capture)
    MailOptOut.objects.create(user=ann, kind=MailKind.POT_DISPUTE)
    mail.outbox.clear()
    with capture(execute=True):
        dispute_raise(pot=pot, by=bob, reason="Misdeal")
        ruling_make(pot=pot, by=users["authority"], result="table", reason="Kings it is")
    assert [m.to[0] for m in mail.outbox] == ["bob@example.org"]


def test_a_deal_that_ends_the_night_mails_its_results_with_the_deals_payouts(
    night,
    django_capture_on_commit_callbacks,
):
    t, league, admin, roster = night
    _link(league, admin, roster["Ann"], "ann")
    players = still_in(t)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        deal = deal_record(tournament=t, by=admin, option="even", agreed_by=players)
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"] and message.subject.startswith("Deal night:")
    payout = night_money_summary(t).payouts[roster["Ann"].pk]
    assert f"won {night_money_summary(t).fmt(payout)}" in message.body
    assert deal.pk and night_results_mail(tournament_id=t.pk) == 0


def test_the_sweep_asks_for_a_results_mail_whose_task_was_lost(
    django_capture_on_commit_callbacks, settings
):
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = three_handed(capture, slug="results-lost")
    _link(league, admin, roster["Ann"], "ann")
    finish(t, admin, capture)
    OutboxMessage.objects.filter(kind=MailKind.NIGHT_RESULTS).delete()  # the task never ran
    mail.outbox.clear()
    t.refresh_from_db()
    assert night_results_sweep(now=t.finished_at) == []  # within the grace: the task may come
    later = t.finished_at + dt.timedelta(seconds=settings.MAIL_SWEEP_GRACE + 1)
    with capture(execute=True):
        assert night_results_sweep(now=later) == [t.pk]
    assert [m.to[0] for m in mail.outbox] == ["ann@example.org"]
    assert night_results_sweep(now=later) == []  # asked for once
    OutboxMessage.objects.filter(kind=MailKind.NIGHT_RESULTS).delete()
    assert night_results_sweep(now=t.finished_at + dt.timedelta(days=2)) == []  # too old
