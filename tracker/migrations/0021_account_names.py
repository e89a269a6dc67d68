"""Usernames unique ignoring case and look-alikes (tracker/accounts/names.py), held by the
database: one ``AccountName`` row per account, its canonical form and confusable skeleton
each under a unique index.

Existing accounts are claimed in the order they were made. An account whose name collides
with an earlier one's (``ROB`` beside ``rob``, made before this rule) keeps working with an
empty claim, and is named on the console so that an admin can rename it (a rename claims the
new name). Going back drops the table.
"""

import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.db import migrations, models

# A frozen copy of tracker/accounts/names.py as it was when this migration was written:
# migrations do not import live code, so a later change there cannot change what this one
# computes on a fresh database.


def canonical_username(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _prototype(char):
    entries = confusables_data.get(char)
    if not entries or len(entries) != 1:
        return char
    target = entries[0]["c"]
    back = [e["c"] for e in confusables_data.get(target, [])]
    if back == [char]:
        return min(char, target)
    return target


def username_skeleton(name):
    decomposed = unicodedata.normalize("NFD", canonical_username(name))
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))


def claim_names(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("tracker", "AccountName")
    seen_canonical, seen_skeleton, rows, collisions = {}, {}, [], []
    field = getattr(User, "USERNAME_FIELD", "username")
    for pk, name in User.objects.order_by("pk").values_list("pk", field):
        canonical, skeleton = canonical_username(name), username_skeleton(name)
        earlier = seen_canonical.get(canonical) or seen_skeleton.get(skeleton)
        if earlier is not None:
            collisions.append((name, earlier))
            rows.append(AccountName(user_id=pk, canonical=None, skeleton=None))
            continue
        seen_canonical[canonical] = seen_skeleton[skeleton] = name
        rows.append(AccountName(user_id=pk, canonical=canonical, skeleton=skeleton))
    AccountName.objects.bulk_create(rows, batch_size=1000)
    for name, earlier in collisions:
        print(f"\n  username {name!r} collides with the earlier {earlier!r}: it keeps no claim")


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tracker", "0019_invite_token_hash"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountName",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=models.deletion.CASCADE,
                        primary_key=True,
                        related_name="account_name",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("canonical", models.CharField(max_length=150, null=True, unique=True)),
                ("skeleton", models.CharField(max_length=600, null=True, unique=True)),
            ],
        ),
        migrations.RunPython(claim_names, migrations.RunPython.noop),
    ]
