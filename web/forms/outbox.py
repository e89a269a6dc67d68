"""The live logger's outbox as the page's JavaScript sends it (static/js/homegame.js): a JSON
body read into :class:`~tracker.hands.services.outbox.OutboxChange` objects, every fault
named by its path (``changes[2].base``) so nothing is applied from a malformed batch."""

from __future__ import annotations

import json
import uuid
from typing import Any

from tracker.engine.errors import Code, DomainError
from tracker.hands.services.outbox import OutboxChange
from web.forms.drafts import VERSION_MAX

#: At most this many changes in one batch (a whole night logged offline is far fewer).
BATCH_MAX = 500


def json_body(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise DomainError("the body is not JSON", code=Code.INVALID_JSON) from None
    if not isinstance(data, dict):
        raise DomainError("the body is a JSON object", code=Code.INVALID_JSON)
    return data


def _whole(value: Any, field: str, *, high: int = VERSION_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise DomainError(f"must be a whole number from 0 to {high}", field=field)
    return value


def _started_hand(hand: Any, path: str) -> dict[str, Any]:
    """The hand a phone started offline, as it assumed it (the server checks it against
    the hand it deals): its number, level, game (a house game's slug and version too),
    announcements, seats, stacks and stakes."""
    if not isinstance(hand, dict):
        raise DomainError(
            "must be the hand this phone started (its number, game, seats, stacks, stakes)",
            field=path,
        )
    _whole(hand.get("number"), f"{path}.number")
    _whole(hand.get("level"), f"{path}.level")
    if not isinstance(hand.get("variant"), str):
        raise DomainError("must name the game", field=f"{path}.variant")
    if not isinstance(hand.get("options", {}), dict):
        raise DomainError("must be an object of announcements", field=f"{path}.options")
    if hand.get("game_slug") is not None and not isinstance(hand["game_slug"], str):
        raise DomainError("must name the house game by its slug", field=f"{path}.game")
    if hand.get("game_version") is not None:
        _whole(hand["game_version"], f"{path}.game_version")
    for name in ("positions", "stacks"):
        values = hand.get(name)
        if not isinstance(values, list):
            raise DomainError("must be a list of whole numbers", field=f"{path}.{name}")
        for k, value in enumerate(values):
            _whole(value, f"{path}.{name}[{k}]", high=2**63 - 1)
    stakes = hand.get("stakes")
    if not isinstance(stakes, dict):
        raise DomainError("must be the hand's stakes", field=f"{path}.stakes")
    for name, value in stakes.items():
        _whole(value, f"{path}.stakes.{name}", high=2**63 - 1)
    return hand


def _change(raw: Any, path: str) -> OutboxChange:
    if not isinstance(raw, dict):
        raise DomainError("a change is an object", field=path)
    try:
        client_id = uuid.UUID(str(raw.get("id", "")))
    except ValueError:
        raise DomainError("must be the change's client id (a UUID)", field=f"{path}.id") from None
    op = raw.get("op")
    if not isinstance(op, str) or not op or len(op) > 16:
        raise DomainError("must name the change (events, undo, finish, ...)", field=f"{path}.op")
    events = raw.get("events", [])
    if not isinstance(events, list) or (op == "events" and not events):
        raise DomainError("must be a list of events", field=f"{path}.events")
    form = raw.get("form", {})
    if not isinstance(form, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in form.items()
    ):
        raise DomainError("must be the form's fields, as text", field=f"{path}.form")
    result = raw.get("table_result")
    if result is not None and not isinstance(result, dict):
        raise DomainError("must be an object", field=f"{path}.table_result")
    hand = _started_hand(raw.get("hand"), f"{path}.hand") if op == "start" else None
    start = None
    if raw.get("start") is not None:
        try:
            start = uuid.UUID(str(raw["start"]))
        except ValueError:
            raise DomainError(
                "must be the client id of the hand's start (a UUID)", field=f"{path}.start"
            ) from None
    draft = raw.get("draft")
    if draft is None and op != "start" and start is None:
        raise DomainError("must name the hand: its draft, or its start", field=f"{path}.draft")
    return OutboxChange(
        client_id=client_id,
        draft=None if draft is None else _whole(draft, f"{path}.draft", high=2**63 - 1),
        start=start,
        hand=hand,
        base=_whole(raw.get("base"), f"{path}.base"),
        op=op,
        events=tuple(events),
        form=form,
        table_result=result,
    )


def outbox_changes(data: dict[str, Any], field: str = "changes") -> list[OutboxChange]:
    """The batch's changes; a DomainError naming the first one at fault."""
    raw = data.get(field)
    if not isinstance(raw, list):
        raise DomainError("must be a list of changes", field=field)
    if len(raw) > BATCH_MAX:
        raise DomainError(f"at most {BATCH_MAX} changes a batch", field=field)
    changes = [_change(item, f"{field}[{k}]") for k, item in enumerate(raw)]
    ids = [c.client_id for c in changes]
    if len(set(ids)) != len(ids):
        raise DomainError("each change has its own client id", field=field)
    return changes


def resolve_choice(data: dict[str, Any]) -> tuple[int, str, int]:
    """The draft, the version kept (``mine``/``theirs``) and the server version offered."""
    keep = data.get("keep")
    if keep not in ("mine", "theirs"):
        raise DomainError("must be 'mine' or 'theirs'", field="keep")
    draft = _whole(data.get("draft"), "draft", high=2**63 - 1)
    return draft, keep, _whole(data.get("server_version"), "server_version")
