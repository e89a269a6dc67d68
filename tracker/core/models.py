"""Append-only records: rows written once and never changed or deleted.

- ``save()`` refuses to update a stored row and ``delete()`` refuses outright;
- their querysets refuse ``update()``, ``delete()`` and ``bulk_update()``;
- on PostgreSQL a trigger (migration ``rulings_audit``) raises on any UPDATE or
  DELETE of their rows, whatever client writes to the database.

Evaluations and disputes (tracker/hands/models.py), rulings
(tracker/rulings/models.py) and the audit log (tracker/audit/models.py) are
append-only.
"""

from __future__ import annotations

from django.db import models


class AppendOnlyError(RuntimeError):
    """A stored append-only row was about to be changed or deleted."""


class AppendOnlyQuerySet(models.QuerySet):
    def _refuse(self, what: str):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: {what} refused")

    def update(self, **kwargs):
        self._refuse("update")

    def delete(self):
        self._refuse("delete")

    def bulk_update(self, objs, fields, batch_size=None):
        self._refuse("bulk_update")

    def update_or_create(self, defaults=None, create_defaults=None, **kwargs):
        self._refuse("update_or_create")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(
                f"{type(self).__name__} rows are append-only: a stored row cannot be changed"
            )
        kwargs["force_insert"] = True
        kwargs.pop("force_update", None)
        kwargs.pop("update_fields", None)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: delete refused")
