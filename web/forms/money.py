"""The money fields of a form: a night's rules (the new-night page) and a league's defaults
with its currency, unit and locale (the league money page). Amounts are typed in the
currency ("20" or "20.00" dollars) and handed to the services in minor units, with the
currency's number of digits from Babel."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms

from tracker.core.paths import Part
from tracker.engine.errors import DomainError
from tracker.money.formatting import currency_check, minor_digits
from tracker.money.models import PAYOUT_CHOICES, REBUY_WHEN_CHOICES
from web.errors import Route, add_form_errors

_SMALL = {"class": "num-input", "inputmode": "numeric"}


class MoneyRulesForm(forms.Form):
    # The night's money (the league's defaults; an admin may change them for this night).
    buy_in = forms.DecimalField(min_value=0, required=False, label="Buy-in")
    fee = forms.DecimalField(
        min_value=0,
        required=False,
        label="Fee",
        help_text="Per entry, rebuy and add-on; kept out of the prize pool.",
    )
    bounty = forms.DecimalField(
        min_value=0, required=False, label="Bounty", help_text="Per player."
    )
    rebuy_price = forms.DecimalField(
        min_value=0, required=False, label="Rebuy price", help_text="0: no rebuys."
    )
    rebuy_chips = forms.IntegerField(min_value=0, required=False, label="Rebuy chips")
    rebuy_until_hand = forms.IntegerField(
        min_value=0,
        required=False,
        label="Rebuys up to hand",
        help_text="Before this hand, and no later.",
    )
    rebuy_max = forms.IntegerField(min_value=0, required=False, label="Rebuys per player")
    rebuy_when = forms.ChoiceField(choices=REBUY_WHEN_CHOICES, label="Rebuy when", required=False)
    addon_price = forms.DecimalField(
        min_value=0, required=False, label="Add-on price", help_text="0: no add-on."
    )
    addon_chips = forms.IntegerField(min_value=0, required=False, label="Add-on chips")
    addon_at_hand = forms.IntegerField(
        min_value=0,
        required=False,
        label="Add-on at hand",
        help_text="Taken when this hand is next.",
    )
    payout_template = forms.ChoiceField(choices=PAYOUT_CHOICES, label="Payouts", required=False)
    payout_custom = forms.CharField(
        required=False,
        label="Custom payouts",
        help_text="First place first: percentages adding up to 100, or amounts.",
    )

    AMOUNTS = ("buy_in", "fee", "bounty", "rebuy_price", "addon_price")
    COUNTS = ("rebuy_chips", "rebuy_until_hand", "rebuy_max", "addon_chips", "addon_at_hand")
    MONEY = (*AMOUNTS, *COUNTS, "rebuy_when", "payout_template", "payout_custom")

    def _money_initial(self) -> None:
        """The league's defaults as the fields' values; fixed for whoever may not change them."""
        if self.money is None:
            for name in self.MONEY:
                del self.fields[name]
            return
        rules = self.money.rules
        step = Decimal(1).scaleb(-self.digits)
        for name in self.AMOUNTS:
            field = self.fields[name]
            field.initial = self._major(getattr(rules, name))
            field.decimal_places = self.digits
            field.widget.attrs.update({**_SMALL, "inputmode": "decimal", "step": str(step)})
            field.label = f"{field.label} ({self.money_currency})"
        for name in self.COUNTS:
            self.fields[name].initial = getattr(rules, name)
            self.fields[name].widget.attrs.update(_SMALL)
        self.fields["rebuy_when"].initial = rules.rebuy_when
        self.fields["payout_template"].initial = rules.payout_template
        self.fields["payout_custom"].initial = " ".join(
            str(self._major(x)) if rules.payout_template == "custom_fixed" else str(x)
            for x in rules.payout_custom
        )
        if not self.can_set_money:
            for name in self.MONEY:
                self.fields[name].disabled = True

    def _major(self, minor: int) -> Decimal:
        return Decimal(minor).scaleb(-self.digits)

    def _minor(self, major: Decimal) -> int:
        return int(Decimal(major).scaleb(self.digits))

    def money_values(self) -> dict | None:
        """The night's money rules in minor units (None: the league's, unchanged)."""
        if self.money is None or not self.can_set_money:
            return None
        data = self.cleaned_data
        out: dict = {}
        for name in self.AMOUNTS:
            if data.get(name) is not None:
                out[name] = self._minor(data[name])
        for name in self.COUNTS:
            if data.get(name) is not None:
                out[name] = data[name]
        for name in ("rebuy_when", "payout_template"):
            if data.get(name):
                out[name] = data[name]
        if "payout_custom_values" in data:
            out["payout_custom"] = data["payout_custom_values"]
        return out

    def _custom(self, text: str, template: str) -> list[int] | None:
        parts = [x for x in re.split(r"[\s,;/%]+", text or "") if x]
        out = []
        for x in parts:
            try:
                value = Decimal(x)
            except InvalidOperation:
                self.add_error("payout_custom", f"{x!r} is not a number.")
                return None
            out.append(self._minor(value) if template == "custom_fixed" else int(value))
        return out

    def money_setup(self, money, can_set_money: bool, currency: str | None = None) -> None:
        """``money``: the rules shown (a league's LeagueMoney, whose defaults they are);
        ``None`` drops the money fields. Amounts are in ``currency`` (default: ``money``'s)."""
        self.money = money
        self.can_set_money = can_set_money
        self.money_currency = currency or (money.currency if money is not None else "")
        self.digits = minor_digits(self.money_currency) if self.money_currency else 2
        self._money_initial()

    def money_clean(self, data: dict) -> None:
        if self.money is not None and self.can_set_money:
            template = data.get("payout_template") or self.money.payout_template
            custom = self._custom(data.get("payout_custom") or "", template)
            if custom is not None:
                data["payout_custom_values"] = custom if template.startswith("custom") else []

    def money_routes(self, field, prefix: tuple[Part, ...] = ()) -> list[Route]:
        """Where a DomainError on a money rule (``prefix`` + the rule's name) is shown."""
        routes = [Route((*prefix, name), field(name)) for name in self.MONEY if name in self.fields]
        if prefix:
            routes.append(Route(prefix, field("buy_in")))
        return routes


class LeagueMoneyForm(MoneyRulesForm):
    """A league's currency, locale and payout unit, and its nights' default money rules."""

    currency = forms.CharField(
        max_length=3, label="Currency", help_text="Its ISO 4217 code: USD, EUR, GBP, JPY…"
    )
    locale = forms.CharField(
        max_length=16, label="Locale", help_text="How amounts are written: en_US, en_GB, de_DE…"
    )
    unit = forms.DecimalField(
        min_value=0, label="Payouts round to", help_text="In the currency: 1 for whole dollars."
    )

    def __init__(self, *args, money, **kwargs):
        super().__init__(*args, **kwargs)
        currency = money.currency
        if self.is_bound:  # amounts typed are in the currency typed, when it is one
            try:
                currency = currency_check(self.data.get("currency"))
            except DomainError:
                pass
        self.money_setup(money, True, currency=currency)
        self.fields["currency"].initial = money.currency
        self.fields["locale"].initial = money.locale
        self.fields["unit"].initial = Decimal(money.unit).scaleb(-minor_digits(money.currency))
        self.fields["unit"].widget.attrs.update({**_SMALL, "inputmode": "decimal"})
        self.fields["unit"].label = f"Payouts round to ({self.money_currency})"

    def clean(self):
        data = super().clean()
        self.money_clean(data)
        return data

    def values(self) -> dict:
        """What ``league_money_set`` takes: the settings and the rules, in minor units."""
        data = self.cleaned_data
        values = self.money_values() or {}
        values.update(currency=data["currency"], locale=data["locale"])
        if data.get("unit") is not None:
            values["unit"] = self._minor(data["unit"])
        return values

    def add_domain_error(self, exc: DomainError) -> None:
        def field(name: str):
            def place(rest, messages: list[str]) -> bool:
                for m in messages:
                    self.add_error(name, m)
                return True

            return place

        routes = [Route((name,), field(name)) for name in ("currency", "locale", "unit")]
        add_form_errors(self, exc, routes + self.money_routes(field))
