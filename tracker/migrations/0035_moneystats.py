from collections import Counter

from django.db import migrations
from django.db.models import F, Sum


def _shift(apps, sign):
    """Net chips leave out the chips bought with rebuys and add-ons: take them out of the
    league table's running totals of the nights finished before this migration (``sign``
    -1; +1 puts them back)."""
    LedgerEntry = apps.get_model("tracker", "LedgerEntry")
    FinalStanding = apps.get_model("tracker", "FinalStanding")
    StandingTally = apps.get_model("tracker", "StandingTally")
    bought = {
        (tid, pid): total
        for tid, pid, total in LedgerEntry.objects.filter(kind__in=("rebuy", "addon"))
        .order_by()
        .values("tournament_id", "player_id")
        .annotate(total=Sum("amount"))
        .values_list("tournament_id", "player_id", "total")
        if total
    }
    if not bought:
        return
    nights = {}
    for tid, league, day, pid, place in FinalStanding.objects.filter(
        tournament_id__in={tid for tid, _ in bought}, tournament__counts_toward_standings=True
    ).values_list("tournament_id", "tournament__league_id", "tournament__date", "player_id", "place"):
        nights.setdefault(tid, []).append((league, day, pid, place))
    for tid, rows in nights.items():
        sharing = Counter(place for _, _, _, place in rows)
        for league, day, pid, place in rows:
            amount = bought.get((tid, pid))
            if not amount:
                continue
            StandingTally.objects.filter(
                league_id=league,
                month=day.replace(day=1),
                player_id=pid,
                place=place,
                entrants=len(rows),
                sharing=sharing[place],
            ).update(net_chips=F("net_chips") + sign * amount)


def forwards(apps, schema_editor):
    _shift(apps, -1)


def backwards(apps, schema_editor):
    _shift(apps, 1)


class Migration(migrations.Migration):
    dependencies = [
        ("tracker", "0034_ledger"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
