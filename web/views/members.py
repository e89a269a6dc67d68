"""The pages that run a league: a new league, its roster, its members and invites, an invite
link, and the house rules."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tracker.core.errors import Conflict, NotFound
from tracker.core.permissions import Capability, capabilities
from tracker.engine.errors import DomainError
from tracker.leagues.models import Player, Role, invite_path
from tracker.leagues.selectors.people import (
    invite_by_token,
    league_account,
    league_invites,
    league_members,
    league_players_without_role,
    league_roster,
)
from tracker.leagues.selectors.visibility import visible_league
from tracker.leagues.services import (
    invite_accept,
    invite_create,
    invite_revoke,
    league_create,
    player_create,
    player_link,
    roles_set,
)
from tracker.rulings.selectors import house_rules_history
from tracker.rulings.services import house_rules_set
from web.forms.leagues import (
    ROLE_HELP,
    HouseRulesForm,
    InviteForm,
    LeagueForm,
    LinkForm,
    PlayerForm,
    RolesForm,
)
from web.views import shown_once
from web.views.common import login_first, page_gate


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request):
    """Start a league: its creator is its admin (and, if ticked, its authority)."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = league_create(
                name=data["name"],
                is_public=data["visibility"] == "public",
                points_formula={"formula": data["formula"]},
                season_length=data["season_length"],
                min_players=data["min_players"],
                creator_is_authority=data["authority"],
                created_by=request.user,
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            messages.success(
                request, f"{league.name} is ready. Add its players, then invite the others."
            )
            return redirect("league-roster", slug=league.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "tracker/league_new.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def roster(request, slug):
    """The league's players; scorekeepers and admins add players and link them to accounts."""
    league = visible_league(request.user, slug)
    can = capabilities(request.user, league)
    add_form, link_form, linking = PlayerForm(prefix="add"), None, None
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        action = request.POST.get("action")
        try:
            if action == "add":
                add_form = PlayerForm(request.POST, prefix="add")
                if add_form.is_valid():
                    player = player_create(
                        league=league, name=add_form.cleaned_data["name"], by=request.user
                    )
                    messages.success(request, f"{player.name} joined the roster.")
                    return redirect("league-roster", slug=slug)
            elif action == "link":
                link_form = LinkForm(request.POST)
                if link_form.is_valid():
                    player = Player.objects.filter(
                        league=league, pk=link_form.cleaned_data["player"]
                    ).first()
                    if player is None:
                        raise NotFound("No such player.")
                    linking = player.pk
                    player = player_link(
                        league=league,
                        player=player,
                        username=link_form.cleaned_data["username"],
                        by=request.user,
                    )
                    said = (
                        f"{player.name} is now the account {player.user.get_username()}."
                        if player.user
                        else f"{player.name} is no longer linked to an account."
                    )
                    messages.success(request, said)
                    return redirect("league-roster", slug=slug)
            else:
                raise NotFound("No such action.")
        except DomainError as exc:
            form = add_form if action == "add" else link_form
            form.add_domain_error(exc)
        status = 400
    return render(
        request,
        "tracker/roster.html",
        {
            "league": league,
            "can": can,
            "players": league_roster(league),
            "add_form": add_form,
            "link_form": link_form,
            "linking": linking,
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def members(request, slug):
    """Admins: who holds which roles (change them), and the invites. Making an invite answers
    with a 303 back to this page, which then shows the new link once (kept in the session
    meanwhile), and never again: only its token's digest is stored, so the list names each
    invite by its fingerprint, role, state and expiry."""
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.MANAGE_MEMBERS, "change roles and invite people")
    if can is None:
        return login_first(request)
    invite_form = InviteForm(prefix="invite")
    errors: dict[int, str] = {}
    status = 200
    new_invite, new_link = None, None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "roles":
                form = RolesForm(request.POST)
                if not form.is_valid():
                    raise DomainError("choose the roles", field="roles")
                # Only an account of this league (None for any other, existing or not: the
                # service refuses both alike, naming no one).
                user = league_account(league, pk=form.cleaned_data["user"])
                try:
                    roles = roles_set(
                        league=league, user=user, roles=form.cleaned_data["roles"], by=request.user
                    )
                except DomainError as exc:
                    errors[user.pk if user is not None else 0] = exc.message
                else:
                    said = ", ".join(roles) if roles else "no role (removed from the league)"
                    messages.success(request, f"{user.get_username()}: {said}.")
                    return redirect("league-members", slug=slug)
            elif action == "invite":
                invite_form = InviteForm(request.POST, prefix="invite")
                if invite_form.is_valid():
                    data = invite_form.cleaned_data
                    try:
                        new_invite, new_token = invite_create(
                            league=league,
                            role=data["role"],
                            single_use=data["uses"] == "single",
                            days=data["days"],
                            by=request.user,
                            mail_to=data["mail_to"],
                            base_url=request.build_absolute_uri("/"),
                        )
                    except DomainError as exc:
                        invite_form.add_domain_error(exc)
                    else:
                        # Shown once, on the page this redirects to: only its digest is stored.
                        return shown_once.keep_and_redirect(
                            request,
                            shown_once.INVITE,
                            pk=new_invite.pk,
                            secret=request.build_absolute_uri(invite_path(new_token)),
                            to=reverse("league-members", kwargs={"slug": league.slug}),
                            league=league.slug,
                        )
            elif action == "revoke":
                invite = next(
                    (i for i in league_invites(league) if str(i.pk) == request.POST.get("invite")),
                    None,
                )
                if invite is None:
                    raise NotFound("No such invite.")
                invite_revoke(invite=invite, by=request.user)
                messages.success(request, "The invite is revoked: its link no longer works.")
                return redirect("league-members", slug=slug)
            else:
                raise NotFound("No such action.")
        except DomainError as exc:
            errors[0] = exc.message
        status = 400
    invites = league_invites(league)
    if request.method == "GET":
        kept = shown_once.take(request, shown_once.INVITE, league=league.slug)
        if kept is not None:
            # Not if it was revoked meanwhile (nor if it is no invite of this league).
            new_invite = next((i for i in invites if i.pk == kept[0] and not i.revoked), None)
            new_link = kept[1] if new_invite is not None else None
    response = render(
        request,
        "tracker/members.html",
        {
            "league": league,
            "can": can,
            "members": [(m, errors.get(m.user_id)) for m in league_members(league)],
            "linked": [(m, errors.get(m.user_id)) for m in league_players_without_role(league)],
            "roles": [(r.value, r.label, ROLE_HELP[r]) for r in Role],
            "errors": errors,
            "invites": invites,
            "invite_form": invite_form,
            "new_invite": new_invite,
            "new_link": new_link,
        },
        status=status,
    )
    if new_link:
        shown_once.no_store(response)  # the link is the invite's secret
    return response


@require_http_methods(["GET", "POST"])
def invite(request, token):
    """An invite link: anyone may open it; accepting needs an account (sign up or log in
    first, then come back here)."""
    invite = invite_by_token(token)
    status = 200
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            invite_accept(token=token, user=request.user)
        except Conflict as exc:
            error, status = exc.message, 409
        else:
            messages.success(
                request, f"Welcome to {invite.league.name}: you are now {invite.role} there."
            )
            return redirect(invite.league.get_absolute_url())
    held = capabilities(request.user, invite.league).roles
    return render(
        request,
        "tracker/invite.html",
        {
            "invite": invite,
            "state": invite.state(),
            "held": held,
            "error": error,
            "role_help": ROLE_HELP[invite.role],
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def house_rules(request, slug):
    """The league's default announcements per variant (the authority and the admins), with
    every change made to them."""
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.EDIT_HOUSE_RULES, "set the house rules")
    if can is None:
        return login_first(request)
    data = request.POST if request.method == "POST" else None
    form = HouseRulesForm(data, defaults=league.house_rules, prefix="opt")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                house_rules_set(league=league, house_rules=form.house_rules(), by=request.user)
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, "House rules saved: hands recorded from now on use them.")
                return redirect("house-rules", slug=slug)
        status = 400
    return render(
        request,
        "tracker/house_rules.html",
        {"league": league, "can": can, "form": form, "history": house_rules_history(league)},
        status=status,
    )
