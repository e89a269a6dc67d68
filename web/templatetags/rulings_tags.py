"""Template tags for disputes and rulings on other pages (the hand page, hand lists).

``{% hand_rulings hand as r %}`` gives ``r.cases`` (the hand's disputed or ruled pots,
both readings side by side), ``r.pots`` (every pot, for the dispute form), ``r.can_rule``
and ``r.can_dispute`` from the capabilities the view put in the context as ``can``
(tracker/core/permissions.py); a template rendered without them (an include rendered on its
own) gets the request user's, from the same table. The tags decide nothing themselves. ``{% ruling_state hand %}`` is
``open``, ``override``, ``ruled`` or ``""``, computed once per tournament and template render.
``r.open_disputes`` counts the league's open pots, for the disputes link (the hand page reads
that count with its hand: ``with_open_disputes``).
"""

from __future__ import annotations

from django import template

from tracker.core.permissions import NOBODY, capabilities
from tracker.hands.models import SETTLED, Hand
from tracker.rulings.selectors import hand_ruling_states, open_disputes_count
from web.presenters.rulings import hand_rulings

register = template.Library()


@register.simple_tag(takes_context=True, name="hand_rulings")
def hand_rulings_of(context, hand) -> dict:
    can = context.get("can")
    if can is None:
        request = context.get("request")
        user = getattr(request, "user", None)
        can = capabilities(user, hand.tournament.league) if user is not None else NOBODY
    settled = hand.status in SETTLED
    return {
        "cases": hand_rulings(hand),
        "pots": list(hand.pots.all()) if settled else [],
        "can_rule": can.rule,
        "can_dispute": settled and can.dispute,
        # read with the hand when the page asked for it (with_open_disputes)
        "open_disputes": hand.open_disputes
        if hasattr(hand, "open_disputes")
        else open_disputes_count(hand.tournament.league),
    }


@register.simple_tag(takes_context=True)
def rulings_view(context, hand=None, cases=None, listing=False, can_rule=False) -> dict:
    """What _rulings.html shows: a hand's pots (``hand``), or the ``cases`` given (a list)."""
    if listing:
        return {
            "cases": cases or [],
            "pots": [],
            "can_rule": bool(can_rule),
            "can_dispute": False,
            "open_disputes": 0,
        }
    return hand_rulings_of(context, hand)


@register.simple_tag(takes_context=True)
def ruling_state(context, hand) -> str:
    cache = context.render_context.setdefault("homegame_ruling_states", {})
    key = hand.tournament_id
    if key not in cache:
        cache[key] = hand_ruling_states(Hand.objects.filter(tournament_id=key).only("id"))
    return cache[key].get(hand.pk, "")
