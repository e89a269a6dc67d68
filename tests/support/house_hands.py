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
