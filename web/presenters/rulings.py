"""Disputed pots side by side (the rulings pages, the hand page and the API's disputed pots):
every player's cards with the wild cards and what they stood for, the engine's reading, the
engine's award, the table's and the one that stands, then the disputes and rulings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tracker.core.permissions import Capabilities, capabilities
from tracker.engine.announcements import VARIANT_TITLES
from tracker.engine.cards import symbol_text
from tracker.hands.models import Dispute, Hand, Pot
from tracker.hands.selectors.replay import CardView
from tracker.hands.selectors.wording import announcement_text
from tracker.leagues.models import League
from tracker.leagues.selectors.visibility import visible_league
from tracker.rulings.models import Ruling
from tracker.rulings.selectors import (
    OPEN,
    RULED,
    STATES,
    hand_pots_in_question,
    pot_histories,
    pot_state,
    pots_in_question,
    visible_pot,
)

# --------------------------------------------------------------------------
# Cards as the engine read them


@dataclass
class PlayerReading:
    """One player in a disputed pot: cards, what the engine made of them, and the chips."""

    player_id: int
    name: str
    eligible: bool
    cards: list[CardView]
    high: dict | None  # the engine's reading: text, category, cards, wild [{card, as}]
    low: dict | None
    declare: str | None
    high_winner: bool
    low_winner: bool
    engine: int
    table: int | None
    stands: int

    @property
    def wild(self) -> list[tuple[str, str]]:
        """(wild card, what it stood for) in symbol form, high then low."""
        out = []
        for label, hv in (("", self.high), (" for low", self.low)):
            for w in (hv or {}).get("wild", []) or []:
                out.append((symbol_text(w.get("card")), symbol_text(w.get("as")) + label))
        return out


@dataclass
class RulingView:
    ruling: Ruling
    by: str
    award: list[tuple[str, int]]
    previous: list[tuple[str, int]]
    correction: list[tuple[str, int]]
    current: bool

    @property
    def result_label(self) -> str:
        return {
            "engine": "The engine's result stands",
            "table": "The table's result stands",
            "award": "The authority's award",
        }.get(self.ruling.result, self.ruling.result)


@dataclass
class DisputeView:
    dispute: Dispute
    by: str  # username, or the engine for a flag


@dataclass
class PotCase:
    """A pot put to the authority, with both readings side by side."""

    pot: Pot
    hand: Hand
    state: str
    players: list[PlayerReading]
    engine: list[tuple[str, int]]
    table: list[tuple[str, int]] | None
    stands: list[tuple[str, int]]
    disputes: list[DisputeView] = field(default_factory=list)
    rulings: list[RulingView] = field(default_factory=list)
    community: str | None = None

    @property
    def title(self) -> str:
        return "Main pot" if self.pot.index == 0 else f"Side pot {self.pot.index}"

    @property
    def tournament(self):
        return self.hand.tournament

    @property
    def league(self):
        return self.hand.tournament.league

    @property
    def variant_title(self) -> str:
        return VARIANT_TITLES.get(self.hand.variant, self.hand.variant)

    @property
    def current_ruling(self) -> RulingView | None:
        return self.rulings[-1] if self.rulings else None

    @property
    def options(self) -> list[tuple[str, str]]:
        """The announcements the hand was dealt under, in words."""
        return [
            (name.replace("_", " "), announcement_text(name, value))
            for name, value in sorted((self.hand.options or {}).items())
        ]


def _named(award: Mapping[int, int] | None, names: dict[int, str]) -> list[tuple[str, int]]:
    return [(names.get(pid, str(pid)), c) for pid, c in (award or {}).items() if c]


def pot_cases(pots: Iterable[Pot]) -> list[PotCase]:
    """Build the side-by-side view of ``pots`` (a handful of queries whatever their number)."""
    out = []
    for history in pot_histories(pots):
        pot, hand, names = history.pot, history.hand, history.names
        pot_rulings = history.rulings
        reading = hand.engine_reading or {}
        showdown = reading.get("showdown") or {}
        shown = showdown.get("players") or []
        high_w = set(showdown.get("high_winners") or [])
        low_w = set(showdown.get("low_winners") or [])
        eligible = set(pot.eligible or [])
        engine = pot.engine_chips
        table = pot.table_chips
        stands = pot.award_chips
        players = []
        for pos, pid in enumerate(hand.positions or []):
            data = shown[pos] if pos < len(shown) else None
            if pid not in eligible and not data:
                continue
            data = data or {}
            high = data.get("high")
            low = data.get("low")
            high_as = {w.get("card"): w.get("as") for w in (high or {}).get("wild", []) or []}
            low_as = {w.get("card"): w.get("as") for w in (low or {}).get("wild", []) or []}
            cards = []
            for up, codes in ((False, data.get("down") or []), (True, data.get("up") or [])):
                for code in codes:
                    cards.append(
                        CardView(
                            code=code,
                            up=up,
                            wild_as=symbol_text(high_as[code]) if code in high_as else None,
                            wild_low_as=symbol_text(low_as[code]) if code in low_as else None,
                        )
                    )
            players.append(
                PlayerReading(
                    player_id=pid,
                    name=names.get(pid, str(pid)),
                    eligible=pid in eligible,
                    cards=cards,
                    high=high,
                    low=low,
                    declare=data.get("declare"),
                    high_winner=pos in high_w,
                    low_winner=pos in low_w,
                    engine=engine.get(pid, 0),
                    table=None if table is None else table.get(pid, 0),
                    stands=stands.get(pid, 0),
                )
            )
        out.append(
            PotCase(
                pot=pot,
                hand=hand,
                state=pot_state(pot, bool(pot_rulings)),
                players=players,
                engine=_named(pot.engine_chips, names),
                table=None if pot.table_award is None else _named(pot.table_chips, names),
                stands=_named(pot.award_chips, names),
                disputes=[
                    DisputeView(d, d.raised_by.get_username() if d.raised_by else "the engine")
                    for d in history.disputes
                ],
                rulings=[
                    RulingView(
                        ruling=r,
                        by=r.ruled_by.get_username(),
                        award=_named(r.award_chips, names),
                        previous=_named(r.previous_award_chips, names),
                        correction=_named(r.correction_chips, names),
                        current=k == len(pot_rulings) - 1,
                    )
                    for k, r in enumerate(pot_rulings)
                ],
                community=showdown.get("community"),
            )
        )
    return out


@dataclass
class DisputeQueue:
    league: League
    can: Capabilities  # what the viewer may do in the league
    state: str
    cases: list[PotCase]
    counts: dict[str, int]

    @property
    def role(self) -> str | None:
        return self.can.role

    @property
    def can_rule(self) -> bool:
        return self.can.rule


def dispute_queue(user, slug: str, state: str = OPEN) -> DisputeQueue:
    """The league's disputed pots (for the queue page). Private leagues: NotFound to outsiders."""
    league = visible_league(user, slug)
    if state not in STATES:
        state = OPEN
    pots = pots_in_question([league], state).select_related("hand")
    counts = {
        OPEN: pots_in_question([league], OPEN).count(),
        RULED: pots_in_question([league], RULED).count(),
    }
    return DisputeQueue(
        league=league,
        can=capabilities(user, league),
        state=state,
        cases=pot_cases(pots[:200]),
        counts=counts,
    )


def pot_case(user, hand_pk: int, index: int) -> PotCase:
    return pot_cases([visible_pot(user, hand_pk, index)])[0]


def hand_rulings(hand: Hand) -> list[PotCase]:
    """The pots of ``hand`` that were disputed or ruled on, for the hand page."""
    return pot_cases(hand_pots_in_question(hand))
