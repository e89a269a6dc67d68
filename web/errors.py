"""The pages' one adapter from a DomainError to Django form errors.

A DomainError carries its field paths as data (``{"entry.seats[1].put_in": [...]}``). A form
says, in a small table, which input each path prefix belongs to (:class:`Route`); the adapter
reads each path into its parts (tracker/core/paths.py) and hands the rest of the path after
the longest matching prefix to that route. A path no route takes is shown at the top of the
form with the path it names.

The engine counts seats by position from the dealer's left and says "seat 2" in its
messages. Where an error's own paths name a seat, the form shows that seat's player instead
(:func:`seat_names`): the seats come from the paths, never from reading the message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tracker.core.paths import FieldPath, Part
from tracker.engine.errors import DomainError

# A route gets the rest of the path (after its prefix) and the messages; False: not placed.
Place = Callable[[FieldPath, list[str]], bool]


@dataclass(frozen=True)
class Route:
    prefix: tuple[Part, ...]
    place: Place


def messages_of(messages: Sequence[str] | str) -> list[str]:
    return [messages] if isinstance(messages, str) else list(messages)


def seat_names(message: str, names: Mapping[int, str]) -> str:
    """``message`` with "seat k" said as the player's name, for each seat ``k`` in ``names``."""
    for k, name in names.items():
        message = message.replace(f"seat {k}", name)
    return message


def seats_named(exc: DomainError, prefix: tuple[Part, ...]) -> list[int]:
    """The seat indexes the error's paths name right after ``prefix`` (``entry.seats[k]``)."""
    out = []
    for text in exc.fields:
        k = FieldPath.parse(text).seat(*prefix)
        if k is not None and k not in out:
            out.append(k)
    return out


def add_domain_error(
    exc: DomainError,
    routes: Sequence[Route],
    unplaced: Callable[[str, list[str]], None],
    say: Callable[[str], str] = str,
) -> None:
    """Put each of the error's field messages on the input its path names.

    ``say`` words a message for the page (e.g. :func:`seat_names`); ``unplaced(path, messages)``
    gets what no route took.
    """
    ordered = sorted(routes, key=lambda r: len(r.prefix), reverse=True)
    for text, messages in (exc.fields or {}).items():
        path = FieldPath.parse(text)
        worded = [say(m) for m in messages_of(messages)]
        for route in ordered:
            if path.startswith(*route.prefix) and route.place(path.after(*route.prefix), worded):
                break
        else:
            unplaced(text, worded)


def add_form_errors(
    form,
    exc: DomainError,
    routes: Sequence[Route],
    unplaced: Callable[[str, list[str]], None] | None = None,
) -> None:
    """:func:`add_domain_error` for one Django form: what no route takes is a non-field error
    (or goes to ``unplaced``), and an error with no field paths (or none placed) shows its
    message at the top of the form."""
    placed: list[str] = []

    def tracked(route: Route) -> Route:
        def place(rest: FieldPath, messages: list[str]) -> bool:
            ok = route.place(rest, messages)
            if ok:
                placed.append(str(rest))
            return ok

        return Route(route.prefix, place)

    def fallback(path: str, messages: list[str]) -> None:
        if unplaced is not None:
            unplaced(path, messages)
            return
        for m in messages:
            form.add_error(None, m)
        placed.append(path)

    add_domain_error(exc, [tracked(r) for r in routes], fallback)
    if not placed:
        form.add_error(None, exc.message)


def field_route(form, path: str, name: str | None = None) -> Route:
    """A route putting the messages of the path ``path`` on the form's input ``name`` (the
    same name unless given)."""

    def place(rest: FieldPath, messages: list[str]) -> bool:
        for m in messages:
            form.add_error(name or path, m)
        return True

    return Route((path,), place)
