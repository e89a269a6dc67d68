"""A brute-force reference for game definitions, written apart from tracker.engine.

It reads a definition in its plain-dict form (as ``dump_game`` writes it), finds each
player's wild cards afresh from the rules of docs/engine.md ("Game definitions"), and values
the hands with the brute force of :mod:`tests.engine.oracle` (every five-card subset, every
value of every wild card). Values are ``(category, ranks)`` tuples: bigger is better for high
hands, smaller for low hands.
"""

from __future__ import annotations

from itertools import product

from tests.engine import oracle

RANKS = "23456789TJQKA"


def rank(text: str) -> int:
    return RANKS.index("T" if text == "10" else text.upper()) + 2


def follow_ranks(rule: dict, up_order: list) -> set[int]:
    """Walk the up cards in order: the card after an up X sets the follow rank."""
    x = rank(rule["rank"])
    found: list[set[int]] = []  # the follow ranks after each follower, in order
    after_x = False
    for r, _s in up_order:
        if r == x:
            after_x = True
        elif after_x:
            after_x = False
            found.append({r})
    if not found:
        return set()
    if after_x and rule["last_x"] == "no_follow":
        return set()
    if rule["later_x"] == "replaces":
        return found[-1]
    if rule["later_x"] == "ignored":
        return found[0]
    return set().union(*found)


def wild_sets(game: dict, down: list, up: list, community, follow: set, half: str) -> list[set]:
    """Every set of the player's cards that may be wild, as (rank, suit) pairs."""
    every = down + up + ([community] if community else [])
    always: set = set()
    alternatives: list[list[set]] = []
    for w in game["wild"]:
        kind = w["kind"]
        if kind == "fixed":
            ranks = {rank(r) for r in w["ranks"]}
            cards = {oracle.card(c) for c in w["cards"]}
            always |= {c for c in every if c[0] in ranks or c in cards}
        elif kind == "follow":
            x = rank(w["rank"])
            always |= {c for c in every if c[0] in follow or (w["x_wild"] and c[0] == x)}
        elif kind == "kings_and_lowest":
            if w["door_card_kings"]:
                kings = {up[0]} if up and up[0][0] == 13 else set()
            else:
                kings = {c for c in every if c[0] == 13}
            if w["king_required"] and not any(c[0] == 13 for c in every):
                alternatives.append([kings])
                continue
            others = [c for c in every if c not in kings]
            if not others:
                alternatives.append([kings])
                continue

            def value(c, w=w):
                return 1 if c[0] == 14 and w["ace_low_for_lowest"] else c[0]

            m = min(value(c) for c in others)
            lows = [c for c in others if value(c) == m]
            if w["all_lowest_wild"]:
                alternatives.append([kings | set(lows)])
            else:
                alternatives.append([kings | {c} for c in lows])
        elif kind == "lowest_hole":
            low = game["pot"].get("low")
            aces_low = half == "low" and low is not None and low["ranking"] != "deuce_to_seven"

            def value(c, aces_low=aces_low):
                return 1 if c[0] == 14 and aces_low else c[0]

            m = min(value(c) for c in down)
            lows = [c for c in down if value(c) == m]
            mode = w["same_rank"]
            if mode == "none":
                alternatives.append([{c} for c in lows])
            elif mode == "face_down":
                alternatives.append([set(lows)])
            else:
                alternatives.append([{c for c in every if value(c) == m}])
    out = [set(always)]
    for alts in alternatives:
        out = [a | b for a, b in product(out, alts)]
    return out


def player_value(game: dict, down: list, up: list, com, follow: set) -> tuple:
    """One player's ``(high, low, spade)`` values (cards as (rank, suit) pairs)."""
    pot = game["pot"]
    kind = pot["kind"]
    low_rule = pot.get("low")
    da = game["double_ace_flush"]
    every = down + up + ([com] if com else [])
    high = low = None
    if kind != "low":
        for wild in wild_sets(game, down, up, com, follow, "high"):
            v = oracle.best_high([c for c in every if c not in wild], len(wild), da)
            high = v if high is None or v > high else high
    if low_rule is not None:
        for wild in wild_sets(game, down, up, com, follow, "low"):
            nat = [c for c in every if c not in wild]
            v = oracle.best_low(nat, len(wild), low_rule["ranking"], low_rule["qualifier"])
            if v is not None and (low is None or v < low):
                low = v
    hole_spades = [r for r, s in down if s == 3]
    spade = None
    if kind.endswith("chicago") and hole_spades:
        if kind == "high_chicago":
            spade = max(hole_spades)
        else:
            ace = 1 if pot.get("spade_ace") == "low" else 14
            spade = -min(ace if r == 14 else r for r in hole_spades)
    return high, low, spade


def decide(values: list[tuple], declares: list | None) -> tuple[list, list, list]:
    """The high, low and spade winners among the players' ``player_value``s."""
    hw, lw = oracle.winners([(h, lo) for h, lo, _ in values], declares)
    present = [s for _, _, s in values if s is not None]
    sw = [i for i, (_, _, s) in enumerate(values) if present and s == max(present)]
    return hw, lw, sw


def evaluate(game: dict, showdown: dict) -> dict:
    """Per player (high, low, spade) values and the winners of each half."""
    pot = game["pot"]
    com = showdown.get("community")
    com = oracle.card(com) if com else None
    follow: set[int] = set()
    rule = next((w for w in game["wild"] if w["kind"] == "follow"), None)
    if rule is not None:
        follow = follow_ranks(rule, [oracle.card(c) for c in showdown["up_order"]])
    values = [
        player_value(
            game,
            [oracle.card(x) for x in p["down"]],
            [oracle.card(x) for x in p["up"]],
            com,
            follow,
        )
        for p in showdown["players"]
    ]
    declares = None
    if pot["kind"] == "high_low" and pot.get("declaration") == "declare":
        declares = [p["declare"] for p in showdown["players"]]
    hw, lw, sw = decide(values, declares)
    results = [(h, lo) for h, lo, _ in values]
    return {"players": results, "high_winners": hw, "low_winners": lw, "spade_winners": sw}
