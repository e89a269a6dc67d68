"""The outbox against a Redis and Celery workers (with beat) of the test's own: the same
message sent by two tasks, and a worker killed while sending, each give exactly one e-mail.

The workers mail through tests/mail/slow_backend.py (files in the test's folder, counted
here by Message-ID). Run by CI's outage pass (PostgreSQL). Skipped when redis-server is not
installed. Nothing here touches the machine's shared Redis.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from tests.factories import make_league, make_user
from tests.support.outage import DEADLINE, wait_for
from tracker.accounts.models import EmailAddress
from tracker.core.jobs import send
from tracker.mail.models import MailKind, OutboxMessage, OutboxStatus
from tracker.mail.services import SEND_TASK, outbox_enqueue

pytestmark = [pytest.mark.outage, pytest.mark.django_db(transaction=True)]


def mails(folder: Path, row: OutboxMessage) -> int:
    """How many copies of ``row``'s message the workers wrote."""
    return sum(f.read_text().count(f"Message-ID: {row.message_id}") for f in folder.glob("*.log"))


def ask() -> OutboxMessage:
    ann = make_user("ann")
    EmailAddress.objects.create(
        user=ann, address="ann@example.org", canonical="ann@example.org", verified_at=timezone.now()
    )
    league, _ = make_league()
    with transaction.atomic():  # its task is sent when this commits
        return outbox_enqueue(
            kind=MailKind.LEAGUE_INVITE,
            user=ann,
            subject_key="invite:1",
            template="league_invite",
            context={"league": league, "role": "member", "by": "alex", "link": "http://x/"},
            base_url="http://testserver/",
        )


def mail_env(tmp: Path, **extra: str) -> dict:
    folder = tmp / "mail"
    folder.mkdir(exist_ok=True)
    return {
        "EMAIL_BACKEND": "tests.mail.slow_backend.EmailBackend",
        "HOMEGAME_MAIL_DIR": str(folder),
        **extra,
    }


def test_the_same_message_sent_by_two_tasks_gives_one_mail(stack, tmp_path):
    stack.redis_start()
    env = mail_env(tmp_path, HOMEGAME_MAIL_DELAY="1")
    stack.worker_start("w1", **env)
    stack.worker_start("w2", **env)
    row = ask()
    send(SEND_TASK, row.pk)  # a second task for the same row, to the other worker maybe
    send(SEND_TASK, row.pk)
    wait_for(
        lambda: OutboxMessage.objects.get(pk=row.pk).status == OutboxStatus.SENT,
        DEADLINE,
        "the message to be sent",
    )
    wait_for(lambda: mails(tmp_path / "mail", row) >= 1, 30, "the mail file")

    # The other tasks had nothing to claim: let all three finish, then count.
    def finished() -> int:
        return sum((tmp_path / f"{w}.log").read_text().count("succeeded") for w in ("w1", "w2"))

    wait_for(lambda: finished() >= 3, 60, "the three tasks to finish")
    assert mails(tmp_path / "mail", row) == 1
    assert OutboxMessage.objects.get(pk=row.pk).attempts == 1


def test_a_worker_killed_while_sending_gives_one_mail(stack, tmp_path):
    stack.redis_start()
    # A short lease, and a sweep that also sends a row nobody claimed within a second: the
    # task sent when the row was committed can be lost on the way (a broker connection the
    # test process still holds from an earlier stack), and the sweep is what sends it then.
    lease = {"MAIL_LEASE_SECONDS": "3", "SWEEP_INTERVAL": "1", "MAIL_SWEEP_GRACE": "1"}
    first = stack.worker_start("w1", **mail_env(tmp_path, HOMEGAME_MAIL_DELAY="30", **lease))
    row = ask()
    wait_for(
        lambda: OutboxMessage.objects.get(pk=row.pk).status == OutboxStatus.SENDING,
        DEADLINE,
        "the worker to claim the message",
    )
    stack.kill(first)  # in the middle of its (slow) SMTP conversation
    assert mails(tmp_path / "mail", row) == 0
    stack.worker_start("w2", **mail_env(tmp_path, **lease))
    took = wait_for(
        lambda: OutboxMessage.objects.get(pk=row.pk).status == OutboxStatus.SENT,
        DEADLINE,
        "the sweep to send the message again once the lease ran out",
    )
    print(f"sent again {took:.1f}s after the second worker started")
    row.refresh_from_db()
    assert mails(tmp_path / "mail", row) == 1 and row.attempts == 2
