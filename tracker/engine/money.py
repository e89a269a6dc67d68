"""The money of a game night: pure integer arithmetic (no currency, no formatting, no Django).

Every amount is a whole number of the currency's *minor units* (cents for USD, yen for JPY).
A league rounds its payouts to a *unit* (e.g. 100: whole dollars); every price of a night
(buy-in, fee, rebuy, add-on, bounty) must be a whole number of that unit, so the prize pool
is one too and every payout can be.

What a night takes in and where it goes:

* each entry pays the buy-in, the fee and the bounty; each rebuy its price plus the fee;
  each add-on its price plus the fee;
* fees are kept out of the pool (the house's); bounties are kept apart (they go to whoever
  takes a player's last chips); everything else is the prize pool;
* the pool is paid out by places with a payout template, so paid out + fees + bounties =
  paid in, to the minor unit.

>>> rules = NightRules(buy_in=2000, fee=500, rebuy_price=2000, addon_price=1000, bounty=500)
>>> pool = pool_of(rules, entries=5, rebuys=3, addons=3)
>>> (pool.paid_in, pool.fees, pool.bounties, pool.prize_pool)
(27000, 5500, 2500, 19000)
>>> place_payouts(pool.prize_pool, "50_30_20", entrants=5, unit=500)
[10000, 5500, 3500]

Rounding: each place's exact share is rounded down to the unit and the units left over go to
the higher places, one unit each from first place down (above, with a unit of 500: 9500,
5700 -> 5500 and 3800 -> 3500 leave 500 over, which goes to first place). Players tied for places (equal chips at the hand limit, or out in the same hand
with the same stack: tracker/engine/tournament.py) share those places' payouts evenly -- the
tie rule of league points (tracker/engine/points.py) -- each taking the even share rounded
down to the unit, and the units left over go one each to the tied players in the order given
(the seat order):

>>> player_payouts({"ann": 1, "bob": 2, "cat": 2, "dan": 4}, [10000, 5500, 3000], unit=500)
{'ann': 10000, 'bob': 4500, 'cat': 4000, 'dan': 0}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import Code, DomainError

__all__ = [
    "MAX_AMOUNT",
    "PAYOUT_TEMPLATES",
    "REBUY_WHEN",
    "NightRules",
    "Pool",
    "ENTRY_KINDS",
    "check_payout",
    "entry_check",
    "place_payouts",
    "player_payouts",
    "pool_of",
    "template_shares",
]

#: The largest amount, in minor units, anything may cost (fits the database's integers).
MAX_AMOUNT = 100_000_000

#: When a rebuy is allowed: only for a player with no chips left, or at any time.
REBUY_WHEN: tuple[str, ...] = ("busted", "any")

#: The payout templates, by name: ``(title, shares)``; ``None`` shares are worked out from
#: the number of entrants (``top_third``) or given by the night (``custom_percent``,
#: ``custom_fixed``).
PAYOUT_TEMPLATES: dict[str, tuple[str, tuple[int, ...] | None]] = {
    "winner_takes_all": ("Winner takes all", (100,)),
    "65_35": ("65 / 35", (65, 35)),
    "50_30_20": ("50 / 30 / 20", (50, 30, 20)),
    "top_third": ("The top third", None),
    "custom_percent": ("Custom percentages", None),
    "custom_fixed": ("Custom fixed amounts", None),
}


@dataclass(frozen=True)
class NightRules:
    """The money rules of one night (amounts in minor units; 0 means "none").

    ``rebuy_price`` 0: no rebuys; otherwise a rebuy gives ``rebuy_chips`` and is allowed
    before hand ``rebuy_until_hand`` is played (up to and including it), at most
    ``rebuy_max`` per player, and only to a player with no chips when ``rebuy_when`` is
    ``"busted"``. ``addon_price`` 0: no add-on; otherwise one per player, taken before hand
    ``addon_at_hand`` (just then: when that hand is the next to be dealt).
    """

    buy_in: int = 0
    fee: int = 0
    bounty: int = 0
    rebuy_price: int = 0
    rebuy_chips: int = 0
    rebuy_until_hand: int = 0
    rebuy_max: int = 0
    rebuy_when: str = "busted"
    addon_price: int = 0
    addon_chips: int = 0
    addon_at_hand: int = 0
    payout_template: str = "winner_takes_all"
    payout_custom: tuple[int, ...] = field(default=())

    @property
    def rebuys_on(self) -> bool:
        return self.rebuy_price > 0

    @property
    def addon_on(self) -> bool:
        return self.addon_price > 0

    def check(self, *, unit: int) -> NightRules:
        """Refuse rules that cannot be played or paid out to the unit; the rules.

        >>> NightRules(buy_in=2050).check(unit=100)
        Traceback (most recent call last):
        ...
        tracker.engine.errors.DomainError: buy_in: 2050 is not a whole number of the unit (100)
        """
        if not isinstance(unit, int) or isinstance(unit, bool) or not 1 <= unit <= MAX_AMOUNT:
            raise DomainError(f"the unit is a whole number from 1 to {MAX_AMOUNT:,}", field="unit")
        for name in ("buy_in", "fee", "bounty", "rebuy_price", "addon_price"):
            value = getattr(self, name)
            _whole(value, name, 0, MAX_AMOUNT)
            if value % unit:
                raise DomainError(
                    f"{name}: {value} is not a whole number of the unit ({unit})",
                    code=Code.INVALID_AMOUNT,
                    field=name,
                )
        for name in ("rebuy_chips", "rebuy_until_hand", "rebuy_max", "addon_chips"):
            _whole(getattr(self, name), name, 0, MAX_AMOUNT)
        _whole(self.addon_at_hand, "addon_at_hand", 0, MAX_AMOUNT)
        if self.rebuy_when not in REBUY_WHEN:
            raise DomainError(
                f"rebuy_when is one of {', '.join(REBUY_WHEN)}, not {self.rebuy_when!r}",
                field="rebuy_when",
            )
        if self.rebuys_on:
            for name in ("rebuy_chips", "rebuy_until_hand", "rebuy_max"):
                if getattr(self, name) < 1:
                    raise DomainError(f"{name}: rebuys need at least 1", field=name)
        if self.addon_on:
            for name in ("addon_chips", "addon_at_hand"):
                if getattr(self, name) < 1:
                    raise DomainError(f"{name}: an add-on needs at least 1", field=name)
        check_payout(self.payout_template, self.payout_custom)
        return self


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DomainError(f"{name}: a whole number from {low} to {high:,}", field=name)
    return value


def check_payout(template: str, custom: Sequence[int] = ()) -> tuple[int, ...]:
    """Refuse an unknown template or custom shares that do not add up; the custom shares.

    Custom percentages are whole percentages, first place first, adding up to 100; fixed
    amounts are in minor units, first place first (first place takes whatever the pool holds
    beyond the other places' amounts).

    >>> check_payout("custom_percent", [60, 30, 10])
    (60, 30, 10)
    >>> check_payout("custom_percent", [60, 30])
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: custom percentages add up to 90, not 100
    """
    if template not in PAYOUT_TEMPLATES:
        raise DomainError(
            f"payout_template is one of {', '.join(PAYOUT_TEMPLATES)}, not {template!r}",
            field="payout_template",
        )
    shares = tuple(custom or ())
    if template.startswith("custom"):
        if not shares or len(shares) > 50:
            raise DomainError(
                "a custom payout needs 1 to 50 places, first place first", field="payout_custom"
            )
        for i, share in enumerate(shares):
            _whole(share, f"payout_custom[{i}]", 0, MAX_AMOUNT)
        if template == "custom_percent" and sum(shares) != 100:
            raise DomainError(
                f"custom percentages add up to {sum(shares)}, not 100", field="payout_custom"
            )
    elif shares:
        raise DomainError(
            f"{template} takes no custom shares (use custom_percent or custom_fixed)",
            field="payout_custom",
        )
    return shares


def template_shares(template: str, *, entrants: int, custom: Sequence[int] = ()) -> list[int]:
    """The relative weight of each paid place (first place first), at most one per entrant.

    ``top_third`` pays the top third of the entrants (at least one), weighted n, n-1, ... 1:

    >>> template_shares("top_third", entrants=9)
    [3, 2, 1]
    >>> template_shares("50_30_20", entrants=2)
    [50, 30]
    """
    check_payout(template, custom)
    if template == "top_third":
        paid = max(1, entrants // 3)
        return list(range(paid, 0, -1))
    shares = custom if template.startswith("custom") else PAYOUT_TEMPLATES[template][1]
    return list(shares or ())[: max(1, entrants)]


def place_payouts(
    pool: int,
    template: str,
    *,
    entrants: int,
    unit: int,
    custom: Sequence[int] = (),
) -> list[int]:
    """What each place is paid (first place first), summing to ``pool``, each a whole number
    of ``unit``; places past the template are paid nothing (and not listed).

    The pool must be a whole number of the unit. The shares of places a template names
    beyond the entrants (``50_30_20`` with two players) are left out and the rest rescaled,
    so the whole pool is always paid. Fixed amounts: the places after the first are paid their
    amounts (rounded down to the unit), from second place down as far as the pool goes, and
    first place takes the rest.

    >>> place_payouts(1000, "65_35", entrants=4, unit=100)
    [700, 300]
    >>> place_payouts(10000, "custom_fixed", entrants=5, unit=100, custom=[0, 3000, 1000])
    [6000, 3000, 1000]
    >>> place_payouts(0, "winner_takes_all", entrants=3, unit=100)
    [0]
    """
    if pool % unit:
        raise DomainError(f"the pool {pool} is not a whole number of the unit {unit}")
    shares = template_shares(template, entrants=entrants, custom=custom)
    if template == "custom_fixed":
        out = [0] * len(shares)
        left = pool
        for i in range(1, len(shares)):
            paid = min(left, shares[i] - shares[i] % unit)
            out[i] = paid
            left -= paid
        out[0] = left
        return out
    units, total = pool // unit, sum(shares)
    if total == 0:
        return [pool] + [0] * (len(shares) - 1)
    exact = [units * s // total for s in shares]  # rounded down to the unit
    left = units - sum(exact)
    for i in range(left):  # fewer than len(shares) units: one each from first place down
        exact[i % len(exact)] += 1
    return [u * unit for u in exact]


def player_payouts(
    places: Mapping[Hashable, int], payouts: Sequence[int], *, unit: int
) -> dict[Hashable, int]:
    """Each player's payout from their place (1 = first; tied players share a place), in the
    order of ``places``: players tied at place k span places k .. k+m-1 and share those
    places' payouts evenly, to the unit, the units left over going one each to the tied
    players in the order given. What they are paid adds up to the payouts.

    >>> player_payouts({"a": 1, "b": 1, "c": 3}, [700, 300], unit=100)
    {'a': 500, 'b': 500, 'c': 0}
    >>> player_payouts({"a": 1, "b": 1}, [700, 200], unit=100)
    {'a': 500, 'b': 400}
    """
    by_place: dict[int, list[Hashable]] = {}
    for key, place in places.items():
        by_place.setdefault(place, []).append(key)
    out: dict[Hashable, int] = {}
    for place, keys in by_place.items():
        span = payouts[place - 1 : place - 1 + len(keys)]
        units = sum(span) // unit
        each, left = divmod(units, len(keys))
        for i, key in enumerate(keys):
            out[key] = (each + (1 if i < left else 0)) * unit
    return {key: out[key] for key in places}


#: What a player pays for at the table.
ENTRY_KINDS: tuple[str, ...] = ("buy_in", "rebuy", "addon")


def entry_check(
    rules: NightRules,
    *,
    kind: str,
    next_hand: int,
    stack: int,
    bought_in: bool,
    rebuys: int,
    addon: bool,
) -> None:
    """Refuse an entry the night's rules do not allow, naming the rule (the error's code):
    ``kind`` for a player holding ``stack`` chips before hand ``next_hand``, who has
    ``bought_in`` already, taken ``rebuys`` rebuys and ``addon`` the add-on.

    >>> rules = NightRules(buy_in=1000, rebuy_price=1000, rebuy_chips=1000, rebuy_until_hand=10,
    ...                    rebuy_max=1, addon_price=500, addon_chips=1500, addon_at_hand=11)
    >>> entry_check(rules, kind="rebuy", next_hand=4, stack=0, bought_in=True, rebuys=0, addon=False)
    >>> entry_check(rules, kind="rebuy", next_hand=4, stack=120, bought_in=True, rebuys=0,
    ...             addon=False)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: a rebuy only when busted: the player still holds 120 chips
    >>> entry_check(rules, kind="rebuy", next_hand=11, stack=0, bought_in=True, rebuys=0,
    ...             addon=False)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: rebuys up to hand 10: the next hand is 11
    """

    def refuse(message: str, code: str) -> None:
        raise DomainError(message, code=code, field="kind")

    if kind not in ENTRY_KINDS:
        raise DomainError(f"kind is one of {', '.join(ENTRY_KINDS)}, not {kind!r}", field="kind")
    if kind == "buy_in":
        if not (rules.buy_in or rules.fee or rules.bounty):
            refuse("this night has no buy-in", "no_buy_in")
        if bought_in:
            refuse("the buy-in is recorded already: one a player", "buy_in_recorded")
    elif kind == "rebuy":
        if not rules.rebuys_on:
            refuse("this night has no rebuys", "no_rebuys")
        if next_hand > rules.rebuy_until_hand:
            refuse(
                f"rebuys up to hand {rules.rebuy_until_hand}: the next hand is {next_hand}",
                "rebuy_window",
            )
        if rebuys >= rules.rebuy_max:
            refuse(
                f"at most {rules.rebuy_max} rebuy{'s' if rules.rebuy_max != 1 else ''} a player: "
                f"this player has {rebuys}",
                "rebuy_limit",
            )
        if rules.rebuy_when == "busted" and stack > 0:
            refuse(
                f"a rebuy only when busted: the player still holds {stack} chips",
                "rebuy_only_when_busted",
            )
    else:
        if not rules.addon_on:
            refuse("this night has no add-on", "no_addon")
        if addon:
            refuse("the add-on is taken already: one a player", "addon_taken")
        if next_hand != rules.addon_at_hand:
            refuse(
                f"the add-on is taken before hand {rules.addon_at_hand}: the next hand is "
                f"{next_hand}",
                "addon_window",
            )
        if stack <= 0:
            refuse("the add-on is for a player still holding chips", "addon_busted")


@dataclass(frozen=True)
class Pool:
    """What a night took in and how it divides (minor units)."""

    paid_in: int
    fees: int
    bounties: int

    @property
    def prize_pool(self) -> int:
        return self.paid_in - self.fees - self.bounties


def pool_of(rules: NightRules, *, entries: int, rebuys: int = 0, addons: int = 0) -> Pool:
    """The money of ``entries`` buy-ins, ``rebuys`` rebuys and ``addons`` add-ons (each pays
    the fee too).

    >>> pool_of(NightRules(buy_in=1000, fee=100), entries=4)
    Pool(paid_in=4400, fees=400, bounties=0)
    """
    fees = rules.fee * (entries + rebuys + addons)
    bounties = rules.bounty * entries
    paid_in = rules.buy_in * entries + rules.rebuy_price * rebuys + rules.addon_price * addons
    return Pool(paid_in=paid_in + fees + bounties, fees=fees, bounties=bounties)


def bounty_split(bounty: int, awards: Mapping[Hashable, int], *, unit: int) -> dict[Hashable, int]:
    """How a busted player's ``bounty`` is shared between the winners of the pot that took
    their last chips (``awards``: what each player won of that pot, in seat order; those
    with nothing won are left out). One winner takes it all; a split pot splits it evenly
    to the unit, the units left over going one each to the winners with the bigger share of
    the pot first (seat order between equal shares). What is shared adds up to the bounty,
    which is a whole number of the unit. No winner: nothing is shared (``{}``).

    >>> bounty_split(500, {"a": 0, "b": 120}, unit=100)
    {'b': 500}
    >>> bounty_split(500, {"a": 60, "b": 61}, unit=100)
    {'a': 200, 'b': 300}
    >>> bounty_split(500, {"a": 60, "b": 60}, unit=100)
    {'a': 300, 'b': 200}
    """
    winners = [key for key, won in awards.items() if won > 0]
    if not winners or bounty <= 0:
        return {}
    each, left = divmod(bounty // unit, len(winners))
    order = sorted(range(len(winners)), key=lambda i: (-awards[winners[i]], i))
    extra = {winners[i] for i in order[:left]}
    return {key: (each + (key in extra)) * unit for key in winners}
