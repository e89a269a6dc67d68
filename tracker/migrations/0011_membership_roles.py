"""One membership row per (league, user, role): an account may hold several roles in a league.

Today's rows hold one role each and stay as they are (each is one of the new rows); only the
uniqueness changes, from (league, user) to (league, user, role)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tracker', '0010_seasons'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='membership',
            options={'ordering': ['league_id', 'user_id', 'role']},
        ),
        migrations.RemoveConstraint(
            model_name='membership',
            name='one_membership_per_league',
        ),
        migrations.AddConstraint(
            model_name='membership',
            constraint=models.UniqueConstraint(fields=('league', 'user', 'role'), name='one_membership_per_league_role'),
        ),
    ]
