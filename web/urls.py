"""Routes of the web pages, by feature."""

from django.urls import path

from web.views import (
    accounts,
    app,
    calculator,
    calendars,
    deals,
    hands,
    health,
    interchange,
    league_money,
    leagues,
    live,
    mail,
    members,
    money,
    results,
    rulings,
    schedule,
    stats,
    tournaments,
)

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("sw.js", app.service_worker, name="service-worker"),
    # Accounts (login, logout and password reset are Django's, under /accounts/)
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/email/", accounts.email_set, name="email-set"),
    path("accounts/profile/email/resend/", accounts.email_resend, name="email-resend"),
    path("accounts/email/verify/<str:token>/", accounts.email_verify_page, name="email-verify"),
    path("accounts/profile/tokens/", accounts.token_create, name="token-create"),
    path("accounts/profile/mail/", mail.mail_choices, name="mail-choices"),
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="mail-unsubscribe"),
    path("accounts/profile/tokens/<int:pk>/revoke/", accounts.token_revoke, name="token-revoke"),
    # Leagues and players
    path("", leagues.home, name="home"),
    path("leagues/new/", members.league_new, name="league-new"),
    path("leagues/<slug:slug>/", leagues.league, name="league"),
    path("players/<int:pk>/", leagues.player, name="player"),
    # Running a league: roster, members and invites, house rules
    path("leagues/<slug:slug>/players/", members.roster, name="league-roster"),
    path("leagues/<slug:slug>/members/", members.members, name="league-members"),
    path("leagues/<slug:slug>/house-rules/", members.house_rules, name="house-rules"),
    path("leagues/<slug:slug>/money/", league_money.league_money_page, name="league-money"),
    path("invites/<str:token>/", members.invite, name="invite"),
    # Calendars: the league's feed at a secret address, a night's file, the admins' page
    path("leagues/<slug:slug>/calendar/", calendars.league_calendar, name="league-calendar"),
    path("calendars/<str:token>.ics", calendars.calendar_feed, name="calendar-feed"),
    path("tournaments/<int:pk>/calendar.ics", calendars.night_ics, name="night-ics"),
    # Nights scheduled ahead and their answers
    path("leagues/<slug:slug>/schedule/new/", schedule.night_new, name="night-new"),
    path("nights/<int:pk>/", schedule.night, name="night"),
    path("nights/<int:pk>/answer/", schedule.night_answer, name="night-answer"),
    path("nights/<int:pk>/edit/", schedule.night_edit, name="night-edit"),
    path("nights/<int:pk>/cancel/", schedule.night_cancel, name="night-cancel"),
    path("nights/<int:pk>/calendar.ics", calendars.scheduled_night_ics, name="scheduled-night-ics"),
    path("rsvp/<str:token>/", schedule.rsvp_link, name="rsvp-link"),
    # Tournaments and hands
    path("leagues/<slug:slug>/nights/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/", tournaments.tournament, name="tournament"),
    path("tournaments/<int:pk>/table/", tournaments.table_screen, name="table-screen"),
    path(
        "tournaments/<int:pk>/table/live/",
        tournaments.table_screen_fragment,
        name="table-screen-fragment",
    ),
    path("tournaments/<int:pk>/table/links/", tournaments.table_link_new, name="table-link-new"),
    path(
        "tournaments/<int:pk>/table/links/<int:link>/revoke/",
        tournaments.table_link_revoke_page,
        name="table-link-revoke",
    ),
    # The read-only live view of a night's table screen (its QR code's link)
    path("live/<str:token>/", tournaments.live_view, name="live-view"),
    path("live/<str:token>/state/", tournaments.live_view_state, name="live-view-state"),
    path("tournaments/<int:pk>/hands/new/", hands.hand_new, name="hand-new"),
    path("tournaments/<int:pk>/entries/", money.entry_new, name="entry-new"),
    path("tournaments/<int:pk>/deal/", deals.deal_new, name="deal-new"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/undo/",
        money.entry_undo_page,
        name="entry-undo",
    ),
    path(
        "tournaments/<int:pk>/transfers/<int:position>/paid/",
        results.transfer_paid_page,
        name="transfer-paid",
    ),
    path("tournaments/<int:pk>/live/", live.live_hand, name="live-hand"),
    path("tournaments/<int:pk>/live/outbox/", live.live_outbox, name="live-outbox"),
    path("tournaments/<int:pk>/live/resolve/", live.live_resolve, name="live-resolve"),
    path("hands/<int:pk>/", hands.hand, name="hand"),
    path("hands/<int:pk>/void/", hands.hand_void_page, name="hand-void"),
    path("calculator/", calculator.calculator, name="calculator"),
    # PHH downloads and the page upload
    path("hands/<int:pk>/download.phh", interchange.hand_download, name="hand-phh-download"),
    path(
        "tournaments/<int:pk>/download.phhs",
        interchange.tournament_download,
        name="tournament-phh-download",
    ),
    path(
        "leagues/<slug:slug>/download.phhs",
        interchange.league_download,
        name="league-phh-download",
    ),
    path("tournaments/<int:pk>/imports/", interchange.tournament_import, name="tournament-import"),
    # Disputes, rulings and the audit log
    path("leagues/<slug:slug>/disputes/", rulings.disputes, name="disputes"),
    path("leagues/<slug:slug>/audit/", rulings.audit, name="audit"),
    path("hands/<int:pk>/pots/<int:index>/rule/", rulings.ruling_new, name="ruling-new"),
    path("hands/<int:pk>/pots/<int:index>/dispute/", rulings.dispute_new, name="dispute-new"),
    # Statistics and their CSV exports
    path("leagues/<slug:slug>/table/", stats.league_table, name="league-table"),
    path("leagues/<slug:slug>/table.csv", stats.league_table_csv, name="league-table-csv"),
    path("leagues/<slug:slug>/stats/", stats.league_stats, name="league-stats"),
    path("leagues/<slug:slug>/stats.csv", stats.league_stats_csv, name="league-stats-csv"),
    path("players/<int:pk>/stats/", stats.player_stats, name="player-stats"),
    path("players/<int:pk>/stats.csv", stats.player_stats_csv, name="player-stats-csv"),
    path("players/<int:pk>/hands.csv", stats.player_hands_csv, name="player-hands-csv"),
    path("tournaments/<int:pk>/stats/", stats.tournament_stats, name="tournament-stats"),
    path("tournaments/<int:pk>/stats.csv", stats.tournament_stats_csv, name="tournament-stats-csv"),
    path("tournaments/<int:pk>/hands.csv", stats.tournament_hands_csv, name="tournament-hands-csv"),
]
