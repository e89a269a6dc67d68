"""Tournament rules of the game night (RULES.md, "Tournaments"), as pure functions.

Stakes rise every ``hands_per_level`` hands (hands 1-5 are level 1, 6-10
level 2, ...); the game ends after the hand limit or as soon as one player
holds every chip; the dealer moves one seat clockwise each hand, skipping
players who are out; final places rank by chips, and players who went out
by when they went out.

>>> stakes_for_hand(DEFAULT_SCHEDULE, 6)
Stakes(ante=6, bring_in=15, small_bet=30, big_bet=60, level=2)
>>> next_dealer(seats=[0, 1, 2, 3], previous=1, out={2})
3
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import Code, DomainError
from .stakes import STAKE_FIELDS, Stakes

STARTING_CHIPS = 1000
HANDS_PER_LEVEL = 5
HAND_LIMIT = 50
MIN_SEATS = 2
MAX_SEATS = 8

# (ante, bring-in, small bet, big bet) per level, RULES.md's default schedule.
DEFAULT_SCHEDULE: tuple[tuple[int, int, int, int], ...] = (
    (4, 10, 20, 40),
    (6, 15, 30, 60),
    (8, 20, 40, 80),
    (12, 30, 60, 120),
    (16, 40, 80, 160),
    (20, 50, 100, 200),
    (24, 60, 120, 240),
    (32, 80, 160, 320),
    (40, 100, 200, 400),
    (60, 150, 300, 600),
)


def levels_usable(hand_limit: int, hands_per_level: int = HANDS_PER_LEVEL) -> int:
    """How many levels a night of ``hand_limit`` hands reaches: its last hand's level.

    >>> levels_usable(50), levels_usable(50, 7), levels_usable(3)
    (10, 8, 1)
    """
    return level_for_hand(hand_limit, hands_per_level)


def stake_limit(starting_chips: int = STARTING_CHIPS) -> int:
    """The most chips an ante, bring-in or bet of a night may be: every chip of a full table
    (``MAX_SEATS`` stacks), counted at no fewer than the 1000-chip game's starting chips, so
    that the house schedule fits every night. Nobody can put in more.

    >>> stake_limit(), stake_limit(20_000), stake_limit(100)
    (8000, 160000, 8000)
    """
    return max(starting_chips, STARTING_CHIPS) * MAX_SEATS


def check_schedule(
    schedule: object,
    field: str = "stakes_schedule",
    *,
    hand_limit: int | None = None,
    hands_per_level: int = HANDS_PER_LEVEL,
    max_chips: int | None = None,
) -> list[list[int]]:
    """Validate a stakes schedule: a non-empty list of [ante, bring_in, small_bet, big_bet].

    Each level must be valid :class:`~tracker.engine.stakes.Stakes` (the big bet twice the
    small bet, the bring-in at most the small bet), and stakes may not go down. Given
    ``hand_limit``, the schedule has at most the levels such a night reaches
    (:func:`levels_usable`; counted before any level is read); given ``max_chips``, no
    amount is larger (:func:`stake_limit`).

    >>> check_schedule([[1, 2, 4, 8]])
    [[1, 2, 4, 8]]
    >>> check_schedule([[1, 2, 4, 9]])
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: the big bet must be twice the small bet (8), not 9
    >>> check_schedule([[1, 2, 4, 8]] * 3, hand_limit=10)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: a night of 10 hands, 5 a level, reaches 2 levels: give at most 2, not 3
    >>> check_schedule([[4, 10, 20, 40], [4, 10, 5000, 10000]], max_chips=8000)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: the big bet may be at most 8,000 chips (every chip of a full table)
    >>> check_schedule([[4, 10, 20, 40]], max_chips=8000, hand_limit=50)
    [[4, 10, 20, 40]]
    """
    if not isinstance(schedule, (list, tuple)) or not schedule:
        raise DomainError(
            "must be a non-empty list of levels", code=Code.INVALID_SCHEDULE, field=field
        )
    if hand_limit is not None:
        most = levels_usable(hand_limit, hands_per_level)
        if len(schedule) > most:
            raise DomainError(
                f"a night of {hand_limit} hands, {hands_per_level} a level, reaches {most} "
                f"level{'s' if most != 1 else ''}: give at most {most}, not {len(schedule)}",
                code=Code.TOO_MANY_LEVELS,
                field=f"{field}[{most}]",
            )
    out: list[list[int]] = []
    for i, level in enumerate(schedule):
        path = f"{field}[{i}]"
        if isinstance(level, (list, tuple)):
            if len(level) != 4:
                raise DomainError(
                    "each level is [ante, bring_in, small_bet, big_bet]",
                    code=Code.INVALID_SCHEDULE,
                    field=path,
                )
            level = dict(zip(STAKE_FIELDS, level, strict=True))
        if max_chips is not None and isinstance(level, Mapping):
            # Before anything reads the amounts: a number too large is never echoed.
            for name in STAKE_FIELDS:
                amount = level.get(name)
                if isinstance(amount, (int, float)) and not isinstance(amount, bool):
                    if amount > max_chips:
                        raise DomainError(
                            f"the {name.replace('_', ' ')} may be at most {max_chips:,} chips "
                            "(every chip of a full table)",
                            code=Code.INVALID_SCHEDULE,
                            field=path,
                        )
        try:
            stakes = Stakes.coerce(level, field=path)
        except DomainError as exc:
            raise DomainError(exc.message, code=Code.INVALID_SCHEDULE, field=path) from None
        if out and stakes.small_bet < out[-1][2]:
            raise DomainError(
                f"level {i + 1}: stakes may not go down from one level to the next",
                code=Code.INVALID_SCHEDULE,
                field=path,
            )
        out.append([stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet])
    return out


def level_for_hand(number: int, hands_per_level: int = HANDS_PER_LEVEL) -> int:
    """The level of hand ``number`` (1-based).

    >>> [level_for_hand(n) for n in (1, 5, 6, 50)]
    [1, 1, 2, 10]
    """
    if number < 1:
        raise ValueError("hands are numbered from 1")
    return (number - 1) // hands_per_level + 1


def stakes_for_hand(
    schedule: Sequence[Sequence[int]], number: int, hands_per_level: int = HANDS_PER_LEVEL
) -> Stakes:
    """The stakes of hand ``number``, with its level; past the last level the last level's
    stakes stay."""
    level = level_for_hand(number, hands_per_level)
    ante, bring_in, small, big = schedule[min(level, len(schedule)) - 1]
    return Stakes(ante, bring_in, small, big, level=level)


def next_dealer(
    *, seats: Sequence[int], previous: int | None, out: Collection[int], first: int | None = None
) -> int:
    """The seat that deals next: one seat clockwise from ``previous``, skipping seats ``out``.

    ``seats`` are in clockwise order. With no previous hand the ``first`` dealer deals (the
    first seat when not given), or the first seat still in clockwise from it.

    >>> next_dealer(seats=[0, 1, 2], previous=None, out=set())
    0
    >>> next_dealer(seats=[0, 1, 2], previous=None, out=set(), first=2)
    2
    >>> next_dealer(seats=[0, 1, 2], previous=None, out={2}, first=2)
    0
    >>> next_dealer(seats=[0, 1, 2], previous=2, out={0})
    1
    """
    live = [s for s in seats if s not in out]
    if not live:
        raise DomainError("every player is out", code=Code.TOURNAMENT_OVER)
    if previous is None:
        if first is None or first not in seats:
            return live[0]
        if first not in out:
            return first
        previous = first
    start = seats.index(previous)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if seat not in out:
            return seat
    raise AssertionError("unreachable")  # pragma: no cover


def order_from_dealer(seats: Sequence[int], dealer: int, out: Collection[int] = ()) -> list[int]:
    """Seats still in, clockwise from the dealer's left, the dealer last.

    >>> order_from_dealer([0, 1, 2, 3], dealer=1, out={3})
    [2, 0, 1]
    """
    start = seats.index(dealer)
    ordered = [seats[(start + k) % len(seats)] for k in range(1, len(seats) + 1)]
    return [s for s in ordered if s not in out]


@dataclass(frozen=True)
class Place:
    """One row of final (or live) standings."""

    key: object
    chips: int
    place: int
    out_hand: int | None  # the hand in which the player went out, or None if still in


def rank_players(
    *,
    chips: Mapping[object, int],
    out_hand: Mapping[object, int],
    stack_before_out: Mapping[object, int],
) -> list[Place]:
    """Rank players by RULES.md: most chips first; players who went out rank by when
    they went out (later is better; in the same hand, the bigger stack at the start of
    that hand ranks higher); equal chips (or equal bust-outs) share a place.

    >>> rows = rank_players(chips={"a": 0, "b": 3000, "c": 0},
    ...                     out_hand={"a": 7, "c": 9}, stack_before_out={"a": 50, "c": 10})
    >>> [(r.key, r.place) for r in rows]
    [('b', 1), ('c', 2), ('a', 3)]
    """

    def sort_key(k):
        if k in out_hand:
            return (0, out_hand[k], stack_before_out.get(k, 0))
        return (1, chips[k], 0)

    keys = sorted(chips, key=sort_key, reverse=True)
    rows: list[Place] = []
    for i, k in enumerate(keys):
        if i and sort_key(k) == sort_key(keys[i - 1]):
            place = rows[-1].place
        else:
            place = i + 1
        rows.append(Place(k, chips[k], place, out_hand.get(k)))
    return rows


def is_over(*, hands_played: int, hand_limit: int, stacks: Iterable[int]) -> bool:
    """The game is over after the hand limit, or once one player holds every chip.

    >>> is_over(hands_played=12, hand_limit=50, stacks=[0, 3000, 0])
    True
    """
    live = [s for s in stacks if s > 0]
    return hands_played >= hand_limit or len(live) <= 1


@dataclass(frozen=True)
class NextHand:
    """The hand a night deals next: its number, dealer, the seats dealt in (clockwise from
    the dealer's left, the dealer last) and its stakes; or ``over`` saying why none is."""

    number: int
    dealer: int | None
    seats: tuple[int, ...]
    stakes: Stakes | None
    over: str = ""


def next_hand(
    *,
    seats: Sequence[int],
    stacks: Mapping[int, int],
    hands_played: int,
    previous_dealer: int | None,
    first_dealer: int | None,
    schedule: Sequence[Sequence[int]],
    hands_per_level: int = HANDS_PER_LEVEL,
    hand_limit: int = HAND_LIMIT,
) -> NextHand:
    """The next hand of a night from where it stands: ``seats`` in clockwise order,
    ``stacks`` by seat (a seat with no chips is out). The server's state of play and the
    phone's logger (offline) both deal the next hand with it.

    >>> schedule = [(4, 10, 20, 40), (6, 15, 30, 60)]
    >>> next_hand(seats=[0, 1, 2], stacks={0: 1100, 1: 0, 2: 1900}, hands_played=5,
    ...           previous_dealer=0, first_dealer=0, schedule=schedule)
    NextHand(number=6, dealer=2, seats=(0, 2), stakes=Stakes(ante=6, bring_in=15, small_bet=30, big_bet=60, level=2), over='')
    >>> next_hand(seats=[0, 1], stacks={0: 2000, 1: 0}, hands_played=7, previous_dealer=1,
    ...           first_dealer=0, schedule=schedule).over
    'one player holds every chip'
    """
    number = hands_played + 1
    chips = [stacks.get(s, 0) for s in seats]
    if is_over(hands_played=hands_played, hand_limit=hand_limit, stacks=chips):
        why = (
            f"the {hand_limit}-hand limit is reached"
            if hands_played >= hand_limit
            else "one player holds every chip"
        )
        return NextHand(number, None, (), None, why)
    out = {s for s in seats if stacks.get(s, 0) <= 0}
    dealer = next_dealer(seats=seats, previous=previous_dealer, out=out, first=first_dealer)
    order = order_from_dealer(seats, dealer, out)
    stakes = stakes_for_hand(schedule, min(number, hand_limit), hands_per_level)
    return NextHand(number, dealer, tuple(order), stakes)
