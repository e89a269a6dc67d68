"""Money writes: a league's money settings, a night created with its money rules, and the
entries recorded at the table (buy-ins, rebuys, add-ons) with their undo (docs/money.md)."""

from __future__ import annotations

import dataclasses

from django.db import transaction

from tracker.audit.services import audit_record
from tracker.core.errors import PermissionDenied
from tracker.core.permissions import Capability, require
from tracker.engine import money as engine
from tracker.engine.errors import DomainError
from tracker.leagues.models import League
from tracker.money.formatting import currency_check, locale_check, minor_digits
from tracker.money.models import RULE_FIELDS, LeagueMoney, NightMoney
from tracker.money.selectors import league_money
from tracker.tournaments.models import Tournament
from tracker.tournaments.services import tournament_create

LEAGUE_FIELDS = ("currency", "unit", "locale")


def _rules_with(base: engine.NightRules, values: dict, *, prefix: str) -> engine.NightRules:
    """``base`` with ``values`` (rule fields only; else a DomainError naming the field)."""
    for name in values:
        if name not in RULE_FIELDS:
            raise DomainError(f"unknown money rule {name!r}", field=f"{prefix}{name}")
    values = dict(values)
    if "payout_custom" in values:
        custom = values["payout_custom"]
        if custom is None:
            custom = ()
        if not isinstance(custom, list | tuple):
            raise DomainError(
                "a list of amounts, first place first", field=f"{prefix}payout_custom"
            )
        values["payout_custom"] = tuple(custom)
    return dataclasses.replace(base, **values)


def _checked(rules: engine.NightRules, *, unit: int, prefix: str) -> engine.NightRules:
    try:
        return rules.check(unit=unit)
    except DomainError as exc:
        raise DomainError(
            exc.message,
            code=exc.code,
            fields={f"{prefix}{path}": msgs for path, msgs in exc.fields.items()},
        ) from None


def _rule_values(rules: engine.NightRules) -> dict:
    values = dataclasses.asdict(rules)
    values["payout_custom"] = list(rules.payout_custom)
    return values


@transaction.atomic
def league_money_set(*, league: League, by, values: dict) -> LeagueMoney:
    """Set the league's currency, payout unit, locale and its nights' default money rules
    (any of them; the others stay). A new currency without a unit takes one whole unit of
    it (100 cents, 1 yen)."""
    require(by, league, Capability.SET_MONEY, "set the league's money rules")
    if not isinstance(values, dict):
        raise DomainError("an object of money settings")
    row = LeagueMoney.objects.select_for_update().filter(league=league).first()
    row = row or LeagueMoney(league=league)
    values = dict(values)
    if "currency" in values:
        currency = currency_check(values.pop("currency"))
        if currency != row.currency and "unit" not in values:
            values["unit"] = 10 ** minor_digits(currency)
        row.currency = currency
    if "locale" in values:
        row.locale = locale_check(values.pop("locale"))
    if "unit" in values:
        unit = values.pop("unit")
        if not isinstance(unit, int) or isinstance(unit, bool) or not 1 <= unit <= 10**8:
            raise DomainError(
                "the unit payouts round to: a whole number of minor units from 1 (e.g. 100 "
                "for whole dollars)",
                field="unit",
            )
        row.unit = unit
    rules = _checked(_rules_with(row.rules, values, prefix=""), unit=row.unit, prefix="")
    for name, value in _rule_values(rules).items():
        setattr(row, name, value)
    row.save()
    audit_record(
        action="league.money_set",
        target=league,
        league=league,
        actor=by,
        data={"currency": row.currency, "unit": row.unit, "locale": row.locale}
        | _rule_values(rules),
    )
    return row


@transaction.atomic
def night_create(*, league: League, by, money: dict | None = None, **night) -> Tournament:
    """Create a game night (``tracker.tournaments.services.tournament_create``, with
    ``night``) and its money rules: the league's defaults, with ``money`` changing any of them
    for this night (only an admin may change them). The night keeps the league's currency
    and unit as they are now."""
    can = require(by, league, Capability.RECORD_HAND, "create tournaments")
    if money is not None and not isinstance(money, dict):
        raise DomainError("an object of money rules", field="money")
    defaults = league_money(league)
    base = defaults.rules
    rules = _rules_with(base, money or {}, prefix="money.")
    changed = [n for n in RULE_FIELDS if getattr(rules, n) != getattr(base, n)]
    if changed and Capability.SET_MONEY not in can:
        raise PermissionDenied(
            f"Only a league admin may change a night's money rules from the league's "
            f"({', '.join(changed)}); your role is {can.role or 'none'}."
        )
    rules = _checked(rules, unit=defaults.unit, prefix="money.")
    tournament = tournament_create(league=league, by=by, **night)
    for name, number in (
        ("rebuy_until_hand", rules.rebuy_until_hand),
        ("addon_at_hand", rules.addon_at_hand),
    ):
        if number > tournament.hand_limit:
            raise DomainError(
                f"{name}: hand {number} is past the hand limit ({tournament.hand_limit})",
                field=f"money.{name}",
            )
    row = NightMoney.objects.create(
        tournament=tournament, currency=defaults.currency, unit=defaults.unit, **_rule_values(rules)
    )
    audit_record(
        action="tournament.money_set",
        target=tournament,
        league=league,
        actor=by,
        data={"currency": row.currency, "unit": row.unit} | _rule_values(rules),
    )
    return tournament
