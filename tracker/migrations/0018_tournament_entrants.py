from django.db import migrations, models


def fill_entrants(apps, schema_editor):
    """Each night finished before this migration: how many final standings it has (what
    ``final_standings_write`` now stores with them; 0 for the nights not finished)."""
    Tournament = apps.get_model("tracker", "Tournament")
    FinalStanding = apps.get_model("tracker", "FinalStanding")
    counted = (
        FinalStanding.objects.filter(tournament=models.OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=models.Count("id"))
        .values("n")
    )
    Tournament.objects.filter(models.Exists(counted)).update(entrants=models.Subquery(counted))


class Migration(migrations.Migration):
    dependencies = [
        ("tracker", "0017_standing_tallies"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="entrants",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill_entrants, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(
                condition=models.Q(("counts_toward_standings", False)),
                fields=["league", "date"],
                name="tournament_league_off",
            ),
        ),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(fields=["league", "entrants", "date"], name="tournament_entrants"),
        ),
        migrations.AddIndex(
            model_name="pot",
            index=models.Index(
                condition=models.Q(("disputed", True)), fields=["hand"], name="pot_open"
            ),
        ),
    ]
