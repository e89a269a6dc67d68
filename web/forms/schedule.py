"""The form that schedules a night ahead, and the answer buttons."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone

from tracker.engine.errors import DomainError
from tracker.engine.schedule import seat_limit
from tracker.tournaments.models import VARIANT_CHOICES
from web.errors import add_form_errors, field_route


class NightForm(forms.Form):
    starts_at = forms.DateTimeField(
        label="Date and time",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text="In the site's time zone.",
    )
    place = forms.CharField(max_length=200, help_text="Whose house, or the address.")
    variant = forms.ChoiceField(
        choices=[("", "Dealer's choice")] + list(VARIANT_CHOICES),
        required=False,
        label="Game",
    )
    seats = forms.IntegerField(
        min_value=1,
        initial=seat_limit(""),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-input"}),
        help_text="At most the game's player limit; later yeses go on a waitlist.",
    )
    note = forms.CharField(
        required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 3}), label="Note"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            tomorrow = timezone.localtime() + dt.timedelta(days=1)
            self.initial.setdefault("starts_at", tomorrow.replace(hour=19, minute=30, second=0))

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(
            self,
            exc,
            [field_route(self, f) for f in ("starts_at", "place", "variant", "seats", "note")],
        )


class NightEditForm(forms.Form):
    """Change a scheduled night: its time, place, seats and note (the game stays)."""

    starts_at = NightForm.base_fields["starts_at"]
    place = NightForm.base_fields["place"]
    seats = forms.IntegerField(
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-input"}),
        help_text="Not fewer than the players seated; more seats go to the waitlist in order.",
    )
    note = NightForm.base_fields["note"]

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(
            self, exc, [field_route(self, f) for f in ("starts_at", "place", "seats", "note")]
        )


class NightCancelForm(forms.Form):
    reason = forms.CharField(
        required=False,
        max_length=500,
        label="Why (optional, in the mail)",
        widget=forms.TextInput(),
    )
