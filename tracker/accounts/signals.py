"""Every account's name claimed in ``AccountName``, however the account was made or renamed
(sign-up, ``createsuperuser``, the admin, the demo): the uniqueness rules cover them all."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tracker.accounts.models import AccountName
from tracker.accounts.names import canonical_username, username_skeleton

log = logging.getLogger(__name__)


@receiver(post_save, sender=get_user_model(), dispatch_uid="tracker.account_name_claim")
def _claim_name(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    if raw:
        return  # fixtures load their own rows
    if update_fields is not None and instance.USERNAME_FIELD not in update_fields:
        return  # e.g. the last login noted at each sign-in: the name did not change
    name = instance.get_username()
    canonical, skeleton = canonical_username(name), username_skeleton(name)
    try:
        with transaction.atomic():
            AccountName.objects.update_or_create(
                user_id=instance.pk, defaults={"canonical": canonical, "skeleton": skeleton}
            )
    except IntegrityError:
        # Another account holds the name (made outside sign-up, which checks first): this
        # one keeps no claim, and sign-up refuses it (``user_signup`` checks its claim).
        AccountName.objects.update_or_create(
            user_id=instance.pk, defaults={"canonical": None, "skeleton": None}
        )
        log.warning("username collides with another account's", extra={"user_id": instance.pk})
