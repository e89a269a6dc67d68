"""The live logger page: log a hand at the table event by event (a POST per change; with
JavaScript the same forms, no page of their own). The engine offers only legal actions."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tracker.core.errors import PermissionDenied as DomainPermissionDenied
from tracker.engine.announcements import VARIANT_TITLES, VARIANTS
from tracker.engine.errors import DomainError
from tracker.hands.selectors.live import draft_state, open_draft
from tracker.hands.services.live import (
    draft_check_around,
    draft_discard,
    draft_finish,
    draft_start,
    draft_step,
    draft_undo,
)
from tracker.tournaments.selectors import tournament_state
from web.forms.cards import AnnouncementsForm
from web.forms.drafts import posted_version
from web.presenters.live import events_from_post, live_page, table_result_from_post
from web.views.common import not_found_as_404, records_hands


def _announcements(tournament, data) -> AnnouncementsForm:
    """The start form's announcements: the league's house rules, the tournament's."""
    league = tournament.league
    defaults = {v: dict((league.house_rules or {}).get(v, {})) for v in VARIANTS}
    if tournament.default_variant:
        defaults[tournament.default_variant].update(tournament.default_options or {})
    return AnnouncementsForm(data, defaults=defaults, prefix="opt")


@require_http_methods(["GET", "POST"])
@not_found_as_404
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
        except DomainPermissionDenied as exc:
            raise PermissionDenied(exc.message) from None
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
        "announcements": announcements,
        "page": live_page(draft_state(draft)) if draft is not None else None,
    }
    return render(request, "tracker/live.html", context, status=400 if error else 200)
