"""The live logger page: log a hand at the table event by event (a POST per change; with
JavaScript the same forms, no page of their own). The engine offers only legal actions."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from tracker.core.errors import Conflict, NotFound, PermissionDenied, Refusal
from tracker.core.permissions import Capability, require, roles_remembered
from tracker.engine.announcements import VARIANT_TITLES, VARIANTS
from tracker.engine.errors import Code, DomainError
from tracker.games.selectors import league_games
from tracker.hands.models import DraftStatus
from tracker.hands.selectors.live import (
    draft_state,
    open_draft,
    tournament_draft_night,
)
from tracker.hands.services.live import (
    draft_check_around,
    draft_discard,
    draft_finish,
    draft_start,
    draft_step,
    draft_undo,
)
from tracker.hands.services.outbox import (
    ChangeResult,
    OutboxConflict,
    OutboxResult,
    outbox_apply,
    outbox_resolve,
)
from tracker.leagues.selectors.visibility import visible_tournament
from tracker.tournaments.selectors import tournament_state
from web.forms.cards import AnnouncementsForm
from web.forms.drafts import posted_version
from web.forms.outbox import json_body, outbox_changes, resolve_choice
from web.presenters.live import (
    events_from_post,
    live_answer,
    live_page,
    night_in_words,
    table_result_from_post,
)
from web.views.app import phone_engine
from web.views.common import records_hands

#: The start form's value for a house game: this, then the game's slug.
HOUSE_CHOICE = "game:"


def _announcements(tournament, data) -> AnnouncementsForm:
    """The start form's announcements: the league's house rules, the tournament's."""
    league = tournament.league
    defaults = {v: dict((league.house_rules or {}).get(v, {})) for v in VARIANTS}
    if tournament.default_variant:
        defaults[tournament.default_variant].update(tournament.default_options or {})
    return AnnouncementsForm(data, defaults=defaults, prefix="opt")


@require_http_methods(["GET", "POST"])
@records_hands
def live_hand(request, tournament):
    draft = open_draft(tournament)
    error = ""
    announcements = _announcements(tournament, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        op = request.POST.get("op", "")
        try:
            version = posted_version(request.POST)
            if op == "start":
                variant = request.POST.get("variant") or tournament.default_variant
                options = None
                if variant.startswith(HOUSE_CHOICE):  # a house game: "game:<slug>"
                    draft_start(
                        tournament=tournament, by=request.user, game=variant[len(HOUSE_CHOICE) :]
                    )
                else:
                    if variant in VARIANTS and announcements.is_valid():
                        options = announcements.options(variant)
                    draft_start(
                        tournament=tournament, by=request.user, variant=variant, options=options
                    )
            elif draft is None:
                messages.info(request, "That hand is no longer open: start the next one.")
            elif op == "check_around":
                draft_check_around(draft=draft, by=request.user, version=version)
            elif op == "undo":
                draft_undo(draft=draft, by=request.user, version=version)
            elif op == "discard":
                draft_discard(draft=draft, by=request.user, version=version)
                messages.info(request, f"Hand {draft.number} discarded: nothing recorded.")
            elif op == "finish":
                hand = draft_finish(
                    draft=draft,
                    by=request.user,
                    version=version,
                    table_result=table_result_from_post(draft_state(draft), request.POST),
                )
                messages.success(request, f"Hand {hand.number} recorded.")
                return redirect(hand)
            else:
                events = events_from_post(draft_state(draft), request.POST)
                draft_step(draft=draft, by=request.user, version=version, events=events)
        except DomainError as exc:
            error = exc.message
        if not error:  # to the prompt of the next step, in view
            return redirect(reverse("live-hand", kwargs={"pk": tournament.pk}) + "#prompt")
        draft = open_draft(tournament)
    state = tournament_state(tournament)
    context = {
        "tournament": tournament,
        "error": error,
        "over": state.over,
        "variant_choices": [(v, VARIANT_TITLES[v]) for v in VARIANTS],
        "house_games": [] if tournament.default_variant else league_games(tournament.league),
        "house_choice": HOUSE_CHOICE,
        "announcements": announcements,
        "page": live_page(draft_state(draft)) if draft is not None else None,
        "phone_engine": phone_engine(),
    }
    return render(request, "tracker/live.html", context, status=400 if error else 200)


# --- The outbox (static/js/homegame.js): JSON in, JSON out, session and CSRF as any form ---

_STATUS = {NotFound: 404, PermissionDenied: 403, Conflict: 409}


def _error(exc: Refusal, **extra) -> JsonResponse:
    status = next((s for cls, s in _STATUS.items() if isinstance(exc, cls)), 400)
    return JsonResponse({"error": exc.as_dict(), **extra}, status=status)


def _result_json(result: ChangeResult) -> dict:
    data = {"id": str(result.client_id), "status": result.status, "version": result.version}
    if result.started:
        data["draft"] = result.draft  # a hand the phone started: its draft now
    if result.hand is not None:
        data["hand"] = result.hand
        data["hand_url"] = reverse("hand", kwargs={"pk": result.hand})
    if result.error is not None:
        data["error"] = result.error.as_dict()
    return data


def _draft_json(request, tournament, draft, *, log: bool = False) -> dict | None:
    if draft is None:
        return None
    page = live_page(draft_state(draft))
    return live_answer(page, tournament=tournament, request=request, log=log)


def _conflict_json(request, tournament, conflict: OutboxConflict) -> dict:
    draft = conflict.draft
    server = {"version": draft.version, "status": draft.status}
    if draft.status == DraftStatus.OPEN:
        server = _draft_json(request, tournament, draft, log=True)
    return {
        "draft": draft.pk,
        "number": draft.number,
        "base": conflict.base,
        "server_version": draft.version,
        "server": server,
        "yours": [str(c.client_id) for c in conflict.pending],
    }


def _answer(request, tournament, out: OutboxResult) -> JsonResponse:
    # The tournament's open draft: the one the batch touched, as it stands after it, unless
    # the batch closed it.
    draft = next((d for d in out.drafts if d.status == DraftStatus.OPEN), None)
    body = {
        "results": [_result_json(r) for r in out.results],
        "state": _draft_json(request, tournament, draft or open_draft(tournament)),
    }
    if out.conflicts:
        first = out.conflicts[0]
        body["conflicts"] = [_conflict_json(request, tournament, c) for c in out.conflicts]
        exc = Conflict(
            f"hand {first.draft.number} changed on another screen while {len(first.pending)} "
            "of your steps waited: keep yours or theirs",
            code=Code.DRAFT_CONFLICT,
            field="changes",
        )
        return _error(exc, **body)
    return JsonResponse(body)


def _json_view(view):
    """A JSON view of the logger: a signed-in scorekeeper of the tournament, refusals as
    the one error body."""

    @wraps(view)
    def wrapper(request, pk):
        if not request.user.is_authenticated:
            exc = PermissionDenied("sign in to record hands", code=Code.NOT_AUTHENTICATED)
            return JsonResponse({"error": exc.as_dict()}, status=403)
        try:
            # The roles are read once: for authorizing first and in the services.
            with roles_remembered():
                tournament = visible_tournament(request.user, pk)
                # Authorize before reading the body (docs/rulings.md "Security").
                require(request.user, tournament.league, Capability.RECORD_HAND, "record hands")
                return view(request, tournament)
        except Refusal as exc:
            return _error(exc)

    return wrapper


def _outbox_view(view):
    def body(request, tournament):
        return view(request, tournament, json_body(request.body))

    return require_POST(_json_view(wraps(view)(body)))


@require_http_methods(["GET"])
@_json_view
def live_night(request, tournament):
    """The night as the phone's engine deals its next hand from (``?draft=<id>``: the hand
    on the phone), as the server has it now: asked again when the network is back."""
    night = tournament_draft_night(tournament, request.GET.get("draft", ""))
    return JsonResponse(night_in_words(night))


@_outbox_view
def live_outbox(request, tournament, data):
    """A batch of the logger's changes, each applied exactly once; the state after them."""
    out = outbox_apply(
        tournament=tournament,
        by=request.user,
        changes=outbox_changes(data),
        read_form=events_from_post,
        read_result=table_result_from_post,
    )
    return _answer(request, tournament, out)


@_outbox_view
def live_resolve(request, tournament, data):
    """A conflict settled: keep mine (the phone's steps replace the other screen's) or keep
    theirs (the phone's steps are dropped, and kept as dropped)."""
    draft, keep, server_version = resolve_choice(data)
    out = outbox_resolve(
        tournament=tournament,
        by=request.user,
        draft=draft,
        keep=keep,
        server_version=server_version,
        changes=outbox_changes(data),
        read_form=events_from_post,
        read_result=table_result_from_post,
    )
    return _answer(request, tournament, out)
