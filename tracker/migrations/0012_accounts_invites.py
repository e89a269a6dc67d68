"""Invites to a league, and API tokens with labels (several per user).

The tokens issued before (Django REST framework's one token per user) become API tokens
labelled "API sign-in" with the same key (stored as its SHA-256), so they keep working and
show on their owner's profile page."""

import hashlib

import django.db.models.deletion
import django.utils.timezone

from django.conf import settings
from django.db import migrations, models


def tokens_forward(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("tracker", "ApiToken")
    for old in Token.objects.all():
        ApiToken.objects.create(
            user_id=old.user_id,
            label="API sign-in",
            digest=hashlib.sha256(old.key.encode()).hexdigest(),
            created_at=old.created,
        )
    Token.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('tracker', '0011_membership_roles'),
        ('authtoken', '0003_tokenproxy'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Invite',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'Admin'), ('scorekeeper', 'Scorekeeper'), ('authority', 'Authority'), ('member', 'Member')], default='member', max_length=16)),
                ('token', models.CharField(max_length=64, unique=True)),
                ('single_use', models.BooleanField(default=True)),
                ('expires_at', models.DateTimeField()),
                ('uses', models.PositiveIntegerField(default=0)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('revoked', models.BooleanField(default=False)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='invites_made', to=settings.AUTH_USER_MODEL)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invites', to='tracker.league')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('label', models.CharField(max_length=80)),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [models.Index(fields=['user', 'revoked_at'], name='apitoken_user_live')],
            },
        ),
        migrations.RunPython(tokens_forward, migrations.RunPython.noop),
    ]
