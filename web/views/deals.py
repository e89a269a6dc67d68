"""The deal the players still in agreed to, recorded by an admin from the tournament page's
deal section (docs/money.md, "Deals"). A refusal shows the page again with what was typed."""

from __future__ import annotations

import dataclasses
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_tournament
from tracker.money.deal_services import deal_record
from tracker.money.formatting import minor_digits
from tracker.money.selectors import night_money
from web.presenters.pages import tournament_page


def _posted(request, currency: str) -> tuple[str, list[int], dict[str, object]]:
    """The option, who agreed and the amounts typed in (minor units; a text that is not an
    amount is passed on as it is, so the service names it)."""
    option = request.POST.get("option", "")
    agreed = [int(v) for v in request.POST.getlist("agreed") if v.isdigit()]
    amounts: dict[str, object] = {}
    digits = minor_digits(currency)
    for name, value in request.POST.items():
        if name.startswith("amount-") and name[7:].isdigit():
            text = value.strip()
            try:
                amount = Decimal(text).scaleb(digits)
                amounts[name[7:]] = int(amount) if amount == amount.to_integral_value() else text
            except InvalidOperation:
                amounts[name[7:]] = text
    return option, agreed, amounts


@require_POST
def deal_new(request, pk):
    tournament = visible_tournament(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    option, agreed, amounts = _posted(request, night_money(tournament).currency)
    try:
        deal_record(
            tournament=tournament,
            by=request.user,
            option=option,
            agreed_by=agreed,
            amounts=amounts if option == "custom" else None,
        )
    except DomainError as exc:
        page = tournament_page(request.user, pk)
        if page.deal is not None:
            page.deal.error = exc.message
            page.deal.chosen = option
            page.deal.rows = [
                dataclasses.replace(
                    row,
                    typed=request.POST.get(f"amount-{row.player_id}", ""),
                    agreed=row.player_id in agreed,
                )
                for row in page.deal.rows
            ]
        return render(request, "tracker/tournament.html", {"page": page}, status=400)
    messages.success(request, "Deal recorded: the night is over.")
    return redirect(f"{tournament.get_absolute_url()}#deal")
