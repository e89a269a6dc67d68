"""Random hands dealt by a game definition, and random valid definitions, for the property
tests of tracker.engine.games."""

from __future__ import annotations

import random

from tests.engine.showdowns import DECK, SUITS

FACE_CHOICES = ("down", "up", "choice")


def deal(rng: random.Random, game: dict, n: int) -> dict | None:
    """Deal ``n`` players the streets of ``game`` (a dumped definition) to the end, as a
    table would (a burn before each street, extra cards at once, the community card when
    the deck runs short on a last street of one card); ``None`` if the deck runs out."""
    deck = DECK[:]
    rng.shuffle(deck)
    wild_ranks = {r for w in game["wild"] for r in w.get("ranks", [])}
    wild_ranks |= {w["rank"] for w in game["wild"] if w["kind"] == "follow"}
    wild_ranks |= {"K"} if any(w["kind"] == "kings_and_lowest" for w in game["wild"]) else set()
    if rng.random() < 0.4:
        # crowd the top of the deck with wild ranks, low cards and one suit
        suit = rng.choice(SUITS)
        favoured = [
            c
            for c in deck
            if c[0] in wild_ranks or c[0] in "23" or c[1] == suit or rng.random() < 0.1
        ]
        deck = favoured + [c for c in deck if c not in favoured]
    extra = {e["rank"]: e["face"] for e in game["extra_cards"]}
    buy = game["buy"]
    players = [{"down": [], "up": []} for _ in range(n)]
    up_order: list[str] = []
    community = None
    streets = game["streets"]

    def give(p: dict, face: str) -> bool:
        if not deck:
            return False
        c = deck.pop()
        p[face].append(c)
        if face == "up":
            up_order.append(c)
            if c[0] in extra:
                return give(p, extra[c[0]])
        return True

    for si, street in enumerate(streets):
        if deck:
            deck.pop()  # the burn
        last = si == len(streets) - 1
        if street["faces"] == ["community"]:
            if not deck:
                return None
            community = deck.pop()
            up_order.append(community)
            continue
        if last and len(street["faces"]) == 1 and len(deck) < n:
            community = deck.pop() if deck else None
            if community is None:
                return None
            up_order.append(community)
            continue
        for p in players:
            for f in street["faces"]:
                face = f
                if f == "choice":
                    face = rng.choice(["down", "up"])
                if last and buy is not None and rng.random() < 0.3:
                    face = "up" if f == "down" else "down"  # a bought last card
                if not give(p, face):
                    return None
    for p in players:
        if len(p["down"]) + len(p["up"]) + (community is not None) < 5:
            return None
    showdown = {"community": community, "players": players}
    if any(w["kind"] == "follow" for w in game["wild"]):
        showdown["up_order"] = up_order
    if game["pot"]["kind"] == "high_low" and game["pot"].get("declaration") == "declare":
        for p in players:
            p["declare"] = rng.choice(["high", "low", "both"])
    return showdown


def random_showdown(rng: random.Random, game: dict, limit: int) -> dict:
    """A random showdown of 1 to ``limit`` players (fewer if the deck runs out)."""
    n = rng.randint(1, limit)
    while True:
        sd = deal(rng, game, n)
        if sd is not None:
            return sd
        n = max(1, n - 1)


def random_definition(rng: random.Random) -> dict:
    """A random definition that ought to be valid (the tests load it and skip none)."""
    size = rng.choice([5, 6, 7])
    first = rng.choice([["down", "up"], ["down", "down", "up"], ["up"], ["down", "choice"]])
    faces = list(first)
    streets = [{"faces": first, "unit": "small"}]
    while len(faces) < size:
        f = [rng.choice(FACE_CHOICES)]
        faces += f
        streets.append({"faces": f, "unit": rng.choice(["small", "big"])})
    ups = sum(1 for s in streets for f in s["faces"] if f != "down")
    if ups < 2:
        streets[1]["faces"] = ["up"]  # follow-the-X needs two up cards
    if all(f != "down" for s in streets for f in s["faces"]):
        streets[-1]["faces"] = ["down"]
    wild = []
    kinds = rng.sample(["fixed", "kings_and_lowest", "lowest_hole", "follow"], rng.randint(0, 2))
    for kind in kinds:
        if kind == "fixed":
            ranks = rng.sample("23456789TJQKA", rng.randint(0, 2))
            cards = rng.sample(DECK, rng.randint(0 if ranks else 1, 2))
            wild.append({"kind": "fixed", "ranks": ranks, "cards": cards})
        elif kind == "kings_and_lowest":
            wild.append(
                {
                    "kind": kind,
                    "king_required": rng.random() < 0.5,
                    "all_lowest_wild": rng.random() < 0.5,
                    "ace_low_for_lowest": rng.random() < 0.5,
                    "door_card_kings": rng.random() < 0.3,
                }
            )
        elif kind == "lowest_hole":
            wild.append({"kind": kind, "same_rank": rng.choice(["none", "face_down", "all"])})
        else:
            wild.append(
                {
                    "kind": kind,
                    "rank": rng.choice("23456789TJQKA"),
                    "x_wild": rng.random() < 0.7,
                    "later_x": rng.choice(["replaces", "adds", "ignored"]),
                    "last_x": rng.choice(["no_follow", "keeps"]),
                }
            )
    kind = rng.choice(["high", "low", "high_low", "high_chicago", "low_chicago"])
    pot: dict = {"kind": kind}
    if kind in ("low", "high_low"):
        ranking = rng.choice(["ace_to_five", "ace_to_six", "deuce_to_seven"])
        pot["low"] = {"ranking": ranking, "qualifier": rng.choice([None, 8])}
        if kind == "high_low":
            pot["declaration"] = rng.choice(["cards_speak", "declare"])
    if kind == "low_chicago":
        pot["spade_ace"] = rng.choice(["high", "low"])
    extra = []
    if rng.random() < 0.2:
        extra = [{"rank": rng.choice("456"), "face": rng.choice(["up", "down"])}]
    return {
        "name": "random",
        "title": "Random",
        "streets": streets,
        "wild": wild,
        "pot": pot,
        "extra_cards": extra,
        "double_ace_flush": rng.random() < 0.3,
    }
