"""Forms of the league pages: a new league, the roster, roles, invites and the house rules."""

from __future__ import annotations

from django import forms

from tracker.engine.announcements import VARIANTS, normalize_announcements
from tracker.engine.errors import DomainError
from tracker.engine.points import FORMULA_TITLES
from tracker.engine.tournament import MAX_SEATS
from tracker.leagues.models import Role
from tracker.leagues.seasons import DEFAULT_MIN_PLAYERS, DEFAULT_SEASON_LENGTH, SEASON_LENGTHS
from tracker.leagues.services import INVITE_DAYS_MAX
from web.errors import add_form_errors, field_route
from web.forms.cards import AnnouncementsForm

RADIO = forms.RadioSelect  # site.css sizes radios and checkboxes (no inline style: the CSP)
ROLE_HELP = {
    Role.ADMIN: "gives and takes roles, invites people, voids hands",
    Role.AUTHORITY: "rules on disputed pots, sets the house rules",
    Role.SCOREKEEPER: "records hands, keeps the roster, starts game nights",
    Role.MEMBER: "reads a private league, disputes a pot",
}


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120, label="League name")
    visibility = forms.ChoiceField(
        choices=[("public", "Public: anyone may read it"), ("private", "Private: members only")],
        initial="public",
        widget=RADIO,
        label="Who may read it",
    )
    formula = forms.ChoiceField(
        choices=list(FORMULA_TITLES.items()),
        initial="linear",
        label="Points formula",
        help_text="How final places score in the league table; changeable later.",
    )
    season_length = forms.ChoiceField(
        choices=SEASON_LENGTHS, initial=DEFAULT_SEASON_LENGTH, label="Season length"
    )
    min_players = forms.IntegerField(
        min_value=2,
        max_value=MAX_SEATS,
        initial=DEFAULT_MIN_PLAYERS,
        label="Minimum players for a night to count",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Nights with fewer players are kept but not counted in the standings.",
    )
    authority = forms.BooleanField(
        required=False,
        label="I am also the league's authority (I rule on disputed pots)",
    )

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(
            self,
            exc,
            [
                field_route(self, "name"),
                field_route(self, "slug", "name"),
                field_route(self, "points_formula", "formula"),
                field_route(self, "season_length"),
                field_route(self, "min_players"),
            ],
        )


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=80, label="Player's name")

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(self, exc, [field_route(self, "name")])


class LinkForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    username = forms.CharField(
        max_length=150,
        required=False,
        label="Account",
        widget=forms.TextInput(attrs={"autocapitalize": "off", "placeholder": "username"}),
    )

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(self, exc, [field_route(self, "username")])


class RolesForm(forms.Form):
    user = forms.IntegerField(widget=forms.HiddenInput)
    roles = forms.MultipleChoiceField(
        choices=Role.choices, required=False, widget=forms.CheckboxSelectMultiple
    )


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[(r.value, f"{r.label}: {ROLE_HELP[r]}") for r in Role],
        initial=Role.MEMBER,
        widget=RADIO,
        label="Role it gives",
    )
    uses = forms.ChoiceField(
        choices=[("single", "One person (single use)"), ("multi", "Anyone with the link")],
        initial="single",
        widget=RADIO,
        label="Who may use it",
    )
    days = forms.IntegerField(
        min_value=1,
        max_value=INVITE_DAYS_MAX,
        initial=7,
        label="Days before it expires",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    mail_to = forms.CharField(
        max_length=150,
        required=False,
        label="Mail it to (optional)",
        help_text="The username of an account with a verified address: we mail them the link.",
        widget=forms.TextInput(attrs={"autocapitalize": "off", "autocomplete": "off"}),
    )

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(
            self,
            exc,
            [field_route(self, "role"), field_route(self, "days"), field_route(self, "mail_to")],
        )


class HouseRulesForm(AnnouncementsForm):
    """The league's default announcements, with the entry form's widgets (one fieldset per
    variant). Only what differs from the engine's defaults is stored."""

    def house_rules(self) -> dict:
        out = {}
        for variant in VARIANTS:
            chosen = self.options(variant)
            plain = normalize_announcements(variant, {})
            # The qualifier's default depends on the game: compare it under the chosen game.
            game = {"game": chosen["game"]} if "game" in chosen else {}
            base = normalize_announcements(variant, game)
            changed = {
                name: value
                for name, value in chosen.items()
                if value != (plain if name == "game" else base).get(name)
            }
            if changed:
                out[variant] = changed
        return out
