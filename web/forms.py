"""Forms of the pages: the hand entry form and the showdown calculator.

The forms parse what was typed (cards, chips, choices) and keep it for
re-display; the rules are checked by the services and the engine, whose
DomainError field paths (``entry.seats[1].down[0]``, ``options.king_required``,
``variant``, ...) are mapped back to the inputs that were at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine.announcements import (
    ANNOUNCEMENTS,
    VARIANT_ANNOUNCEMENTS,
    VARIANT_TITLES,
    VARIANTS,
    normalize_announcements,
)
from tracker.engine.cards import format_card, parse_card
from tracker.engine.errors import DomainError
from web.errors import Place, Route, add_domain_error, seat_names, seats_named

# The seven cards of a stud hand in the order dealt: two down and the door card on
# third street, one up on each of fourth to sixth, and the seventh.
CARD_SLOTS = ("d1", "d2", "u1", "u2", "u3", "u4", "c7")
SLOT_LABELS = {
    "d1": "down",
    "d2": "down",
    "u1": "3rd",
    "u2": "4th",
    "u3": "5th",
    "u4": "6th",
    "c7": "7th",
}
VARIANT_CHOICES = [(v, VARIANT_TITLES[v]) for v in VARIANTS]
FOLD_CHOICES = [
    ("", "In to the showdown"),
    ("third", "Folded on 3rd street"),
    ("fourth", "Folded on 4th street"),
    ("fifth", "Folded on 5th street"),
    ("sixth", "Folded on 6th street"),
    ("seventh", "Folded on 7th street"),
    ("showdown", "Mucked at the showdown"),
]
SEVENTH_CHOICES = [("down", "7th face down"), ("up", "7th face up")]
DECLARE_CHOICES = [("", "No declaration"), ("high", "High"), ("low", "Low"), ("both", "Both")]
RESULT_CHOICES = [
    ("", "—"),
    ("won", "Won"),
    ("high", "Won high"),
    ("low", "Won low"),
    ("both", "Won high and low"),
]
# A quick-entry seat's own fields, as paths after ``entry.seats[k]``.
SEAT_FIELD_PATHS = {(name,) for name in ("put_in", "folded", "bought", "declare", "seventh")}


class CardInput(forms.TextInput):
    def __init__(self, label: str = "") -> None:
        super().__init__(
            attrs={
                "class": "card-input",
                "autocomplete": "off",
                "autocapitalize": "off",
                "autocorrect": "off",
                "spellcheck": "false",
                "maxlength": "4",
                "size": "3",
                "data-card": "1",
                "aria-label": label or "card",
            }
        )


class CardField(forms.CharField):
    """One card, typed any way the engine reads (Kd, KD, K♦, 10♣, tc); blank allowed."""

    def __init__(self, label: str = "", **kwargs) -> None:
        super().__init__(required=False, max_length=6, widget=CardInput(label), **kwargs)

    def clean(self, value):
        value = (super().clean(value) or "").strip()
        if not value:
            return ""
        try:
            return format_card(parse_card(value))
        except DomainError:
            raise forms.ValidationError(
                f"{value!r} is not a card: a rank (2-9, 10 or T, J, Q, K, A) and a suit "
                "(c d h s or ♣ ♦ ♥ ♠), like Kd or 10♣."
            ) from None


def _first(messages: Sequence[str] | str) -> list[str]:
    return [messages] if isinstance(messages, str) else list(messages)


# --------------------------------------------------------------------------
# Announcements


def announcement_defaults(variant: str, base: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every announcement of ``variant`` as ``base`` (house rules and the tournament's
    defaults) sets it, the rest at the engine's defaults; ``low_qualifier`` is
    ``"auto"`` unless ``base`` sets it."""
    base = dict(base or {})
    try:
        values = normalize_announcements(variant, base)
    except DomainError:
        values = normalize_announcements(variant, {})
    if "low_qualifier" in values and "low_qualifier" not in base:
        values["low_qualifier"] = "auto"
    return values


class AnnouncementsForm(forms.Form):
    """Every announcement of every variant, one fieldset per variant.

    Field names are ``<variant>__<announcement>``; only the chosen variant's are
    used. Without JavaScript every fieldset shows; with it only the chosen one.
    """

    def __init__(self, *args, defaults: Mapping[str, Mapping[str, Any]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = defaults or {}
        self.defaults: dict[str, dict[str, Any]] = {}
        for variant in VARIANTS:
            values = self.defaults[variant] = announcement_defaults(variant, defaults.get(variant))
            for name in VARIANT_ANNOUNCEMENTS[variant]:
                spec = ANNOUNCEMENTS[name]
                value = values.get(name)
                # Not required: an announcement left out of the request (a hand-made
                # calculator link, say) keeps its default.
                if spec.type == "bool":
                    field = forms.TypedChoiceField(
                        choices=[("yes", "Yes"), ("no", "No")],
                        coerce=lambda v: v == "yes",
                        empty_value=None,
                        required=False,
                        initial="yes" if value else "no",
                    )
                elif spec.type == "choice":
                    field = forms.ChoiceField(
                        choices=[(c, c.replace("_", " ")) for c in spec.choices],
                        required=False,
                        initial=value,
                    )
                elif spec.type == "qualifier":
                    field = forms.ChoiceField(
                        choices=[
                            ("auto", "8 when high-low, else none"),
                            ("8", "8 or better"),
                            ("none", "none"),
                        ],
                        required=False,
                        initial="auto" if value == "auto" else ("8" if value == 8 else "none"),
                    )
                else:  # chips
                    field = forms.IntegerField(
                        required=False,
                        min_value=0,
                        initial=value,
                        widget=forms.NumberInput(
                            attrs={"inputmode": "numeric", "placeholder": "one big bet"}
                        ),
                    )
                field.label = name.replace("_", " ").capitalize()
                field.help_text = spec.help
                self.fields[f"{variant}__{name}"] = field
        if self.is_bound:
            # Show an announcement missing from the request at the value it takes.
            data = self.data.copy()
            for key, field in self.fields.items():
                if self.add_prefix(key) not in data:
                    data[self.add_prefix(key)] = "" if field.initial is None else str(field.initial)
            self.data = data

    def fieldsets(self) -> list[dict]:
        return [
            {
                "variant": variant,
                "title": VARIANT_TITLES[variant],
                "fields": [self[f"{variant}__{n}"] for n in VARIANT_ANNOUNCEMENTS[variant]],
            }
            for variant in VARIANTS
        ]

    def options(self, variant: str) -> dict[str, Any]:
        """The chosen variant's announcements as the engine takes them."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for name in VARIANT_ANNOUNCEMENTS.get(variant, ()):
            key = f"{variant}__{name}"
            spec = ANNOUNCEMENTS[name]
            value = data.get(key)
            if value in (None, "") and spec.type != "chips":
                value = self.defaults[variant][name]
                if spec.type == "qualifier" and value != "auto":
                    value = "8" if value == 8 else "none"
            if spec.type == "qualifier":
                if value == "auto":
                    game = out.get("game", self.defaults[variant].get("game", "high"))
                    value = 8 if game == "high_low" else None
                else:
                    value = 8 if value == "8" else None
            out[name] = value
        return out

    def add_option_error(self, variant: str, name: str, messages) -> bool:
        key = f"{variant}__{name}"
        if key in self.fields:
            for m in _first(messages):
                self.add_error(key, m)
            return True
        return False


# --------------------------------------------------------------------------
# Card rows shared by the entry form and the calculator


class CardsMixin:
    """Seven card slots in the order dealt, and how they map to down/up lists."""

    def card_fields(self):
        return [self[s] for s in CARD_SLOTS]

    def hand_cards(self, seventh_up: bool) -> tuple[list[str], list[str], dict[str, str]]:
        """(down, up, paths): the cards typed, and ``down[i]``/``up[i]`` -> slot name."""
        data = self.cleaned_data
        down: list[str] = []
        up: list[str] = []
        paths: dict[str, str] = {}
        for slot in CARD_SLOTS:
            card = data.get(slot) or ""
            if not card:
                continue
            face_up = slot.startswith("u") or (slot == "c7" and seventh_up)
            target, part = (up, "up") if face_up else (down, "down")
            paths[f"{part}[{len(target)}]"] = slot
            target.append(card)
        return down, up, paths

    def has_cards(self) -> bool:
        return any(self.cleaned_data.get(s) for s in CARD_SLOTS)


def _add_card_fields(form: forms.Form) -> None:
    for slot in CARD_SLOTS:
        form.fields[slot] = CardField(label=SLOT_LABELS[slot])
        form.fields[slot].label = SLOT_LABELS[slot]


def check_duplicates(forms_with_cards: Sequence[tuple[forms.Form, Sequence[str]]]) -> bool:
    """Flag every card typed twice (at each place it appears). True when none was."""
    seen: dict[str, list[tuple[forms.Form, str]]] = {}
    for form, names in forms_with_cards:
        if not hasattr(form, "cleaned_data"):
            continue
        for name in names:
            card = form.cleaned_data.get(name)
            if card:
                seen.setdefault(card, []).append((form, name))
    ok = True
    for card, places in seen.items():
        if len(places) > 1:
            ok = False
            for form, name in places:
                form.add_error(name, f"{card} is entered twice.")
    return ok


# --------------------------------------------------------------------------
# The hand entry form


class SeatForm(CardsMixin, forms.Form):
    put_in = forms.IntegerField(
        min_value=0,
        label="Chips in",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "chips-input"}),
    )
    folded = forms.ChoiceField(choices=FOLD_CHOICES, required=False, label="Finished")
    seventh = forms.ChoiceField(choices=SEVENTH_CHOICES, required=False, label="Seventh card")
    bought = forms.BooleanField(required=False, label="Bought the seventh card")
    declare = forms.ChoiceField(choices=DECLARE_CHOICES, required=False, label="Declared")
    result = forms.ChoiceField(choices=RESULT_CHOICES, required=False, label="The table says")

    def __init__(self, *args, seat=None, stack: int = 0, dealer: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        _add_card_fields(self)
        self.seat = seat
        self.stack = stack
        self.dealer = dealer
        self.paths: dict[str, str] = {}

    @property
    def player_id(self) -> int:
        return self.seat.player_id

    @property
    def name(self) -> str:
        return self.seat.player.name

    def entry(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        data = self.cleaned_data
        bought = bool(data.get("bought"))
        if variant == "low_hold":
            contributed = options.get("buy_version", "contributed") == "contributed"
            seventh_up = bought if contributed else not bought
        else:
            seventh_up = data.get("seventh") == "up"
        down, up, paths = self.hand_cards(seventh_up)
        self.paths = paths
        seat: dict[str, Any] = {"player": self.player_id, "put_in": data["put_in"]}
        seat["folded"] = data.get("folded") or None
        if down or up:
            seat["down"] = down
            seat["up"] = up
        if bought:
            seat["bought"] = True
        if data.get("declare"):
            seat["declare"] = data["declare"]
        if variant != "low_hold" and data.get("seventh") == "up":
            seat["seventh"] = "up"
        return seat

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
    variant = forms.ChoiceField(choices=[("", "— choose the game —"), *VARIANT_CHOICES])
    community = CardField(label="community card")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["community"].label = "Community card"
        self.fields[
            "community"
        ].help_text = "Only when the deck ran short and one card was dealt face up for everyone."


class HandEntry:
    """The whole entry form: the hand, its announcements and one row per seat."""

    def __init__(self, *, tournament, state, data=None):
        self.tournament = tournament
        self.state = state
        league = tournament.league
        defaults = {v: dict((league.house_rules or {}).get(v, {})) for v in VARIANTS}
        if tournament.default_variant:
            defaults[tournament.default_variant].update(tournament.default_options or {})
        self.hand = HandForm(
            data,
            initial={"number": state.next_number, "variant": tournament.default_variant},
        )
        self.announcements = AnnouncementsForm(data, defaults=defaults, prefix="opt")
        positions = state.next_positions()
        self.seats = [
            SeatForm(
                data,
                prefix=f"p{seat.player_id}",
                seat=seat,
                stack=state.stacks.get(seat.player_id, 0),
                dealer=k == len(positions) - 1,
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

    def is_valid(self) -> bool:
        ok = self.hand.is_valid()
        ok = self.announcements.is_valid() and ok
        for seat in self.seats:
            ok = seat.is_valid() and ok
        ok = (
            check_duplicates([(self.hand, ["community"])] + [(s, CARD_SLOTS) for s in self.seats])
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

    def record_kwargs(self) -> dict[str, Any]:
        """Arguments for ``hand_record`` (raises DomainError for a contradictory result)."""
        variant = self.hand.cleaned_data.get("variant") or None
        self.variant = variant or self.tournament.default_variant or ""
        options = self.announcements.options(self.variant) if self.variant else None
        entry: dict[str, Any] = {
            "seats": [s.entry(self.variant, options or {}) for s in self.seats]
        }
        community = self.hand.cleaned_data.get("community")
        entry["community"] = community or None
        return {
            "entry_mode": "quick",
            "entry": entry,
            "variant": variant,
            "options": options,
            "table_result": self.table_result(),
            "number": self.hand.cleaned_data.get("number"),
        }

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
                Route(("options",), option),
                Route(("entry", "community"), on_hand("community")),
                Route(("table_result",), table_result),
                Route(("number",), on_hand(None)),
                Route(("entry", "seats"), seat),
            ],
            unplaced,
            say,
        )


# --------------------------------------------------------------------------
# The showdown calculator


class CalculatorForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial="kings_and_little_ones")
    community = CardField(label="community card")
    players = forms.CharField(required=False, widget=forms.HiddenInput)  # rows shown

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].label = "Game"
        self.fields["community"].label = "Community card"
        self.fields["community"].help_text = "Only if one was dealt for everyone."


class ShowdownPlayerForm(CardsMixin, forms.Form):
    name = forms.CharField(required=False, max_length=40, label="Name")
    seventh = forms.ChoiceField(choices=SEVENTH_CHOICES, required=False, label="Seventh card")
    declare = forms.ChoiceField(choices=DECLARE_CHOICES, required=False, label="Declared")

    def __init__(self, *args, number: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        _add_card_fields(self)
        self.number = number
        self.fields["name"].widget.attrs["placeholder"] = f"Player {number}"
        self.paths: dict[str, str] = {}

    @property
    def display_name(self) -> str:
        data = getattr(self, "cleaned_data", {}) or {}
        return (data.get("name") or "").strip() or f"Player {self.number}"

    def showdown_entry(self) -> dict[str, Any]:
        down, up, paths = self.hand_cards(self.cleaned_data.get("seventh") == "up")
        self.paths = paths
        entry: dict[str, Any] = {"down": down, "up": up}
        if self.cleaned_data.get("declare"):
            entry["declare"] = self.cleaned_data["declare"]
        return entry


class Calculator:
    """The calculator's inputs: the game, its announcements, 2 to 8 players' cards."""

    MIN_ROWS = 2
    MAX_ROWS = 8

    def __init__(self, data=None):
        self.bound = bool(data) and "variant" in data
        data = data if self.bound else None
        self.form = CalculatorForm(data)
        self.announcements = AnnouncementsForm(data, prefix="opt")
        rows = self.MIN_ROWS
        if self.bound:
            try:
                rows = int(data.get("players") or self.MIN_ROWS)
            except ValueError:
                rows = self.MIN_ROWS
            if "add" in data:
                rows += 1
        rows = max(self.MIN_ROWS, min(self.MAX_ROWS, rows))
        self.rows = rows
        self.players = [
            ShowdownPlayerForm(data, prefix=f"pl{k}", number=k + 1) for k in range(rows)
        ]
        self.form.initial["players"] = rows
        if self.bound:
            # Keep the row count in the re-rendered form.
            self.form.data = self.form.data.copy()
            self.form.data["players"] = str(rows)
        self.message = ""
        self.filled: list[ShowdownPlayerForm] = []

    @property
    def can_add(self) -> bool:
        return self.rows < self.MAX_ROWS

    def showdown(self) -> dict[str, Any] | None:
        """The engine's showdown input, or None when nothing to evaluate (or input errors)."""
        if not self.bound:
            return None
        ok = self.form.is_valid()
        ok = self.announcements.is_valid() and ok
        for p in self.players:
            ok = p.is_valid() and ok
        ok = (
            check_duplicates([(self.form, ["community"])] + [(p, CARD_SLOTS) for p in self.players])
            and ok
        )
        if not ok:
            self.message = "Check the cards marked below."
            return None
        self.filled = [p for p in self.players if p.has_cards()]
        if not self.filled:
            self.message = "Enter the cards of at least one player."
            return None
        variant = self.form.cleaned_data["variant"]
        return {
            "variant": variant,
            "options": self.announcements.options(variant),
            "community": self.form.cleaned_data.get("community") or None,
            "players": [p.showdown_entry() for p in self.filled],
        }

    def add_domain_error(self, exc: DomainError) -> None:
        self.message = exc.message
        variant = self.form.cleaned_data.get("variant", "")

        def option(rest: FieldPath, messages: list[str]) -> bool:
            return self.announcements.add_option_error(variant, str(rest), messages)

        def community(rest: FieldPath, messages: list[str]) -> bool:
            if rest.parts:
                return False
            for msg in messages:
                self.form.add_error("community", msg)
            return True

        def player(rest: FieldPath, messages: list[str]) -> bool:
            i = rest.head
            if not isinstance(i, int) or i >= len(self.filled) or len(rest) > 3:
                return False
            form = self.filled[i]
            part = rest.after(i)
            field = form.paths.get(str(part)) or ("declare" if part.parts == ("declare",) else None)
            for msg in messages:
                form.add_error(field, msg)
            return True

        def unplaced(path: str, messages: list[str]) -> None:
            for msg in messages:
                self.form.add_error(None, msg)

        add_domain_error(
            exc,
            [
                Route(("options",), option),
                Route(("community",), community),
                Route(("players",), player),
            ],
            unplaced,
        )
