"""The house games' forms: a preset's house choices, and a definition as JSON.

From a preset, the form is the preset's house choices (its wild rules' options, the low
half's ranking and qualifier, declarations, the Chicago spade's ace, extra-card faces, pay
prices, the double-ace flush and the most players), each input named by the part of the
definition it sets (``wild[0].later_x``), so a refusal lands on the input at fault. From
scratch, the whole definition is one JSON field (a form over every part would be larger
than the definition itself): a refusal is listed under it by the part it names
(``pot.low: ...``), a JSON syntax error with its line and column.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms

from tracker.core.paths import FieldPath, Part
from tracker.engine.cards import RANK_CHARS, rank_name
from tracker.engine.errors import DomainError
from tracker.engine.games import (
    LAST_X,
    LATER_X,
    FixedWild,
    FollowWild,
    GameDefinition,
    KingsAndLowestWild,
    LowestHoleWild,
    dump_game,
)
from tracker.engine.low import LOW_RANKINGS
from web.errors import Route, add_form_errors

YES_NO = [("yes", "Yes"), ("no", "No")]
RANKS = [(r, rank_name(i + 2).capitalize()) for i, r in enumerate(RANK_CHARS)]
LATER_X_LABELS = {
    "replaces": "Sets a new wild rank",
    "adds": "Adds its follower's rank",
    "ignored": "Is ignored",
}
LATER_X_HELP = (
    "The card after a later face-up {x} sets the new wild rank (the old one is natural "
    "again), makes its rank wild too, or nothing: the first follower's rank stays wild."
)
LAST_X_LABELS = {
    "no_follow": "Only the {x}s are wild",
    "keeps": "The rank following stays wild",
}
LAST_X_HELP = "When a {x} is the last card dealt face up, nothing follows it."
SAME_RANK_LABELS = {
    "all": "every card of its rank the player holds",
    "face_down": "every face-down card of its rank",
    "none": "that one card only",
}
KINGS_LABELS = {
    "king_required": "The lowest card is wild only for a player holding a king",
    "all_lowest_wild": "Every card of the lowest rank is wild",
    "ace_low_for_lowest": "An ace may be the lowest card",
    "door_card_kings": "Only a king as the door card is wild",
}
QUALIFIERS = [("none", "Any low")] + [(str(q), f"{q} or better") for q in range(6, 11)]


@dataclass(frozen=True)
class Choice:
    """One house choice: the path it sets in the definition, and its input."""

    path: str
    field: forms.Field
    kind: str  # "choice", "bool", "ranks", "cards", "qualifier", "price", "count"

    @property
    def name(self) -> str:
        return "c-" + self.path.replace(".", "-").replace("[", "-").replace("]", "")


def _select(label: str, options, help_text: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=options, help_text=help_text)


def _follow_choices(at: str, w: FollowWild) -> list[Choice]:
    x = rank_name(w.rank)
    return [
        Choice(f"{at}.rank", _select("The card to follow", RANKS), "choice"),
        Choice(f"{at}.x_wild", _select(f"Are the {x}s themselves wild?", YES_NO), "bool"),
        Choice(
            f"{at}.later_x",
            _select(
                f"A later face-up {x}",
                [(k, LATER_X_LABELS[k]) for k in LATER_X],
                LATER_X_HELP.format(x=x),
            ),
            "choice",
        ),
        Choice(
            f"{at}.last_x",
            _select(
                f"A {x} as the last face-up card",
                [(k, LAST_X_LABELS[k].format(x=x)) for k in LAST_X],
                LAST_X_HELP.format(x=x),
            ),
            "choice",
        ),
    ]


def _wild_choices(game: GameDefinition) -> list[Choice]:
    out: list[Choice] = []
    for i, w in enumerate(game.wild):
        at = f"wild[{i}]"
        if isinstance(w, FollowWild):
            out += _follow_choices(at, w)
        elif isinstance(w, FixedWild):
            out.append(
                Choice(
                    f"{at}.ranks",
                    forms.CharField(
                        label="Wild ranks",
                        required=False,
                        help_text="Ranks separated by spaces: 2-9, T, J, Q, K, A.",
                    ),
                    "ranks",
                )
            )
            out.append(
                Choice(
                    f"{at}.cards",
                    forms.CharField(
                        label="Wild cards",
                        required=False,
                        help_text="Single cards separated by spaces, e.g. Js Jh.",
                    ),
                    "cards",
                )
            )
        elif isinstance(w, KingsAndLowestWild):
            out += [
                Choice(f"{at}.{name}", _select(label, YES_NO), "bool")
                for name, label in KINGS_LABELS.items()
            ]
        elif isinstance(w, LowestHoleWild):
            options = list(SAME_RANK_LABELS.items())
            label = "With the lowest face-down card, also wild"
            out.append(Choice(f"{at}.same_rank", _select(label, options), "choice"))
    return out


def _pot_choices(game: GameDefinition) -> list[Choice]:
    pot, out = game.pot, []
    if pot.low is not None:
        rankings = [(r, r.replace("_", " ")) for r in LOW_RANKINGS]
        out.append(Choice("pot.low.ranking", _select("Low hands ranked", rankings), "choice"))
        out.append(Choice("pot.low.qualifier", _select("A low qualifies", QUALIFIERS), "qualifier"))
    if pot.kind == "high_low":
        options = [("cards_speak", "Cards speak"), ("declare", "Players declare")]
        out.append(Choice("pot.declaration", _select("High-low", options), "choice"))
    if pot.kind == "low_chicago":
        options = [("high", "High: the 2♠ is the lowest"), ("low", "Low: the A♠ is the lowest")]
        out.append(Choice("pot.spade_ace", _select("The ace of spades", options), "choice"))
    return out


def house_choices(game: GameDefinition) -> list[Choice]:
    """The house choices of ``game`` (a preset) as inputs, in the definition's order."""
    out = _wild_choices(game) + _pot_choices(game)
    for i, e in enumerate(game.extra_cards):
        label = f"The extra card for a {rank_name(e.rank)} up comes"
        options = [("up", "Face up"), ("down", "Face down")]
        out.append(Choice(f"extra_cards[{i}].face", _select(label, options), "choice"))
    for i, p in enumerate(game.pays):
        field = forms.CharField(
            label=f"A {rank_name(p.rank)} up costs",
            help_text="Chips, or “pot” for as much as the pot holds; the player pays or folds.",
        )
        out.append(Choice(f"pays[{i}].price", field, "price"))
    if game.pot.has_high:
        field = _select("A double-ace flush (two wild aces of one suit) counts", YES_NO)
        out.append(Choice("double_ace_flush", field, "bool"))
    players = forms.IntegerField(
        label="Players at most",
        min_value=2,
        max_value=game.deck_limit,
        help_text=f"The deck serves {game.deck_limit} players this deal.",
    )
    out.append(Choice("max_players", players, "count"))
    return out


def _get(data: Any, parts: tuple[Part, ...]) -> Any:
    for part in parts:
        data = data[part]
    return data


def _set(data: Any, parts: tuple[Part, ...], value: Any) -> None:
    for part in parts[:-1]:
        data = data[part]
    data[parts[-1]] = value


def _shown(choice: Choice, value: Any) -> Any:
    """A definition's value as its input shows it."""
    if choice.kind == "bool":
        return "yes" if value else "no"
    if choice.kind in ("ranks", "cards"):
        return " ".join(value)
    if choice.kind == "qualifier":
        return "none" if value is None else str(value)
    return value


def _read(choice: Choice, value: Any) -> Any:
    """An input's value as the definition holds it (the engine checks it)."""
    if choice.kind == "bool":
        return value == "yes"
    if choice.kind in ("ranks", "cards"):
        return [t for t in str(value or "").replace(",", " ").split() if t]
    if choice.kind == "qualifier":
        return None if value in ("none", "", None) else int(value)
    if choice.kind == "price":
        text = str(value).strip().lower()
        return int(text) if text.isdigit() else text
    return value


class _DefinitionErrors:
    """Routes the service's ``definition.*`` paths onto this form."""

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(self, exc, self.routes())

    def routes(self) -> list[Route]:
        return [Route(("name",), self._place_name), Route(("definition",), self._place)]

    def _place_name(self, rest: FieldPath, messages: list[str]) -> bool:
        for m in messages:
            self.add_error("name", m)
        return True

    def _place(self, rest: FieldPath, messages: list[str]) -> bool:  # pragma: no cover
        raise NotImplementedError


class PresetGameForm(_DefinitionErrors, forms.Form):
    """A new game from a preset: its name and the preset's house choices."""

    name = forms.CharField(max_length=120, label="Name of the game")

    def __init__(self, data=None, *, preset: str, game: GameDefinition):
        super().__init__(data, initial={"name": game.title})
        self.preset = preset
        self.base = dump_game(game)
        self.choices = house_choices(game)
        for choice in self.choices:
            choice.field.initial = _shown(
                choice, _get(self.base, FieldPath.parse(choice.path).parts)
            )
            self.fields[choice.name] = choice.field

    @property
    def choice_fields(self):
        return [self[c.name] for c in self.choices]

    def definition(self) -> dict:
        """The preset's definition with the house choices as chosen."""
        data = json.loads(json.dumps(self.base))
        for choice in self.choices:
            _set(
                data,
                FieldPath.parse(choice.path).parts,
                _read(choice, self.cleaned_data[choice.name]),
            )
        return data

    def _place(self, rest: FieldPath, messages: list[str]) -> bool:
        text = str(rest)
        for choice in sorted(self.choices, key=lambda c: -len(c.path)):
            if (
                text == choice.path
                or text.startswith(choice.path + "[")
                or text.startswith(choice.path + ".")
            ):
                for m in messages:
                    self.add_error(choice.name, m)
                return True
        return False


class DefinitionForm(_DefinitionErrors, forms.Form):
    """A game's name and its whole definition as JSON (from scratch, or a change)."""

    name = forms.CharField(max_length=120, label="Name of the game")
    definition = forms.CharField(
        label="Definition (JSON)",
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code-input"}),
        help_text="The format is in docs/engine.md (“Game definitions”); fields left out take "
        "their defaults. Its name and title are the game's.",
    )

    def clean_definition(self) -> dict:
        text = self.cleaned_data["definition"]
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError("a definition is a JSON object: {...}")
        return value

    def _place(self, rest: FieldPath, messages: list[str]) -> bool:
        where = str(rest) or "definition"
        for m in messages:
            self.add_error("definition", f"{where}: {m}")
        return True


def definition_text(definition: dict) -> str:
    """A stored definition as the JSON field shows it (without its name and title)."""
    shown = {k: v for k, v in definition.items() if k not in ("name", "title")}
    return json.dumps(shown, indent=2, ensure_ascii=False)


__all__ = [
    "Choice",
    "DefinitionForm",
    "PresetGameForm",
    "definition_text",
    "house_choices",
]
