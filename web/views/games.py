"""A league's house games: the list, a new game (from a preset's house choices, or from
scratch as JSON), a game with its version history, a change (a new version), archiving,
and the preview of sample hands."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from tracker.core.permissions import Capability, capabilities
from tracker.engine.errors import DomainError
from tracker.games.selectors import (
    HOUSE_PRESETS,
    MAX_SEED,
    game_latest,
    game_version,
    game_versions,
    league_game,
    league_games,
)
from tracker.games.services import league_game_archive, league_game_create, league_game_update
from tracker.leagues.selectors import visible_league
from web.forms.games import DefinitionForm, PresetGameForm, definition_text
from web.presenters.games import definition_lines, preset_options, preview
from web.views.common import login_first, page_gate

ACTION = "manage the league's games"
NOT_LOGGABLE = (
    "Hands of house games are logged on a dealer's choice night: the live logger deals the "
    "game's latest version and the hand keeps it, and the results form lays its seats out "
    "from the definition. The preview shows how the engine values them."
)


def games_list(request, slug):
    league = visible_league(request.user, slug)
    can = capabilities(request.user, league)
    return render(
        request,
        "tracker/league_games.html",
        {
            "league": league,
            "can": can,
            "games": league_games(league),
            "archived": [r for r in league_games(league, archived=True) if r.game.archived],
            "not_loggable": NOT_LOGGABLE,
        },
    )


@require_http_methods(["GET", "POST"])
def game_new(request, slug):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.GAMES_MANAGE, ACTION)
    if can is None:
        return login_first(request)
    source = request.POST.get("preset") or request.GET.get("preset") or ""
    context = {"league": league, "can": can, "presets": preset_options()}
    if not source:
        return render(request, "tracker/league_game_new.html", context)
    data = request.POST if request.method == "POST" else None
    if source == "scratch":
        form = DefinitionForm(data, initial={"definition": '{\n  "wild": []\n}'})
    elif source in HOUSE_PRESETS:
        form = PresetGameForm(data, preset=source, game=HOUSE_PRESETS[source])
    else:
        raise Http404("No such preset.")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            preset = None if source == "scratch" else source
            definition = form.cleaned_data["definition"] if preset is None else form.definition()
            try:
                game = league_game_create(
                    league=league,
                    by=request.user,
                    name=form.cleaned_data["name"],
                    preset=preset,
                    definition=definition,
                )
            except DomainError as exc:
                form.add_domain_error(exc)
            else:
                messages.success(request, f"{game.name} is one of the league's games.")
                return redirect("league-game", slug=slug, game=game.slug)
        status = 400
    context |= {
        "form": form,
        "source": source,
        "preset": HOUSE_PRESETS.get(source),
    }
    return render(request, "tracker/league_game_form.html", context, status=status)


def game_page(request, slug, game):
    league = visible_league(request.user, slug)
    row = league_game(league, game)
    versions = game_versions(row)
    shown = versions[0]
    if request.GET.get("version", "").isdigit():
        shown = game_version(row, int(request.GET["version"]))
    return render(
        request,
        "tracker/league_game.html",
        {
            "league": league,
            "can": capabilities(request.user, league),
            "game": row,
            "versions": versions,
            "shown": shown,
            "current": shown.number == versions[0].number,
            "lines": definition_lines(shown.game_definition),
            "json": definition_text(shown.definition),
            "not_loggable": NOT_LOGGABLE,
        },
    )


@require_http_methods(["GET", "POST"])
def game_edit(request, slug, game):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.GAMES_MANAGE, ACTION)
    if can is None:
        return login_first(request)
    row = league_game(league, game)
    latest = game_latest(row)
    form = DefinitionForm(
        request.POST if request.method == "POST" else None,
        initial={"name": row.name, "definition": definition_text(latest.definition)},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                version = league_game_update(
                    game=row,
                    by=request.user,
                    name=form.cleaned_data["name"],
                    definition=form.cleaned_data["definition"],
                )
            except DomainError as exc:
                form.add_domain_error(exc)
            else:
                if version.number == latest.number:
                    messages.info(request, "Nothing changed: no new version.")
                else:
                    messages.success(request, f"Version {version.number} of {row.name} saved.")
                return redirect("league-game", slug=slug, game=row.slug)
        status = 400
    return render(
        request,
        "tracker/league_game_form.html",
        {"league": league, "can": can, "form": form, "game": row, "source": "edit"},
        status=status,
    )


@require_POST
def game_archive(request, slug, game):
    league = visible_league(request.user, slug)
    if page_gate(request, league, Capability.GAMES_MANAGE, ACTION) is None:
        return login_first(request)
    row = league_game_archive(game=league_game(league, game), by=request.user)
    messages.success(request, f"{row.name} is archived: its versions are kept.")
    return redirect("league-game", slug=slug, game=row.slug)


def game_preview_page(request, slug, game):
    league = visible_league(request.user, slug)
    row = league_game(league, game)
    seed_text = request.GET.get("seed", "")
    seed = int(seed_text) % (MAX_SEED + 1) if seed_text.isdigit() else 1
    version = game_latest(row)
    if request.GET.get("version", "").isdigit():
        version = game_version(row, int(request.GET["version"]))
    return render(
        request,
        "tracker/league_game_preview.html",
        {
            "league": league,
            "game": row,
            "version": version,
            "seed": seed,
            "next_seed": (seed + 1) % (MAX_SEED + 1),
            "hands": preview(version.game_definition, seed=seed),
            "not_loggable": NOT_LOGGABLE,
        },
    )
