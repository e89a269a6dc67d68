"""Playing cards in templates: ``{{ "Kd"|card }}`` renders K♦ in red.

``card`` takes a card token (any spelling the engine parses, or ``"??"`` for an
unseen card) and an optional comma-separated list of flags: ``down`` (a hole
card), ``wild`` (marked wild), ``dim`` (not part of the hand). ``cards`` renders
a list of tokens the same way.
"""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from tracker.engine.cards import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_symbol,
    is_unknown,
    parse_card,
    symbol_text,
)
from tracker.engine.errors import DomainError

register = template.Library()

SUIT_BY_SYMBOL = dict(zip(SUIT_SYMBOLS, SUIT_NAMES, strict=True))  # "♣": "clubs", ...
RANK_NAMES = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "10": "ten",
}


def _flags(arg) -> list[str]:
    if not arg:
        return []
    return [f.strip() for f in str(arg).split(",") if f.strip()]


def card_label(token) -> str:
    """Words for screen readers: ``"Kd"`` -> ``"king of diamonds"``."""
    try:
        symbol = card_symbol(parse_card(token))
    except DomainError:
        return "unknown card"
    rank, suit = symbol[:-1], symbol[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_BY_SYMBOL[suit]}"


@register.filter
def card(token, arg=None):
    try:
        return _card(token, arg)
    except TypeError:  # not hashable: not kept
        return _card.__wrapped__(token, arg)


@functools.lru_cache(maxsize=2048)
def _card(token, arg):
    """One card's HTML, kept: a page draws the same few cards many times (the live
    logger's table redraws every seat's at each step)."""
    flags = _flags(arg)
    if token is None or token == "" or is_unknown(token):
        return mark_safe('<span class="card back" title="unseen card">?</span>')
    try:
        symbol = card_symbol(parse_card(token))
    except DomainError:
        return format_html('<span class="card bad">{}</span>', token)
    classes = ["card"]
    if symbol[-1] in "♥♦":
        classes.append("red")
    classes.extend(flags)
    return format_html(
        '<span class="{}" title="{}">{}<span class="suit">{}</span></span>',
        " ".join(classes),
        card_label(token) + (" (face down)" if "down" in flags else ""),
        symbol[:-1],
        symbol[-1],
    )


@register.filter
def cards(tokens, arg=None):
    if not tokens:
        return ""
    return format_html_join("", "{}", ((card(t, arg),) for t in tokens))


@register.filter
def symbol(token) -> str:
    """Plain text symbol form: ``"Tc"`` -> ``"10♣"`` (``symbol_text``)."""
    return symbol_text(token)


@register.filter
def chips(value) -> str:
    """Signed chips for nets: ``+52`` / ``−24`` / ``0``."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return ""
    if value > 0:
        return f"+{value:,}"
    if value < 0:
        return f"−{-value:,}"
    return "0"


@register.filter
def get(mapping, key):
    """``{{ mapping|get:key }}`` for dicts in templates."""
    if mapping is None:
        return None
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def street(number) -> str:
    """``3`` -> ``"3rd street"``; 8 is the showdown."""
    names = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}
    try:
        return names.get(int(number), "the showdown")
    except (TypeError, ValueError):
        return ""
