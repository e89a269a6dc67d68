"""Hand-history import jobs and uploads."""

from __future__ import annotations

from rest_framework import serializers

from tracker.interchange.models import ImportFile, ImportJob
from tracker.interchange.services.imports import live_done


class ImportUploadSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(),
        help_text="one or more .phh / .phhs files (multipart, the field repeated)",
    )


class ImportErrorSerializer(serializers.Serializer):
    file = serializers.CharField(allow_null=True)
    index = serializers.IntegerField(allow_null=True, help_text="the file's place: files[index]")
    message = serializers.CharField(help_text="names the file, the hand and the field or action")
    code = serializers.CharField(required=False)
    hand = serializers.JSONField(required=False, allow_null=True, help_text="the .phhs label")
    line = serializers.IntegerField(
        required=False, allow_null=True, help_text="the file's line: the hand's table or the fault"
    )
    field = serializers.CharField(required=False, allow_null=True)
    action_index = serializers.IntegerField(required=False, allow_null=True)
    action = serializers.CharField(required=False, allow_null=True)


class ImportFileSerializer(serializers.ModelSerializer):
    class Meta:
        model = ImportFile
        fields = [
            "index",
            "name",
            "size",
            "sha256",
            "hands",
            "status",
            "imported",
            "skipped",
            "position",
            "error",
        ]
        read_only_fields = fields


class ImportJobSerializer(serializers.ModelSerializer):
    done = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    summary = serializers.CharField(read_only=True)
    errors = ImportErrorSerializer(many=True, read_only=True)
    files = serializers.SerializerMethodField()
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "tournament",
            "status",
            "source",
            "total",
            "done",
            "imported",
            "skipped",
            "progress",
            "summary",
            "errors",
            "files",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_done(self, obj) -> int:
        return live_done(obj)

    def get_progress(self, obj) -> float:
        done = live_done(obj)
        if obj.total:
            return round(min(done, obj.total) / obj.total, 4)
        return 0.0 if obj.is_active else 1.0

    def get_files(self, obj) -> list[dict]:
        return ImportFileSerializer(obj.file_list(), many=True).data
