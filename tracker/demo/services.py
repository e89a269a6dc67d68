"""The demo league that `make run` shows, recorded through the same services as the API.

``demo_seed`` is idempotent: the league is created once; running it again
changes nothing. Hands are dealt from a seeded shuffle, so every run makes the
same league: a finished game night, one in progress, every variant, a few full
histories, and some pots where the table and the engine disagree. The nights are
dated from the day the league is made (the finished one up to two weeks earlier, the
running one that day), both in the league's current season, so its standings are
never empty.
"""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from tracker.engine.cards import format_card
from tracker.engine.showdown import evaluate_showdown
from tracker.engine.variants import LOW_HOLE, VARIANT_RULES
from tracker.hands.services.recording import hand_record
from tracker.leagues.models import League, Membership, Role
from tracker.leagues.seasons import season_of
from tracker.leagues.services import league_create, player_create
from tracker.money.services import entry_record, league_money_set, night_create
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import tournament_state

DEMO_PASSWORD = "homegame-demo"
# username -> roles in the demo league: one account per role, and alex, who started the
# league, is also its authority (as a founder who ticks that box on the new-league page).
DEMO_USERS = {
    "rob": (Role.AUTHORITY,),
    "sam": (Role.SCOREKEEPER,),
    "alex": (Role.ADMIN, Role.AUTHORITY),
    "jo": (Role.MEMBER,),
}
# The finished night is three-handed (its full-history hand has three seats), so the demo
# league counts nights of three players toward its standings.
DEMO_MIN_PLAYERS = 3
DEMO_SLUG = "friday-night-stud"
PLAYERS = ("Rob", "Sam", "Alex", "Jo", "Kim")
VARIANT_CYCLE = (
    ("seven_card_stud", {}),
    ("kings_and_little_ones", {"king_required": True}),
    ("low_hole", {"game": "high"}),
    ("low_hold", {"same_rank_wild": "none"}),
    ("low_hole", {"game": "high_low"}),
    ("kings_and_little_ones", {"king_required": False}),
)

# Two hands recorded with every action (PHH notation; p1 sits left of the dealer).
FULL_HANDS = [
    [
        "d dh p1 AsKs2c",
        "d dh p2 QhQd3c",
        "d dh p3 7d8d9h",
        "p1 pb",
        "p2 cbr 20",
        "p3 f",
        "p1 cc",
        "d dh p1 5c",
        "d dh p2 5d",
        "p2 cbr 20",
        "p1 cc",
        "d dh p1 Jh",
        "d dh p2 4h",
        "p1 cc",
        "p2 cbr 40",
        "p1 cc",
        "d dh p1 9c",
        "d dh p2 Tc",
        "p1 cc",
        "p2 cc",
        "d dh p1 6s",
        "d dh p2 8s",
        "p1 cc",
        "p2 cbr 40",
        "p1 f",
    ],
]


def _users() -> dict[str, object]:
    User = get_user_model()
    users = {}
    for name in DEMO_USERS:
        user, created = User.objects.get_or_create(username=name)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        users[name] = user
    return users


def _deal_quick(
    rng: random.Random, tournament: Tournament, variant: str, options: dict, dispute: bool
) -> tuple[dict, dict | None]:
    """A plausible quick entry: some fold on third street, the rest see a showdown."""
    state = tournament_state(tournament)
    stakes = state.next_stakes
    seats = state.next_positions()
    stacks = [state.stacks[s.player_id] for s in seats]
    deck = list(range(52))
    rng.shuffle(deck)
    n = len(seats)
    showdown = max(2, min(n, rng.choice((2, 2, 3, 3, 4))))
    contenders = sorted(rng.sample(range(n), showdown))
    cap = min(stacks[i] for i in contenders)
    bet = min(cap, stakes.ante + rng.choice((1, 2, 3, 4, 6)) * stakes.small_bet)
    entries, shown = [], []
    for i, seat in enumerate(seats):
        if i in contenders:
            if VARIANT_RULES[variant].chooses_seventh and rng.random() < 0.3:
                down_n, up_n, seventh = 2, 5, "up"
            else:
                down_n, up_n, seventh = 3, 4, None
            cards = [format_card(deck.pop()) for _ in range(7)]
            entry = {
                "player": seat.player_id,
                "put_in": bet,
                "down": cards[:down_n],
                "up": cards[down_n : down_n + up_n],
            }
            if seventh:
                entry["seventh"] = seventh
            shown.append({"down": entry["down"], "up": entry["up"]})
        else:
            entry = {
                "player": seat.player_id,
                "put_in": min(stacks[i], stakes.ante),
                "folded": "third",
            }
        entries.append(entry)
    table = None
    if dispute:
        reading = evaluate_showdown(
            {"variant": variant, "options": options, "community": None, "players": shown}
        )
        losers = [k for k in range(len(contenders)) if k not in reading["high_winners"]]
        if losers and options.get("game", "high") == "high":
            table = {"winners": [seats[contenders[rng.choice(losers)]].player_id]}
    return {"seats": entries}, table


def _play(
    tournament: Tournament,
    by,
    hands: int,
    seed: int,
    disputes: set[int],
    full: dict[int, list[str]] | None = None,
) -> None:
    rng = random.Random(seed)
    for k in range(hands):
        state = tournament_state(tournament)
        if state.over:
            return
        number = state.next_number
        variant, options = VARIANT_CYCLE[k % len(VARIANT_CYCLE)]
        if len(state.next_positions()) > VARIANT_RULES[variant].max_players:
            variant, options = LOW_HOLE, {"game": "high"}
        if full and number in full and len(state.next_positions()) == 3:
            hand_record(
                tournament=tournament,
                by=by,
                entry_mode="full",
                variant="seven_card_stud",
                entry={"actions": full[number]},
                number=number,
            )
            continue
        entry, table = _deal_quick(rng, tournament, variant, options, number in disputes)
        hand_record(
            tournament=tournament,
            by=by,
            entry_mode="quick",
            variant=variant,
            options=options,
            entry=entry,
            table_result=table,
            number=number,
        )


def demo_dates(today: dt.date, season_start: dt.date | None) -> tuple[dt.date, dt.date]:
    """The dates of the finished night and the running one: two weeks before ``today`` and
    ``today``, the first never before the current season's first day (``None``: all time).

    >>> demo_dates(dt.date(2026, 12, 1), dt.date(2026, 1, 1))
    (datetime.date(2026, 11, 17), datetime.date(2026, 12, 1))
    >>> demo_dates(dt.date(2027, 1, 5), dt.date(2027, 1, 1))
    (datetime.date(2027, 1, 1), datetime.date(2027, 1, 5))
    """
    earlier = today - dt.timedelta(days=14)
    return (max(season_start, earlier) if season_start else earlier), today


DEMO_MONEY = {
    "currency": "USD",
    "unit": 500,
    "locale": "en_US",
    "buy_in": 2000,
    "fee": 500,
    "rebuy_price": 2000,
    "rebuy_chips": 1000,
    "rebuy_until_hand": 10,
    "rebuy_max": 1,
    "rebuy_when": "busted",
    "payout_template": "65_35",
}


def _buy_in(tournament, keeper) -> None:
    for seat in tournament.seats.all():
        entry_record(tournament=tournament, player_id=seat.player_id, kind="buy_in", by=keeper)


@transaction.atomic
def demo_seed(*, today: dt.date | None = None) -> list[str]:
    """Create the demo league once, its nights dated from ``today`` (the current date)."""
    users = _users()
    accounts = ", ".join(f"{name} ({' and '.join(roles)})" for name, roles in DEMO_USERS.items())
    report = [f"demo users: {accounts}; password {DEMO_PASSWORD!r}"]
    if League.objects.filter(slug=DEMO_SLUG).exists():
        report.append(f"demo league {DEMO_SLUG!r} already there: nothing to do")
        return report
    league = league_create(
        name="Friday Night Stud",
        slug=DEMO_SLUG,
        is_public=True,
        created_by=users["alex"],
        house_rules={"kings_and_little_ones": {"king_required": True}},
        min_players=DEMO_MIN_PLAYERS,
        creator_is_authority=Role.AUTHORITY in DEMO_USERS["alex"],
    )
    for name, roles in DEMO_USERS.items():
        for role in roles:
            Membership.objects.get_or_create(league=league, user=users[name], role=role)
    today = today or dt.date.today()
    finished_on, running_on = demo_dates(today, season_of(league.season_length, today).start)
    keeper = users["sam"]
    players = [player_create(league=league, name=name, by=keeper) for name in PLAYERS]
    by_name = {p.name: p for p in players}

    # The money (docs/money.md): dollars paid to the nearest $5, a $20 buy-in with a $2 fee,
    # one rebuy when busted up to hand 10, 65/35; the big night pays 50/30/20 (the admin's
    # change for that night) and has an add-on before hand 21.
    league_money_set(league=league, by=users["alex"], values=DEMO_MONEY)
    heads_up = night_create(
        league=league,
        name="Kitchen table, three-handed",
        by=keeper,
        date=finished_on,
        player_ids=[by_name[n].id for n in ("Rob", "Sam", "Jo")],
        starting_chips=1000,
    )
    _buy_in(heads_up, keeper)
    _play(heads_up, keeper, hands=50, seed=7, disputes={4, 17}, full={2: FULL_HANDS[0]})

    big = night_create(
        league=league,
        name="Big night, five players",
        by=users["alex"],
        date=running_on,
        player_ids=[p.id for p in players],
        money={
            "payout_template": "50_30_20",
            "addon_price": 1000,
            "addon_chips": 1500,
            "addon_at_hand": 21,
        },
    )
    _buy_in(big, keeper)
    _play(big, keeper, hands=23, seed=11, disputes={9})
    report.append(f"created league {league.name!r} with {len(players)} players and 2 game nights")
    return report
