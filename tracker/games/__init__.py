"""A league's own house games: stud games as data (tracker/engine/games.py), kept per league
with every version of their definition (docs/games/README.md, "A league's games")."""
