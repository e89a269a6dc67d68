"""Invite links: store only the SHA-256 (hex) of each token, as for the API tokens.

Every existing invite keeps working: its token is hashed into ``digest`` (the same digest
``tracker.accounts.selectors.token_digest`` gives, which ``invite_by_token`` and
``invite_accept`` look up), then the plain ``token`` column is dropped.

Going back cannot bring the tokens back: each invite gets its digest as its token, a value
no link carries, so the links made before stop working (they can be made again).
"""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):
    Invite = apps.get_model("tracker", "Invite")
    for pk, token in list(Invite.objects.values_list("pk", "token")):
        digest = hashlib.sha256(token.encode()).hexdigest()
        Invite.objects.filter(pk=pk).update(digest=digest, token=None)


def digests_as_tokens(apps, schema_editor):
    Invite = apps.get_model("tracker", "Invite")
    for pk, digest in list(Invite.objects.values_list("pk", "digest")):
        Invite.objects.filter(pk=pk).update(token=digest)


class Migration(migrations.Migration):
    dependencies = [
        ("tracker", "0018_tournament_entrants"),
    ]

    operations = [
        migrations.AddField(
            model_name="invite",
            name="digest",
            field=models.CharField(max_length=64, null=True),
        ),
        # Nullable for a moment, so that going back can add the column again before filling it.
        migrations.AlterField(
            model_name="invite",
            name="token",
            field=models.CharField(max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(hash_tokens, digests_as_tokens),
        migrations.RemoveField(
            model_name="invite",
            name="token",
        ),
        migrations.AlterField(
            model_name="invite",
            name="digest",
            field=models.CharField(max_length=64, unique=True),
        ),
    ]
