"""Writing many rows in few statements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection, models


def rows_update(rows: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of each of ``rows`` (saved rows of one model) by primary key.

    One prepared ``UPDATE`` run for every row (``executemany``: pipelined on PostgreSQL).
    Django's ``bulk_update`` builds a ``CASE`` expression per field and row instead, which
    costs far more Python time than the database's writes for a few hundred rows. Field
    values are prepared by their fields (JSON, dates), as ``save()`` would.
    """
    if not rows:
        return
    meta = type(rows[0])._meta
    columns = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    params = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for field in columns]
        + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def rows_insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (each a mapping of field attribute names, e.g. ``hand_id``, to values)
    into ``model``'s table, for rows whose ids are not needed back.

    One prepared ``INSERT`` run for every row (``executemany``: pipelined on PostgreSQL),
    without a model instance per row: ``bulk_create`` builds and prepares one, which is most
    of its cost for a few hundred small rows. A field a row leaves out takes its default
    (``default=``, else NULL); values are prepared by their fields, as ``save()`` would. Like
    ``bulk_create`` it calls no ``save()`` and sends no signals.
    """
    if not rows:
        return
    meta = model._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
    missing = object()
    params = []
    for row in rows:
        values = []
        for field in fields:
            value = row.get(field.attname, missing)
            if value is missing:
                value = field.get_default()
            values.append(field.get_db_prep_save(value, connection))
        params.append(values)
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
