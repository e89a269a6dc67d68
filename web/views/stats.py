"""Statistics pages and CSV exports: the league table with points, league and tournament
statistics, a player's statistics with charts. Thin: selectors do the work
(tracker/stats/selectors.py, web/presenters/stats.py), services the one write (the points formula)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from tracker.core.permissions import Capability, capabilities, require
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.table import league_standings
from tracker.leagues.selectors.visibility import visible_league, visible_player, visible_tournament
from tracker.stats import selectors as sel
from tracker.stats.services import league_points_formula_set
from web.forms.stats import PointsFormulaForm
from web.presenters import stats as pages


def csv_response(rows: list[dict], filename: str, columns: list[str] | None = None):
    response = HttpResponse(pages.csv_text(rows, columns), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --------------------------------------------------------------------------
# League table (points)


@require_http_methods(["GET", "POST"])
def league_table(request, slug):
    season = request.GET.get("season")
    page = pages.league_table_page(request.user, slug, season)
    initial = {
        "formula": page.formula["formula"],
        "best": page.formula.get("best"),
        "table": ", ".join(f"{v:g}" for v in page.formula.get("table", [])),
        "buy_in": page.formula.get("buy_in"),
        "top_fraction": page.formula.get("top_fraction"),
    }
    form = None
    if page.can_set_points:
        form = PointsFormulaForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form is None:  # the permissions table's 403
            require(request.user, page.league, Capability.SET_POINTS, "choose the points formula")
        if form.is_valid():
            try:
                league_points_formula_set(league=page.league, formula=form.spec(), by=request.user)
            except DomainError as exc:
                form.add_domain_error(exc)
            else:
                messages.success(request, "Points formula saved: the table below uses it.")
                response = redirect("league-table", slug=slug)
                if season:
                    response["Location"] += "?" + urlencode({"season": season})
                return response
    return render(request, "tracker/league_table.html", {"page": page, "form": form})


@require_GET
def league_table_csv(request, slug):
    league = visible_league(request.user, slug)
    season = pages.season_or_404(league, request.GET.get("season"))
    money = pages.visible_money_table(capabilities(request.user, league), league, season)
    columns = [
        "place",
        "player",
        "player_id",
        "points",
        "events",
        "events_counted",
        "wins",
        "average_place",
        "net_chips",
    ]
    if money is not None:
        columns += pages.MONEY_CSV_COLUMNS
    rows = []
    for k, r in enumerate(league_standings(league, season=season)):
        row = {
            "place": k + 1,
            "player": r.name,
            "player_id": r.player_id,
            "points": r.points,
            "events": r.events,
            "events_counted": r.counted,
            "wins": r.wins,
            "average_place": r.average_place,
            "net_chips": r.net_chips,
        }
        if money is not None:
            row.update(pages.money_csv_cells(money, money.rows.get(r.player_id)))
        rows.append(row)
    return csv_response(rows, f"{league.slug}-standings-{season.key}.csv", columns)


# --------------------------------------------------------------------------
# Statistics tables


def _stats_rows(rows: list[sel.Stats]) -> list[dict]:
    return [sel.flat_row(s, player=s.label, player_id=s.key) for s in rows]


@require_GET
def league_stats(request, slug):
    page = pages.league_stats_page(
        request.user, slug, variant=request.GET.get("variant"), season=request.GET.get("season")
    )
    return render(request, "tracker/league_stats.html", {"page": page})


@require_GET
def league_stats_csv(request, slug):
    page = pages.league_stats_page(
        request.user, slug, variant=request.GET.get("variant"), season=request.GET.get("season")
    )
    suffix = "".join(f"-{k}" for k in (page.variant, page.season and page.season.key) if k)
    return csv_response(_stats_rows(page.rows), f"{page.league.slug}-stats{suffix}.csv")


@require_GET
def tournament_stats(request, pk):
    page = pages.tournament_stats_page(request.user, pk)
    return render(request, "tracker/tournament_stats.html", {"page": page})


@require_GET
def tournament_stats_csv(request, pk):
    tournament = visible_tournament(request.user, pk)
    rows = sel.tally_table(sel.tournament_tallies(tournament=tournament))
    return csv_response(_stats_rows(rows), f"tournament-{pk}-stats.csv")


@require_GET
def tournament_hands_csv(request, pk):
    tournament = visible_tournament(request.user, pk)
    return csv_response(sel.tournament_hand_rows(tournament), f"tournament-{pk}-hands.csv")


# --------------------------------------------------------------------------
# Player


@require_GET
def player_stats(request, pk):
    page = pages.player_stats_page(
        request.user,
        pk,
        tournament=request.GET.get("tournament"),
        variant=request.GET.get("variant"),
    )
    return render(
        request, "tracker/player_stats.html", {"page": page, "query": request.GET.urlencode()}
    )


def _player_scope(request, pk):
    player = visible_player(request.user, pk)
    scope = sel.player_scope(
        request.user,
        player,
        tournament=request.GET.get("tournament"),
        variant=request.GET.get("variant"),
    )
    return player, scope


@require_GET
def player_stats_csv(request, pk):
    player, scope = _player_scope(request, pk)
    stats = sel.tally_stats(sel.scope_tallies(scope))
    row = sel.flat_row(stats, player=player.name, player_id=player.pk, scope=scope.title)
    name = slugify(player.name) or str(player.pk)
    return csv_response([row], f"{name}-stats.csv")


@require_GET
def player_hands_csv(request, pk):
    player, scope = _player_scope(request, pk)
    rows = sel.player_hand_rows(sel.player_hands(scope))
    name = slugify(player.name) or str(player.pk)
    columns = [
        "tournament",
        "tournament_id",
        "date",
        "hand",
        "variant",
        "won",
        "net",
        "all_in_street",
        "equity",
        "expected",
        "luck",
        "luck_error",
        "method",
    ]
    return csv_response(rows, f"{name}-hands.csv", columns)
