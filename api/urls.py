"""REST API routes under /api/v1/."""

from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from api.views import (
    analytics,
    core,
    deals,
    evaluate,
    games,
    hands,
    ledger,
    money,
    phh,
    results,
    rulings,
    schedule,
)
from api.views.auth import TokenView
from api.views.meta import ApiRoot

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("leagues", core.LeagueViewSet, basename="league")
router.register("players", core.PlayerViewSet, basename="player")
router.register("memberships", core.MembershipViewSet, basename="membership")
router.register("invites", core.InviteViewSet, basename="invite")
router.register("tournaments", core.TournamentViewSet, basename="tournament")
router.register("hands", hands.HandViewSet, basename="hand")
router.register("reevaluations", hands.ReevaluationViewSet, basename="reevaluation")
router.register("disputes", rulings.DisputeViewSet, basename="dispute")
router.register("rulings", rulings.RulingViewSet, basename="ruling")
router.register("evaluations", rulings.EvaluationViewSet, basename="evaluation")
router.register("audit", rulings.AuditViewSet, basename="audit")
router.register("imports", phh.ImportJobViewSet, basename="import")
router.register("nights", schedule.NightViewSet, basename="night")

urlpatterns = [
    path("", ApiRoot.as_view(), name="api-root"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path(
        "leagues/<slug:slug>/house-rules/",
        rulings.HouseRulesView.as_view(),
        name="league-house-rules",
    ),
    path("leagues/<slug:slug>/money/", money.LeagueMoneyView.as_view(), name="league-money"),
    path("leagues/<slug:slug>/games/", games.LeagueGamesView.as_view(), name="league-games"),
    path(
        "leagues/<slug:slug>/games/<slug:game>/",
        games.LeagueGameView.as_view(),
        name="league-game",
    ),
    path(
        "leagues/<slug:slug>/games/<slug:game>/archive/",
        games.LeagueGameArchiveView.as_view(),
        name="league-game-archive",
    ),
    path(
        "leagues/<slug:slug>/games/<slug:game>/preview/",
        games.LeagueGamePreviewView.as_view(),
        name="league-game-preview",
    ),
    path("me/nights/", schedule.MyNightsView.as_view(), name="my-nights"),
    path("leagues/<slug:slug>/ledger/", ledger.LeagueLedgerView.as_view(), name="league-ledger"),
    path(
        "leagues/<slug:slug>/ledger/corrections/",
        ledger.LedgerCorrectionsView.as_view(),
        name="league-ledger-corrections",
    ),
    path(
        "leagues/<slug:slug>/ledger/payments/",
        ledger.LedgerPaymentView.as_view(),
        name="league-ledger-payments",
    ),
    path(
        "tournaments/<int:pk>/money/", money.TournamentMoneyView.as_view(), name="tournament-money"
    ),
    path("tournaments/<int:pk>/deal/", deals.TournamentDealView.as_view(), name="tournament-deal"),
    path(
        "tournaments/<int:pk>/entries/",
        money.TournamentEntriesView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/undo/",
        money.EntryUndoView.as_view(),
        name="tournament-entry-undo",
    ),
    path(
        "tournaments/<int:pk>/results/",
        results.TournamentResultsView.as_view(),
        name="tournament-results",
    ),
    path(
        "tournaments/<int:pk>/transfers/<int:position>/paid/",
        results.TransferPaidView.as_view(),
        name="tournament-transfer-paid",
    ),
    # PHH hand histories: import into a tournament, export a hand, a tournament, a league.
    path(
        "tournaments/<int:pk>/imports/",
        phh.TournamentImportsView.as_view(),
        name="tournament-imports",
    ),
    re_path(r"^hands/(?P<pk>[0-9]+)/phh/?$", phh.HandPHHView.as_view(), name="hand-phh"),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/phh/?$",
        phh.TournamentPHHView.as_view(),
        name="tournament-phh",
    ),
    re_path(
        r"^leagues/(?P<slug>[-a-zA-Z0-9_]+)/phh/?$", phh.LeaguePHHView.as_view(), name="league-phh"
    ),
    path("", include(router.urls)),
    path("evaluate/", evaluate.EvaluateView.as_view(), name="evaluate"),
    path("analytics/", include(analytics.routes)),
]
