"""The money of a league and of its game nights (docs/money.md).

Amounts are integers in the currency's minor units (cents for USD). ``LeagueMoney`` holds a
league's currency, the unit its payouts round to, the locale its amounts are written in,
and the default rules of its nights; ``NightMoney`` holds one night's rules, copied from
the league's when the night is created (and changed there if asked), with the currency and
unit they are in, so a later change of the league re-prices no night. ``MoneyEntry`` is one
payment at the table: a buy-in, a rebuy or an add-on.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tracker.core.models import AppendOnlyModel
from tracker.engine.money import PAYOUT_TEMPLATES, REBUY_WHEN, NightRules
from tracker.leagues.models import League, Player
from tracker.tournaments.models import LedgerEntry, Tournament

PAYOUT_CHOICES = [(k, title) for k, (title, _) in PAYOUT_TEMPLATES.items()]
REBUY_WHEN_CHOICES = [("busted", "Only when busted"), ("any", "At any time")]
assert [k for k, _ in REBUY_WHEN_CHOICES] == list(REBUY_WHEN)

#: The rule fields shared by the league's defaults and a night (NightRules' fields).
RULE_FIELDS: tuple[str, ...] = (
    "buy_in",
    "fee",
    "bounty",
    "rebuy_price",
    "rebuy_chips",
    "rebuy_until_hand",
    "rebuy_max",
    "rebuy_when",
    "addon_price",
    "addon_chips",
    "addon_at_hand",
    "payout_template",
    "payout_custom",
)

DEFAULT_CURRENCY = "USD"
DEFAULT_LOCALE = "en_US"
DEFAULT_UNIT = 100  # one dollar


class MoneyRules(models.Model):
    """The rules of a night's money; 0 is "none" (no buy-in, no rebuys, no add-on)."""

    buy_in = models.PositiveIntegerField(default=0)
    fee = models.PositiveIntegerField(default=0)  # per entry, rebuy and add-on; not in the pool
    bounty = models.PositiveIntegerField(default=0)  # per entry, kept apart from the pool
    rebuy_price = models.PositiveIntegerField(default=0)  # 0: no rebuys
    rebuy_chips = models.PositiveIntegerField(default=0)
    rebuy_until_hand = models.PositiveIntegerField(default=0)
    rebuy_max = models.PositiveIntegerField(default=0)  # per player
    rebuy_when = models.CharField(max_length=8, choices=REBUY_WHEN_CHOICES, default="busted")
    addon_price = models.PositiveIntegerField(default=0)  # 0: no add-on
    addon_chips = models.PositiveIntegerField(default=0)
    addon_at_hand = models.PositiveIntegerField(default=0)
    payout_template = models.CharField(
        max_length=24, choices=PAYOUT_CHOICES, default="winner_takes_all"
    )
    # custom percentages or fixed amounts (minor units), first place first
    payout_custom = models.JSONField(default=list, blank=True)

    class Meta:
        abstract = True

    @property
    def rules(self) -> NightRules:
        values = {name: getattr(self, name) for name in RULE_FIELDS}
        values["payout_custom"] = tuple(values["payout_custom"] or ())
        return NightRules(**values)


class LeagueMoney(MoneyRules):
    """A league's currency, payout unit and locale, and its nights' default rules."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="money")
    currency = models.CharField(max_length=3, default=DEFAULT_CURRENCY)  # ISO 4217
    unit = models.PositiveIntegerField(default=DEFAULT_UNIT)  # payouts round to it (minor units)
    locale = models.CharField(max_length=16, default=DEFAULT_LOCALE)  # e.g. en_US, de_DE

    def __str__(self) -> str:
        return f"money of {self.league_id}: {self.currency}"


class NightMoney(MoneyRules):
    """One night's money rules, in the currency and unit of its league when it was made."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="money")
    currency = models.CharField(max_length=3, default=DEFAULT_CURRENCY)
    unit = models.PositiveIntegerField(default=DEFAULT_UNIT)

    def __str__(self) -> str:
        return f"money of night {self.tournament_id}"


class EntryKind(models.TextChoices):
    BUY_IN = "buy_in", "Buy-in"
    REBUY = "rebuy", "Rebuy"
    ADDON = "addon", "Add-on"


class MoneyEntry(models.Model):
    """One payment at the table. A rebuy or add-on gives chips through one ledger entry
    (``ledger``); undoing it (until the next hand is recorded) writes a reversing ledger
    entry (``reversal``) and marks it undone: rows are never deleted."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=EntryKind.choices)
    paid = models.PositiveIntegerField()  # what the player paid, the fee included
    fee = models.PositiveIntegerField(default=0)
    bounty = models.PositiveIntegerField(default=0)
    chips = models.PositiveIntegerField(default=0)
    # the number of the next hand to be dealt when it was recorded
    at_hand = models.PositiveIntegerField()
    ledger = models.ForeignKey(
        LedgerEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reversal = models.ForeignKey(
        LedgerEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(kind="buy_in", undone_at__isnull=True),
                name="one_buy_in_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(kind="addon", undone_at__isnull=True),
                name="one_addon_per_player",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "player"], name="money_entry_player")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.player_id} in {self.tournament_id}"


class SettleTransfer(models.Model):
    """One transfer of a finished night's settle-up (``payer`` pays ``payee``; null is the
    house, which keeps the fees), stored when it is first marked paid, the whole list at once
    (docs/money.md, "Who owes whom"); marked paid once, never deleted."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="settle_transfers"
    )
    position = models.PositiveSmallIntegerField()  # in the settle-up's list, from 0
    payer = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    payee = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    amount = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="one_transfer_per_position"
            )
        ]

    def __str__(self) -> str:
        return f"transfer {self.position} of {self.tournament_id}"


class DealOption(models.TextChoices):
    ICM = "icm", "ICM"
    CHIP_CHOP = "chip_chop", "Chip count"
    EVEN = "even", "Even split"
    CUSTOM = "custom", "Amounts typed in"


class Deal(models.Model):
    """The players still in agreed to stop before the hand limit and split what the places
    still open pay (docs/money.md, "Deals"). It ended the night: the players still in are
    placed by chips, and ``amounts`` replace those places' payouts. Written once."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="deal")
    option = models.CharField(max_length=12, choices=DealOption.choices)
    # [{"player": id, "chips": n, "amount": minor units}, ...] in seat order
    amounts = models.JSONField(default=list)
    agreed_by = models.JSONField(default=list)  # the player ids who agreed
    at_hand = models.PositiveIntegerField()  # the hands played when they stopped
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    agreed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.option} deal of night {self.tournament_id}"

    @property
    def by_player(self) -> dict[int, int]:
        return {row["player"]: row["amount"] for row in self.amounts}


class LedgerKind(models.TextChoices):
    NIGHT = "night", "A night's result"
    RESTATED = "restated", "A night's result restated"
    PAYMENT = "payment", "A payment"
    CORRECTION = "correction", "A correction"


class MoneyLedgerEntry(AppendOnlyModel):
    """One movement in a league's money ledger (docs/money.md, "The league ledger"), in
    minor units: what the league owes ``player`` (the house when null) goes up by ``amount``
    (negative: down). A player's balance is the sum of their entries; every write adds
    entries whose amounts add up to zero, so the balances (the house's included) always do.
    Append-only: never changed nor deleted (a correction is a new entry)."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="money_ledger")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )  # null: the house, which keeps the fees
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )  # the night of a result, a restated result or a night's transfer paid
    transfer = models.ForeignKey(
        SettleTransfer, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )  # a night's settle-up transfer this payment is
    kind = models.CharField(max_length=12, choices=LedgerKind.choices)
    amount = models.BigIntegerField()
    currency = models.CharField(max_length=3)
    reason = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["league", "currency", "player"], name="money_ledger_player"),
            models.Index(fields=["tournament", "kind"], name="money_ledger_night"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} to {self.player_id or 'house'} in {self.league_id}"
