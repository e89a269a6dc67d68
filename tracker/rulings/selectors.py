"""Reads for disputes, rulings, evaluations and the audit log.

A pot's dispute state is derived, never stored as a status of its own:

- ``open``: the pot is disputed (``Pot.disputed``) and waits for the authority;
- ``ruled``: it is not disputed and has at least one ruling (the latest stands);
- ``""``: never disputed nor ruled.

A hand's state is ``open`` if any of its pots is, else ``override`` if a ruling that
stands kept a result the engine disagrees with (``Pot.overridden``), else ``ruled`` if any
pot was ruled on. ``Hand.status`` reads ``disputed`` while a pot is open and ``verified``
once the authority has ruled on every open pot; the disputes and rulings keep the history
visible, and :func:`status_words` says ``override`` rather than ``verified`` for a hand the
authority overrode, so no page calls such a hand verified.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from tracker.audit.models import AuditEntry
from tracker.core.errors import NotFound, PermissionDenied
from tracker.core.permissions import (
    Capability,
    can,
    require_view,
    roles_with,
)
from tracker.hands.models import Dispute, Hand, HandStatus, Pot
from tracker.hands.selectors.wording import STATUS_HELP, STATUS_LABELS
from tracker.leagues.models import League, Membership, Player
from tracker.leagues.selectors.visibility import leagues_visible_to
from tracker.rulings.models import Ruling

OPEN = "open"
RULED = "ruled"
OVERRIDE = "override"  # a hand's state only: ruled, and the result that stands is not the engine's
STATES = (OPEN, RULED, "all")

# The badge beside a hand's status: its ruling state in words, and what it means.
RULING_BADGES = {
    OPEN: ("open", "a pot waits for the league's authority"),
    RULED: ("ruled", "the league's authority has ruled; the engine's result stands"),
    OVERRIDE: ("ruled", "the league's authority has ruled against the engine"),
}
OVERRIDE_HELP = "verified, then overridden: the authority kept a result the engine disagrees with"


def status_words(status: str, state: str) -> tuple[str, str]:
    """A hand's status badge (label, help) given its ruling ``state``: its status in words,
    except that a settled hand the authority overrode reads ``override``, never ``verified``.

    >>> status_words("verified", "override")[0], status_words("verified", "ruled")[0]
    ('override', 'verified')
    >>> status_words("disputed", "open")[0]
    'disputed'
    """
    if state == OVERRIDE and status == HandStatus.VERIFIED:
        return OVERRIDE, OVERRIDE_HELP
    return STATUS_LABELS.get(status, status), STATUS_HELP.get(status, "")


def pot_state(pot: Pot, has_rulings: bool) -> str:
    if pot.disputed:
        return OPEN
    return RULED if has_rulings else ""


@dataclass
class PotHistory:
    """A pot with its hand (and league), the names of the hand's players, and every dispute
    and ruling on it, oldest first: what the side-by-side view is built from."""

    pot: Pot
    hand: Hand
    names: dict[int, str]
    disputes: list[Dispute]
    rulings: list[Ruling]


def pot_histories(pots: Iterable[Pot]) -> list[PotHistory]:
    """``pots`` with their hands, players' names, disputes and rulings (four queries)."""
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

    return [
        PotHistory(
            pot=pot,
            hand=hands[pot.hand_id],
            names=names,
            disputes=disputes.get(pot.pk, []),
            rulings=rulings.get(pot.pk, []),
        )
        for pot in pots
    ]


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


def hand_pots_in_question(hand: Hand) -> QuerySet[Pot]:
    """The pots of ``hand`` that were disputed or ruled on, in pot order."""
    return (
        Pot.objects.filter(hand=hand)
        .filter(
            Q(disputed=True)
            | Exists(Ruling.objects.filter(pot=OuterRef("pk")))
            | Exists(Dispute.objects.filter(pot=OuterRef("pk")))
        )
        .order_by("index")
    )


def hand_ruling_state(hand: Hand) -> str:
    """``open``, ``override``, ``ruled`` or ``""`` for a hand (see the module docstring)."""
    return hand_ruling_states([hand])[hand.pk]


def hand_ruling_states(hands: Iterable[Hand]) -> dict[int, str]:
    """``{hand id: state}`` for many hands at once (two queries), for hand lists."""
    ids = [h.pk for h in hands]
    open_ids, overridden_ids = set(), set()
    for hand_id, disputed in Pot.objects.filter(
        Q(disputed=True) | Q(overridden=True), hand_id__in=ids
    ).values_list("hand_id", "disputed"):
        (open_ids if disputed else overridden_ids).add(hand_id)
    ruled_ids = set(Ruling.objects.filter(hand_id__in=ids).values_list("hand_id", flat=True))

    def state(i: int) -> str:
        if i in open_ids:
            return OPEN
        if i in ruled_ids:
            return OVERRIDE if i in overridden_ids else RULED
        return ""

    return {i: state(i) for i in ids}


def _open_pots(league: League | OuterRef) -> QuerySet[Pot]:
    return Pot.objects.filter(hand__tournament__league=league, disputed=True)


def open_disputes_count(league: League) -> int:
    """How many pots of ``league`` wait for its authority (the "N open" of the disputes link)."""
    return _open_pots(league).count()


def with_open_disputes(hands: QuerySet[Hand]) -> QuerySet[Hand]:
    """``hands``, each with ``open_disputes``: :func:`open_disputes_count` of its league,
    counted in the same statement (the hand page reads its hand so)."""
    count = (
        _open_pots(OuterRef("tournament__league"))
        .order_by()
        .values("disputed")
        .annotate(n=Count("id"))
        .values("n")
    )
    return hands.annotate(open_disputes=Coalesce(Subquery(count), 0))


# --------------------------------------------------------------------------
# The audit log


def audit_leagues_of(user) -> QuerySet[League]:
    """Leagues whose audit log ``user`` may read: those where their role holds
    ``view_audit`` (admin or authority)."""
    if user is None or not user.is_authenticated:
        return League.objects.none()
    return League.objects.filter(
        pk__in=Membership.objects.filter(
            user=user, role__in=roles_with(Capability.VIEW_AUDIT)
        ).values("league_id")
    )


def audit_log(user, league: League | None = None) -> QuerySet[AuditEntry]:
    """Entries ``user`` may read: a league's (its admins and authority only), or without a
    league, those of every league where they are admin or authority and their own entries
    outside any league (API tokens).

    A private league does not exist for outsiders (NotFound); a league the user can see but
    holds no such role in is PermissionDenied.
    """
    if league is not None:
        require_view(user, league)
        if not can(user, league, Capability.VIEW_AUDIT):
            raise PermissionDenied("Only a league admin or authority may read its audit log.")
        return AuditEntry.objects.filter(league_id=league.pk)
    if user is None or not user.is_authenticated:
        return AuditEntry.objects.none()
    admin_of = list(audit_leagues_of(user).values_list("pk", flat=True))
    return AuditEntry.objects.filter(
        Q(league_id__in=admin_of) | Q(league_id__isnull=True, actor_id=user.pk)
    )


def house_rules_history(league: League) -> list[AuditEntry]:
    """Every change of the league's house rules, newest first (who, when, before, after)."""
    return list(
        AuditEntry.objects.filter(league_id=league.pk, action="league.house_rules").order_by("-id")
    )
