"""Money writes: a league's money settings, a night created with its money rules, and the
entries recorded at the table (buy-ins, rebuys, add-ons) with their undo (docs/money.md)."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import transaction
from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.errors import PermissionDenied
from tracker.core.permissions import Capability, require
from tracker.engine import money as engine
from tracker.engine.errors import Code, DomainError
from tracker.leagues.models import League
from tracker.money.formatting import currency_check, locale_check, minor_digits
from tracker.money.models import RULE_FIELDS, EntryKind, LeagueMoney, MoneyEntry, NightMoney
from tracker.money.selectors import league_money, night_money
from tracker.tournaments.models import LedgerEntry, LedgerKind, Tournament, TournamentStatus
from tracker.tournaments.selectors import tournament_state
from tracker.tournaments.services import TournamentSettings, tournament_create

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
def night_create(
    *,
    league: League,
    by,
    settings: TournamentSettings | None = None,
    money: dict | None = None,
    **night: Any,
) -> Tournament:
    """Create a game night (``tracker.tournaments.services.tournament_create``, with
    ``settings`` or their fields in ``night``) and its money rules: the league's defaults, with ``money`` changing any of them
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
    tournament = tournament_create(league=league, by=by, settings=settings, **night)
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


# --------------------------------------------------------------------------
# Entries at the table


def _locked(tournament: Tournament) -> Tournament:
    """The tournament, locked for the rest of the transaction (recording a hand takes the
    same lock, so an entry and a hand are never recorded at the same moment)."""
    return Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)


@transaction.atomic
def entry_record(*, tournament: Tournament, player_id: int, kind: str, by) -> MoneyEntry:
    """Record that a seated player paid a buy-in, a rebuy or an add-on before the next hand.

    The night's rules decide (``tracker.engine.money.entry_check``: a refusal names the
    rule in its code). A rebuy or an add-on gives its chips through one ledger entry that
    plays from the next hand (``LedgerEntry.from_hand``), so the stacks stay the sum of the
    ledger and add up to the starting chips of every entry, rebuy and add-on."""
    tournament = _locked(tournament)
    require(by, tournament.league, Capability.RECORD_MONEY, "record buy-ins, rebuys and add-ons")
    if kind not in engine.ENTRY_KINDS:
        raise DomainError(
            f"kind is one of {', '.join(engine.ENTRY_KINDS)}, not {kind!r}", field="kind"
        )
    seat = tournament.seats.select_related("player").filter(player_id=player_id).first()
    if seat is None:
        raise DomainError(f"no player {player_id} is seated at this night", field="player")
    state = tournament_state(tournament)
    if tournament.status == TournamentStatus.FINISHED or state.over:
        raise DomainError("the night is over", code=Code.NIGHT_OVER, field="kind")
    money = night_money(tournament)
    rules = money.rules
    taken = list(
        MoneyEntry.objects.filter(
            tournament=tournament, player_id=player_id, undone_at__isnull=True
        ).values_list("kind", flat=True)
    )
    engine.entry_check(
        rules,
        kind=kind,
        next_hand=state.next_number,
        stack=state.stacks.get(player_id, 0),
        bought_in=EntryKind.BUY_IN in taken,
        rebuys=taken.count(EntryKind.REBUY),
        addon=EntryKind.ADDON in taken,
    )
    price, chips, bounty = {
        EntryKind.BUY_IN: (rules.buy_in, 0, rules.bounty),
        EntryKind.REBUY: (rules.rebuy_price, rules.rebuy_chips, 0),
        EntryKind.ADDON: (rules.addon_price, rules.addon_chips, 0),
    }[kind]
    ledger = None
    if chips:
        ledger = LedgerEntry.objects.create(
            tournament=tournament,
            player_id=player_id,
            kind=LedgerKind.REBUY if kind == EntryKind.REBUY else LedgerKind.ADDON,
            amount=chips,
            from_hand=state.next_number,
        )
    entry = MoneyEntry.objects.create(
        tournament=tournament,
        player_id=player_id,
        kind=kind,
        paid=price + rules.fee + bounty,
        fee=rules.fee,
        bounty=bounty,
        chips=chips,
        at_hand=state.next_number,
        ledger=ledger,
        recorded_by=by if getattr(by, "is_authenticated", False) else None,
    )
    audit_record(
        action="money.entry_record",
        target=entry,
        league=tournament.league,
        actor=by,
        data={
            "tournament": tournament.pk,
            "player": player_id,
            "kind": kind,
            "paid": entry.paid,
            "chips": chips,
            "before_hand": entry.at_hand,
        },
    )
    return entry


@transaction.atomic
def entry_undo(*, entry: MoneyEntry, by) -> MoneyEntry:
    """Undo an entry recorded by mistake, while no hand has been recorded since. Nothing is
    deleted: the entry is marked undone and its chips, if any, go back out of the stack
    through a reversing ledger entry."""
    tournament = _locked(entry.tournament)
    require(by, tournament.league, Capability.RECORD_MONEY, "undo buy-ins, rebuys and add-ons")
    entry = MoneyEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.undone_at is not None:
        raise DomainError("this entry is undone already", code=Code.ENTRY_UNDONE)
    state = tournament_state(tournament)
    if state.next_number != entry.at_hand:
        raise DomainError(
            f"hand {entry.at_hand} has been recorded since: the {entry.get_kind_display().lower()} "
            "stands (an entry is undone only until the next hand is recorded)",
            code=Code.ENTRY_FINAL,
        )
    if entry.chips:
        entry.reversal = LedgerEntry.objects.create(
            tournament=tournament,
            player_id=entry.player_id,
            kind=LedgerKind.REBUY if entry.kind == EntryKind.REBUY else LedgerKind.ADDON,
            amount=-entry.chips,
            from_hand=entry.at_hand,
        )
    entry.undone_at = timezone.now()
    entry.undone_by = by if getattr(by, "is_authenticated", False) else None
    entry.save(update_fields=["reversal", "undone_at", "undone_by"])
    audit_record(
        action="money.entry_undo",
        target=entry,
        league=tournament.league,
        actor=by,
        data={"tournament": tournament.pk, "player": entry.player_id, "kind": entry.kind},
    )
    return entry
