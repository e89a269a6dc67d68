"""The API's own rows in the Django admin: stored answers of idempotent requests (read-only)."""

from django.contrib import admin

from api.models import IdempotencyRecord


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "key", "status_code"]
    list_filter = ["status_code"]
    search_fields = ["key", "user__username"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
