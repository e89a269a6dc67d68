"""The hand-value engine: pure Python, standard library only (no Django).

Public API (see docs/engine.md for the contract and how it works):

* :func:`evaluate_showdown` -- JSON-shaped showdown in, hands and winners out.
* :func:`normalize_announcements`, :data:`VARIANTS`, :data:`MAX_PLAYERS`,
  :func:`max_players` -- variants and their announcements.
* :func:`parse_card`, :func:`format_card`, :func:`card_symbol`,
  :func:`is_unknown` -- cards (ints 0..51 inside the engine).
* :func:`best_high`, :func:`best_low`, :func:`hand_keys`,
  :func:`wild_options` -- the fast internal API: comparable int keys,
  bigger is better.
* :func:`load_game`, :func:`dump_game`, :class:`GameDefinition`,
  :data:`PRESETS`, :func:`definition_for_variant`, :func:`evaluate_game`,
  :func:`game_hand_keys` -- stud games as data (docs/games/).
"""

from .announcements import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    max_players,
    normalize_announcements,
)
from .cards import (
    UNKNOWN_CARD,
    card_symbol,
    format_card,
    is_unknown,
    parse_card,
    parse_cards,
)
from .errors import DomainError
from .explain import explain_high, high_hand_dict
from .hands import CATEGORIES, best_high, build_tables, category_name, ranks_of
from .low import best_low, explain_low
from .showdown import decide_winners, evaluate_showdown, hand_keys, parse_showdown
from .wild import wild_options

__all__ = [
    "CATEGORIES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "UNKNOWN_CARD",
    "VARIANTS",
    "DomainError",
    "best_high",
    "best_low",
    "build_tables",
    "card_symbol",
    "category_name",
    "decide_winners",
    "evaluate_showdown",
    "explain_high",
    "explain_low",
    "format_card",
    "hand_keys",
    "high_hand_dict",
    "is_unknown",
    "max_players",
    "normalize_announcements",
    "parse_card",
    "parse_cards",
    "parse_showdown",
    "ranks_of",
    "wild_options",
]

# The stud procedure: replay and settle a hand, pots, PHH.
from . import phh  # noqa: E402
from .pots import Pot, PotAward, build_pots, settle_pots  # noqa: E402
from .procedure import HandResult, ProcedureError, replay_hand, settle_quick  # noqa: E402
from .stakes import Stakes  # noqa: E402

__all__ += [
    "HandResult",
    "Pot",
    "PotAward",
    "ProcedureError",
    "Stakes",
    "build_pots",
    "phh",
    "replay_hand",
    "settle_pots",
    "settle_quick",
]

# Stud games as data: definitions, presets, and the showdown of any definition.
from .game_presets import PRESETS, definition_for_variant  # noqa: E402
from .game_showdown import evaluate_game, game_hand_keys  # noqa: E402
from .games import GameDefinition, GameDefinitionError, dump_game, load_game  # noqa: E402

__all__ += [
    "PRESETS",
    "GameDefinition",
    "GameDefinitionError",
    "definition_for_variant",
    "dump_game",
    "evaluate_game",
    "game_hand_keys",
    "load_game",
]
