"""The demo league that `make run` shows, recorded through the same services as the API."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

DEMO_PASSWORD = "homegame-demo"
DEMO_USERS = ("rob", "sam", "alex", "jo")


@transaction.atomic
def demo_seed() -> list[str]:
    User = get_user_model()
    report = []
    for name in DEMO_USERS:
        user, created = User.objects.get_or_create(username=name)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
            report.append(f"created user {name}")
    report.append(f"demo users {', '.join(DEMO_USERS)} (password {DEMO_PASSWORD!r})")
    return report
