"""Nights for the standings and statistics tests: a finished night with given places, a
night of random hands played and settled, a hand made invalid then voided, and a night on
stacks that one showdown can bust."""

from __future__ import annotations

import random

from django.test import TestCase

from tests.factories import add_member, fold_entry, make_league, make_tournament
from tests.stats.seed import play
from tests.support.recording import record
from tracker.hands.models import Hand, HandStatus
from tracker.hands.selectors import facts as facts_module
from tracker.hands.services.recording import hand_void
from tracker.hands.services.settlement import tournament_settle
from tracker.tournaments.models import FinalStanding, LedgerEntry, LedgerKind, TournamentStatus
from tracker.tournaments.selectors import tournament_stacks
from tracker.tournaments.services import standings_tallies_apply, tournament_create


def finished_night(league, name, date, order, counts=True):
    """A finished night with ``order`` (names) as its final places, first to last."""
    people = [league.people[n] for n in order]
    t = tournament_create(
        league=league,
        name=name,
        player_ids=[p.id for p in people],
        by=league.admin,
        date=date,
        counts_toward_standings=counts,
    )
    t.status = TournamentStatus.FINISHED
    t.entrants = len(people)  # as final_standings_write stores it
    t.save()
    chips = t.starting_chips * len(people)
    FinalStanding.objects.bulk_create(
        [
            FinalStanding(
                tournament=t, player=p, place=k + 1, chips=chips if k == 0 else 0, out_hand=None
            )
            for k, p in enumerate(people)
        ]
    )
    standings_tallies_apply(tournament_ids=[t.pk], before={})  # as final_standings_write does
    return t


def night_played(league, by, players, *, name, date, rng, hands, **fields):
    """A night of ``players`` in ``league`` on ``date`` (``fields``: more arguments of
    ``tournament_create``) and up to ``hands`` random hands in it (tests/stats/seed.py's
    ``play`` with ``rng``), recorded by ``by`` and settled by their on-commit callbacks, run
    once the hands are recorded. Returns the night."""
    t = tournament_create(
        league=league,
        name=name,
        player_ids=[p.pk for p in players],
        by=by,
        date=date,
        **fields,
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        play(t, by, rng, hands=hands)
    return t


def invalid_then_void(tournament, admin, rng=None) -> bool:
    """Record a hand, make it impossible with a ledger correction, settle (invalid), void it."""
    stacks = tournament_stacks(tournament)
    record(tournament, admin, fold_entry(tournament), variant="seven_card_stud")
    hand = Hand.objects.filter(tournament=tournament).order_by("-number").first()
    victim, other = hand.positions[0], hand.positions[1]
    take = stacks[victim] - 1
    LedgerEntry.objects.create(
        tournament=tournament, player_id=victim, kind=LedgerKind.CORRECTION, amount=-take
    )
    LedgerEntry.objects.create(
        tournament=tournament, player_id=other, kind=LedgerKind.CORRECTION, amount=take
    )
    tournament_settle(tournament_id=tournament.pk)
    hand.refresh_from_db()
    if hand.status != HandStatus.INVALID:
        return False
    hand_void(hand=hand, reason="logged wrong", by=admin)
    for pid, amount in ((victim, take), (other, -take)):  # the stacks as they were
        LedgerEntry.objects.create(
            tournament=tournament, player_id=pid, kind=LedgerKind.CORRECTION, amount=amount
        )
    tournament_settle(tournament_id=tournament.pk)
    return True


def random_league(monkeypatch, slug: str, seed: int, *, quarters: bool = False):
    """A league of its own for a random run: a generator seeded with ``seed``, the league
    (seasons of a quarter and three players a night counting, if ``quarters``), its admin
    and an authority; equity is sampled 200 times a hand (enough for totals, and quick)."""
    monkeypatch.setattr(facts_module, "EQUITY_SAMPLES", 200)
    rng = random.Random(seed)
    league, admin = make_league(slug=slug)
    if quarters:
        league.season_length, league.min_players = "quarter", 3
        league.save()
    rob = add_member(league, f"rob{seed}", "authority")
    return rng, league, admin, rob


def all_in_night(names=("Ann", "Bob", "Cat"), **league):
    """A new league (``league``: as ``make_league`` takes it) and a seven-card stud night
    of ``names`` on 24 chips each, so that ``record_showdown`` puts the second player by
    position out. Returns the league's admin and the night."""
    league, admin = make_league(**league)
    tournament, _ = make_tournament(
        league=league,
        by=admin,
        default_variant="seven_card_stud",
        starting_chips=24,
        names=names,
    )
    return admin, tournament
