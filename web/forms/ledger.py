"""An admin's correction of the league money ledger (the ledger page): a player, an amount
typed in the currency ("5" or "-12.50" dollars, handed to the service in minor units with
the currency's digits from Babel) and a reason."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from tracker.engine.errors import DomainError
from tracker.money.formatting import minor_digits


class CorrectionForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label="Player")
    amount = forms.DecimalField(
        label="Amount",
        help_text="Added to their balance (negative: taken off); the house takes the other side.",
        widget=forms.TextInput(attrs={"inputmode": "decimal", "class": "num-input"}),
    )
    reason = forms.CharField(max_length=300, label="Reason")

    def __init__(self, *args, players: list[tuple[int, str]], currency: str, **kwargs):
        super().__init__(*args, prefix="correction", **kwargs)
        self.currency = currency
        self.digits = minor_digits(currency)
        self.fields["player"].choices = [("", "Choose a player")] + players
        self.fields["amount"].label = f"Amount ({currency})"

    def clean_amount(self) -> int:
        major: Decimal = self.cleaned_data["amount"]
        minor = major.scaleb(self.digits)
        if minor != minor.to_integral_value():
            raise forms.ValidationError(
                f"{major} has more than {self.digits} decimal places for {self.currency}"
            )
        if minor == 0:
            raise forms.ValidationError("A correction of 0 changes nothing.")
        return int(minor)

    def add_domain_error(self, exc: DomainError) -> None:
        for name, messages in exc.fields.items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)
        if not exc.fields:
            self.add_error(None, exc.message)
