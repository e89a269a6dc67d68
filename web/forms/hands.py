"""The hand entry form (quick entry on the page).

The form parses what was typed (cards, chips, choices) and keeps it for
re-display; the rules are checked by the services and the engine, whose
DomainError field paths (``entry.seats[1].down[0]``, ``options.king_required``,
``variant``, ...) are put back on the inputs at fault (web/errors.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine.announcements import (
    VARIANTS,
)
from tracker.engine.cards import RANK_CHARS
from tracker.engine.errors import DomainError
from tracker.engine.variants import SEVEN_CARD_STUD, VARIANT_RULES
from tracker.games.selectors import league_games
from tracker.hands.requests import HandRequest
from web.errors import Place, Route, add_domain_error, seat_names, seats_named
from web.forms.cards import (
    CARD_SLOTS,
    DECLARE_CHOICES,
    SEVENTH_CHOICES,
    VARIANT_CHOICES,
    AnnouncementsForm,
    CardField,
    CardsMixin,
    add_card_fields,
    check_duplicates,
)
from web.forms.house_seats import SeatShape, parse_pays, seat_shape, shaped_cards

#: The variant field's value for a league's house game: this, then the game's slug.
GAME_CHOICE = "game:"

FOLD_CHOICES = [
    ("", "In to the showdown"),
    ("third", "Folded on 3rd street"),
    ("fourth", "Folded on 4th street"),
    ("fifth", "Folded on 5th street"),
    ("sixth", "Folded on 6th street"),
    ("seventh", "Folded on 7th street"),
    ("showdown", "Mucked at the showdown"),
]
RESULT_CHOICES = [
    ("", "—"),
    ("won", "Won"),
    ("high", "Won high"),
    ("low", "Won low"),
    ("both", "Won high and low"),
]
# A quick-entry seat's own fields, as paths after ``entry.seats[k]``.
SEAT_FIELD_PATHS = {
    (name,) for name in ("put_in", "folded", "bought", "declare", "seventh", "paid")
}
# The parts of a seat's entry that are its cards.
SEAT_CARD_PARTS = ("down", "up")


@dataclass(frozen=True)
class SummaryItem:
    """One error of the hand, for the list at the top of the form: where it is, what it says,
    and the id of the input it links to."""

    where: str
    message: str
    target: str


# --------------------------------------------------------------------------
# The hand entry form


class SeatForm(CardsMixin, forms.Form):
    put_in = forms.IntegerField(
        min_value=0,
        required=False,  # blank is the ante for a seat folded on third street (clean)
        label="Chips in",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "chips-input"}),
    )
    fold3 = forms.BooleanField(
        required=False,
        label="Folded on 3rd street",
        widget=forms.CheckboxInput(attrs={"class": "fold3-input"}),
    )
    folded = forms.ChoiceField(choices=FOLD_CHOICES, required=False, label="Finished")
    seventh = forms.ChoiceField(choices=SEVENTH_CHOICES, required=False, label="Seventh card")
    bought = forms.BooleanField(required=False, label="Bought the seventh card")
    declare = forms.ChoiceField(choices=DECLARE_CHOICES, required=False, label="Declared")
    result = forms.ChoiceField(choices=RESULT_CHOICES, required=False, label="The table says")

    def __init__(
        self,
        *args,
        seat=None,
        stack: int = 0,
        dealer: bool = False,
        ante: int = 0,
        shape: SeatShape | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.shape = shape
        if shape is None:
            add_card_fields(self)
            self.slots: tuple[str, ...] = CARD_SLOTS
        else:  # a house game: the seat as its definition deals it
            for slot in shape.slots:
                self.fields[slot.name] = CardField(label=slot.label)
                self.fields[slot.name].label = slot.label
            self.slots = shape.names
            self.fields["folded"].choices = shape.fold_choices()
            self.fields["fold3"].label = f"Folded on {shape.street_names[0]} street"
            if shape.has_choice:
                self.fields["seventh"].choices = [
                    ("", "—"),
                    ("down", "Turned face down"),
                    ("up", "Turned face up"),
                ]
                self.fields["seventh"].label = "The choice card"
            if shape.has_pays:
                ranks = ", ".join(RANK_CHARS[p.rank - 2] for p in shape.game.pays)
                self.fields["paid"] = forms.CharField(
                    required=False,
                    max_length=60,
                    label=f"Paid for a {ranks} up",
                    help_text="Each pay in the order dealt, like 3, 6; blank: folded instead.",
                    widget=forms.TextInput(attrs={"inputmode": "numeric", "class": "paid-input"}),
                )
        self.seat = seat
        self.stack = stack
        self.dealer = dealer
        # What "folded on 3rd street" fills in: the ante (all of a shorter stack).
        self.ante = min(ante, stack)
        self.fields["fold3"].widget.attrs["data-ante"] = str(self.ante)
        self.paths: dict[str, str] = {}

    @property
    def folded_third(self) -> bool:
        """Ticked "folded on 3rd street": the seat's cards are hidden and not read."""
        if hasattr(self, "cleaned_data"):
            return bool(self.cleaned_data.get("fold3"))
        return self.is_bound and self["fold3"].value() in (True, "on", "true", "1")

    def clean(self):
        data = super().clean()
        if data.get("fold3"):
            # The seat folded on third street: its cards are hidden on the page and not
            # read; blank chips are the ante. Typed chips stay (the bring-in, say): the
            # engine checks them against the others.
            data["folded"] = "third"
            kept = self.shape.kept_on_first_fold if self.shape is not None else ()
            for slot in self.slots:
                if slot in kept:  # the game's rules act on that up card: still read
                    continue
                self.errors.pop(slot, None)
                data[slot] = ""
            for name in ("seventh", "declare", "result"):
                self.errors.pop(name, None)
                data[name] = ""
            data["bought"] = False
            if data.get("put_in") is None and "put_in" not in self.errors:
                data["put_in"] = self.ante
        elif data.get("put_in") is None and "put_in" not in self.errors:
            self.add_error("put_in", "This field is required.")
        if "paid" in self.fields and "paid" not in self.errors:
            try:
                data["pays"] = parse_pays(data.get("paid") or "")
            except ValueError:
                self.add_error("paid", "Type each pay as chips, like 3 or 3, 6.")
        return data

    def card_fields(self):
        return [self[s] for s in self.slots]

    @property
    def kept_slots(self) -> tuple[str, ...]:
        """The slots still read when the seat folded on the first street (up cards the
        game's rules act on)."""
        return self.shape.kept_on_first_fold if self.shape is not None else ()

    def has_cards(self) -> bool:
        return any(self.cleaned_data.get(s) for s in self.slots)

    @property
    def player_id(self) -> int:
        return self.seat.player_id

    @property
    def name(self) -> str:
        return self.seat.player.name

    def seat_cards(self, down: list[str], up: list[str], paths: dict[str, str]) -> dict[str, Any]:
        """The seat's chips, finish and cards as quick entry takes them."""
        data = self.cleaned_data
        if any(slot in self.errors for slot in self.slots):
            # Some card did not read (the engine is asked about the rest of the hand only).
            down, up, paths = [], [], {}
        self.paths = paths
        seat: dict[str, Any] = {"player": self.player_id, "put_in": data["put_in"]}
        seat["folded"] = data.get("folded") or None
        if down or up:
            seat["down"] = down
            seat["up"] = up
        return seat

    def house_entry(self) -> dict[str, Any]:
        """The seat as quick entry takes it in a house game (shaped by its definition)."""
        data = self.cleaned_data
        shape = self.shape
        assert shape is not None
        chose_up = data.get("seventh") == "up"
        down, up, paths, unused = shaped_cards(shape, data, chose_up)
        for slot in unused:
            self.add_error(slot, "No card up set off this extra card.")
        seat = self.seat_cards(down, up, paths)
        if shape.has_choice and data.get("seventh"):
            seat["seventh"] = data["seventh"]
        if data.get("pays"):
            seat["paid"] = data["pays"]
        if data.get("declare"):
            seat["declare"] = data["declare"]
        return seat

    def entry(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        if self.shape is not None:
            return self.house_entry()
        data = self.cleaned_data
        bought = bool(data.get("bought"))
        rules = VARIANT_RULES[variant]
        chose_up = rules.chooses_seventh and data.get("seventh") == "up"
        seventh_up = rules.seventh_up(options, bought=bought, chose_up=chose_up)
        seat = self.seat_cards(*self.hand_cards(seventh_up))
        if bought:
            seat["bought"] = True
        if data.get("declare"):
            seat["declare"] = data["declare"]
        if not rules.buys and data.get("seventh") == "up":
            seat["seventh"] = "up"
        return seat

    def summary(self) -> list[SummaryItem]:
        out = []
        for name, errors in self.errors.items():
            if name == "__all__":
                target, where = f"seat-{self.prefix}", self.name
            else:
                field = self[name]
                label = f"{field.label} card" if name in self.slots else field.label
                target, where = field.auto_id, f"{self.name} · {label}"
            out.extend(SummaryItem(where, str(e), target) for e in errors)
        return out

    def add_path_error(self, rest: FieldPath, messages: list[str]) -> bool:
        """An error at ``entry.seats[k]<rest>`` (rest like ``put_in`` or ``down[0]``)."""
        if rest.parts in SEAT_FIELD_PATHS:
            target = str(rest.head)
        else:
            target = self.paths.get(str(rest))  # a card slot, or None: the seat as a whole
        for m in messages:
            self.add_error(target, m)
        return True


class HandForm(forms.Form):
    # The hand number the form was opened for: a hand recorded meanwhile is a conflict.
    number = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # The form's own key, made when it is drawn: a second post of it is a retry (docs/recording.md,
    # "Safe retries").
    token = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    variant = forms.ChoiceField(choices=[("", "— choose the game —"), *VARIANT_CHOICES])
    # The game the seats were laid out for ("" for the variants, "game:<slug>" for a house
    # game): another game chosen lays the seats out again before anything is recorded.
    shape = forms.CharField(required=False, widget=forms.HiddenInput)
    community = CardField(label="community card")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["community"].label = "Community card"
        self.fields[
            "community"
        ].help_text = "Only when the deck ran short and one card was dealt face up for everyone."


class HandEntry:
    """The whole entry form: the hand, its announcements and one row per seat."""

    def __init__(self, *, tournament, state, data=None, variant: str | None = None):
        self.tournament = tournament
        self.state = state
        league = tournament.league
        defaults = {v: dict((league.house_rules or {}).get(v, {})) for v in VARIANTS}
        if tournament.default_variant:
            defaults[tournament.default_variant].update(tournament.default_options or {})
        # The variant of the latest hand of the tournament, else the tournament's own.
        rows = league_games(league)
        definitions = {f"{GAME_CHOICE}{row.game.slug}": row.version for row in rows}
        opened = variant if variant in definitions else None
        if data is not None:
            chosen = str(data.get("variant") or "")
        else:
            chosen = opened or state.last_variant or tournament.default_variant or ""
        version = definitions.get(chosen)
        self.shape_key = chosen if version is not None else ""
        self.shape: SeatShape | None = (
            seat_shape(version.game_definition) if version is not None else None
        )
        self.hand = HandForm(
            data,
            initial={
                "number": state.next_number,
                "token": secrets.token_urlsafe(16),
                "variant": opened or state.last_variant or tournament.default_variant,
                "shape": self.shape_key,
            },
        )
        if data is not None:  # the seats as they are laid out now, posted next time
            self.hand.data = data.copy()
            self.hand.data["shape"] = self.shape_key
        posted = data is not None and "shape" in data
        self.posted_shape = str(data.get("shape") or "") if posted else None
        # The league's house games, after the variants: "game:<slug>" (recorded by its slug).
        games = [(f"{GAME_CHOICE}{row.game.slug}", row.game.name) for row in rows]
        if games:
            field = self.hand.fields["variant"]
            field.choices = [*field.choices, ("House games", games)]
        self.announcements = AnnouncementsForm(data, defaults=defaults, prefix="opt")
        positions = state.next_positions()
        ante = state.next_stakes.ante if positions else 0
        self.seats = [
            SeatForm(
                data,
                prefix=f"p{seat.player_id}",
                seat=seat,
                stack=state.stacks.get(seat.player_id, 0),
                dealer=k == len(positions) - 1,
                ante=ante,
                shape=self.shape,
            )
            for k, seat in enumerate(positions)
        ]
        self.message = ""
        self.result_errors: list[str] = []
        self.variant = ""

    @classmethod
    def after_conflict(cls, tournament, state, data, exc: DomainError) -> HandEntry:
        """Someone recorded this hand number meanwhile: offer the next number, keeping
        everything typed (seats are keyed by player, so the data stays with its owner)."""
        data = data.copy()
        data["number"] = str(state.next_number)
        form = cls(tournament=tournament, state=state, data=data)
        form.is_valid()
        form.message = (
            f"{exc.message}. Check the seats (the dealer has moved on) and record this one "
            f"as hand {state.next_number}."
        )
        return form

    # -- validation

    @property
    def relaid(self) -> bool:
        """Another game was chosen than the seats were laid out for (a form posted with
        "shape" set): the seats are laid out again, keeping what was typed, and nothing is
        recorded yet."""
        if self.hand.is_bound and "relayout" in self.hand.data:
            return True
        return bool(self.posted_shape is not None and self.posted_shape != self.shape_key)

    def is_valid(self) -> bool:
        ok = self.hand.is_valid()
        if self.relaid:
            ok = False
            self.message = (
                "The seats are laid out for the game chosen now: type its cards, then record."
            )
        ok = self.announcements.is_valid() and ok
        for seat in self.seats:
            ok = seat.is_valid() and ok
        ok = (
            check_duplicates([(self.hand, ["community"])] + [(s, s.slots) for s in self.seats])
            and ok
        )
        if not ok and not self.message:
            self.message = "The hand was not recorded: check the fields marked below."
        return ok

    def table_result(self) -> dict | None:
        winners, high, low = [], [], []
        for seat in self.seats:
            r = seat.cleaned_data.get("result")
            if r == "won":
                winners.append(seat.player_id)
            if r in ("high", "both"):
                high.append(seat.player_id)
            if r in ("low", "both"):
                low.append(seat.player_id)
        if winners and (high or low):
            raise DomainError(
                "name the winners either as 'won' or as high/low, not both ways",
                field="table_result",
            )
        if winners:
            return {"winners": winners}
        if high or low:
            return {"high": high, "low": low}
        return None

    def asked(self) -> HandRequest:
        """The hand as asked for, for ``hand_record`` and ``hand_check`` (raises DomainError
        for a contradictory result)."""
        variant = self.hand.cleaned_data.get("variant") or None
        game = None
        if variant and variant.startswith(GAME_CHOICE):
            # A house game: no announcements; its seats laid out by the game's definition.
            game, variant = variant.removeprefix(GAME_CHOICE), None
            self.variant = ""
            options = None
            seat_rules = SEVEN_CARD_STUD
        else:
            self.variant = variant or self.tournament.default_variant or ""
            options = self.announcements.options(self.variant) if self.variant else None
            seat_rules = self.variant
        entry: dict[str, Any] = {"seats": [s.entry(seat_rules, options or {}) for s in self.seats]}
        community = self.hand.cleaned_data.get("community")
        entry["community"] = community or None
        return HandRequest(
            entry_mode="quick",
            entry=entry,
            variant=variant,
            options=options,
            table_result=self.table_result(),
            number=self.hand.cleaned_data.get("number"),
            game=game,
        )

    # -- every error at once

    def checkable(self) -> bool:
        """Whether the engine can be asked about the hand although the form has errors:
        every seat's chips and choices read (cards that did not are left out)."""
        if not self.hand.is_bound:  # an empty POST: nothing typed to check
            return False
        if not (self.hand.cleaned_data.get("variant") or self.tournament.default_variant):
            return False
        return all(
            "put_in" in s.cleaned_data and not (s.errors.keys() & {"folded", "put_in"})
            for s in self.seats
        ) and not (self.hand.errors.keys() & {"number"})

    def _flagged(self) -> list[tuple]:
        """Path prefixes of what the form already flagged: an engine error there (or on the
        seat as a whole, for a seat whose cards are flagged) says the same thing again: a
        card left out because it did not read, a missing variant."""
        prefixes: list[tuple] = []
        for k, seat in enumerate(self.seats):
            if any(slot in seat.errors for slot in seat.slots):
                prefixes.extend(("entry", "seats", k, part) for part in SEAT_CARD_PARTS)
        for name in self.hand.errors:
            if name == "variant":
                prefixes.append(("variant",))
            elif name == "community":
                prefixes.append(("entry", "community"))
        if self.announcements.errors:
            prefixes.append(("options",))
        return prefixes

    def add_engine_error(self, exc: DomainError) -> None:
        """The engine's finding about a hand the form has flagged too, unless it is about
        what the form flagged already."""
        flagged = self._flagged()
        paths = [FieldPath.parse(text) for text in exc.fields or {}]
        if not paths or any(
            p.startswith(*prefix) or p.parts == prefix[:3] for p in paths for prefix in flagged
        ):
            return
        message = self.message
        self.add_domain_error(exc)
        self.message = message

    def summary(self) -> list[SummaryItem]:
        """Every error of the hand in page order, each linking to its input."""
        out = [SummaryItem("", str(e), "id_variant") for e in self.hand.non_field_errors()]
        for name in ("variant",):
            out.extend(
                SummaryItem("Variant", str(e), self.hand[name].auto_id)
                for e in self.hand.errors.get(name, [])
            )
        for name, errors in self.announcements.errors.items():
            if name == "__all__":
                continue
            field = self.announcements[name]
            out.extend(SummaryItem(str(field.label), str(e), field.auto_id) for e in errors)
        target = self.seats[0]["result"].auto_id if self.seats else "id_variant"
        out.extend(SummaryItem("The table's result", e, target) for e in self.result_errors)
        for seat in self.seats:
            out.extend(seat.summary())
        out.extend(
            SummaryItem("Community card", str(e), self.hand["community"].auto_id)
            for e in self.hand.errors.get("community", [])
        )
        return out

    def focus_first_error(self) -> None:
        """Put the browser's focus on the first input at fault (``autofocus``)."""
        items = self.summary()
        if not items:
            return
        forms_ = [self.hand, self.announcements, *self.seats]
        for form in forms_:
            for name in form.fields:
                if form[name].auto_id == items[0].target:
                    form.fields[name].widget.attrs["autofocus"] = True
                    return

    # -- errors from the service (web/errors.py)

    def add_domain_error(self, exc: DomainError) -> None:
        seats = [k for k in seats_named(exc, ("entry", "seats")) if k < len(self.seats)]
        names = {k: self.seats[k].name for k in seats}

        def say(message: str) -> str:
            return seat_names(message, names)

        self.message = f"The hand was not recorded: {say(exc.message)}"
        variant = self.variant or self.hand.data.get("variant") or ""

        def on_hand(field: str | None) -> Place:
            def place(rest: FieldPath, messages: list[str]) -> bool:
                for m in messages:
                    self.hand.add_error(field, m)
                return True

            return place

        def option(rest: FieldPath, messages: list[str]) -> bool:
            return bool(variant) and self.announcements.add_option_error(
                variant, str(rest), messages
            )

        def table_result(rest: FieldPath, messages: list[str]) -> bool:
            self.result_errors.extend(messages)
            return True

        def seat(rest: FieldPath, messages: list[str]) -> bool:
            k = rest.head
            if isinstance(k, int) and k < len(self.seats):
                return self.seats[k].add_path_error(rest.after(k), messages)
            return False

        def unplaced(path: str, messages: list[str]) -> None:
            self.hand.add_error(None, f"{path}: {'; '.join(messages)}")

        add_domain_error(
            exc,
            [
                Route(("variant",), on_hand("variant")),
                Route(("game",), on_hand("variant")),
                Route(("game_version",), on_hand("variant")),
                Route(("options",), option),
                Route(("entry", "community"), on_hand("community")),
                Route(("table_result",), table_result),
                Route(("number",), on_hand(None)),
                Route(("entry", "seats"), seat),
            ],
            unplaced,
            say,
        )
