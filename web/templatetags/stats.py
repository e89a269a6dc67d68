"""Numbers on the statistics pages: ``{{ s.vpip_pct|pct }}`` -> ``23.5%`` (or ``—``)."""

from __future__ import annotations

from django import template

register = template.Library()

DASH = "—"


@register.filter
def pct(value) -> str:
    """A percentage, or a dash when there was nothing to count."""
    if value is None:
        return DASH
    return f"{value:g}%"


@register.filter
def num(value) -> str:
    """A number with thousands separators, or a dash for ``None``."""
    if value is None:
        return DASH
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{int(value):,}"


@register.filter
def signed(value) -> str:
    """``+12.5`` / ``−3`` / ``0``, or a dash for ``None``."""
    if value is None:
        return DASH
    text = num(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"−{text}"
    return "0"


@register.filter
def sign_class(value) -> str:
    """``pos`` / ``neg`` / empty: the colour class of a signed number."""
    if value is None or value == 0:
        return ""
    return "pos" if value > 0 else "neg"
