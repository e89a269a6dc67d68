"""Hand statuses and announcements in words, for every page and answer that shows them."""

from __future__ import annotations

from tracker.hands.models import HandStatus

STATUS_LABELS = {
    HandStatus.RECORDED: "recorded",
    HandStatus.VERIFIED: "verified",
    HandStatus.DISPUTED: "disputed",
    HandStatus.INVALID: "invalid",
    HandStatus.VOID: "void",
}
STATUS_HELP = {
    HandStatus.RECORDED: "recorded, waiting for the engine to settle it",
    HandStatus.VERIFIED: "the engine agrees with the table",
    HandStatus.DISPUTED: "the engine and the table disagree on a pot",
    HandStatus.INVALID: "the stacks do not allow what the hand records",
    HandStatus.VOID: "declared void: no chips moved",
}


def announcement_text(name: str, value) -> str:
    """An announcement's value in words: ``yes``, ``no``, ``high low``, ``8``, ..."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "one big bet" if name == "buy_price" else "none"
    return str(value).replace("_", " ")
