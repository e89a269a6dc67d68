"""A league's money ledger page: each player's balance, the league's settle-up with a
"Mark paid" button per transfer the viewer may mark (its payer, its payee or an admin),
and an admin's correction form (docs/money.md, "The league ledger")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from tracker.core.permissions import Capability
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_league
from tracker.money.ledger_services import ledger_correction_add, ledger_payment_record
from web.forms.ledger import CorrectionForm
from web.presenters.ledger import ledger_view
from web.views.common import page_gate


def _render(request, league, can, form=None, status=200):
    page = ledger_view(league, can=can, user=request.user)
    if form is None and can.correct_money:
        form = CorrectionForm(players=page.players, currency=page.ledger.currency)
    return render(
        request,
        "tracker/league_ledger.html",
        {"league": league, "can": can, "page": page, "form": form},
        status=status,
    )


@require_GET
def league_ledger_page(request, slug):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.VIEW_MONEY, "see the money")
    if can is None:
        return redirect_to_login(request.get_full_path())
    return _render(request, league, can)


@require_POST
def ledger_paid_page(request, slug):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.VIEW_MONEY, "see the money")
    if can is None:
        return redirect_to_login(f"/leagues/{slug}/ledger/")
    back = redirect("league-ledger", slug=slug)
    try:
        amount = int(request.POST.get("amount", ""))
    except ValueError:
        messages.error(request, "Not marked paid: the amount is not a whole number.")
        return back
    try:
        ledger_payment_record(
            league=league,
            payer=request.POST.get("payer"),
            payee=request.POST.get("payee"),
            amount=amount,
            by=request.user,
        )
    except DomainError as exc:
        messages.error(request, f"Not marked paid: {exc.message}.")
        return back
    messages.success(request, "Payment recorded in the ledger.")
    return back


@require_POST
def ledger_correction_page(request, slug):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.CORRECT_MONEY, "correct the money ledger")
    if can is None:
        return redirect_to_login(f"/leagues/{slug}/ledger/")
    page = ledger_view(league, can=can, user=request.user)
    form = CorrectionForm(request.POST, players=page.players, currency=page.ledger.currency)
    if form.is_valid():
        try:
            ledger_correction_add(
                league=league,
                player_id=form.cleaned_data["player"],
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            messages.success(request, "Correction added to the ledger.")
            return redirect("league-ledger", slug=slug)
    return _render(request, league, can, form=form, status=400)
