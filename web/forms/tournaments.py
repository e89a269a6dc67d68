"""The new game night form: players from the roster, seating, first dealer, the rules of the
night (RULES.md defaults) and the stakes schedule, default or entered as rows."""

from __future__ import annotations

import datetime as dt

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine import tournament as rules
from tracker.engine.announcements import MAX_PLAYERS
from tracker.engine.errors import DomainError
from tracker.engine.stakes import stakes_row
from tracker.tournaments.models import VARIANT_CHOICES
from web.errors import Route, add_form_errors
from web.forms.money import MoneyRulesForm

# Bad stakes rows named one by one, at most: the others are counted.
MAX_ROW_ERRORS = 5
_SMALL = {"class": "num-input", "inputmode": "numeric"}


def schedule_text(schedule) -> str:
    """A stakes schedule as the form's rows: one level a line, ``ante bring-in small big``."""
    return "\n".join(" ".join(str(x) for x in level) for level in schedule)


class TournamentForm(MoneyRulesForm):
    name = forms.CharField(max_length=120, initial="Game night")
    date = forms.DateField(
        required=False,
        initial=dt.date.today,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="Today when left empty.",
    )
    seating = forms.ChoiceField(
        choices=[
            ("chosen", "In the seat order I give"),
            ("random", "Draw the seats at random"),
        ],
        initial="chosen",
        widget=forms.RadioSelect,
        label="Seating",
        help_text="A random draw is made by the site and shown to everyone on the night's page.",
    )
    first_dealer = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label="First dealer",
        help_text="Deals hand 1; the deal then moves clockwise.",
    )
    starting_chips = forms.IntegerField(
        min_value=1, initial=rules.STARTING_CHIPS, widget=forms.NumberInput(attrs=_SMALL)
    )
    hands_per_level = forms.IntegerField(
        min_value=1,
        initial=rules.HANDS_PER_LEVEL,
        widget=forms.NumberInput(attrs=_SMALL),
        help_text="The stakes rise after this many hands.",
    )
    hand_limit = forms.IntegerField(
        min_value=1, initial=rules.HAND_LIMIT, widget=forms.NumberInput(attrs=_SMALL)
    )
    stakes = forms.ChoiceField(
        choices=[("default", "The house schedule"), ("custom", "My own (the rows below)")],
        initial="default",
        widget=forms.RadioSelect,
        label="Stakes schedule",
    )
    stakes_rows = forms.CharField(
        required=False,
        initial=schedule_text(rules.DEFAULT_SCHEDULE),
        widget=forms.Textarea(attrs={"rows": 10, "class": "stakes-rows", "spellcheck": "false"}),
        label="Levels",
        help_text="One level a row: ante, bring-in, small bet, big bet (e.g. 4 10 20 40).",
    )
    default_variant = forms.ChoiceField(
        choices=[("", "Dealer's choice"), *VARIANT_CHOICES],
        required=False,
        label="Game",
        help_text="Dealer's choice: each hand names its game.",
    )
    counts_toward_standings = forms.BooleanField(
        required=False,
        initial=True,
        label="Counts toward the league's standings",
    )

    def __init__(self, *args, roster, money=None, can_set_money: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.roster = list(roster)
        self.money_setup(money, can_set_money)
        self.fields["first_dealer"].choices = [("", "The first seat")] + [
            (p.pk, p.name) for p in self.roster
        ]
        self.player_fields: list[tuple[object, str, str]] = []
        for p in self.roster:
            play, seat = f"play_{p.pk}", f"seat_{p.pk}"
            self.fields[play] = forms.BooleanField(required=False, label=p.name)
            self.fields[seat] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=rules.MAX_SEATS,
                label=f"Seat for {p.name}",
                widget=forms.NumberInput(attrs={**_SMALL, "class": "seat-input"}),
            )
            self.player_fields.append((p, play, seat))
        self.stakes_lines: list[int] = []  # the line number of each level given

    def players(self):
        """(player, checkbox, seat input) per roster player, for the template."""
        return [(p, self[play], self[seat]) for p, play, seat in self.player_fields]

    def max_players(self) -> int:
        return max(MAX_PLAYERS.values())

    def clean(self):
        data = super().clean()
        picked = []
        taken: dict[int, str] = {}
        for index, (p, play, seat) in enumerate(self.player_fields):
            if data.get(play):
                number = data.get(seat)
                if number is not None and number in taken:
                    self.add_error(seat, f"Seat {number} is already {taken[number]}'s.")
                elif number is not None:
                    taken[number] = p.name
                picked.append((number is None, number or 0, index, p.pk))
        picked.sort()
        data["player_ids"] = [pid for *_, pid in picked]
        if len(data["player_ids"]) < rules.MIN_SEATS:
            self.add_error(None, f"Pick at least {rules.MIN_SEATS} players.")
        self.money_clean(data)
        if data.get("stakes") == "custom":
            data["stakes_schedule"] = self._rows(data.get("stakes_rows") or "")
        else:
            data["stakes_schedule"] = None
        return data

    def _rows(self, text: str) -> list[list[int]] | None:
        """The rows as levels (the engine reads each row: ``stakes_row``); a bad row is named
        by its number, the first few of them only. Whether the levels make a schedule for
        this night is the service's to say (``tournament_create``)."""
        levels = []
        self.stakes_lines = []
        bad = 0
        for line_no, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                level = stakes_row(line)
            except DomainError as exc:
                bad += 1
                if bad <= MAX_ROW_ERRORS:
                    self.add_error("stakes_rows", f"Row {line_no}: {exc.message}.")
                continue
            levels.append(level)
            self.stakes_lines.append(line_no)
        if bad > MAX_ROW_ERRORS:
            self.add_error("stakes_rows", f"{bad - MAX_ROW_ERRORS} more rows like these.")
        if not levels and "stakes_rows" not in self.errors:
            self.add_error("stakes_rows", "Give at least one level, or choose the house schedule.")
        return levels

    def add_domain_error(self, exc: DomainError) -> None:
        def field(name: str):
            def place(rest: FieldPath, messages: list[str]) -> bool:
                for m in messages:
                    self.add_error(name, m)
                return True

            return place

        def stakes(rest: FieldPath, messages: list[str]) -> bool:
            index = rest.head if isinstance(rest.head, int) else None
            for m in messages:
                if index is not None and index < len(self.stakes_lines):
                    m = f"Row {self.stakes_lines[index]}: {m}"
                self.add_error("stakes_rows", m)
            return True

        add_form_errors(
            self,
            exc,
            [
                Route((name,), field(name))
                for name in (
                    "name",
                    "date",
                    "seating",
                    "first_dealer",
                    "starting_chips",
                    "hands_per_level",
                    "hand_limit",
                    "default_variant",
                    "counts_toward_standings",
                )
            ]
            + [Route(("stakes_schedule",), stakes)]
            + self.money_routes(field, prefix=("money",)),
        )
