"""An e-mail backend for the outbox's outage tests, run inside a test's own Celery worker:
Django's file backend (one file per connection, under HOMEGAME_MAIL_DIR) that first waits
HOMEGAME_MAIL_DELAY seconds, as a slow SMTP server would, so the test can kill the worker
while it is sending."""

from __future__ import annotations

import os
import time

from django.core.mail.backends.filebased import EmailBackend as FileBackend


class EmailBackend(FileBackend):
    def __init__(self, *args, **kwargs):
        kwargs["file_path"] = os.environ["HOMEGAME_MAIL_DIR"]
        super().__init__(*args, **kwargs)

    def send_messages(self, email_messages):
        time.sleep(float(os.environ.get("HOMEGAME_MAIL_DELAY", "0")))
        return super().send_messages(email_messages)
