"""Pages for disputes and rulings: the league's dispute queue, the ruling form, the dispute
form and the audit log. Thin: selectors read, services write, DomainErrors become form errors.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tracker.core.permissions import Capability
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_league
from tracker.rulings.selectors import OPEN, STATES, audit_log
from tracker.rulings.services import dispute_raise, ruling_make
from web.forms.rulings import DisputeForm, RulingForm
from web.presenters.rulings import dispute_queue, pot_case
from web.views.common import login_first, page_gate

AUDIT_PAGE = 50


# --------------------------------------------------------------------------
# Pages


@require_GET
def disputes(request, slug):
    state = request.GET.get("state", OPEN)
    queue = dispute_queue(request.user, slug, state if state in STATES else OPEN)
    return render(request, "tracker/disputes.html", {"queue": queue, "can": queue.can})


@require_http_methods(["GET", "POST"])
def ruling_new(request, pk, index):
    case = pot_case(request.user, pk, index)
    can = page_gate(request, case.league, Capability.RULE, "rule on a pot")
    if can is None:
        return login_first(request)
    form = RulingForm(request.POST or None, case=case)
    if request.method == "POST" and form.is_valid():
        try:
            ruling = ruling_make(
                pot=case.pot,
                by=request.user,
                result=form.cleaned_data["result"],
                reason=form.cleaned_data["reason"],
                award=form.award(),
                base_url=request.build_absolute_uri("/"),
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            moved = sum(abs(d) for d in ruling.correction.values()) // 2
            note = f"{moved} chips moved" if moved else "no chips moved"
            if ruling.flagged_hands:
                note += "; hands " + ", ".join(map(str, ruling.flagged_hands))
                note += " flagged for review"
            messages.success(
                request,
                f"Ruling recorded on hand {case.hand.number}, {case.title.lower()}: {note}.",
            )
            return redirect(reverse("disputes", kwargs={"slug": case.league.slug}))
    return render(
        request,
        "tracker/ruling_form.html",
        {"case": case, "cases": [case], "form": form, "mode": "ruling"},
    )


@require_http_methods(["GET", "POST"])
def dispute_new(request, pk, index):
    case = pot_case(request.user, pk, index)
    can = page_gate(request, case.league, Capability.DISPUTE, "dispute a pot")
    if can is None:
        return login_first(request)
    form = DisputeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            dispute_raise(
                pot=case.pot,
                by=request.user,
                reason=form.cleaned_data["reason"],
                base_url=request.build_absolute_uri("/"),
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            messages.success(
                request,
                f"Hand {case.hand.number}, {case.title.lower()}: your dispute is with "
                f"the league's authority.",
            )
            return redirect(case.hand.get_absolute_url())
    return render(
        request,
        "tracker/ruling_form.html",
        {"case": case, "cases": [case], "form": form, "mode": "dispute"},
    )


@require_GET
def audit(request, slug):
    league = visible_league(request.user, slug)
    if not request.user.is_authenticated:
        return login_first(request)
    entries = audit_log(request.user, league).order_by("-id")
    action = request.GET.get("action", "").strip()
    actor = request.GET.get("actor", "").strip()
    if action:
        entries = entries.filter(action__startswith=action)
    if actor:
        entries = entries.filter(actor=actor)
    page = Paginator(entries, AUDIT_PAGE).get_page(request.GET.get("page"))
    actions = audit_log(request.user, league).order_by().values_list("action", flat=True).distinct()
    return render(
        request,
        "tracker/audit.html",
        {
            "league": league,
            "page": page,
            "action": action,
            "actor": actor,
            "actions": sorted(set(actions)),
        },
    )
