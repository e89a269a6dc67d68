"""The points formula form of the league table page."""

from __future__ import annotations

from django import forms

from tracker.core.paths import FieldPath
from tracker.engine.errors import DomainError
from tracker.engine.points import FORMULA_TITLES, FORMULAS
from web.errors import Route, add_form_errors


class PointsFormulaForm(forms.Form):
    formula = forms.ChoiceField(choices=[(f, FORMULA_TITLES[f]) for f in FORMULAS])
    best = forms.IntegerField(
        required=False, min_value=1, label="Count only the best N events", help_text="Empty: all"
    )
    table = forms.CharField(
        required=False,
        label="Points by place (fixed table)",
        help_text="First place first, separated by commas, e.g. 10, 7, 5, 4, 3, 2, 1",
    )
    buy_in = forms.FloatField(
        required=False, min_value=0, label="Buy-in b (PokerStars TLB)", help_text="0: freeroll"
    )
    top_fraction = forms.FloatField(
        required=False,
        min_value=0.01,
        max_value=1,
        label="Only the top fraction scores (PokerStars TLB)",
        help_text="e.g. 0.15; empty: every finisher",
    )

    def spec(self) -> dict:
        data = self.cleaned_data
        spec: dict = {"formula": data["formula"]}
        if data.get("best"):
            spec["best"] = data["best"]
        if data["formula"] == "table" and data.get("table"):
            try:
                spec["table"] = [
                    float(x) for x in data["table"].replace(";", ",").split(",") if x.strip()
                ]
            except ValueError:
                raise DomainError(
                    "give numbers separated by commas", field="points_formula.table"
                ) from None
        if data["formula"] == "pokerstars_tlb":
            if data.get("buy_in") is not None:
                spec["buy_in"] = data["buy_in"]
            if data.get("top_fraction") is not None:
                spec["top_fraction"] = data["top_fraction"]
        return spec

    def add_domain_error(self, exc: DomainError) -> None:
        def by_last_name(rest: FieldPath, messages: list[str]) -> bool:
            names = [part for part in rest.parts if isinstance(part, str)]
            if names and names[-1] in self.fields:
                self.add_error(names[-1], exc.message)
                return True
            return False

        add_form_errors(self, exc, [Route((), by_last_name)], unplaced=lambda path, m: None)
