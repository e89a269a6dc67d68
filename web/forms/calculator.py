"""The showdown calculator's form: the game, its announcements, 2 to 8 players' cards."""

from __future__ import annotations

from typing import Any

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine.errors import DomainError
from web.errors import Route, add_domain_error
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
        add_card_fields(self)
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
