"""Pages for the tests: a response's HTML and visible text, and the hand entry form's data."""

from __future__ import annotations

import re

from tracker.tournaments.selectors import tournament_state


def html(response) -> str:
    """The response's body as text."""
    return response.content.decode()


def text(response) -> str:
    """The page's visible text, tags stripped and white space collapsed."""
    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html(response), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def form_data(tournament, seats, **extra) -> dict:
    """POST data for the entry form: ``seats`` is a list (by position) of dicts of
    field -> value (put_in, folded, d1..c7, result, ...)."""
    state = tournament_state(tournament)
    data = {"number": str(state.next_number), "variant": extra.pop("variant", "")}
    for seat, fields in zip(state.next_positions(), seats, strict=True):
        for key, value in fields.items():
            data[f"p{seat.player_id}-{key}"] = str(value)
    data.update(extra)
    return data
