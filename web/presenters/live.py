"""The live logger's page object: the draft's title and stakes around the engine's screen
(tracker/engine/screen.py: the table now, what comes next as buttons and card slots, one
per option the machine's ``next_event()`` offers, with their labels), and the reading of a
page's POST back into table events. The phone's browser draws the same screen from the
same engine (static/js/logger.js), so the labels have one home."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html_join

from tracker.engine.errors import DomainError
from tracker.engine.events import TableEvent
from tracker.engine.games import load_game
from tracker.engine.screen import Screen, events_from_form, hand_title, screen, stakes_line
from tracker.hands.selectors.live import DraftState, draft_night
from web.presenters.games import definition_lines


@dataclass
class LivePage:
    """The draft's page: its state, title and stakes, and the engine's screen (whose
    fields it answers as its own: ``page.prompt``, ``page.buttons``, ...)."""

    state: DraftState
    title: str
    stakes: str
    screen: Screen

    def __getattr__(self, name: str) -> Any:
        if name == "screen":  # not set yet (e.g. while copying)
            raise AttributeError(name)
        return getattr(self.screen, name)

    @property
    def version(self) -> int:
        return self.state.draft.version

    @property
    def log_items(self) -> str:
        """The log as the page's list items, escaped (one join: a template loop over a
        late street's sixty lines costs as much as the rest of the page)."""
        return format_html_join("", "<li>{}</li>", ((line,) for line in self.log))

    @property
    def number(self) -> int:
        return self.state.draft.number

    @property
    def phone_setup(self) -> dict[str, Any]:
        """What the phone's engine needs to draw the screen itself (JSON): the variant,
        its options (a house game: its definition, ``game``), the stakes and level, the starting stacks, the seats' names and
        players (the dealer last) and the hand's number and title."""
        draft = self.state.draft
        return {
            "variant": draft.variant,
            "options": draft.options,
            "stakes": draft.stakes.as_dict(),
            "level": draft.level,
            "stacks": list(draft.starting_stacks),
            "names": self.state.names,
            "positions": list(draft.positions),
            "number": draft.number,
            "title": self.title,
            "stakes_line": self.stakes,
            # a house game: its definition at the draft's version (the phone deals it too),
            # and the game and version (the phone deals the same game again offline)
            "game": draft.game_version.definition if draft.game_version_id else None,
            "game_slug": draft.game_version.game.slug if draft.game_version_id else None,
            "game_version": draft.game_version.number if draft.game_version_id else None,
        }

    @property
    def phone_night(self) -> dict[str, Any]:
        """What the phone's engine needs to deal the next hand itself, offline (a house
        game's house choices in words too, for the next-hand picker)."""
        return night_in_words(draft_night(self.state.draft))

    @property
    def phone_steps(self) -> list[dict]:
        return list(self.state.draft.steps)


def night_in_words(night: dict[str, Any]) -> dict[str, Any]:
    """The night's data with each house game's rules in words (``announcements``, as the
    variants have their house rules), for the phone's next-hand picker."""
    for game in night.get("games") or ():
        if game.get("game"):
            game["announcements"] = " ".join(definition_lines(load_game(game["definition"])))
    return night


def live_page(state: DraftState) -> LivePage:
    """The page for where the draft stands: the table, then what comes next (betting
    buttons, the street's cards, the showdown), and whether it can be recorded."""
    draft = state.draft
    return LivePage(
        state=state,
        title=(
            f"Hand {draft.number} · {draft.game_version.game.name}"
            if draft.game_version_id
            else hand_title(draft.number, draft.variant)
        ),
        stakes=stakes_line(
            draft.level,
            {
                "ante": draft.ante,
                "bring_in": draft.bring_in,
                "small_bet": draft.small_bet,
                "big_bet": draft.big_bet,
            },
        ),  # fmt: skip
        screen=screen(state.now),
    )


def events_from_post(state: DraftState, post: Mapping[str, Any]) -> list[TableEvent]:
    """The events a live page's form sends (the machine checks them when applied)."""
    return events_from_form(state.now, post)


def table_result_from_post(state: DraftState, post: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table's result sent with "Record hand" (``result-<seat>``), if any was given:
    ``{"winners": [ids]}`` or ``{"high": [...], "low": [...]}`` (docs/recording.md)."""
    ids = state.draft.positions
    winners: list[int] = []
    high: list[int] = []
    low: list[int] = []
    for seat in range(len(ids)):
        value = post.get(f"result-{seat}", "")
        if value == "won":
            winners.append(ids[seat])
        if value in ("high", "both"):
            high.append(ids[seat])
        if value in ("low", "both"):
            low.append(ids[seat])
    if winners and (high or low):
        raise DomainError(
            "name the winners either as winning or as high/low, not both ways",
            field="table_result",
        )
    if winners:
        return {"winners": winners}
    if high or low:
        return {"high": high, "low": low}
    return None


def live_answer(page: LivePage, *, tournament, request=None, log: bool = False) -> dict[str, Any]:
    """The draft as the outbox answers it: only what the phone redraws from, the page's
    draft section (``html``, as the page itself renders it: its buttons, table and log are
    there once) and which draft and version it is of; ``log``: the log's lines too (a
    conflict's other screen, shown beside the phone's lines)."""
    draft = page.state.draft
    html = render_to_string(
        "tracker/_live_draft.html", {"tournament": tournament, "page": page}, request=request
    )
    answer: dict[str, Any] = {
        "draft": draft.pk,
        "number": draft.number,
        "version": draft.version,
        "status": draft.status,
        "html": html,
    }
    if log:
        answer["log"] = page.log
    return answer
