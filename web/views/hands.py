"""Hand pages: the replayer, recording a hand and voiding an invalid one.

Views are thin: they call selectors, presenters and services and render templates.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tracker.core.errors import Conflict
from tracker.engine.errors import DomainError
from tracker.hands.services.recording import hand_check, hand_record, hand_void
from tracker.leagues.selectors.visibility import visible_hand
from tracker.tournaments.selectors import tournament_state
from web.forms.hands import HandEntry
from web.presenters.hands import hand_replay
from web.views.common import records_hands

STATUS_SAID = {
    "recorded": "The engine checks it and settles the stacks in a moment.",
    "verified": "The engine agrees: verified.",
    "disputed": "The engine reads it differently: the pot is disputed, see the hand.",
    "invalid": "The stacks do not allow it: see the hand.",
    "void": "The hand is void: no chips moved.",
}


# The results forms this session recorded a hand with: {token: hand id}, the latest last.
RECORDED_FORMS = "recorded_hand_forms"
RECORDED_FORMS_KEPT = 20


def _recorded_by_form(request, tournament, token: str):
    """The hand of ``tournament`` that this form (its token) recorded before, if any."""
    pk = request.session.get(RECORDED_FORMS, {}).get(token) if token else None
    return tournament.hands.filter(pk=pk).first() if pk is not None else None


def _note_form(request, token: str, hand) -> None:
    if not token:
        return
    kept = dict(request.session.get(RECORDED_FORMS, {}))
    kept.pop(token, None)
    kept[token] = hand.pk
    request.session[RECORDED_FORMS] = dict(list(kept.items())[-RECORDED_FORMS_KEPT:])


def _recorded(request, tournament, hand):
    """The answer to a recorded hand, the first post of its form or a retry of it."""
    hand.refresh_from_db(fields=["status"])
    messages.success(request, f"Hand {hand.number} recorded. {STATUS_SAID[hand.status]}")
    return redirect(tournament)


def _number(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None


@require_GET
def hand(request, pk):
    street, step = (_number(request.GET.get(name)) for name in ("street", "step"))
    replay = hand_replay(request.user, pk, street, step)
    return render(request, "tracker/hand.html", {"replay": replay, "can": replay.can})


@require_POST
def hand_void_page(request, pk):
    """Declare an invalid hand void (authority or admin), from the form on the hand page."""
    target = visible_hand(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(target.get_absolute_url())
    try:
        hand_void(hand=target, reason=request.POST.get("reason", ""), by=request.user)
    except DomainError as exc:
        messages.error(request, f"Hand {target.number} was not voided: {exc.message}.")
        return redirect(target)
    messages.success(request, f"Hand {target.number} is void; the hands after it settle now.")
    return redirect(target)


@require_http_methods(["GET", "POST"])
@records_hands
def hand_new(request, tournament):
    token = str(request.POST.get("token") or "")[:64]  # the form's key ("": an older page)
    again = _recorded_by_form(request, tournament, token) if request.method == "POST" else None
    if again is not None:  # the same form posted again: answer as the first post did
        return _recorded(request, tournament, again)
    state = tournament_state(tournament)
    if state.over:
        messages.info(request, f"{tournament.name} is over: no more hands can be recorded.")
        return redirect(tournament)
    form = HandEntry(
        tournament=tournament,
        state=state,
        data=request.POST or None,
        variant=request.GET.get("variant"),
    )
    if request.method == "POST" and not form.is_valid() and form.checkable():
        # Every error at once: what the engine says of the hand too (chips that do not add
        # up, say), with the cards that did not read left out.
        try:
            hand_check(tournament=tournament, by=request.user, asked=form.asked())
        except Conflict:
            pass  # a hand recorded meanwhile: said when the form is sent again
        except DomainError as exc:
            form.add_engine_error(exc)
    elif request.method == "POST" and form.is_valid():
        try:
            recorded = hand_record(tournament=tournament, by=request.user, asked=form.asked())
        except Conflict as exc:
            if exc.code != "hand_exists":
                form.add_domain_error(exc)
            else:
                state = tournament_state(tournament)
                form = HandEntry.after_conflict(tournament, state, request.POST, exc)
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            _note_form(request, token, recorded)
            return _recorded(request, tournament, recorded)
    form.focus_first_error()
    return render(
        request,
        "tracker/hand_form.html",
        {"form": form, "tournament": tournament, "state": state},
    )
