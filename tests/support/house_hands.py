"""Heads-up hands of house games (the presets Follow the Queen and Baseball) as PHH
actions, for the recording, import and statistics tests."""

# Heads-up Follow the Queen: p1's door card is the Qc, p2's door card the 7h is the next up
# card, so sevens are wild: p2's 7h makes four twos, beating p1's aces full (the Qc wild).
FTQ_ACTIONS = [
    "d dh p1 AsKsQc",
    "d dh p2 2d3d7h",
    "p2 pb",
    "p1 cc",
    "d dh p1 Ah",
    "d dh p2 2s",
    "p1 cc",
    "p2 cc",
    "d dh p1 Kd",
    "d dh p2 2h",
    "p2 cc",
    "p1 cc",
    "d dh p1 5c",
    "d dh p2 9c",
    "p2 cc",
    "p1 cc",
    "d dh p1 8s",
    "d dh p2 Jd",
    "p2 cc",
    "p1 cc",
]

# Heads-up Baseball: p2's door card is the 3c (a three up: p2 pays the pot, the two antes);
# p1's 4h on fourth street gives p1 an extra up card (the 5d). Threes and nines are wild:
# p1 makes a six-high straight (9s as 3s), p2 a queen-high straight (3c as 9s) and wins.
BASEBALL_ACTIONS = [
    "d dh p1 AsKs2c",
    "d dh p2 QhQd3c",
    "p2 _pay",
    "p1 pb",
    "p2 cc",
    "d dh p1 4h",
    "d dh p1 5d",
    "d dh p2 8c",
    "p2 cc",
    "p1 cc",
    "d dh p1 Jc",
    "d dh p2 Jd",
    "p2 cc",
    "p1 cc",
    "d dh p1 6c",
    "d dh p2 7d",
    "p2 cc",
    "p1 cc",
    "d dh p1 9s",
    "d dh p2 Th",
    "p2 cc",
    "p1 cc",
]

# Follow the Queen with the last card of the player's choice, up or down (a ``choice``
# street): a house game of a league, not a preset.
CHOICE_GAME = {
    "name": "follow_the_queen_choice",
    "title": "Follow the Queen, the Last Card Up or Down",
    "streets": [
        {"faces": ["down", "down", "up"], "unit": "small"},
        {"faces": ["up"], "unit": "small"},
        {"faces": ["up"], "unit": "big"},
        {"faces": ["up"], "unit": "big"},
        {"faces": ["choice"], "unit": "big"},
    ],
    "wild": [{"kind": "follow", "rank": "Q", "later_x": "replaces", "last_x": "no_follow"}],
    "max_players": 7,
}

# Heads-up: p1's door card is the Qc and p2's 7h follows it, so sevens are wild with the
# queens. p2's last card, the Qs, is wild either way; taken down, p2 has four twos (7h, Qs
# wild) and beats p1's aces full (the Qc wild); taken up, it is a queen as the last up card
# (``no_follow``): sevens are no longer wild and p2's three twos lose.
CHOICE_SEATS = {0: "As Ks Qc Ah Kd 5c 8s", 1: "2d 3d 7h 2s 4h 9c Qs"}
CHOICE_ACTIONS = [
    *FTQ_ACTIONS[:9],  # third and fourth streets as in FTQ_ACTIONS, then p1's Kd
    "d dh p2 4h",
    "p1 cc",
    "p2 cc",
    "d dh p1 5c",
    "d dh p2 9c",
    "p1 cc",
    "p2 cc",
    "d dh p1 8s",
    "d dh p2 Qs",
    "p1 cc",
    "p2 cc",
]

# The same deal in a game whose card of the player's choice is on fourth street (the last
# card down, bought up for 5 chips: Low Hold's ``contributed`` buy), no wild cards.
CHOICE_FOURTH_GAME = {
    **CHOICE_GAME,
    "name": "choice_on_fourth",
    "title": "Fourth Up or Down",
    "wild": [],
    "streets": [
        {**street, "faces": faces}
        for street, faces in zip(
            CHOICE_GAME["streets"],
            (["down", "down", "up"], ["choice"], ["up"], ["up"], ["down"]),
            strict=True,
        )
    ],
    "buy": {"version": "contributed", "price": 5},
}
