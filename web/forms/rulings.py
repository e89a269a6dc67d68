"""Forms of the rulings pages: a ruling on a pot, and a member's dispute."""

from __future__ import annotations

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine.errors import DomainError
from tracker.rulings.models import RulingResult
from tracker.rulings.services import REASON_MAX
from web.errors import Route, add_form_errors


class RulingForm(forms.Form):
    result = forms.ChoiceField(
        choices=RulingResult.choices,
        # site.css sizes the radios (no inline style: the Content-Security-Policy blocks it).
        widget=forms.RadioSelect,
        label="Which result stands",
    )
    reason = forms.CharField(
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Required. It is shown with the ruling, for good.",
    )

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.case = case
        if case.pot.table_award is None:
            self.fields["result"].choices = [
                c for c in RulingResult.choices if c[0] != RulingResult.TABLE
            ]
        self.award_fields = []
        for p in case.players:
            if not p.eligible:
                continue
            name = f"award_{p.player_id}"
            self.fields[name] = forms.IntegerField(
                min_value=0,
                max_value=case.pot.amount,
                required=False,
                label=p.name,
                initial=p.stands,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.award_fields.append(name)

    def award_inputs(self):
        return [self[name] for name in self.award_fields]

    def award(self) -> dict | None:
        if self.cleaned_data.get("result") != RulingResult.AWARD:
            return None
        return {
            name.removeprefix("award_"): self.cleaned_data.get(name) or 0
            for name in self.award_fields
        }

    def add_domain_error(self, exc: DomainError) -> None:
        def field(name: str):
            def place(rest: FieldPath, messages: list[str]) -> bool:
                for m in messages:
                    self.add_error(name, m)
                return True

            return place

        def award(rest: FieldPath, messages: list[str]) -> bool:
            name = f"award_{rest}"
            return len(rest) == 1 and name in self.fields and field(name)(rest, messages)

        add_form_errors(
            self,
            exc,
            [
                Route(("result",), field("result")),
                Route(("reason",), field("reason")),
                Route(("award",), award),
            ],
        )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="What went wrong: the cards, a wild card, the split, the award.",
    )

    def add_domain_error(self, exc: DomainError) -> None:
        def reason(rest: FieldPath, messages: list[str]) -> bool:
            if rest.parts:
                return False
            for m in messages:
                self.add_error("reason", m)
            return True

        add_form_errors(self, exc, [Route(("reason",), reason)])
