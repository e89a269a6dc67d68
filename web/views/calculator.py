"""The showdown calculator."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from tracker.engine.errors import DomainError
from web.forms.calculator import Calculator
from web.presenters.calculator import WILD_RULES, calculate


@require_GET
def calculator(request):
    calc = Calculator(request.GET or None)
    result = None
    showdown = calc.showdown()
    if showdown is not None:
        try:
            result = calculate(showdown, [p.display_name for p in calc.filled])
        except DomainError as exc:
            calc.add_domain_error(exc)
    return render(
        request,
        "tracker/calculator.html",
        {"calc": calc, "result": result, "wild_rules": WILD_RULES},
    )
