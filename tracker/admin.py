"""The Django admin for operators: every model, with the filters and searches they use.

Money and history are read-only here: the chip ledger, rulings, evaluations, disputes and the
audit log are written only by the services (with their checks and audit entries), so the
admin shows them and refuses to add, change or delete them.
"""

from __future__ import annotations

from django.contrib import admin

from tracker.accounts.models import AccountName, ApiToken, EmailAddress
from tracker.audit.models import AuditEntry
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.hands.models import (
    Dispute,
    DraftChange,
    DraftHand,
    Evaluation,
    Hand,
    HandSeat,
    Pot,
    ReevaluationChunk,
    ReevaluationJob,
)
from tracker.interchange.models import ImportChunk, ImportFile, ImportJob
from tracker.leagues.models import CalendarFeed, Invite, League, Membership, Player
from tracker.mail.models import MailOptOut, OutboxMessage
from tracker.money.models import (
    Deal,
    LeagueMoney,
    MoneyEntry,
    MoneyLedgerEntry,
    NightMoney,
    SettleTransfer,
)
from tracker.rulings.models import Ruling
from tracker.schedule.models import CheckIn, Rsvp, ScheduledNight
from tracker.stats.models import MonthTally, TournamentTally
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    Seat,
    StandingTally,
    TableLink,
    Tournament,
)
from tracker.tournaments.services import tournament_counting_set


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never written: no add, no change, no delete (the services own these rows)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# --- Leagues and accounts ---------------------------------------------------


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "season_length", "min_players", "created_at"]
    list_filter = ["is_public", "season_length"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "league", "role", "created_at"]
    list_filter = ["role", "league"]
    search_fields = ["user__username", "league__name", "league__slug"]
    autocomplete_fields = ["user", "league"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "user", "created_at"]
    list_filter = ["league"]
    search_fields = ["name", "user__username", "league__name"]
    autocomplete_fields = ["user", "league"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    """Operators may revoke an invite; its link's token is never stored (only its digest)."""

    list_display = [
        "league",
        "role",
        "fingerprint",
        "single_use",
        "uses",
        "expires_at",
        "revoked",
        "created_by",
    ]
    list_filter = ["role", "single_use", "revoked", "league"]
    search_fields = ["league__name", "league__slug", "created_by__username"]
    readonly_fields = ["fingerprint", "uses", "created_by", "created_at"]
    exclude = ["digest"]


@admin.register(CalendarFeed)
class CalendarFeedAdmin(admin.ModelAdmin):
    """Operators may revoke a calendar feed link (set ``revoked_at``); its token is never
    stored (only its digest)."""

    list_display = ["league", "fingerprint", "created_by", "created_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["league__name", "league__slug"]
    readonly_fields = ["league", "fingerprint", "created_by", "created_at"]
    exclude = ["digest"]

    def has_add_permission(self, request) -> bool:
        return False  # a link is shown once to the admin who makes it, on the league's page


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Operators may revoke a token (set ``revoked_at``); the key itself is never stored."""

    list_display = ["user", "label", "fingerprint", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "label"]
    readonly_fields = ["user", "label", "digest", "created_at", "last_used_at"]

    def has_add_permission(self, request) -> bool:
        return False  # a key is shown once to its owner: tokens are made on the profile page


@admin.register(AccountName)
class AccountNameAdmin(admin.ModelAdmin):
    """Each account's name as the uniqueness rules see it; written on every save of a user
    (rename the user to change it). An empty claim is a name that collides with an older
    account's. Never added or changed here; deleted with its user (so deleting a user is not
    blocked by it)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    list_display = ["user", "canonical", "skeleton"]
    list_filter = [("canonical", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "canonical"]


@admin.register(EmailAddress)
class EmailAddressAdmin(admin.ModelAdmin):
    """Addresses and whether they are verified. Only the owner verifies one (the mailed link);
    an operator may delete one (its account then has no address of that kind)."""

    list_display = ["address", "user", "verified_at", "created_at", "mail_sent_at"]
    list_filter = [("verified_at", admin.EmptyFieldListFilter)]
    search_fields = ["address", "user__username"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# --- Mail -----------------------------------------------------------------------


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ReadOnlyAdmin):
    """The outbox: what was asked for, its state, attempts and lease. Written only by the
    outbox services (the claim and the sweep are the guard against sending twice)."""

    list_display = ["kind", "user", "subject_key", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "subject_key", "subject", "address"]


@admin.register(MailOptOut)
class MailOptOutAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "created_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]


# --- Nights scheduled ahead -----------------------------------------------------


class RsvpInline(admin.TabularInline):
    model = Rsvp
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["answer", "seat", "waitlisted_at", "promotions", "answered_at", "no_show"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # answers go through the service (seats, the waitlist, its e-mails)


class CheckInInline(admin.TabularInline):
    model = CheckIn
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["player", "buy_in", "checked_in_at", "checked_in_by"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # check-in goes through the service (seats, the start of the night)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ScheduledNight)
class ScheduledNightAdmin(admin.ModelAdmin):
    list_display = [
        "league",
        "starts_at",
        "place",
        "seats",
        "sequence",
        "cancelled_at",
        "started_at",
    ]
    list_filter = ["league"]
    search_fields = ["place", "league__name", "league__slug"]
    # changes and cancelling go through the night's page or the API (they tell the players)
    readonly_fields = [
        "sequence",
        "updated_at",
        "cancelled_at",
        "cancel_reason",
        "reminded_at",
        "tournament",
        "started_at",
    ]
    inlines = [RsvpInline, CheckInInline]


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyAdmin):
    list_display = ["night", "player", "buy_in", "checked_in_at"]
    search_fields = ["player__name"]


@admin.register(Rsvp)
class RsvpAdmin(ReadOnlyAdmin):
    list_display = ["night", "player", "answer", "seat", "answered_at"]
    list_filter = ["answer", "seat"]
    search_fields = ["player__name"]


# --- Game nights ------------------------------------------------------------


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "date", "status", "counts_toward_standings", "created_by"]
    list_filter = ["status", "counts_toward_standings", "default_variant", "league"]
    search_fields = ["name", "league__name", "league__slug"]
    date_hierarchy = "date"
    raw_id_fields = ["created_by"]
    inlines = [SeatInline]

    # The date and the "counts toward the standings" switch decide where a night counts in
    # the league table: they are saved through the service that moves its running totals
    # with them. (A night with final standings has hands, which keep it from being deleted.)
    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        counting = {f: getattr(obj, f) for f in ("date", "counts_toward_standings")}
        rest = [f for f in form.changed_data if f not in counting]
        if rest:
            Tournament.objects.filter(pk=obj.pk).update(**{f: getattr(obj, f) for f in rest})
        tournament_counting_set(tournament=obj, **counting)


@admin.register(TableLink)
class TableLinkAdmin(admin.ModelAdmin):
    """Operators may revoke a live view link (set ``revoked_at``); links are made on the
    table screen."""

    list_display = ["tournament", "created_by", "created_at", "expires_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["tournament__name", "tournament__league__slug"]
    readonly_fields = ["tournament", "created_by", "created_at", "revoked_by"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "player"]
    list_filter = ["tournament__league"]
    search_fields = ["player__name", "tournament__name"]
    raw_id_fields = ["tournament", "player"]


@admin.register(FinalStanding)
class FinalStandingAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "place", "player", "chips", "out_hand"]
    list_filter = ["tournament__league"]
    search_fields = ["player__name", "tournament__name"]


@admin.register(StandingTally)
class StandingTallyAdmin(ReadOnlyAdmin):
    list_display = ["league", "month", "player", "place", "entrants", "sharing", "nights"]
    list_filter = ["league"]
    search_fields = ["player__name", "league__name"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "kind", "amount", "hand", "created_at"]
    list_filter = ["kind", "tournament__league"]
    search_fields = ["player__name", "tournament__name"]


# --- Money (written by tracker/money/services.py only: read-only here) --------


@admin.register(LeagueMoney)
class LeagueMoneyAdmin(ReadOnlyAdmin):
    list_display = ["league", "currency", "unit", "locale", "buy_in", "payout_template"]
    search_fields = ["league__name"]


@admin.register(NightMoney)
class NightMoneyAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "currency", "buy_in", "rebuy_price", "addon_price"]
    list_filter = ["tournament__league"]
    search_fields = ["tournament__name"]


@admin.register(MoneyEntry)
class MoneyEntryAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "kind", "paid", "chips", "at_hand", "undone_at"]
    list_filter = ["kind", "tournament__league"]
    search_fields = ["player__name", "tournament__name"]


@admin.register(SettleTransfer)
class SettleTransferAdmin(ReadOnlyAdmin):
    """A night's settle-up transfers: marked paid on the tournament page or the API only."""

    list_display = ["tournament", "position", "payer", "payee", "amount", "paid_at"]
    list_filter = ["tournament__league"]
    search_fields = ["tournament__name", "payer__name", "payee__name"]


@admin.register(MoneyLedgerEntry)
class MoneyLedgerEntryAdmin(ReadOnlyAdmin):
    """The league money ledger: append-only; corrected from the league's ledger page or
    the API, by new entries."""

    list_display = ["created_at", "league", "player", "kind", "amount", "currency", "tournament"]
    list_filter = ["kind", "league"]
    search_fields = ["player__name", "tournament__name", "reason"]


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "option", "at_hand", "agreed_at", "recorded_by"]
    list_filter = ["option", "tournament__league"]
    search_fields = ["tournament__name"]


# --- Hands ------------------------------------------------------------------


class HandSeatInline(admin.TabularInline):
    model = HandSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "number", "variant", "status", "needs_review"]
    list_filter = ["status", "needs_review", "variant", "entry_mode", "tournament__league"]
    search_fields = ["tournament__name", "content_hash", "status_reason"]
    raw_id_fields = ["tournament", "recorded_by", "game_version"]
    inlines = [HandSeatInline]


@admin.register(HandSeat)
class HandSeatAdmin(admin.ModelAdmin):
    list_display = ["hand", "seat", "player", "contributed", "won", "folded_street"]
    list_filter = ["folded_street", "hand__tournament__league"]
    search_fields = ["player__name"]
    raw_id_fields = ["hand", "player"]


@admin.register(Pot)
class PotAdmin(admin.ModelAdmin):
    list_display = ["hand", "index", "amount", "disputed", "overridden"]
    list_filter = ["disputed", "overridden", "hand__tournament__league"]
    search_fields = ["hand__tournament__name"]
    raw_id_fields = ["hand"]


@admin.register(Evaluation)
class EvaluationAdmin(ReadOnlyAdmin):
    list_display = ["hand", "source", "engine_version", "error", "created_at"]
    list_filter = ["source", "engine_version"]
    search_fields = ["hand__tournament__name", "error"]


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ["hand", "pot", "source", "raised_by", "created_at"]
    list_filter = ["source", "hand__tournament__league"]
    search_fields = ["reason", "raised_by__username"]


@admin.register(DraftHand)
class DraftHandAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "variant", "status", "updated_at"]
    list_filter = ["status", "variant"]
    search_fields = ["tournament__name"]
    raw_id_fields = ["tournament", "hand", "created_by"]


@admin.register(DraftChange)
class DraftChangeAdmin(admin.ModelAdmin):
    list_display = ["draft", "op", "base", "version", "outcome", "client_id", "created_at"]
    list_filter = ["outcome", "op"]
    search_fields = ["client_id", "draft__tournament__name"]
    raw_id_fields = ["draft"]


@admin.register(ReevaluationJob)
class ReevaluationJobAdmin(admin.ModelAdmin):
    list_display = ["league", "tournament", "status", "done", "total", "changed", "created_at"]
    list_filter = ["status", "league"]
    search_fields = ["league__name", "error"]
    raw_id_fields = ["tournament", "created_by"]


@admin.register(ReevaluationChunk)
class ReevaluationChunkAdmin(ReadOnlyAdmin):
    """Written by the job's tasks only: a chunk's range and whether it is done."""

    list_display = ["job", "index", "first_id", "last_id", "hands", "done", "finished_at"]
    list_filter = ["done"]
    search_fields = ["job__league__name"]


# --- House games ---------------------------------------------------------------


class LeagueGameVersionInline(admin.TabularInline):
    model = LeagueGameVersion
    extra = 0
    fields = ["number", "digest", "created_by", "created_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LeagueGame)
class LeagueGameAdmin(ReadOnlyAdmin):
    """Written by the services (tracker/games/services.py), with their checks and audit."""

    list_display = ["name", "league", "slug", "preset", "created_at", "archived_at"]
    list_filter = ["league", "preset"]
    search_fields = ["name", "slug", "league__name"]
    inlines = [LeagueGameVersionInline]


@admin.register(LeagueGameVersion)
class LeagueGameVersionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "digest", "created_by", "created_at"]
    list_filter = ["game__league"]
    search_fields = ["game__name", "digest"]


# --- Rulings, imports, the audit log -----------------------------------------


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ["hand", "pot", "result", "override", "ruled_by", "created_at"]
    list_filter = ["result", "override", "hand__tournament__league"]
    search_fields = ["reason", "ruled_by__username"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["tournament", "status", "source", "done", "total", "imported", "created_at"]
    list_filter = ["status", "source"]
    search_fields = ["tournament__name", "error"]
    raw_id_fields = ["tournament", "created_by"]


@admin.register(ImportFile)
class ImportFileAdmin(admin.ModelAdmin):
    list_display = ["name", "job", "status", "hands", "position", "imported", "skipped", "size"]
    list_filter = ["status"]
    search_fields = ["name", "sha256"]
    raw_id_fields = ["job"]


@admin.register(ImportChunk)
class ImportChunkAdmin(ReadOnlyAdmin):
    """A piece of a file waiting to be imported: written by the upload, read by the import."""

    list_display = ["file", "seq", "length"]
    search_fields = ["file__name"]
    raw_id_fields = ["file"]

    @admin.display(description="characters")
    def length(self, obj) -> int:
        return len(obj.text)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "target", "league_slug", "channel", "ip"]
    list_filter = ["action", "channel", "league_slug"]
    search_fields = ["actor", "action", "target", "league_slug", "token_id", "ip"]
    date_hierarchy = "created_at"


# --- Statistics' running totals (rebuilt by `manage.py rebuild_stats`, never edited) ---------


@admin.register(MonthTally)
class MonthTallyAdmin(ReadOnlyAdmin):
    list_display = ("player", "league", "variant", "month", "hands", "net")
    list_filter = ("league", "variant", "month")
    search_fields = ("player__name", "league__name")


@admin.register(TournamentTally)
class TournamentTallyAdmin(ReadOnlyAdmin):
    list_display = ("player", "tournament", "variant", "hands", "net")
    list_filter = ("variant", "tournament__league")
    search_fields = ("player__name", "tournament__name")
