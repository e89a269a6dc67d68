"""Per-seat *facts* of a settled hand: what the statistics are summed from.

:class:`FactsObserver` watches one walk of the stud state machine
(:mod:`tracker.engine.stud`) and notes, per seat, what the statistics need;
:func:`hand_facts` walks a recorded hand -- the full history, or the quick
entry as the engine read it -- with it and returns one small dict of numbers
per position. Settlement stores them on each ``HandSeat.facts``; the
statistics pages sum them in the database (docs/analytics.md defines every
statistic).

Every hand gives: ``saw4`` .. ``saw7`` (was dealt that street's card, or the
community card), ``sd`` (was still in when the seventh-street betting ended
with two or more in: a muck there counts, a muck is not a fold), ``cat``
(the high hand's category at the showdown) and ``wild`` (how many of the
player's cards were wild at the showdown) -- for every hand shown there, the hand of
the only player left after the others mucked included (a full history has its cards). A full history also gives the
betting: ``vpip``, ``bi`` (posted the bring-in), ``comp`` (completed on
third street), ``r3`` (raised on third street), ``bets`` (completions, bets
and raises, every street), ``calls`` (calls of a bet, every street),
``st_try`` / ``steal`` (a completion nobody had called before, and one that
everyone then folded to), and the all-in luck: when the betting stopped
before the last card with this player still in (at most one player in had
chips left), ``ai`` = 1, ``ai_st`` the street (3..6), ``eq`` the equity,
``ev`` the expected chips from the pots, ``ai_se`` the standard error of
``ev`` (0 when exact) and ``ai_m`` the method.

An example: Ann (p1) posts the bring-in, Bob completes, Cat folds, Ann
calls, and on fourth street Bob bets and Ann folds.

>>> reading = {
...     "antes": [4, 4, 4], "starting_stacks": [1000, 1000, 1000],
...     "stakes": {"ante": 4, "bring_in": 10, "small_bet": 20, "big_bet": 40},
...     "folded": ["fourth", None, "third"], "pots": [{"amount": 52, "eligible": [1]}],
...     "showdown": None, "winnings": [0, 52, 0], "community": None}
>>> actions = ["d dh p1 9c8d2c", "d dh p2 AsKsQs", "d dh p3 7h7d9s", "p1 pb", "p2 cbr 20",
...            "p3 f", "p1 cc", "d dh p1 3d", "d dh p2 Js", "p2 cbr 20", "p1 f"]
>>> ann, bob, cat = hand_facts(variant="seven_card_stud", options={}, entry_mode="full",
...                            entry={"actions": actions}, reading=reading)
>>> ann["bi"], ann["vpip"], ann["calls"], ann["saw4"], ann["saw5"]
(1, 1, 1, 1, 0)
>>> bob["vpip"], bob["comp"], bob["bets"], bob["st_try"], bob["steal"], bob["sd"]
(1, 1, 2, 1, 0, 0)
>>> cat["vpip"], cat["saw4"]
(0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .announcements import has_high, normalize_announcements
from .cards import format_card, parse_card
from .equity import SAMPLES, Pot, Seat, all_in_equity
from .errors import DomainError
from .game_showdown import evaluate_game
from .games import GameDefinition
from .procedure import QuickEntry, history_from_entry, walk_history, walk_quick
from .showdown import evaluate_showdown
from .stud import Event, HandObserver, StudHand, Verb
from .variants import STREETS, VARIANT_RULES, Street
from .wild import wild_options

__all__ = ["BETTING_KEYS", "FACTS_VERSION", "STREET_INDEX", "FactsObserver", "hand_facts"]

#: Bumped when the facts change meaning; ``refresh_stats`` recomputes older rows.
#: 2: streets seen from the cards dealt, and a muck at the showdown is a showdown.
#: 3: the hand shown by the only player left after the others mucked counts its category.
#: 4: a house game's all-in is valued in every game (it was skipped in follow-the-X,
#: extra-card, pay-rule, Chicago and five- and six-card games).
FACTS_VERSION = 4
STREET_INDEX = {name: k for k, name in enumerate(STREETS)}
BETTING_KEYS = ("vpip", "bi", "comp", "r3", "bets", "calls", "st_try", "steal")


class FactsObserver(HandObserver):
    """Notes each seat's betting, the streets it was dealt and the all-in moment, and the
    hand it watched (``hand``): an observer attached to another walk of the hand (settling
    it) gives :func:`hand_facts` what it needs without a walk of its own."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.hand: StudHand | None = None  # the hand watched, once it has seen an event
        self.betting = [dict.fromkeys(BETTING_KEYS, 0) for _ in range(n)]
        self.saw = [0] * n  # the last street index (0 third .. 4 seventh) each seat was dealt
        self.called_bring_in = False
        self.completer: int | None = None
        self.contested = False
        self.closed_at: int | None = None  # street index after whose betting nobody could bet
        self.contenders: tuple[int, ...] = ()
        # at that moment: the faces of each seat's cards, the up cards in the order dealt,
        # the cards dealt and the chips left (a house game's runout starts there)
        self.closed_faces: list[tuple[bool, ...]] = []
        self.closed_up_order: tuple[int, ...] = ()
        self.closed_dealt = 0
        self.closed_stacks: tuple[int, ...] = ()
        self.closed_paid = 0  # the pay-rule chips paid so far (the runout's pays come after)
        self.closed_community: int | None = None  # a community street's card, if dealt

    def on_event(self, event: Event, hand: StudHand) -> None:
        self.hand = hand
        verb = event.verb
        seat = event.seat
        street = event.street
        if verb is Verb.DEAL_UP or verb is Verb.DEAL_DOWN:
            if street > self.saw[seat]:  # type: ignore[index]
                self.saw[seat] = street  # type: ignore[index]
        elif verb is Verb.DEAL_COMMUNITY:
            for i in range(self.n):
                if hand.in_hand[i]:
                    self.saw[i] = Street.SEVENTH
        elif verb is Verb.STREET:
            if self.closed_at is None and hand.closed and street > Street.THIRD:
                self.closed_at = street - 1
                self.contenders = tuple(i for i in range(self.n) if hand.in_hand[i])
                self.closed_faces = [tuple(f) for f in hand.faces]
                self.closed_up_order = tuple(c for c in hand.up_order if c is not None)
                self.closed_dealt = hand.dealt
                self.closed_stacks = tuple(hand.stacks)
                self.closed_paid = sum(hand.paid)
                self.closed_community = hand.community
        elif seat is not None:
            f = self.betting[seat]
            if verb is Verb.BRING_IN:
                f["bi"] = 1
            elif verb is Verb.CALL:
                f["calls"] += 1
                if street == Street.THIRD:
                    f["vpip"] = 1
                    if self.completer is None:
                        self.called_bring_in = True
                    elif seat != self.completer:
                        self.contested = True
            elif verb is Verb.COMPLETE or verb is Verb.BET or verb is Verb.RAISE:
                f["bets"] += 1
                if street == Street.THIRD:
                    f["vpip"] = 1
                    if verb is Verb.COMPLETE:
                        f["comp"] = 1
                        self.completer = seat
                        if not self.called_bring_in:
                            f["st_try"] = 1
                    else:
                        f["r3"] = 1
                        if seat != self.completer:
                            self.contested = True

    def finish(self, hand: StudHand) -> None:
        """After the walk: a completion everyone folded to on third street is a steal."""
        c = self.completer
        if hand.street == Street.THIRD and hand.n_in == 1 and c is not None:
            if hand.in_hand[c] and not self.contested:
                self.betting[c]["steal"] = self.betting[c]["st_try"]


def _wild_count(variant: str, options: Mapping[str, Any], seat: Mapping, community) -> int:
    down = [parse_card(c) for c in seat.get("down") or []]
    up = [parse_card(c) for c in seat.get("up") or []]
    comm = parse_card(community) if community else None
    half = "high" if has_high(variant, options) else "low"
    return max(len(o) for o in wild_options(variant, options, down, up, comm, half))


def _shown_alone(hand: StudHand) -> tuple[int, dict] | None:
    """The seat and cards of the hand shown by the only player left at the showdown after
    the others mucked (the pots are theirs uncontested, so the reading has no showdown), or
    None: no such hand, or its cards unknown (a quick entry names only a contested one)."""
    still_in = [i for i in range(hand.n) if hand.in_hand[i]]
    if len(still_in) != 1 or still_in[0] not in hand.at_showdown:
        return None
    pos = still_in[0]
    pairs = list(zip(hand.cards[pos], hand.faces[pos], strict=True))
    if not pairs or any(card is None for card, _ in pairs):
        return None
    seat = {
        "down": [format_card(c) for c, up in pairs if not up],  # type: ignore[arg-type]
        "up": [format_card(c) for c, up in pairs if up],  # type: ignore[arg-type]
    }
    return pos, seat


def _luck(
    variant: str,
    options: Mapping[str, Any],
    facts: FactsObserver,
    hand: StudHand,
    reading: Mapping[str, Any],
    samples: int,
    game: GameDefinition | None = None,
) -> dict[int, dict[str, Any]]:
    """Equity and expected chips of each contender at the all-in moment, by position."""
    showdown = reading.get("showdown") or {}
    players = showdown.get("players") or []
    community = showdown.get("community") or reading.get("community")
    street = facts.closed_at
    if street is None or street >= 4:
        return {}
    contenders = facts.contenders
    seats = []
    extra: dict[str, Any] = {}
    stand_in = community is not None  # the community card stood in for a last card each
    if game is not None:
        stand_in = stand_in and "community" not in game.faces
        seats = _house_seats(game, facts, hand, players, stand_in)
        if not seats:
            return {}
        extra = {
            "up_order": facts.closed_up_order,
            "dealt": facts.closed_dealt,
            "board": facts.closed_community,
        }
    for pos in contenders if game is None else ():
        shown = players[pos] if pos < len(players) else None
        if not shown:
            return {}  # a contender mucked: the runout did not decide the pots
        down = [parse_card(c) for c in shown["down"]]
        up = [parse_card(c) for c in shown["up"]]
        seventh: tuple[bool, ...] = ()
        if community is None:
            seventh = (len(up) == 5,)
        seats.append(
            Seat(
                down=tuple(down[:2]),
                up=tuple(up[: street + 1]),
                to_come=(True,) * (3 - street) + seventh,
                declare=shown.get("declare"),
            )
        )
    index = {pos: k for k, pos in enumerate(contenders)}
    pots = []
    # a house game's runout pays under its pay rules go to the main pot: the equity adds
    # them runout by runout, so the pots are taken as they were at the all-in moment
    runout_paid = sum(hand.paid) - facts.closed_paid if game is not None else 0
    for k, pot in enumerate(reading.get("pots") or []):
        eligible = tuple(index[p] for p in pot["eligible"] if p in index)
        amount = pot["amount"] - (runout_paid if k == 0 else 0)
        if eligible and amount:
            pots.append(Pot(amount, eligible))
    if not pots:
        return {}
    dead = [
        c for pos in range(hand.n) if pos not in index for c in hand.cards[pos] if c is not None
    ]
    result = all_in_equity(
        variant,
        options,
        seats,
        pots,
        dead=dead,
        community=stand_in,
        samples=samples,
        game=game,
        **extra,
    )
    out = {}
    for k, pos in enumerate(contenders):
        out[pos] = {
            "ai": 1,
            "ai_st": street + 3,
            "eq": round(result.equity[k], 4),
            "ev": round(result.expected[k], 2),
            "ai_se": round(result.stderr[k], 2),
            "ai_m": "exact" if result.method == "exact" else "mc",
        }
    return out


def _house_seats(
    game: GameDefinition,
    facts: FactsObserver,
    hand: StudHand,
    players: list,
    community: bool,
) -> list[Seat]:
    """A house game's contenders at the all-in moment: the cards each had then (the first of
    the cards shown, by face), the faces of the streets to come (a choice as the player made
    it, a bought last card turned over), the chips left; empty when a contender mucked."""
    streets = game.streets[facts.closed_at + 1 :]  # type: ignore[operator]
    if community:
        streets = streets[:-1]
    buy = game.buy
    seats = []
    for pos in facts.contenders:
        shown = players[pos] if pos < len(players) else None
        if not shown:
            return []
        faces = facts.closed_faces[pos]
        n_up = sum(faces)
        to_come = []
        for k, street in enumerate(streets):
            last = k == len(game.streets) - facts.closed_at - 2  # type: ignore[operator]
            for j, f in enumerate(street.faces):
                if f == "community":  # everyone's card, nobody's to come
                    continue
                up = f == "up" or (f == "choice" and hand.seventh_up[pos])
                if buy is not None and last and j == len(street.faces) - 1:
                    up = hand.bought[pos] if buy.version == "contributed" else not hand.bought[pos]
                to_come.append(up)
        seats.append(
            Seat(
                down=tuple(parse_card(c) for c in shown["down"][: len(faces) - n_up]),
                up=tuple(parse_card(c) for c in shown["up"][:n_up]),
                to_come=tuple(to_come),
                declare=shown.get("declare"),
                chips=facts.closed_stacks[pos],
            )
        )
    return seats


def _walk_full(
    variant: str,
    options: Mapping[str, Any],
    entry: Mapping[str, Any],
    reading: Mapping[str, Any],
    observer: FactsObserver,
    game: GameDefinition | None = None,
) -> StudHand:
    history = history_from_entry(
        variant=variant,
        options=options,
        stakes=reading["stakes"],
        starting_stacks=reading["starting_stacks"],
        entry={**entry, "actions": list(entry.get("actions") or [])},
    )
    n = len(history["starting_stacks"])
    return walk_history(history, max_players=max(n, 2), observers=[observer], game=game)


def _walk_results(
    variant: str,
    options: Mapping[str, Any],
    reading: Mapping[str, Any],
    observer: FactsObserver,
    game: GameDefinition | None = None,
) -> StudHand:
    """Walk a quick entry again, as the engine read it (its folds, chips and shown cards)."""
    showdown = reading.get("showdown") or {}
    players = showdown.get("players") or []
    n = len(reading["folded"])
    shown: list[dict | None] = [None] * n
    seventh: list[str | None] = [None] * n
    declarations: list[str | None] = [None] * n
    for pos, seat in enumerate(players):
        if seat:
            shown[pos] = {"down": list(seat.get("down") or []), "up": list(seat.get("up") or [])}
            seventh[pos] = "up" if len(seat.get("up") or []) == 5 else None
            declarations[pos] = seat.get("declare")
    rules_choose = (
        VARIANT_RULES[variant].chooses_seventh
        if game is None
        else any("choice" in street.faces for street in game.streets)
    )
    returned = reading.get("returned") or [0] * n
    paid = reading.get("paid") or [0] * n  # a pay rule's chips, counted in buys too
    buys = [b - p for b, p in zip(reading.get("buys") or [0] * n, paid, strict=True)]
    entry = QuickEntry(
        variant=variant,
        stakes=reading["stakes"],
        starting_stacks=list(reading["starting_stacks"]),
        put_in=[reading["contributions"][i] + returned[i] for i in range(n)],
        folded=list(reading["folded"]),
        shown=shown if showdown else None,
        community=reading.get("community"),
        options=options,
        buys=[bool(b) for b in buys],
        declarations=declarations if any(declarations) else None,
        seventh_card=seventh if rules_choose and any(seventh) else None,
        game=game,
        paid=paid if any(paid) else None,
    )
    return walk_quick(entry, max_players=max(n, 2), observers=[observer])


def hand_facts(
    *,
    variant: str,
    options: Mapping[str, Any],
    entry_mode: str,
    entry: Mapping[str, Any],
    reading: Mapping[str, Any],
    samples: int = SAMPLES,
    observed: FactsObserver | None = None,
    game: GameDefinition | None = None,
) -> list[dict[str, Any]]:
    """One dict of facts per position (see the module doc). ``reading`` is the engine's
    reading of the hand (``HandResult.to_dict()``); ``options`` its announcements;
    ``game`` the house game's definition (None: the variant's), which walks and values it.

    ``observed``: a :class:`FactsObserver` that watched the walk which gave ``reading`` (the
    settling walk of the same entry, to its end); the hand is then not walked again. The
    facts are the same: a full history's walk is the same walk, and of a quick entry only
    what its reading holds is read (the streets dealt, the showdown, the cards shown there).
    """
    # A house game's hand (variant "house") has no announcements: its definition rules it.
    if game is None:
        options = normalize_announcements(variant, options)
    n = len(reading["folded"])
    showdown = reading.get("showdown")
    full = entry_mode == "full"
    if observed is not None and observed.hand is not None and observed.n == n:
        observer, hand = observed, observed.hand
    else:
        observer = FactsObserver(n)
        if full:
            hand = _walk_full(variant, options, entry, reading, observer, game)
        else:
            hand = _walk_results(variant, options, reading, observer, game)
    observer.finish(hand)
    facts: list[dict[str, Any]] = [{"v": FACTS_VERSION, "full": int(full)} for _ in range(n)]
    at_showdown = set(hand.at_showdown)
    for pos in range(n):
        f = facts[pos]
        if full:
            f.update(observer.betting[pos])
        for street in (4, 5, 6, 7):
            f[f"saw{street}"] = int(observer.saw[pos] >= street - 3)
        f["sd"] = int(pos in at_showdown)
    shown: list[tuple[int, Mapping]] = []
    community = None
    if showdown:
        community = showdown.get("community")
        shown = [(pos, seat) for pos, seat in enumerate(showdown.get("players") or []) if seat]
    elif full and (alone := _shown_alone(hand)) is not None:
        community = format_card(hand.community) if hand.community is not None else None
        pos, seat = alone
        players = [{"down": seat["down"], "up": seat["up"]}]
        if game is None:
            read = evaluate_showdown(
                {"variant": variant, "options": options, "community": community, "players": players}
            )
        else:
            up_order = [format_card(c) for c in hand.up_order if c is not None]
            read = evaluate_game(
                game, {"community": community, "players": players, "up_order": up_order}
            )
        shown = [
            (
                pos,
                {
                    **seat,
                    "high": read["players"][0].get("high"),
                    "wild": read["players"][0].get("wild"),
                },
            )
        ]
    for pos, seat in shown:
        high = seat.get("high")
        if high:
            facts[pos]["cat"] = high["category"]
        if game is not None:  # the reading names the cards played wild
            facts[pos]["wild"] = len(seat.get("wild") or [])
            continue
        try:
            facts[pos]["wild"] = _wild_count(variant, options, seat, community)
        except DomainError:  # pragma: no cover - the reading's cards are always valid
            pass
    if full:
        try:
            luck = _luck(variant, options, observer, hand, reading, samples, game)
        except DomainError as exc:
            for pos in observer.contenders:
                facts[pos]["ai_skip"] = exc.message
        else:
            for pos, values in luck.items():
                facts[pos].update(values)
    return facts
