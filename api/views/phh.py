"""PHH hand histories over REST: import files into a tournament, export hands.

* ``POST /api/v1/tournaments/{id}/imports/`` (multipart, ``files`` repeated): small
  uploads are imported at once (201 with the report); larger ones are queued (202 with
  the job; poll ``GET /api/v1/imports/{id}/``). An upload where every file failed and
  nothing was stored answers 400, ``fields`` naming ``files[i]``.
* ``GET /api/v1/hands/{id}/phh``, ``/tournaments/{id}/phh``, ``/leagues/{slug}/phh``:
  ``application/x-phh`` attachments (``.phh`` for a hand, ``.phhs`` for many).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import APIException
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import TooMany
from api.serializers.phh import ImportJobSerializer, ImportUploadSerializer
from api.views.core import WriteThrottled
from tracker.engine.errors import Code, DomainError
from tracker.hands.models import Hand
from tracker.interchange.models import ImportStatus
from tracker.interchange.selectors.export import (
    MEDIA_TYPE,
    export_hand,
    export_league,
    export_tournament,
)
from tracker.interchange.selectors.imports import imports_visible_to, tournament_imports
from tracker.interchange.services.imports import (
    UploadRateExceeded,
    UploadTooLarge,
    phh_import_start,
    phh_upload_admit,
)
from tracker.leagues.selectors.visibility import leagues_visible_to, tournaments_visible_to
from web.presenters.interchange import phh_response


class FirstRenderer(BaseContentNegotiation):
    """The text itself is a plain HttpResponse; errors are always JSON, whatever Accept says."""

    def select_parser(self, request, parsers):
        return parsers[0]

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


PHH_RESPONSES = {
    (200, MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR, description="PHH text (TOML)"),
    404: OpenApiResponse(description="no such hand, or not visible to you"),
}


class HandPHHView(APIView):
    """One full-history hand as a .phh file (409 for a quick-entry hand: it has no actions)."""

    content_negotiation_class = FirstRenderer

    @extend_schema(operation_id="hand_phh", responses={**PHH_RESPONSES, 409: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        hand = get_object_or_404(
            Hand.objects.filter(tournament__in=tournaments_visible_to(request.user)), pk=pk
        )
        return phh_response(export_hand(hand))


class TournamentPHHView(APIView):
    """Every full-history hand of a tournament as a .phhs file (quick entries listed as left out)."""

    content_negotiation_class = FirstRenderer

    @extend_schema(operation_id="tournament_phh", responses=PHH_RESPONSES)
    def get(self, request, pk: int):
        tournament = get_object_or_404(
            tournaments_visible_to(request.user).select_related("league"), pk=pk
        )
        return phh_response(export_tournament(tournament))


class LeaguePHHView(APIView):
    """Every full-history hand of a league as a .phhs file, tournament by tournament."""

    content_negotiation_class = FirstRenderer

    @extend_schema(operation_id="league_phh", responses=PHH_RESPONSES)
    def get(self, request, slug: str):
        league = get_object_or_404(leagues_visible_to(request.user), slug=slug)
        return phh_response(export_league(league))


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "upload_too_large"


def _content_length(request) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


class TournamentImportsView(WriteThrottled, APIView):
    """Import PHH files into a tournament (scorekeepers and admins), or list its imports."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="tournament_imports_list", responses=ImportJobSerializer(many=True))
    def get(self, request, pk: int):
        tournament = get_object_or_404(tournaments_visible_to(request.user), pk=pk)
        return Response(ImportJobSerializer(tournament_imports(tournament), many=True).data)

    @extend_schema(
        operation_id="tournament_imports_create",
        request={"multipart/form-data": ImportUploadSerializer},
        responses={
            201: OpenApiResponse(ImportJobSerializer, description="imported at once: the report"),
            202: OpenApiResponse(ImportJobSerializer, description="queued: poll the job"),
            400: OpenApiResponse(description="nothing imported: fields name files[i]"),
        },
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(
            tournaments_visible_to(request.user).select_related("league"), pk=pk
        )
        try:  # authorize, then size and allowance, before the body is parsed
            phh_upload_admit(tournament=tournament, by=request.user, size=_content_length(request))
        except UploadTooLarge as exc:
            raise PayloadTooLarge(exc.message) from None
        except UploadRateExceeded as exc:
            raise TooMany(exc.reason, exc.retry_after) from None
        uploads = request.FILES.getlist("files")
        if not uploads:
            raise DomainError("upload at least one .phh or .phhs file as 'files'", field="files")
        files = [(f.name, f) for f in uploads]
        job = phh_import_start(tournament=tournament, by=request.user, files=files, source="api")
        job = imports_visible_to(request.user).get(pk=job.pk)
        if job.status == ImportStatus.FAILED:
            errors = job.errors
            fields: dict[str, list[str]] = {}
            for e in errors:
                key = f"files[{e['index']}]" if e["index"] is not None else "files"
                fields.setdefault(key, []).append(e["message"])
            message = (
                errors[0]["message"]
                if len(errors) == 1
                else f"{len(errors)} files failed and nothing was imported: "
                + "; ".join(e["message"] for e in errors)
            )
            raise DomainError(message, code=Code.IMPORT_FAILED, fields=fields)
        code = status.HTTP_202_ACCEPTED if job.is_active else status.HTTP_201_CREATED
        return Response(ImportJobSerializer(job).data, status=code)


class ImportJobViewSet(mixins.RetrieveModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Hand-history imports into the tournaments you can see: status, progress, report."""

    serializer_class = ImportJobSerializer
    filterset_fields = {"tournament": ["exact"], "status": ["exact"]}

    def get_queryset(self):
        return imports_visible_to(self.request.user)
