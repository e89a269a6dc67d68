"""Deals: the players still in agree to stop before the hand limit (docs/money.md, "Deals").

An admin records the agreement: who agreed, which option and its amounts. It goes in the
audit log and ends the night: the players still in are placed by chips in the final
standings, and the deal's amounts replace those places' payouts
(:func:`tracker.money.selectors.night_money_summary` reads the deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.permissions import Capability, require
from tracker.engine import deals as engine
from tracker.engine.errors import Code, DomainError
from tracker.money.deal_selectors import deal_offer
from tracker.money.models import Deal, DealOption
from tracker.tournaments.models import Tournament, TournamentStatus
from tracker.tournaments.selectors import tournament_state
from tracker.tournaments.services import final_standings_write, tournament_finished_tell


def _custom_amounts(players: list[int], amounts: object) -> list[int]:
    """The typed-in amounts (player id -> minor units) in the order of ``players``."""
    if not isinstance(amounts, Mapping):
        raise DomainError(
            "amounts: an object of player id -> amount for every player still in",
            code=Code.INVALID_DEAL,
            field="amounts",
        )
    by_player: dict[int, object] = {}
    for key, value in amounts.items():
        try:
            pid = int(key)
        except (TypeError, ValueError):
            raise DomainError(
                f"amounts: {key!r} is not a player id", code=Code.INVALID_DEAL, field="amounts"
            ) from None
        if pid not in players:
            raise DomainError(
                f"player {pid} is not still in: only the players still in share a deal",
                code=Code.NOT_STILL_IN,
                field=f"amounts.{pid}",
            )
        by_player[pid] = value
    missing = [pid for pid in players if pid not in by_player]
    if missing:
        raise DomainError(
            f"amounts: one for every player still in (none for {', '.join(map(str, missing))})",
            code=Code.INVALID_DEAL,
            fields={f"amounts.{pid}": ["an amount for this player"] for pid in missing},
        )
    return [by_player[pid] for pid in players]  # type: ignore[misc]


@transaction.atomic
def deal_record(
    *,
    tournament: Tournament,
    by,
    option: str,
    agreed_by: Sequence[int],
    amounts: Mapping | None = None,
) -> Deal:
    """Record the deal the players still in agreed to and end the night with it.

    ``option`` is ``icm``, ``chip_chop``, ``even`` (the amounts are worked out here, as the
    page showed them) or ``custom`` (``amounts``: player id -> minor units, adding up to the
    prize money of the places still open). ``agreed_by``: the players still in, every one of
    them. A refusal names its rule in the code (``night_over``, ``hands_pending``,
    ``not_still_in``, ``deal_needs_everyone``, ``invalid_deal``) and stores nothing."""
    given = tournament
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    require(by, tournament.league, Capability.SET_DEAL, "record a deal")
    state = tournament_state(tournament)
    offer = deal_offer(tournament, state=state)
    if offer.refusal is not None:
        code, message = offer.refusal
        raise DomainError(message, code=code, field="option")
    if option not in DealOption.values:
        raise DomainError(
            f"option is one of {', '.join(DealOption.values)}, not {option!r}",
            code=Code.INVALID_DEAL,
            field="option",
        )
    players = [p.player_id for p in offer.players]
    if not isinstance(agreed_by, list | tuple) or not all(
        isinstance(pid, int) and not isinstance(pid, bool) for pid in agreed_by
    ):
        raise DomainError(
            "agreed_by: the list of the player ids who agreed",
            code=Code.INVALID_DEAL,
            field="agreed_by",
        )
    outside = [pid for pid in agreed_by if pid not in players]
    if outside:
        raise DomainError(
            f"player {outside[0]} is not still in: only the players still in agree to a deal",
            code=Code.NOT_STILL_IN,
            field="agreed_by",
        )
    missing = [p.name for p in offer.players if p.player_id not in agreed_by]
    if missing:
        raise DomainError(
            f"every player still in must agree to a deal ({', '.join(missing)} did not)",
            code=Code.DEAL_NEEDS_EVERYONE,
            field="agreed_by",
        )
    if option == DealOption.CUSTOM:
        typed = _custom_amounts(players, amounts)
        stacks = [p.chips for p in offer.players]
        try:
            split = engine.custom_deal(stacks, offer.payouts, typed)
        except DomainError as exc:
            raise DomainError(
                exc.message,
                code=exc.code,
                fields={_player_path(path, players): msgs for path, msgs in exc.fields.items()},
            ) from None
    else:
        split = offer.options.get(option)
        if split is None:  # ICM for more players than it is computed for
            raise DomainError(
                f"no {option} deal for {len(players)} players",
                code=Code.INVALID_DEAL,
                field="option",
            )
    deal = Deal.objects.create(
        tournament=tournament,
        option=option,
        amounts=[
            {"player": p.player_id, "chips": p.chips, "amount": amount}
            for p, amount in zip(offer.players, split, strict=True)
        ],
        agreed_by=sorted(set(agreed_by), key=players.index),
        at_hand=state.hands_recorded,
        recorded_by=by if getattr(by, "is_authenticated", False) else None,
    )
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    given.status, given.finished_at = tournament.status, tournament.finished_at
    final_standings_write(tournament=tournament)
    tournament_finished_tell(tournament=tournament)
    audit_record(
        action="tournament.deal",
        target=tournament,
        league=tournament.league,
        actor=by,
        data={
            "option": option,
            "amounts": deal.amounts,
            "agreed_by": deal.agreed_by,
            "after_hand": deal.at_hand,
            "pool": offer.pool,
            "payouts": offer.payouts,
        },
    )
    return deal


def _player_path(path: str, players: list[int]) -> str:
    """``amounts[i]`` of the engine -> ``amounts.<player id>``."""
    if path.startswith("amounts[") and path.endswith("]"):
        return f"amounts.{players[int(path[8:-1])]}"
    return path
