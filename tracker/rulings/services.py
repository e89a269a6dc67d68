"""Disputes raised by members, rulings and house rules ("where any doubt remains, Rob is right").

A pot is *open* (``Pot.disputed``) from the moment it is disputed -- flagged by
settlement or a re-evaluation because the engine's award differs from the one
that stands, or raised by a member with a reason -- until the league's authority
rules on it. Every dispute is a :class:`~tracker.hands.models.Dispute` row (settlement
and re-evaluation flag theirs through tracker/hands/services/evaluations.py).

A ruling (:func:`ruling_make`) names the result that stands from now on: the
engine's, the table's, or an explicit award per player adding up to the pot. It
writes ledger corrections for the chips it moves (``award - standing award`` per
player), updates the pot and the hand, sets ``Pot.overridden`` when the result is
not the engine's ("Rob is right": re-evaluation then leaves the pot alone), flags
later hands that the corrected stacks make impossible (``Hand.needs_review``;
they are never changed), rewrites the final standings of a finished tournament,
and records itself -- append-only, superseding the pot's previous ruling.

See docs/rulings.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.conf import settings
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce

from tracker.audit.services import audit_record
from tracker.core.errors import Conflict
from tracker.core.locks import SETTLEMENT, transaction_lock
from tracker.core.permissions import Capability, require
from tracker.core.totals import totals_kept
from tracker.core.typed import ChipsByPlayer
from tracker.engine.errors import Code, DomainError
from tracker.hands.models import SETTLED, Dispute, DisputeSource, Hand, HandSeat, HandStatus, Pot
from tracker.leagues.models import League, Player
from tracker.leagues.services import house_rules_check
from tracker.mail.models import MailKind
from tracker.mail.services import outbox_enqueue
from tracker.rulings.models import Ruling, RulingResult
from tracker.tournaments.models import LedgerEntry, LedgerKind, Tournament, TournamentStatus
from tracker.tournaments.selectors import tournament_standings
from tracker.tournaments.services import final_standings_write, tournament_finish_if_over

REASON_MAX = 2000


def _reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise DomainError("give a reason", code=Code.REASON_REQUIRED, field="reason")
    reason = reason.strip()
    if len(reason) > REASON_MAX:
        raise DomainError(f"at most {REASON_MAX} characters", field="reason")
    if "\x00" in reason:
        raise DomainError("must not contain NUL characters", field="reason")
    return reason


def _lock(pot: Pot) -> tuple[Tournament, Pot, Hand]:
    """Lock the tournament's settlement (so no hand settles against the chips a ruling moves),
    then the tournament row, then the pot. Settlement takes them in the same order."""
    transaction_lock(SETTLEMENT, pot.hand.tournament_id)
    tournament = (
        Tournament.objects.select_for_update()
        .select_related("league")
        .get(pk=pot.hand.tournament_id)
    )
    pot = Pot.objects.select_for_update().select_related("hand").get(pk=pot.pk)
    hand = pot.hand
    hand.tournament = tournament
    if hand.status not in SETTLED:
        raise Conflict(
            f"hand {hand.number} is not settled ({hand.status}): there is nothing to rule on yet",
            code=Code.NOT_SETTLED,
        )
    return tournament, pot, hand


def _disputes_since_last_ruling(pot: Pot):
    last = pot.rulings.order_by("-id").first()
    disputes = Dispute.objects.filter(pot=pot)
    if last is not None:
        disputes = disputes.filter(id__gt=last.dispute_id or 0)
    return disputes


def _award_lines(award: Mapping, names: dict[int, str]) -> list[str]:
    return [
        f"{names.get(int(pid), f'player {pid}')}: {chips} chips"
        for pid, chips in sorted(award.items(), key=lambda kv: (-kv[1], str(kv[0])))
        if chips
    ]


def _pot_mail(
    *,
    tournament: Tournament,
    hand: Hand,
    pot: Pot,
    kind_key: str,
    template: str,
    context: dict,
    skip_user_id: int | None,
    base_url: str,
) -> None:
    """One ``pot_dispute`` mail to each player of ``pot`` (those it was contested between:
    its eligible players) linked to an account, but ``skip_user_id``'s."""
    base_url = base_url or settings.SITE_URL
    players = list(
        Player.objects.filter(pk__in=list(pot.eligible or []), user__isnull=False)
        .select_related("user")
        .order_by("name", "pk")
    )
    names = dict(Player.objects.filter(pk__in=list(pot.eligible or [])).values_list("pk", "name"))
    page = base_url.rstrip("/") + hand.get_absolute_url()
    seen: set[int] = set()
    for player in players:
        if player.user_id == skip_user_id or player.user_id in seen:
            continue
        seen.add(player.user_id)
        outbox_enqueue(
            kind=MailKind.POT_DISPUTE,
            user=player.user,
            subject_key=kind_key,
            template=template,
            context={
                **context,
                "player": player,
                "tournament": tournament,
                "league": tournament.league,
                "hand": hand,
                "pot": pot,
                "pot_title": "the main pot" if pot.index == 0 else f"side pot {pot.index}",
                "players": sorted(names.values()),
                "award": _award_lines(context.get("award_standing") or pot.award_chips, names),
                "page": page,
            },
            base_url=base_url,
        )


@transaction.atomic
def dispute_raise(*, pot: Pot, by, reason: str, base_url: str = "") -> Dispute:
    """A member puts a settled pot to the league's authority, with a reason. The other
    players of that pot linked to an account are told by mail (``pot_dispute``; one each,
    the outbox key ``dispute:<id>``)."""
    require(by, pot.hand.tournament.league, Capability.DISPUTE, "dispute a pot")
    reason = _reason(reason)
    tournament, pot, hand = _lock(pot)
    if (
        pot.disputed
        and _disputes_since_last_ruling(pot)
        .filter(raised_by=by, source=DisputeSource.MEMBER)
        .exists()
    ):
        raise Conflict(
            "you have already disputed this pot; the authority has not ruled yet",
            code=Code.ALREADY_DISPUTED,
        )
    dispute = Dispute.objects.create(
        pot=pot,
        hand=hand,
        source=DisputeSource.MEMBER,
        reason=reason,
        raised_by=by,
        engine_version=hand.engine_version,
    )
    if not pot.disputed:
        pot.disputed = True
        pot.save(update_fields=["disputed"])
    hand.status = HandStatus.DISPUTED
    hand.status_reason = f"disputed by {by.get_username()}: {reason}"
    hand.save(update_fields=["status", "status_reason"])
    audit_record(
        action="dispute.raise",
        actor=by,
        target=dispute,
        league=tournament.league,
        data={"hand": hand.number, "hand_id": hand.pk, "pot": pot.index, "reason": reason},
    )
    _pot_mail(
        tournament=tournament,
        hand=hand,
        pot=pot,
        kind_key=f"dispute:{dispute.pk}",
        template="pot_disputed",
        context={"claim": reason, "by_name": by.get_username()},
        skip_user_id=by.pk,
        base_url=base_url,
    )
    return dispute


def _explicit_award(pot: Pot, award: object) -> ChipsByPlayer:
    if not isinstance(award, Mapping) or not award:
        raise DomainError(
            'give the chips each player gets: {"<player id>": chips, ...}',
            code=Code.AWARD_REQUIRED,
            field="award",
        )
    eligible = set(pot.eligible)
    chips_of: dict[int, int] = {}
    for key, chips in award.items():
        path = f"award.{key}"
        try:
            pid = int(str(key).strip())
        except ValueError:
            raise DomainError(f"{key!r} is not a player id", field=path) from None
        if pid not in eligible:
            raise DomainError(
                f"player {pid} cannot win this pot (eligible: {sorted(eligible)})",
                code=Code.NOT_ELIGIBLE,
                field=path,
            )
        if pid in chips_of:
            raise DomainError(f"player {pid} is named twice", field=path)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise DomainError("must be a whole number of chips, 0 or more", field=path)
        chips_of[pid] = chips
    total = sum(chips_of.values())
    if total != pot.amount:
        raise DomainError(
            f"the award must add up to the pot's {pot.amount} chips, not {total}",
            code=Code.AWARD_TOTAL,
            field="award",
        )
    return ChipsByPlayer(chips_of).normal()


@transaction.atomic
def ruling_make(
    *,
    pot: Pot,
    by,
    result: str,
    reason: str,
    award: Mapping | None = None,
    base_url: str = "",
) -> Ruling:
    """The authority rules on a pot: ``result`` is ``engine``, ``table`` or ``award`` (with
    ``award`` = {player id: chips} adding up to the pot). ``reason`` is required. Every
    player of that pot linked to an account is told by mail (``pot_dispute``; one each, the
    outbox key ``ruling:<id>``), with the claim it answers."""
    require(by, pot.hand.tournament.league, Capability.RULE, "rule on a pot")
    if result not in RulingResult.values:
        raise DomainError(
            f"{result!r} is not a result (one of {', '.join(RulingResult.values)})",
            field="result",
        )
    reason = _reason(reason)
    tournament, pot, hand = _lock(pot)
    if result == RulingResult.ENGINE:
        if award:
            raise DomainError("an award goes with result 'award' only", field="award")
        new = pot.engine_chips.normal()
    elif result == RulingResult.TABLE:
        if award:
            raise DomainError("an award goes with result 'award' only", field="award")
        if pot.table_award is None:
            raise DomainError(
                "the table gave no result for this pot", code=Code.NO_TABLE_RESULT, field="result"
            )
        new = pot.table_chips.normal()
    else:
        new = _explicit_award(pot, award)

    previous = pot.award_chips.normal()
    engine = pot.engine_chips.normal()
    players = sorted({*new, *previous})
    correction = ChipsByPlayer({p: new.get(p, 0) - previous.get(p, 0) for p in players}).normal()

    if correction:
        with totals_kept(hands=[hand.pk]):  # the statistics' running totals
            LedgerEntry.objects.bulk_create(
                [
                    LedgerEntry(
                        tournament=tournament,
                        player_id=p,
                        hand=hand,
                        pot=pot,
                        kind=LedgerKind.CORRECTION,
                        amount=d,
                    )
                    for p, d in correction.items()
                ]
            )
            for p, d in correction.items():
                HandSeat.objects.filter(hand=hand, player_id=p).update(
                    won=Coalesce(F("won"), Value(0)) + d
                )
        hand.projected_net_chips = hand.projected_net_chips.plus(correction)

    pot.award_chips = new
    pot.overridden = new != engine
    pot.disputed = False
    pot.save(update_fields=["award", "overridden", "disputed"])

    if not hand.pots.filter(disputed=True).exists():
        hand.status = HandStatus.VERIFIED
        hand.status_reason = f"ruled by {by.get_username()}: {reason}"
    hand.save(update_fields=["status", "status_reason", "projected_net"])

    problems = _later_hand_problems(tournament, hand) if correction else {}
    previous_ruling = pot.rulings.order_by("-id").first()
    ruling = Ruling.objects.create(
        pot=pot,
        hand=hand,
        result=result,
        award=new.to_json(),
        previous_award=previous.to_json(),
        correction=correction.to_json(),
        engine_award=engine.to_json(),
        table_award=None if pot.table_award is None else pot.table_chips.normal().to_json(),
        engine_version=hand.engine_version,
        override=pot.overridden,
        reason=reason,
        ruled_by=by,
        supersedes=previous_ruling,
        dispute=Dispute.objects.filter(pot=pot).order_by("-id").first(),
        flagged_hands=sorted(problems),
    )
    _flag_for_review(tournament, hand, pot, ruling, problems)

    if correction:
        if tournament.status == TournamentStatus.FINISHED:
            _refuse_below_zero(tournament, problems)
            final_standings_write(
                tournament=tournament, cause=f"ruling {ruling.pk} on hand {hand.number}"
            )
        else:
            tournament_finish_if_over(tournament=tournament)

    audit_record(
        action="ruling.make",
        actor=by,
        target=ruling,
        league=tournament.league,
        data={
            "hand": hand.number,
            "hand_id": hand.pk,
            "pot": pot.index,
            "result": result,
            "award": new.to_json(),
            "previous_award": previous.to_json(),
            "correction": correction.to_json(),
            "override": ruling.override,
            "reason": reason,
            "supersedes": previous_ruling.pk if previous_ruling else None,
            "flagged_hands": ruling.flagged_hands,
        },
    )
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    _pot_mail(
        tournament=tournament,
        hand=hand,
        pot=pot,
        kind_key=f"ruling:{ruling.pk}",
        template="pot_ruled",
        context={
            "claim": ruling.dispute.reason if ruling.dispute else "",
            "result_label": RulingResult(result).label,
            "reason": reason,
            "award_standing": new,
            "previous": _award_lines(previous, names),
            "moved": sum(abs(d) for d in correction.values()) // 2,
            "by_name": by.get_username(),
        },
        skip_user_id=None,
        base_url=base_url,
    )
    return ruling


def _refuse_below_zero(tournament: Tournament, problems: Mapping[int, list[str]]) -> None:
    """Refuse a ruling on a finished night that would leave a player with fewer than no
    chips at its end (they bet, in later hands, chips the ruling takes away): the night's
    final standings cannot hold it, so the later hands are voided or ruled on first."""
    short = [row for row in tournament_standings(tournament) if row.chips < 0]
    if not short:
        return
    names = dict(
        Player.objects.filter(pk__in=[r.player_id for r in short]).values_list("pk", "name")
    )
    who = ", ".join(f"{names.get(r.player_id, r.player_id)} ({r.chips})" for r in short)
    later = ", ".join(str(n) for n in sorted(problems)) or "none flagged"
    raise DomainError(
        f"this ruling leaves {who} below zero chips at the end of the night; rule on or void "
        f"the later hands first (hands {later})",
        code=Code.BELOW_ZERO,
        field="award",
    )


def _later_hand_problems(tournament: Tournament, hand: Hand) -> dict[int, list[str]]:
    """Replay the ledger in hand order and list what the later settled hands could not have done.

    A later hand is impossible when a player put in more chips than the corrected ledger
    says they had at its start, or when a player who would still have had chips was
    not dealt in (they had gone out in the record).
    """
    later = list(
        Hand.objects.filter(tournament=tournament, number__gt=hand.number, status__in=SETTLED)
        .order_by("number")
        .prefetch_related("hand_seats")
    )
    if not later:
        return {}
    names = dict(tournament.seats.values_list("player_id", "player__name"))
    base: dict[int, int] = defaultdict(int)
    per_hand: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    rows = LedgerEntry.objects.filter(tournament=tournament).values_list(
        "player_id", "amount", "hand__number"
    )
    for pid, amount, number in rows:
        if number is None:
            base[pid] += amount
        else:
            per_hand[number][pid] += amount
    stacks = {pid: base.get(pid, 0) for pid in names}
    later_by_number = {h.number: h for h in later}
    problems: dict[int, list[str]] = {}
    last = max(max(per_hand, default=0), later[-1].number)
    for number in range(1, last + 1):
        h = later_by_number.get(number)
        if h is not None:
            found = []
            dealt = set()
            for seat in h.hand_seats.all():
                dealt.add(seat.player_id)
                had = stacks.get(seat.player_id, 0)
                if seat.contributed > had:
                    found.append(
                        f"{names.get(seat.player_id, seat.player_id)} put in {seat.contributed} "
                        f"chips but would have had {had}"
                    )
            for pid, had in stacks.items():
                if pid not in dealt and had > 0:
                    found.append(
                        f"{names.get(pid, pid)} would still have had {had} chips "
                        "but was not dealt in"
                    )
            if found:
                problems[number] = found
        for pid, amount in per_hand.get(number, {}).items():
            stacks[pid] = stacks.get(pid, 0) + amount
    return problems


def _flag_for_review(
    tournament: Tournament, hand: Hand, pot: Pot, ruling: Ruling, problems: dict[int, list[str]]
) -> None:
    for number, found in problems.items():
        later = Hand.objects.select_for_update().get(tournament=tournament, number=number)
        note = (
            f"Ruling {ruling.pk} on hand {hand.number} (pot {pot.index}) moved chips: "
            + "; ".join(found)
            + "."
        )
        later.needs_review = True
        later.review_reason = f"{later.review_reason}\n{note}" if later.review_reason else note
        later.save(update_fields=["needs_review", "review_reason"])


# --------------------------------------------------------------------------
# House rules


@transaction.atomic
def house_rules_set(*, league: League, house_rules: object, by) -> League:
    """The authority sets the league's default announcements, ``{variant: {name: value}}``.

    Hands already recorded keep the announcements they were dealt under (Hand.options);
    only hands recorded from now on start from the new defaults.
    """
    require(by, league, Capability.EDIT_HOUSE_RULES, "set the house rules")
    checked = house_rules_check(house_rules)
    league = League.objects.select_for_update().get(pk=league.pk)
    before = league.house_rules or {}
    league.house_rules = checked
    league.save(update_fields=["house_rules"])
    audit_record(
        action="league.house_rules",
        actor=by,
        target=league,
        league=league,
        data={"before": before, "after": checked},
    )
    return league
