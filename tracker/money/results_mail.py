"""The mail after a night: its final standings, each player's money result (when the league
plays for money) and the top of the league table, one mail to each player of the night
linked to an account (docs/schedule.md, "Mail kinds").

Asked for by the task ``tracker.night_results_mail``, which the code that finishes a night
sends when its transaction commits (``tournament_finish_if_over``, a deal). Asking again
(the task run twice, a finishing path run twice, a ruling rewriting the standings later)
sends nothing more: each mail's outbox key is ``results:<tournament id>``. A task that was
lost (the broker away when the night finished) is made up for by the beat sweep
(``night_results_sweep``): a night finished in the last day, with players linked to an
account and no results mail asked for, is asked for again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import CharField, Exists, OuterRef, Value
from django.db.models.functions import Concat
from django.urls import reverse
from django.utils import timezone

from tracker.leagues.selectors.seasons import league_season
from tracker.leagues.selectors.table import league_table
from tracker.mail.models import MailKind, OutboxMessage
from tracker.mail.services import outbox_enqueue
from tracker.money.results import HOUSE, night_results
from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus

TABLE_ROWS = 5  # the league table's top rows in the mail


@dataclass(frozen=True)
class MoneyLine:
    """One player's money for the mail, written in the league's currency."""

    paid: str
    payout: str
    bounties: str
    result: str
    positive: bool
    transfers: list[str]


def _money_lines(tournament: Tournament, names: dict[int, str]) -> dict[int, MoneyLine]:
    results = night_results(tournament)
    summary = results.summary
    if not results.final or not summary.has_money:
        return {}

    def who(party) -> str:
        return "the house" if party == HOUSE else names.get(party, "?")

    out = {}
    for pid, r in results.players.items():
        transfers = [
            f"you pay {who(t.payee)} {summary.fmt(t.amount)}"
            if t.payer == pid
            else f"{who(t.payer)} pays you {summary.fmt(t.amount)}"
            for t in results.transfers
            if pid in (t.payer, t.payee)
        ]
        out[pid] = MoneyLine(
            paid=summary.fmt(r.paid),
            payout=summary.fmt(r.payout),
            bounties=summary.fmt(r.bounties + r.bounty_back),
            result=summary.fmt(r.result),
            positive=r.result >= 0,
            transfers=transfers,
        )
    return out


@transaction.atomic
def night_results_mail(*, tournament_id: int, base_url: str = "") -> int:
    """Ask for the results mail of a finished night for each of its players linked to an
    account (sent to a verified address, unless they turned ``night_results`` off). Returns
    how many messages were asked for anew; 0 for a night not finished, or asked already."""
    tournament = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if tournament is None or tournament.status != TournamentStatus.FINISHED:
        return 0
    base_url = base_url or settings.SITE_URL
    league = tournament.league
    standings = list(
        FinalStanding.objects.filter(tournament=tournament)
        .select_related("player__user")
        .order_by("place", "player__name")
    )
    key = f"results:{tournament.pk}"
    mails = OutboxMessage.objects.filter(kind=MailKind.NIGHT_RESULTS, subject_key=key)
    asked = set(mails.values_list("user_id", flat=True))
    to: dict[int, FinalStanding] = {}  # user id -> their standing (one mail per account)
    for standing in standings:
        user_id = standing.player.user_id
        if user_id is not None and user_id not in asked:
            to.setdefault(user_id, standing)
    if not to:  # asked for already (or nobody to tell): nothing more is read
        return 0
    names = {s.player_id: s.player.name for s in standings}
    money = _money_lines(tournament, names)
    season = league_season(league, today=tournament.date)
    table = league_table(league, season).rows[:TABLE_ROWS]
    base = base_url.rstrip("/")
    context = {
        "tournament": tournament,
        "league": league,
        "standings": standings,
        "table": table,
        "season": season,
        "page": base + tournament.get_absolute_url(),
        "table_page": base + reverse("league", kwargs={"slug": league.slug}),
    }
    before = len(asked)
    for standing in to.values():
        outbox_enqueue(
            kind=MailKind.NIGHT_RESULTS,
            user=standing.player.user,
            subject_key=key,
            template="night_results",
            context={**context, "me": standing, "money": money.get(standing.player_id)},
            base_url=base_url,
        )
    return mails.count() - before


SWEEP_WINDOW = timedelta(days=1)  # how far back the sweep looks for a night never mailed


def night_results_sweep(*, now=None) -> list[int]:
    """Ask for the results mail of every night finished in the last day (and longer than
    MAIL_SWEEP_GRACE seconds ago) with a player linked to an account and no results mail
    asked for yet: its task was lost. The beat task's work; returns the nights asked for."""
    now = now or timezone.now()
    asked = OutboxMessage.objects.filter(
        kind=MailKind.NIGHT_RESULTS,
        subject_key=Concat(Value("results:"), OuterRef("pk"), output_field=CharField()),
    )
    due = (
        Tournament.objects.filter(
            status=TournamentStatus.FINISHED,
            finished_at__gte=now - SWEEP_WINDOW,
            finished_at__lt=now - timedelta(seconds=settings.MAIL_SWEEP_GRACE),
            final_standings__player__user__isnull=False,
        )
        .filter(~Exists(asked))
        .values_list("pk", flat=True)
        .distinct()
    )
    done = []
    for pk in list(due):
        if night_results_mail(tournament_id=pk):
            done.append(pk)
    return done
