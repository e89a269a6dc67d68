"""Pages for disputes and rulings: the league's dispute queue, the ruling form, the dispute
form and the audit log. Thin: selectors read, services write, DomainErrors become form errors.
"""

from __future__ import annotations

from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tracker.core.errors import NotFound
from tracker.core.errors import PermissionDenied as DomainPermissionDenied
from tracker.core.paths import FieldPath
from tracker.core.permissions import capabilities
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import visible_league
from tracker.rulings.models import RulingResult
from tracker.rulings.selectors import OPEN, STATES, audit_log, dispute_queue, pot_case
from tracker.rulings.services import REASON_MAX, dispute_raise, ruling_make
from web.errors import Route, add_form_errors

AUDIT_PAGE = 50


def _domain_errors_as_http(view):
    """NotFound is a 404; a domain PermissionDenied is Django's 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from None
        except DomainPermissionDenied as exc:
            raise PermissionDenied(exc.message) from None

    return wrapper


# --------------------------------------------------------------------------
# Forms


class RulingForm(forms.Form):
    result = forms.ChoiceField(
        choices=RulingResult.choices,
        # site.css sizes checkboxes, not radios: keep the radio its own size.
        widget=forms.RadioSelect(attrs={"style": "width:1.2rem;height:1.2rem;min-height:0"}),
        label="Which result stands",
    )
    reason = forms.CharField(
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Required. It is shown with the ruling, for good.",
    )

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.case = case
        if case.pot.table_award is None:
            self.fields["result"].choices = [
                c for c in RulingResult.choices if c[0] != RulingResult.TABLE
            ]
        self.award_fields = []
        for p in case.players:
            if not p.eligible:
                continue
            name = f"award_{p.player_id}"
            self.fields[name] = forms.IntegerField(
                min_value=0,
                max_value=case.pot.amount,
                required=False,
                label=p.name,
                initial=p.stands,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.award_fields.append(name)

    def award_inputs(self):
        return [self[name] for name in self.award_fields]

    def award(self) -> dict | None:
        if self.cleaned_data.get("result") != RulingResult.AWARD:
            return None
        return {
            name.removeprefix("award_"): self.cleaned_data.get(name) or 0
            for name in self.award_fields
        }

    def add_domain_error(self, exc: DomainError) -> None:
        def field(name: str):
            def place(rest: FieldPath, messages: list[str]) -> bool:
                for m in messages:
                    self.add_error(name, m)
                return True

            return place

        def award(rest: FieldPath, messages: list[str]) -> bool:
            name = f"award_{rest}"
            return len(rest) == 1 and name in self.fields and field(name)(rest, messages)

        add_form_errors(
            self,
            exc,
            [
                Route(("result",), field("result")),
                Route(("reason",), field("reason")),
                Route(("award",), award),
            ],
        )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="What went wrong: the cards, a wild card, the split, the award.",
    )


# --------------------------------------------------------------------------
# Pages


@require_GET
@_domain_errors_as_http
def disputes(request, slug):
    state = request.GET.get("state", OPEN)
    queue = dispute_queue(request.user, slug, state if state in STATES else OPEN)
    return render(request, "tracker/disputes.html", {"queue": queue, "can": queue.can})


def _on_reason(form: forms.Form):
    def place(rest: FieldPath, messages: list[str]) -> bool:
        if rest.parts:
            return False
        for m in messages:
            form.add_error("reason", m)
        return True

    return place


def _login_first(request):
    return redirect_to_login(request.get_full_path())


@require_http_methods(["GET", "POST"])
@_domain_errors_as_http
def ruling_new(request, pk, index):
    case = pot_case(request.user, pk, index)
    if not request.user.is_authenticated:
        return _login_first(request)
    league = case.league
    can = capabilities(request.user, league)
    if not can.rule:
        raise PermissionDenied(
            f"Only the authority of {league.name} rules on pots (your role: {can.role or 'none'})."
        )
    form = RulingForm(request.POST or None, case=case)
    if request.method == "POST" and form.is_valid():
        try:
            ruling = ruling_make(
                pot=case.pot,
                by=request.user,
                result=form.cleaned_data["result"],
                reason=form.cleaned_data["reason"],
                award=form.award(),
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
            return redirect(reverse("disputes", kwargs={"slug": league.slug}))
    return render(
        request,
        "tracker/ruling_form.html",
        {"case": case, "cases": [case], "form": form, "mode": "ruling"},
    )


@require_http_methods(["GET", "POST"])
@_domain_errors_as_http
def dispute_new(request, pk, index):
    case = pot_case(request.user, pk, index)
    if not request.user.is_authenticated:
        return _login_first(request)
    league = case.league
    if not capabilities(request.user, league).dispute:
        raise PermissionDenied(f"Only members of {league.name} may dispute a pot.")
    form = DisputeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            dispute_raise(pot=case.pot, by=request.user, reason=form.cleaned_data["reason"])
        except DomainError as exc:
            add_form_errors(form, exc, [Route(("reason",), _on_reason(form))])
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
@_domain_errors_as_http
def audit(request, slug):
    league = visible_league(request.user, slug)
    if not request.user.is_authenticated:
        return _login_first(request)
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
