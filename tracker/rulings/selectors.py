"""Reads for disputes, rulings, evaluations and the audit log.

A pot's dispute state is derived, never stored as a status of its own:

- ``open``: the pot is disputed (``Pot.disputed``) and waits for the authority;
- ``ruled``: it is not disputed and has at least one ruling (the latest stands);
- ``""``: never disputed nor ruled.

A hand's state is ``open`` if any of its pots is, else ``ruled`` if any pot was
ruled on. ``Hand.status`` reads ``disputed`` while a pot is open and ``verified``
once the authority has ruled on every open pot; the disputes and rulings keep
the history visible.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q, QuerySet

from tracker.audit.models import AuditEntry
from tracker.core.errors import NotFound, PermissionDenied
from tracker.core.permissions import (
    Capabilities,
    Capability,
    can,
    capabilities,
    require_view,
    roles_with,
)
from tracker.engine.announcements import VARIANT_TITLES
from tracker.engine.cards import card_symbol, parse_card
from tracker.engine.errors import DomainError
from tracker.hands.models import Dispute, Evaluation, Hand, Pot
from tracker.hands.selectors.wording import announcement_text
from tracker.leagues.models import League, Membership, Player
from tracker.leagues.selectors import leagues_visible_to
from tracker.rulings.models import Ruling

OPEN = "open"
RULED = "ruled"
STATES = (OPEN, RULED, "all")


# --------------------------------------------------------------------------
# Cards as the engine read them (no dependency on the page selectors)


def _symbol(token: str | None) -> str:
    if not token:
        return "?"
    try:
        return card_symbol(parse_card(token))
    except DomainError:
        return str(token)


@dataclass
class ShownCard:
    code: str
    up: bool
    wild_as: str = ""  # what the wild card stood for (symbol form), high hand
    wild_low_as: str = ""  # ... and in the low hand

    @property
    def flags(self) -> str:
        out = [] if self.up else ["down"]
        if self.wild_as or self.wild_low_as:
            out.append("wild")
        return ",".join(out)

    @property
    def wild_note(self) -> str:
        parts = []
        if self.wild_as:
            parts.append(f"as {self.wild_as}")
        if self.wild_low_as and self.wild_low_as != self.wild_as:
            parts.append(f"as {self.wild_low_as} for low")
        return ", ".join(parts)


@dataclass
class PlayerReading:
    """One player in a disputed pot: cards, what the engine made of them, and the chips."""

    player_id: int
    name: str
    eligible: bool
    cards: list[ShownCard]
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
                out.append((_symbol(w.get("card")), _symbol(w.get("as")) + label))
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


def pot_state(pot: Pot, has_rulings: bool) -> str:
    if pot.disputed:
        return OPEN
    return RULED if has_rulings else ""


def _named(award: Mapping[int, int] | None, names: dict[int, str]) -> list[tuple[str, int]]:
    return [(names.get(pid, str(pid)), c) for pid, c in (award or {}).items() if c]


def pot_cases(pots: Iterable[Pot]) -> list[PotCase]:
    """Build the side-by-side view of ``pots`` (a handful of queries whatever their number)."""
    pots = list(pots)
    if not pots:
        return []
    hand_ids = {p.hand_id for p in pots}
    hands = {
        h.pk: h for h in Hand.objects.filter(pk__in=hand_ids).select_related("tournament__league")
    }
    pids: set[int] = set()
    for h in hands.values():
        pids.update(h.positions or [])
    names = dict(Player.objects.filter(pk__in=pids).values_list("pk", "name"))
    disputes: dict[int, list[Dispute]] = defaultdict(list)
    for d in (
        Dispute.objects.filter(pot__in=pots)
        .select_related("raised_by")
        .order_by("created_at", "id")
    ):
        disputes[d.pot_id].append(d)
    rulings: dict[int, list[Ruling]] = defaultdict(list)
    for r in Ruling.objects.filter(pot__in=pots).select_related("ruled_by").order_by("id"):
        rulings[r.pot_id].append(r)

    out = []
    for pot in pots:
        hand = hands[pot.hand_id]
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
                        ShownCard(
                            code=code,
                            up=up,
                            wild_as=_symbol(high_as[code]) if code in high_as else "",
                            wild_low_as=_symbol(low_as[code]) if code in low_as else "",
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
        pot_rulings = rulings.get(pot.pk, [])
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
                    for d in disputes.get(pot.pk, [])
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


# --------------------------------------------------------------------------
# Queues


def pots_in_question(leagues: QuerySet[League] | Iterable[League], state: str = OPEN):
    """Pots of ``leagues`` that are open (``state="open"``), ruled, or either (``"all"``)."""
    ruled = Exists(Ruling.objects.filter(pot=OuterRef("pk")))
    disputed_ever = Exists(Dispute.objects.filter(pot=OuterRef("pk")))
    qs = Pot.objects.filter(hand__tournament__league__in=leagues)
    if state == OPEN:
        qs = qs.filter(disputed=True)
    elif state == RULED:
        qs = qs.filter(ruled, disputed=False)
    else:
        qs = qs.filter(Q(disputed=True) | ruled | disputed_ever)
    return qs.order_by("-hand__tournament__date", "hand__tournament_id", "hand__number", "index")


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
    league = leagues_visible_to(user).filter(slug=slug).first()
    if league is None:
        raise NotFound("No such league.")
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


def visible_pot(user, hand_pk: int, index: int) -> Pot:
    pot = (
        Pot.objects.select_related("hand__tournament__league")
        .filter(
            hand_id=hand_pk,
            index=index,
            hand__tournament__league__in=leagues_visible_to(user),
        )
        .first()
    )
    if pot is None:
        raise NotFound("No such pot.")
    return pot


def pot_case(user, hand_pk: int, index: int) -> PotCase:
    return pot_cases([visible_pot(user, hand_pk, index)])[0]


def hand_rulings(hand: Hand) -> list[PotCase]:
    """The pots of ``hand`` that were disputed or ruled on, for the hand page."""
    pots = Pot.objects.filter(hand=hand).filter(
        Q(disputed=True)
        | Exists(Ruling.objects.filter(pot=OuterRef("pk")))
        | Exists(Dispute.objects.filter(pot=OuterRef("pk")))
    )
    return pot_cases(pots.order_by("index"))


def hand_ruling_state(hand: Hand) -> str:
    """``open``, ``ruled`` or ``""`` for a hand (see the module docstring)."""
    if Pot.objects.filter(hand=hand, disputed=True).exists():
        return OPEN
    return RULED if Ruling.objects.filter(hand=hand).exists() else ""


def hand_ruling_states(hands: Iterable[Hand]) -> dict[int, str]:
    """``{hand id: state}`` for many hands at once (two queries), for hand lists."""
    ids = [h.pk for h in hands]
    open_ids = set(
        Pot.objects.filter(hand_id__in=ids, disputed=True).values_list("hand_id", flat=True)
    )
    ruled_ids = set(Ruling.objects.filter(hand_id__in=ids).values_list("hand_id", flat=True))
    return {i: OPEN if i in open_ids else (RULED if i in ruled_ids else "") for i in ids}


def evaluations_of(hand: Hand) -> QuerySet[Evaluation]:
    return Evaluation.objects.filter(hand=hand).order_by("id")


# --------------------------------------------------------------------------
# The audit log


def audit_leagues_of(user) -> QuerySet[League]:
    """Leagues whose audit log ``user`` may read: those they are an admin of."""
    if user is None or not user.is_authenticated:
        return League.objects.none()
    return League.objects.filter(
        pk__in=Membership.objects.filter(
            user=user, role__in=roles_with(Capability.VIEW_AUDIT)
        ).values("league_id")
    )


def audit_log(user, league: League | None = None) -> QuerySet[AuditEntry]:
    """Entries ``user`` may read: a league's (its admins only), or without a league, those of
    every league they administer and their own entries outside any league (API tokens).

    A private league does not exist for outsiders (NotFound); a league the user can see but
    does not administer is PermissionDenied.
    """
    if league is not None:
        require_view(user, league)
        if not can(user, league, Capability.VIEW_AUDIT):
            raise PermissionDenied("Only a league admin may read its audit log.")
        return AuditEntry.objects.filter(league_id=league.pk)
    if user is None or not user.is_authenticated:
        return AuditEntry.objects.none()
    admin_of = list(audit_leagues_of(user).values_list("pk", flat=True))
    return AuditEntry.objects.filter(
        Q(league_id__in=admin_of) | Q(league_id__isnull=True, actor_id=user.pk)
    )
