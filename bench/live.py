"""The live logger's writes: whole hands logged change by change, through the services and
over HTTP, against PostgreSQL; the cost of one change early, midway and late in a hand.

    .venv/bin/python bench/live.py [--hands 8] [--players 7] [--profile [http|services]]

Each hand is seven-card stud for ``--players`` players, every card known, logged one change
at a time as a scorekeeper does at the table: each seat's cards of a street, then each
action (the bring-in called round on third street, a bet called round on sixth, checks
otherwise), then the shows, about 75 changes. Through the services a change is one
``draft_step``; over HTTP it is one ``POST`` of the logger's outbox
(``/tournaments/<id>/live/outbox/``, Django's test client, session signed in), whose answer
carries the draft's state and its HTML as the page uses them. Each hand is recorded at the
end (``draft_finish``, not timed).

Prints the median milliseconds of change 5, 30 and 60 of a hand (over ``--hands`` hands,
and over changes 4-6, 29-31 and 59-61 so that a hand gives three samples) next to the
trivial authenticated write, timed in the same loop right after each change: creating a
player, ``player_create`` through the services and ``POST /api/v1/players/`` (token) over
HTTP, and over HTTP the answer's size. The ratios are the figures: change / trivial write, and change 60 / change 5, of the
wall time and of this process's CPU time (the web side and the services, without the
database server's: steadier on a loaded machine). Also the load average. ``--profile``
prints a cProfile of the HTTP changes (``--profile services``: of the changes through the
services), which slows them; it is of this process's CPU time.

Creates its own database (BENCH_DB, default ``homegame_live_bench``, on BENCH_PG) and drops
it at the end.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import time
import uuid

from _common import BenchDatabase

POINTS = (5, 30, 60)
SAMPLED = {k for p in POINTS for k in (p - 1, p, p + 1)}  # the changes a peer write follows


def hand_script(players: int, seed: int) -> list[list[dict]]:
    """A hand's changes (each a list of events in their JSON form), worked out on the
    machine: every card known, one seat's cards of a street per change, one action per
    change."""
    from tracker.engine.cards import parse_card
    from tracker.engine.events import Bet, Call, Check, DealBoard, DealHole, Show, event_to_json
    from tracker.engine.live import live_hand
    from tracker.engine.stakes import Stakes
    from tracker.engine.stud import Verb

    rng = random.Random(seed)
    deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    hand = live_hand(
        variant="seven_card_stud",
        options={},
        stakes=Stakes(5, 10, 20, 40),
        stacks=[1000] * players,
        events=[],
    )
    changes: list[list[dict]] = []
    while True:
        turn = hand.next_event()
        if turn.over:
            return changes
        if turn.deals:
            seat = turn.deals[0].seat
            if seat is None:  # the community card, when the deck cannot go round
                event = DealBoard(deck.pop())
            else:
                count = sum(deal.seat == seat for deal in turn.deals)
                event = DealHole(seat, tuple(deck.pop() for _ in range(count)))
        elif turn.seat is not None:
            verbs = {o.verb: o for o in turn.options}
            if Verb.BET in verbs and hand.street.name == "SIXTH":
                event = Bet(turn.seat, verbs[Verb.BET].to)
            elif Verb.BRING_IN in verbs:
                event = event_for_verb(verbs[Verb.BRING_IN])
            elif Verb.CHECK in verbs:
                event = Check(turn.seat)
            else:
                event = Call(turn.seat)
        elif turn.showdown:
            event = Show(turn.showdown[0])
        else:
            raise SystemExit(f"the script cannot go on from {turn}")
        done = hand.apply(event, automate=False)
        hand.automate()
        changes.append([event_to_json(done)])


def event_for_verb(option):
    from tracker.engine.events import event_for

    return event_for(option)


def window(times: dict[int, list], point: int) -> list:
    return [t for k in (point - 1, point, point + 1) for t in times.get(k, [])]


class Clock:
    """Wall and CPU time (this process's: the web side and the services, not the database
    server) of one timed call."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu
        self.both = (self.wall, self.cpu)


def print_figures(times: dict[int, list], peer: list) -> None:
    peer_ms = [1000 * statistics.median(t[i] for t in peer) for i in (0, 1)]
    print(
        f"    trivial write (create a player): median {peer_ms[0]:6.2f} ms, "
        f"CPU {peer_ms[1]:6.2f} ms (n={len(peer)})"
    )
    medians = {}
    for p in POINTS:
        samples = window(times, p)
        medians[p] = [1000 * statistics.median(t[i] for t in samples) for i in (0, 1)]
        print(
            f"    change {p:>2}: median {medians[p][0]:6.2f} ms, CPU {medians[p][1]:6.2f} ms"
            f" (n={len(samples)}):  {medians[p][0] / peer_ms[0]:5.2f}x the trivial write,"
            f" CPU {medians[p][1] / peer_ms[1]:5.2f}x"
        )
    print(
        f"    change 60 / change 5: {medians[60][0] / medians[5][0]:.2f},"
        f" CPU {medians[60][1] / medians[5][1]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=8, help="hands logged each way")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--profile", nargs="?", const="http", choices=("http", "services"))
    args = parser.parse_args()
    db = BenchDatabase("homegame_live_bench")
    db.reset()
    db.setup_django()
    try:
        run(args)
    finally:
        db.drop()


def run(args) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tracker.accounts.services import api_token_create
    from tracker.core import jobs
    from tracker.engine.events import event_from_json
    from tracker.hands.services.live import draft_finish, draft_start, draft_step
    from tracker.leagues.services import league_create, player_create
    from tracker.tournaments.services import tournament_create

    jobs.send = lambda name, *a: None  # the recorded hands wait: settlement is not timed here
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    user = get_user_model().objects.create_user("bench", password="bench-only")
    token = api_token_create(user=user, label="bench")[1]
    league = league_create(name="Bench", slug="bench", created_by=user)
    players = [player_create(league=league, name=f"P{i}", by=user) for i in range(args.players)]
    scripts = [hand_script(args.players, seed) for seed in range(2 * args.hands)]
    lengths = sorted(len(s) for s in scripts)
    if lengths[0] <= max(POINTS) + 1:
        raise SystemExit(f"a hand of {lengths[0]} changes is too short for change {max(POINTS)}")
    print(
        f"{args.hands} hands each way, {args.players} players, {lengths[0]}-{lengths[-1]} "
        "changes a hand"
    )

    def tournament(name: str):
        return tournament_create(
            league=league,
            name=name,
            player_ids=[p.id for p in players],
            by=user,
            default_variant="seven_card_stud",
            starting_chips=1000,
        )

    n = args.players
    peer_count = 0

    # Through the services.
    times: dict[int, list[float]] = {}
    peer: list[float] = []
    profile = cProfile.Profile(time.process_time) if args.profile == "services" else None
    for h in range(args.hands):
        draft = draft_start(tournament=tournament(f"S{h}"), by=user)
        for k, change in enumerate(scripts[h], start=1):
            events = [event_from_json(e, n=n) for e in change]
            if profile:
                profile.enable()
            with Clock() as clock:
                draft = draft_step(draft=draft, by=user, version=draft.version, events=events)
            if profile:
                profile.disable()
            times.setdefault(k, []).append(clock.both)
            if k in SAMPLED:
                peer_count += 1
                with Clock() as clock:
                    player_create(league=league, name=f"peer-{peer_count}", by=user)
                peer.append(clock.both)
        draft_finish(draft=draft, by=user, version=draft.version)
    print("\nThrough the services (draft_step; the trivial write: player_create)")
    print_figures(times, peer)
    if profile:
        print_profile(profile)

    # Over HTTP.
    client = Client()
    client.force_login(user)
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    times, peer = {}, []
    sizes: dict[int, list[int]] = {}  # the answer's bytes
    profile = cProfile.Profile(time.process_time) if args.profile == "http" else None
    for h in range(args.hands):
        t = tournament(f"H{h}")
        draft = draft_start(tournament=t, by=user)
        url = f"/tournaments/{t.pk}/live/outbox/"
        version = draft.version
        for k, change in enumerate(scripts[args.hands + h], start=1):
            body = json.dumps(
                {
                    "changes": [
                        {
                            "id": str(uuid.uuid4()),
                            "draft": draft.pk,
                            "base": version,
                            "op": "events",
                            "events": change,
                        }
                    ]
                }
            )
            if profile:
                profile.enable()
            with Clock() as clock:
                response = client.post(url, body, content_type="application/json")
            if profile:
                profile.disable()
            data = response.json()
            if response.status_code != 200 or data["results"][0]["status"] != "applied":
                raise SystemExit(f"change {k} of hand {h}: {response.status_code} {data}")
            version = data["results"][0]["version"]
            times.setdefault(k, []).append(clock.both)
            sizes.setdefault(k, []).append(len(response.content))
            if k in SAMPLED:
                peer_count += 1
                with Clock() as clock:
                    response = api.post(
                        "/api/v1/players/",
                        {"league": "bench", "name": f"peer-{peer_count}"},
                        content_type="application/json",
                    )
                peer.append(clock.both)
                if response.status_code != 201:
                    raise SystemExit(f"the trivial write: {response.status_code}")
        draft.refresh_from_db()
        draft_finish(draft=draft, by=user, version=draft.version)
    print(
        "\nOver HTTP (POST of the outbox, its answer with the state and HTML; the trivial "
        "write: POST /api/v1/players/)"
    )
    print_figures(times, peer)
    print(
        "    the answer: "
        + ", ".join(
            f"{statistics.median(window(sizes, p)):,.0f} bytes at change {p}" for p in POINTS
        )
    )
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if profile:
        print_profile(profile)


def print_profile(profile: cProfile.Profile) -> None:
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
