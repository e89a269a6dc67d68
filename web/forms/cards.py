"""What the hand entry form and the showdown calculator share: card inputs, the seven card
slots of a stud hand, the announcements form, and duplicate-card checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from tracker.engine.announcements import (
    ANNOUNCEMENTS,
    VARIANT_ANNOUNCEMENTS,
    VARIANT_TITLES,
    VARIANTS,
    normalize_announcements,
)
from tracker.engine.cards import format_card, parse_card
from tracker.engine.errors import DomainError

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
SEVENTH_CHOICES = [("down", "7th face down"), ("up", "7th face up")]
DECLARE_CHOICES = [("", "No declaration"), ("high", "High"), ("low", "Low"), ("both", "Both")]


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


def add_card_fields(form: forms.Form) -> None:
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
