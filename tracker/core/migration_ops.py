"""Migration operations the schema's history shares.

:func:`append_only_trigger` is the PostgreSQL trigger that keeps an append-only table's
rows from any UPDATE or DELETE, whatever client writes (the function
``homegame_append_only`` of migration 0005; tracker/core/models.py ``AppendOnlyModel``).
Other databases rely on the model's refusals alone.
"""

from __future__ import annotations

from django.db import migrations


def append_only_trigger(table: str) -> migrations.RunPython:
    """The operation adding the append-only trigger on ``table`` (and dropping it back)."""

    def create(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION homegame_append_only()",
                None,
            )

    def drop(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")

    return migrations.RunPython(create, drop)
