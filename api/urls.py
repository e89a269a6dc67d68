"""REST API routes under /api/v1/."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from api.views import core, hands
from api.views.meta import ApiRoot

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("leagues", core.LeagueViewSet, basename="league")
router.register("players", core.PlayerViewSet, basename="player")
router.register("memberships", core.MembershipViewSet, basename="membership")
router.register("tournaments", core.TournamentViewSet, basename="tournament")
router.register("hands", hands.HandViewSet, basename="hand")
router.register("reevaluations", hands.ReevaluationViewSet, basename="reevaluation")

urlpatterns = [
    path("", ApiRoot.as_view(), name="api-root"),
    path("", include(router.urls)),
]
