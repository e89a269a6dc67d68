"""E-mail addresses verified before they receive mail (``EmailAddress``).

Every existing address was typed, never verified (two accounts may even share one): each
becomes its account's address waiting for verification, and the user's ``email`` (which
now holds only a verified address) is emptied, so no mail reaches it until its owner
verifies it from the profile page. Nothing is lost: going back puts each account's address
(the verified one, else the waiting one) back in ``email``.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def addresses_wait_for_verification(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("tracker", "EmailAddress")
    rows = [
        EmailAddress(user_id=pk, address=email.strip(), canonical=email.strip().lower())
        for pk, email in User.objects.exclude(email="").values_list("pk", "email")
    ]
    EmailAddress.objects.bulk_create(rows, batch_size=1000)
    User.objects.exclude(email="").update(email="")


def addresses_back_to_users(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("tracker", "EmailAddress")
    verified_last = models.F("verified_at").asc(nulls_first=True)
    for row in EmailAddress.objects.order_by(verified_last, "created_at"):
        User.objects.filter(pk=row.user_id).update(email=row.address)


class Migration(migrations.Migration):
    dependencies = [
        ("tracker", "0021_account_names"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="EmailAddress",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("address", models.EmailField(max_length=254)),
                ("canonical", models.CharField(max_length=254)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("verified_at", models.DateTimeField(blank=True, null=True)),
                ("mail_requested_at", models.DateTimeField(blank=True, null=True)),
                ("mail_sent_at", models.DateTimeField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="email_addresses",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-verified_at", "-created_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("verified_at__isnull", True)),
                        fields=("user",),
                        name="email_one_unverified_per_user",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("verified_at__isnull", False)),
                        fields=("user",),
                        name="email_one_verified_per_user",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("verified_at__isnull", False)),
                        fields=("canonical",),
                        name="email_verified_by_one_account",
                    ),
                ],
            },
        ),
        migrations.RunPython(addresses_wait_for_verification, addresses_back_to_users),
    ]
