"""The engine's walk of a hand: a digest of its answers, and its rate beside pokerkit's.

    .venv/bin/python bench/walk.py digest [--hands N] [--seed S] [--dump FILE]
    .venv/bin/python bench/walk.py rate [--hands N] [--repeat R]
    .venv/bin/python bench/walk.py profile {quick,settle,replay} [--hands N]
        [--callgrind R] [--cache FILE]

Random hands of today's four games (several announcement sets each) and of every house
game preset are played on the stud machine with random legal actions (random stacks, so
some go all in; random buys, up/down choices, pays, folds and declarations), then written
both ways a hand arrives: the full history (``replay_hand``) and the quick entry
(``settle_quick``). A fifth of each are spoilt (an action dropped, two swapped, a card
repeated, a chip count off, a fold moved): the error's type, code, message and fields are
answers too.

``digest`` prints one SHA-256 of the JSON of every answer (the settlement, or the error,
of both walks, and what a :class:`~tracker.engine.facts.FactsObserver` noted on the full
walk): run it before and after a change to the walk, the two must be the same.
``rate`` prints the CPU time a hand of ``walk_quick``, ``settle_quick`` and ``replay_hand``
(hand values stubbed, so the walk alone), beside pokerkit's state machine replaying its own
seven-card stud hands (bench/replay.py's), interleaved best of ``--repeat`` rounds.
``profile`` runs one of them under cProfile; with ``--callgrind R`` it runs the job R more
times bare, for ``valgrind --tool=callgrind``: the instructions of a hand are the difference
of two runs (R=3 less R=1) over 2N hands, so the start-up and the dealing are not counted
(``--cache`` keeps the hands in a pickle, dealt once, outside valgrind).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import pickle
import random
import sys
import time
import warnings
from dataclasses import dataclass

from _common import first_seat_wins, project_on_path

project_on_path()
from tracker.engine.cards import format_card  # noqa: E402
from tracker.engine.events import (  # noqa: E402
    ChooseSeventh,
    DealBoard,
    DealHole,
    Declare,
    PostAntes,
    event_for,
)
from tracker.engine.facts import FactsObserver  # noqa: E402
from tracker.engine.game_presets import PRESETS  # noqa: E402
from tracker.engine.games import GameDefinition  # noqa: E402
from tracker.engine.phh import history_entry  # noqa: E402
from tracker.engine.procedure import QuickEntry, replay_hand, settle_quick, walk_quick  # noqa: E402
from tracker.engine.stakes import Stakes  # noqa: E402
from tracker.engine.stud import Face, Phase, StudHand, Verb  # noqa: E402

STAKES = Stakes(1, 2, 5, 10)

#: Today's games with their announcements (each a kind of hand the digest deals).
VARIANTS = [
    ("seven_card_stud", {}),
    ("seven_card_stud", {"double_ace_flush": True}),
    ("kings_and_little_ones", {}),
    ("kings_and_little_ones", {"king_required": False, "all_lowest_wild": True}),
    ("kings_and_little_ones", {"door_card_kings": True, "ace_low_for_lowest": True}),
    ("low_hole", {}),
    ("low_hole", {"game": "high_low", "declaration": "declare"}),
    ("low_hole", {"game": "low", "low_ranking": "deuce_to_seven"}),
    ("low_hold", {}),
    ("low_hold", {"same_rank_wild": "all", "buy_version": "buderick"}),
]


@dataclass
class Played:
    """One random hand, played out: both of its forms."""

    kind: str
    history: dict
    quick: QuickEntry
    game: GameDefinition | None


def _kinds() -> list[tuple[str, str | None, dict, GameDefinition | None]]:
    kinds = [(f"{v}{sorted(o.items())}", v, o, None) for v, o in VARIANTS]
    kinds += [(f"house:{name}", None, {}, game) for name, game in sorted(PRESETS.items())]
    return kinds


def play(rng: random.Random, variant: str | None, options: dict, game) -> Played | None:
    """A hand played with random legal actions to its end; None if it cannot be written."""
    limit = game.player_limit if game is not None else (8 if variant == "low_hole" else 7)
    n = rng.randint(2, min(limit, 7))
    stacks = [rng.choice((rng.randint(3, 30), rng.randint(30, 300))) for _ in range(n)]
    hand = StudHand(variant=variant, game=game, stakes=STAKES, stacks=stacks, options=options)
    hand.apply(PostAntes())
    deck = list(range(52))
    rng.shuffle(deck)
    events: list = []
    folded_on: list[int | None] = [None] * n
    chose: list[str | None] = [None] * n
    chosen_streets: set[int] = set()
    pays: list[list[int]] = [[] for _ in range(n)]
    while not hand.over:
        ev = hand.next_event()
        if ev.phase is Phase.DEAL and ev.choices and hand.street not in chosen_streets:
            chosen_streets.add(hand.street)
            for option in ev.choices:
                if rng.random() < 0.5:
                    continue
                if option.verb is Verb.CHOOSE_SEVENTH:
                    if chose[option.seat] is not None:
                        continue
                    up = rng.random() < 0.5
                    event = ChooseSeventh(option.seat, up)
                    chose[option.seat] = "up" if up else "down"
                else:
                    event = event_for(option)
                events.append(hand.apply(event))
            continue
        if ev.phase is Phase.DEAL and ev.seat is not None:  # a pay rule: pay or fold
            option = ev.options[0] if rng.random() < 0.8 else ev.options[1]
            if option.verb is Verb.FOLD:
                folded_on[option.seat] = hand.street
            before = hand.paid[option.seat]
            events.append(hand.apply(event_for(option)))
            if option.verb is Verb.PAY:
                pays[option.seat].append(hand.paid[option.seat] - before)
        elif ev.phase is Phase.DEAL:
            deal = ev.deals[0]
            if not deck:
                return None
            card = deck.pop()
            if deal.face is Face.COMMUNITY:
                events.append(hand.apply(DealBoard(card)))
            else:
                events.append(hand.apply(DealHole(deal.seat, (card,))))
        else:
            weights = [0.15 if o.verb is Verb.FOLD else 1.0 for o in ev.options]
            option = rng.choices(ev.options, weights)[0]
            if option.verb is Verb.FOLD:
                folded_on[option.seat] = hand.street
            events.append(hand.apply(event_for(option)))
    if hand.phase is Phase.SHOWDOWN and hand.declares:
        for seat in hand.at_showdown:
            if hand.in_hand[seat]:
                events.append(hand.apply(Declare(seat, rng.choice(("high", "low", "both")))))
    entry = history_entry(events, n=n)
    history = {
        "variant": "F7S",
        "antes": STAKES.ante,
        "bring_in": STAKES.bring_in,
        "small_bet": STAKES.small_bet,
        "big_bet": STAKES.big_bet,
        "starting_stacks": list(stacks),
        "actions": entry["actions"],
    }
    if game is None:
        history["_variant"] = variant
        history["_options"] = dict(options)
    for theirs, ours in (("_buys", "buys"), ("_seventh_card", "seventh_card")):
        if ours in entry:
            history[theirs] = entry[ours]
    if "declarations" in entry:
        history["_declarations"] = entry["declarations"]
    showdown = hand.n_in >= 2
    shown = []
    for i in range(n):
        if showdown and hand.in_hand[i]:
            cards = list(zip(hand.cards[i], hand.faces[i], strict=True))
            shown.append(
                {
                    "down": [format_card(c) for c, up in cards if not up],
                    "up": [format_card(c) for c, up in cards if up],
                }
            )
        elif game is not None or rng.random() < 0.5:  # a folded seat's up cards, seen
            ups = [c for c, up in zip(hand.cards[i], hand.faces[i], strict=True) if up]
            shown.append({"down": [], "up": [format_card(c) for c in ups]})
        else:
            shown.append(None)
    quick = QuickEntry(
        variant=variant if game is None else game.name,
        game=game,
        options=options if game is None else None,
        stakes=STAKES,
        starting_stacks=list(stacks),
        put_in=[stacks[i] - hand.stacks[i] for i in range(n)],
        folded=[None if s is None else s + 3 for s in folded_on],
        shown=shown,
        community=None if hand.community is None else format_card(hand.community),
        buys=list(hand.bought) if any(hand.bought) else None,
        seventh_card=chose if any(chose) else None,
        declarations=entry.get("declarations"),
        paid=[(p if len(p) > 1 else p[0]) if p else None for p in pays] if any(pays) else None,
    )
    return Played("", history, quick, game)


def spoil(rng: random.Random, played: Played) -> Played:
    """The hand with one thing wrong, as a client might send it."""
    history = copy.deepcopy(played.history)
    actions = history["actions"]
    how = rng.randrange(6)
    if how == 0 and actions:
        del actions[rng.randrange(len(actions))]
    elif how == 1 and len(actions) > 2:
        k = rng.randrange(len(actions) - 1)
        actions[k], actions[k + 1] = actions[k + 1], actions[k]
    elif how == 2 and actions:
        deals = [a for a in actions if a.startswith("d dh")]
        k = rng.randrange(len(actions))
        if deals and actions[k].startswith("d dh"):
            actions[k] = actions[k][:-2] + rng.choice(deals)[-2:]
    elif how == 3:
        history["starting_stacks"][0] = rng.choice((0, 1, -5, 2.5, "10"))
    elif how == 4 and actions:
        k = rng.randrange(len(actions))
        actions[k] = actions[k].replace(" cc", " cbr 7").replace(" f", " cc")
    else:
        actions.append(rng.choice(["p1 f", "p2 cc", "d dh p1 As", "p1 sm", "p3 cbr 10"]))
    q = played.quick
    put_in = list(q.put_in)
    folded = list(q.folded)
    qhow = rng.randrange(4)
    if qhow == 0:
        put_in[rng.randrange(len(put_in))] += rng.choice((-3, -1, 1, 5))
    elif qhow == 1:
        k = rng.randrange(len(folded))
        folded[k] = rng.choice((None, 3, 4, 5, 6, 7, "showdown", "eighth"))
    elif qhow == 2 and q.shown:
        shown = copy.deepcopy(list(q.shown))
        seat = next((s for s in shown if s), None)
        if seat and seat["down"]:
            seat["down"][0] = rng.choice(("Zz", "10h", seat["up"][0] if seat["up"] else "As"))
        q = QuickEntry(**{**_fields(q), "shown": shown})
    else:
        q = QuickEntry(**{**_fields(q), "community": rng.choice(("As", "2c", None))})
    quick = QuickEntry(**{**_fields(q), "put_in": put_in, "folded": folded})
    return Played(played.kind + "!", history, quick, played.game)


def _fields(q: QuickEntry) -> dict:
    return {name: getattr(q, name) for name in QuickEntry.__dataclass_fields__}


def hands(count: int, seed: int, *, spoilt: float = 0.2) -> list[Played]:
    """``count`` random hands over every kind, in turn, the share ``spoilt`` of them spoilt.

    With ``spoilt=0`` only hands both forms of which the engine accepts are kept (a few
    random pays are not written right): the rate's hands, where an error would cut a walk
    short.
    """
    rng = random.Random(seed)
    kinds = _kinds()
    out: list[Played] = []
    k = 0
    while len(out) < count:
        name, variant, options, game = kinds[k % len(kinds)]
        k += 1
        played = play(rng, variant, options, game)
        if played is None:
            continue
        played.kind = name
        if spoilt and rng.random() < spoilt:
            played = spoil(rng, played)
        elif not spoilt and not _accepted(played):
            continue
        out.append(played)
    return out


def _accepted(played: Played) -> bool:
    try:
        settle_quick(played.quick, evaluate=first_seat_wins)
        replay_hand(played.history, game=played.game, evaluate=first_seat_wins)
    except Exception:  # noqa: BLE001
        return False
    return True


def _answer(fn, *args, **kw) -> object:
    try:
        return fn(*args, **kw)
    except Exception as exc:  # an error is an answer too: its type and words must not change
        body = exc.as_dict() if hasattr(exc, "as_dict") else {}
        return {"error": type(exc).__name__, "text": str(exc), **body}


def _result(result) -> object:
    return result.to_dict() if hasattr(result, "to_dict") else result


def answers(played: Played) -> dict:
    observer = FactsObserver(len(played.history["starting_stacks"]))
    full = _result(_answer(replay_hand, played.history, game=played.game, observers=[observer]))
    if observer.hand is not None:
        observer.finish(observer.hand)
    facts = {
        "betting": observer.betting,
        "saw": observer.saw,
        "closed_at": observer.closed_at,
        "contenders": observer.contenders,
        "closed_faces": observer.closed_faces,
        "closed_stacks": observer.closed_stacks,
    }
    quick = _result(_answer(settle_quick, played.quick))
    return {"kind": played.kind, "full": full, "facts": facts, "quick": quick}


def digest(args) -> None:
    played = hands(args.hands, args.seed)
    sha = hashlib.sha256()
    out = open(args.dump, "w") if args.dump else None  # noqa: SIM115
    errors = {"full": 0, "quick": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p in played:
            a = answers(p)
            for key in errors:
                errors[key] += isinstance(a[key], dict) and "error" in a[key]
            line = json.dumps(a, sort_keys=True, default=str)
            sha.update(line.encode())
            sha.update(b"\n")
            if out:
                out.write(line + "\n")
    if out:
        out.close()
    print(f"{len(played)} hands ({len(_kinds())} kinds), errors {errors}")
    print(f"sha256 {sha.hexdigest()}")


def _jobs(played: list[Played]):
    def quick_walk():
        for p in played:
            walk_quick(p.quick)

    def quick_settle():
        for p in played:
            settle_quick(p.quick, evaluate=first_seat_wins)

    def replay():
        for p in played:
            replay_hand(p.history, game=p.game, evaluate=first_seat_wins)

    return {"walk_quick": quick_walk, "settle_quick": quick_settle, "replay_hand": replay}


def _peer(count: int):
    from pokerkit import FixedLimitSevenCardStud, Mode
    from pokerkit.notation import parse_action

    from tests.support.pokerkit import REPLAY_AUTOMATIONS, play_random_hand

    peer_hands = []
    seed = 0
    while len(peer_hands) < count:
        rh = play_random_hand(seed)
        seed += 1
        if rh.players == 8 or (rh.ours_community and not rh.board):
            continue
        peer_hands.append(rh.hand)

    def pokerkit():
        for hand in peer_hands:
            game = FixedLimitSevenCardStud(
                REPLAY_AUTOMATIONS, False, hand["antes"], hand["bring_in"], hand["small_bet"],
                hand["big_bet"], mode=Mode.CASH_GAME,
            )  # fmt: skip
            state = game(hand["starting_stacks"], len(hand["starting_stacks"]))
            for action in hand["actions"]:
                parse_action(state, action)

    def ours_on_theirs():
        for hand in peer_hands:
            replay_hand(hand, evaluate=first_seat_wins)

    return {"pokerkit F7S": pokerkit, "replay_hand F7S": ours_on_theirs}


def rate(args) -> None:
    played = hands(args.hands, args.seed, spoilt=0)
    jobs = {**_jobs(played), **_peer(args.hands)}
    best = dict.fromkeys(jobs, float("inf"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(args.repeat):
            for name, job in jobs.items():
                start = time.process_time()
                job()
                best[name] = min(best[name], time.process_time() - start)
    print(f"{args.hands} hands a job, best of {args.repeat} interleaved rounds, CPU time")
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for name, t in best.items():
        print(f"{name:18} {1e6 * t / args.hands:8.1f} us/hand {args.hands / t:9.0f} hands/s")
    ratio = best["pokerkit F7S"] / best["replay_hand F7S"]
    print(f"replay_hand F7S / pokerkit rate: {ratio:.2f}x")


def profile(args) -> None:
    import cProfile
    import pstats

    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            played = pickle.load(f)  # noqa: S301 -- our own file
    else:
        played = hands(args.hands, args.seed, spoilt=0)
        if args.cache:
            with open(args.cache, "wb") as f:
                pickle.dump(played, f)
    job = _jobs(played)[
        {"quick": "walk_quick", "settle": "settle_quick"}.get(args.what, "replay_hand")
    ]
    job()  # warm up
    if args.callgrind is not None:
        for _ in range(args.callgrind):
            job()
        return
    prof = cProfile.Profile()
    prof.enable()
    job()
    prof.disable()
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("digest")
    d.add_argument("--hands", type=int, default=5000)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--dump")
    r = sub.add_parser("rate")
    r.add_argument("--hands", type=int, default=1000)
    r.add_argument("--seed", type=int, default=2)
    r.add_argument("--repeat", type=int, default=5)
    p = sub.add_parser("profile")
    p.add_argument("what", choices=("quick", "settle", "replay"))
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--sort", default="tottime")
    p.add_argument("--top", type=int, default=40)
    p.add_argument(
        "--callgrind", type=int, metavar="R", help="run the job bare R more times, no profile"
    )
    p.add_argument("--cache", help="a pickle of the hands (written if absent, else read)")
    args = parser.parse_args()
    {"digest": digest, "rate": rate, "profile": profile}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
