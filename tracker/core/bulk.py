"""Writing many rows in few statements.

``rows_insert`` and ``rows_update`` write a few hundred rows without a model instance per
row (``rows_insert``) and without Django's ``bulk_update`` (a ``CASE`` expression per field
and row). On PostgreSQL each is **one statement** whatever the number of rows: the values
travel as one array per column and ``UNNEST`` turns them back into rows (the way Django's
own ``bulk_create`` inserts on PostgreSQL), so the server parses, plans and runs one
statement, not one per row. Elsewhere (SQLite) they run one prepared statement per row
(``executemany``).

Values are prepared by their fields, as ``save()`` would (JSON, dates, enums), except the
plain Python values a field would pass through unchanged (``int``, ``str``, ``bool``,
``float``, ``None``, and on PostgreSQL a time with its zone): preparing each of those through
the field cost most of the Python time of a settlement batch's writes.

``statements_pipelined`` sends the statements of a block to PostgreSQL without waiting for
each one's answer (one round trip for the lot), for writes whose results nobody reads.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models
from django.utils import timezone

# Values whose exact type a field's get_db_prep_save returns unchanged for the fields these
# helpers write (integer, text, boolean and float columns; a JSON or date column is always
# prepared, whatever its value, see _preparer).
_PLAIN = frozenset({int, str, bool, float, type(None)})
# Parameters per statement, under SQLite's limit (32,766) with room to spare.
_MAX_PARAMS = 30_000
_ALWAYS_PREPARED = (models.JSONField, models.DateField, models.TimeField, models.DecimalField)


def _preparer(field: models.Field) -> Callable[[Any], Any]:
    """How to turn a Python value into the value to send for ``field``'s column."""
    prepare = field.get_db_prep_save
    if isinstance(field, models.DateTimeField) and connection.vendor == "postgresql":

        def stamp(value: Any) -> Any:
            # NULL, or a time with its zone: what the field prepares them to on PostgreSQL,
            # without its checks' Python time (a batch's every entry has its created_at).
            if value is None or (type(value) is datetime.datetime and value.tzinfo is not None):
                return value
            return prepare(value, connection)

        return stamp
    if isinstance(field, _ALWAYS_PREPARED):  # DateTimeField is a DateField
        return lambda value: prepare(value, connection)

    def run(value: Any) -> Any:
        if type(value) in _PLAIN:
            return value
        return prepare(value, connection)

    return run


@contextmanager
def statements_pipelined() -> Iterator[None]:
    """Send the statements run inside the block without waiting for each one's answer.

    PostgreSQL: psycopg's pipeline mode. Each statement is sent at once and the block waits
    for the server once, when it ends, or earlier at a fetch (which waits for the answers
    of everything sent before it): a batch's few bulk writes, or a transaction's ``BEGIN``,
    lock and first reads, cost one round trip instead of one each. The server runs the
    statements in the order sent, as it would one by one, in the same transaction.

    Only for statements whose outcome is not read before the block ends except by a fetch:
    a statement's ``rowcount`` is not known when ``execute`` returns (so no ``save()`` or
    ``update()`` that counts rows), and ``COPY`` cannot be pipelined. An error is raised
    where the block waits (at its end or at a fetch), as Django's exception, and the
    statements sent after the failing one are skipped; the transaction is then to be rolled
    back, as after any error. Elsewhere (SQLite) the statements run one by one as usual.
    """
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def _array_type(field: models.Field) -> str:
    """The PostgreSQL array type of ``field``'s column, without a length (``varchar[]``, not
    ``varchar(32)[]``, as Django's ``bulk_create`` does, so nothing is truncated)."""
    return field.db_type(connection).split("(")[0] + "[]"


def _unnest(fields: Sequence[models.Field]) -> str:
    return ", ".join(f"%s::{_array_type(field)}" for field in fields)


def _has_json(fields: Sequence[models.Field]) -> bool:
    return any(isinstance(field, models.JSONField) for field in fields)


def _json_reads(fields: Sequence[models.Field], names: Sequence[str] | None = None) -> str:
    """The select list reading each field's column from ``r``, one row as a JSON array
    (``r->0``, ``r->1``, ...), cast to the column's type; a JSON column's ``null`` is NULL,
    as Django stores ``None``."""
    reads = []
    for k, field in enumerate(fields):
        if isinstance(field, models.JSONField):
            read = f"NULLIF(r->{k}, 'null'::jsonb)"
        else:
            read = f"(r->>{k})::{field.db_type(connection).split('(')[0]}"
        reads.append(f"{read} AS {names[k]}" if names else read)
    return ", ".join(reads)


def _json_document(fields: Sequence[models.Field], rows: Sequence[Sequence[Any]]) -> str:
    """Rows of values as one JSON text, an array per row: written by the json module in C,
    where an array parameter per column has psycopg quote every JSON value in Python (most
    of the cost of a settlement batch's writes of seats, hands and readings)."""
    encoders = {id(f): getattr(f, "encoder", None) for f in fields}
    if any(encoders.values()):  # a column with an encoder of its own: its values first
        rows = [
            [
                json.loads(json.dumps(v, cls=encoders[id(f)])) if encoders[id(f)] else v
                for f, v in zip(fields, row, strict=True)
            ]
            for row in rows
        ]
    return json.dumps(rows, cls=_Encoder, separators=(",", ":"))


class _Encoder(DjangoJSONEncoder):
    """Django's JSON encoder, but times keep their microseconds (a column's value is the
    value ``save()`` would write)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


def rows_update(rows: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of each of ``rows`` (saved rows of one model) by primary key.

    PostgreSQL: one ``UPDATE … FROM UNNEST(…)``; elsewhere one prepared ``UPDATE`` run for
    every row. Rows are written in the order given.
    """
    if not rows:
        return
    meta = type(rows[0])._meta
    columns = [meta.get_field(name) for name in fields]
    prepare = [_preparer(field) for field in columns]
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    values = [
        [run(getattr(row, field.attname)) for field, run in zip(columns, prepare, strict=True)]
        + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(rows) > 1 and _has_json(columns):
            names = [f"c{k}" for k in range(len(columns))]
            assignments = ", ".join(
                f"{quote(field.column)} = v.{name}"
                for field, name in zip(columns, names, strict=True)
            )
            reads = _json_reads([*columns, meta.pk], [*names, "pk"])
            sql = (
                f"UPDATE {table} SET {assignments} "
                f"FROM (SELECT {reads} FROM jsonb_array_elements(%s::jsonb) AS e(r)) AS v "
                f"WHERE {table}.{pk} = v.pk"
            )
            raws = [[getattr(row, f.attname) for f in columns] + [row.pk] for row in rows]
            cursor.execute(sql, [_json_document([*columns, meta.pk], raws)])
            return
        if connection.vendor == "postgresql" and len(rows) > 1:
            names = [f"c{k}" for k in range(len(columns))]
            assignments = ", ".join(
                f"{quote(field.column)} = v.{name}"
                for field, name in zip(columns, names, strict=True)
            )
            sql = (
                f"UPDATE {table} SET {assignments} "
                f"FROM UNNEST({_unnest([*columns, meta.pk])}) AS v({', '.join(names)}, pk) "
                f"WHERE {table}.{pk} = v.pk"
            )
            cursor.execute(sql, [list(column) for column in zip(*values, strict=True)])
            return
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE {pk} = %s", values)


def rows_insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (each a mapping of field attribute names, e.g. ``hand_id``, to values)
    into ``model``'s table, for rows whose ids are not needed back.

    PostgreSQL: one ``INSERT … SELECT * FROM UNNEST(…)``; elsewhere one prepared ``INSERT``
    run for every row. No model instance per row (``bulk_create`` builds and prepares one,
    which is most of its cost for a few hundred small rows). A field a row leaves out takes
    its default (``default=``, else NULL). Like ``bulk_create`` it calls no ``save()`` and
    sends no signals.
    """
    if not rows:
        return
    meta = model._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    plan = [(field.attname, field.get_default) for field in fields]
    raws = [[row[name] if name in row else default() for name, default in plan] for row in rows]
    _insert(model, fields, raws)


def _insert(model: type[models.Model], fields: list[models.Field], raws: list[list]) -> None:
    """Insert rows of ``fields``' values (``raws``): one statement on PostgreSQL."""
    prepare = [_preparer(field) for field in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    table = quote(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(raws) > 1 and _has_json(fields):
            sql = (
                f"INSERT INTO {table} ({columns}) SELECT {_json_reads(fields)} "
                "FROM jsonb_array_elements(%s::jsonb) AS e(r)"
            )
            cursor.execute(sql, [_json_document(fields, raws)])
            return
        values = [[run(value) for value, run in zip(raw, prepare, strict=True)] for raw in raws]
        if connection.vendor == "postgresql" and len(raws) > 1:
            sql = f"INSERT INTO {table} ({columns}) SELECT * FROM UNNEST({_unnest(fields)})"
            cursor.execute(sql, [list(column) for column in zip(*values, strict=True)])
            return
        marks = ", ".join(["%s"] * len(fields))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)


def _ids_draw(rows: Sequence[models.Model]) -> None:
    """Give ``rows`` (unsaved instances of one model) primary keys drawn from the table's
    sequence in one query (PostgreSQL), and the values of their fields that stamp themselves
    on insert (``auto_now``, ``auto_now_add``)."""
    model = type(rows[0])
    with connection.cursor() as cursor:
        for row, pk in zip(rows, _ids_drawn(cursor, model, len(rows)), strict=True):
            row.pk = pk
    stamped = [f for f in model._meta.concrete_fields if _stamped(f)]
    for row in rows:
        for field in stamped:
            field.pre_save(row, True)


def rows_create(rows: Sequence[models.Model]) -> None:
    """Insert ``rows`` (unsaved instances of one model) and set their primary keys, where
    the insert is to go with other writes in one round trip (``statements_pipelined``).

    PostgreSQL: the ids are drawn from the table's sequence in one query (the only wait,
    inside a pipeline too), then the rows go in by one statement, as ``rows_insert`` writes
    them, sent without waiting in a pipeline. (``rows_copy`` writes thousands of rows faster,
    but a ``COPY`` costs two round trips of its own and cannot be pipelined.) Elsewhere
    (SQLite): ``bulk_create``. Like ``bulk_create`` it calls no ``save()`` and sends no
    signals.
    """
    if not rows:
        return
    model = type(rows[0])
    meta = model._meta
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=_MAX_PARAMS // len(meta.fields))
        return
    _ids_draw(rows)
    fields = list(meta.concrete_fields)
    _insert(model, fields, [[getattr(row, f.attname) for f in fields] for row in rows])
    for row in rows:
        row._state.adding = False
        row._state.db = connection.alias


@functools.cache
def _insert_plan(model: type[models.Model]) -> tuple[str, list[models.Field], list, list]:
    """``row_insert``'s statement for ``model``, its fields, their preparers and the fields
    that stamp themselves on insert (worked out once per model)."""
    meta = model._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({}) RETURNING {}".format(
        quote(meta.db_table),
        ", ".join(quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        quote(meta.pk.column),
    )
    stamped = [
        f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    return sql, fields, [_preparer(f) for f in fields], stamped


def row_insert(row: models.Model) -> None:
    """Insert ``row`` (an unsaved instance with an automatic primary key) and set its primary
    key: one ``INSERT … RETURNING``, its values prepared by their fields as ``save()`` would,
    without Django's building of the statement each time (more Python time than the database
    takes to run it, for the one hand a recording writes). Like ``bulk_create`` it calls no
    ``save()`` and sends no signals; a database error is Django's (an ``IntegrityError`` for
    a unique constraint)."""
    sql, fields, prepare, stamped = _insert_plan(type(row))
    for field in stamped:
        field.pre_save(row, True)
    values = [run(getattr(row, field.attname)) for field, run in zip(fields, prepare, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row.pk = cursor.fetchone()[0]
    row._state.adding = False
    row._state.db = connection.alias


def rows_accumulate(
    model: type[models.Model],
    *,
    keys: Sequence[str],
    rows: Sequence[Sequence[Any]],
    sums: Sequence[str] = (),
    maxima: Sequence[str] = (),
) -> None:
    """Add ``rows`` to running totals in one ``INSERT … ON CONFLICT DO UPDATE``.

    Each row holds the values of ``keys`` (attribute names of the fields of one unique
    constraint of ``model``), then of ``sums``, then of ``maxima``. A row whose key is new
    is inserted as given (other fields take their defaults); one whose key exists adds its
    ``sums`` to the stored ones and keeps the larger of each of ``maxima``. Rows are written,
    and existing rows locked, in the order given: callers that pass their rows sorted by key
    lock in one order and cannot deadlock each other.

    With no ``sums`` and no ``maxima`` it locks the rows of ``keys`` (inserting those that
    do not exist, with their defaults), the way a ``SELECT … FOR UPDATE`` would, in the
    order given.
    """
    if not rows:
        return
    plan = _accumulate_plan(model, tuple(keys), tuple(sums), tuple(maxima), connection.vendor)
    defaults = [field.get_default() for field in plan.others]
    per_statement = max(1, _MAX_PARAMS // len(plan.prepare))
    with connection.cursor() as cursor:
        if plan.document:
            values = [
                [run(value) for value, run in zip((*row, *defaults), plan.prepare, strict=True)]
                for row in rows
            ]
            cursor.execute(plan.document, [_json_document(plan.fields, values)])
            return
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            params = [
                run(value)
                for row in chunk
                for value, run in zip((*row, *defaults), plan.prepare, strict=True)
            ]
            cursor.execute(plan.head + ", ".join([plan.one] * len(chunk)) + plan.tail, params)


class _Plan(NamedTuple):
    prepare: list[Callable[[Any], Any]]
    fields: list[models.Field]
    others: list[models.Field]
    head: str
    one: str
    tail: str
    document: str  # PostgreSQL: the rows as one JSON parameter ("" elsewhere)


@functools.cache
def _accumulate_plan(
    model: type[models.Model],
    keys: tuple[str, ...],
    sums: tuple[str, ...],
    maxima: tuple[str, ...],
    vendor: str,
) -> _Plan:
    """The statement of ``rows_accumulate`` for one model and set of columns (worked out
    once: comparing and preparing some forty fields cost more than the statement's run).

    On PostgreSQL the rows go as one JSON parameter (``document``), so the statement's text
    is the same for any number of rows and psycopg converts it once (it keeps the converted
    text of a statement under 4,096 characters with at most 50 parameters: a ``VALUES``
    list of forty columns a row is neither, and was converted again at every batch, the
    largest client-side cost of settling's tallies). The table is aliased in the updates
    to keep the text short."""
    meta = model._meta
    given = [meta.get_field(name) for name in (*keys, *sums, *maxima)]
    # A new row's other fields take their defaults (a model's default is not the column's).
    others = [f for f in meta.concrete_fields if f is not meta.pk and f not in given]
    fields = given + others
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    columns = [quote(field.column) for field in fields]
    key_columns = columns[: len(keys)]
    biggest = "GREATEST" if vendor == "postgresql" else "MAX"
    first_max, first_other = len(keys) + len(sums), len(given)
    updates = [f"{c} = {table}.{c} + excluded.{c}" for c in columns[len(keys) : first_max]]
    updates += [
        f"{c} = {biggest}({table}.{c}, excluded.{c})" for c in columns[first_max:first_other]
    ]
    if not updates:  # lock only: an update that changes nothing still locks the row
        updates = [f"{key_columns[0]} = excluded.{key_columns[0]}"]
    conflict = f" ON CONFLICT ({', '.join(key_columns)}) DO UPDATE SET {', '.join(updates)}"
    document = ""
    if vendor == "postgresql":
        # The rows in the order given: jsonb_array_elements yields them in array order.
        aliased = conflict.replace(f"{table}.", "x.")
        document = (
            f"INSERT INTO {table} AS x ({', '.join(columns)}) SELECT {_json_reads(fields)} "
            f"FROM jsonb_array_elements(%s::jsonb) AS e(r){aliased}"
        )
    return _Plan(
        prepare=[_preparer(field) for field in fields],
        fields=fields,
        others=others,
        head=f"INSERT INTO {table} ({', '.join(columns)}) VALUES ",
        one="(" + ", ".join(["%s"] * len(fields)) + ")",
        tail=conflict,
        document=document,
    )


def _copy_preparer(field: models.Field) -> Callable[[Any], Any]:
    """:func:`_preparer`, but a JSON column's object or array goes to ``COPY`` as its JSON
    text, written by the json module at once (the column reads the text as JSON), not
    through Django's and psycopg's wrappers, the most of the Python time of a batch's
    writes with several JSON columns."""
    prepare = _preparer(field)  # a time with its zone as it is (rows_copy is PostgreSQL's)
    if not isinstance(field, models.JSONField):
        return prepare
    dumps = functools.partial(json.dumps, cls=field.encoder) if field.encoder else json.dumps

    def run(value: Any) -> Any:
        if type(value) in (dict, list):
            return dumps(value)
        return prepare(value)  # None (NULL), a scalar, an expression: as save() sends it

    return run


def rows_copy(rows: Sequence[models.Model]) -> None:
    """Insert ``rows`` (unsaved instances of one model) and set their primary keys, for
    batches of hundreds to thousands of rows whose ids are needed (their seats, their audit
    entries).

    PostgreSQL: the ids are drawn from the table's sequence in one query, then the rows go
    in by one ``COPY … FROM STDIN``, whose values psycopg writes in C (an ``INSERT`` of one
    array per column has each array written out as text in Python, most of the cost of a
    few thousand rows with JSON columns). Elsewhere (SQLite): ``bulk_create``. Like
    ``bulk_create`` it calls no ``save()`` and sends no signals.
    """
    if not rows:
        return
    model = type(rows[0])
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=_MAX_PARAMS // len(model._meta.fields))
        return
    meta = model._meta
    others = [f for f in meta.concrete_fields if f is not meta.pk]
    _ids_draw(rows)
    with connection.cursor() as cursor:
        prepare = [(field.attname, _copy_preparer(field)) for field in others]
        _copy(
            cursor,
            model,
            ([row.pk] + [run(getattr(row, name)) for name, run in prepare] for row in rows),
        )
    for row in rows:
        row._state.adding = False
        row._state.db = connection.alias


def rows_copy_values(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """:func:`rows_copy` of rows given as their fields' values (attribute names to values;
    a field not given takes its default, an ``auto_now`` field the time), no model instance
    each: the new rows' ids, in order (on SQLite, those ``bulk_create`` sets)."""
    if not rows:
        return []
    if connection.vendor != "postgresql":
        made = [model(**row) for row in rows]
        rows_copy(made)
        return [row.pk for row in made]
    meta = model._meta
    others = [f for f in meta.concrete_fields if f is not meta.pk]
    prepare = [(field.attname, _copy_preparer(field), _filler(field)) for field in others]
    with connection.cursor() as cursor:
        ids = _ids_drawn(cursor, model, len(rows))
        _copy(
            cursor,
            model,
            (
                [pk] + [run(row[name] if name in row else fill()) for name, run, fill in prepare]
                for pk, row in zip(ids, rows, strict=True)
            ),
        )
    return ids


def _stamped(field: models.Field) -> bool:
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


def _filler(field: models.Field) -> Callable[[], Any]:
    """The value of ``field`` in a row that does not give it: the time for an ``auto_now``
    field (as ``pre_save`` sets it), else the field's default."""
    return timezone.now if _stamped(field) else field.get_default


def _ids_drawn(cursor, model: type[models.Model], count: int) -> list[int]:
    """``count`` new ids from the table's sequence (PostgreSQL), in one query."""
    meta = model._meta
    cursor.execute(
        "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
        [meta.db_table, meta.pk.column, count],
    )
    return [pk for (pk,) in cursor.fetchall()]


def _copy(cursor, model: type[models.Model], values: Iterable[list[Any]]) -> None:
    """One ``COPY … FROM STDIN`` of the rows ``values`` (the primary key first, then the
    other concrete fields in order, each prepared for the column)."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in meta.concrete_fields if f is not meta.pk)
    sql = f"COPY {quote(meta.db_table)} ({quote(meta.pk.column)}, {columns}) FROM STDIN"
    with cursor.cursor.copy(sql) as copy:
        for value in values:
            copy.write_row(value)
