"""Model instances from rows read by a statement written out by hand.

A few reads run on every hand recorded (the state of play's seats and hands), where Django
building the queryset costs more Python time than the database takes to answer. Such a read
is written once as SQL, from the models' own table and column names (``table``, ``column``,
``select_list``: the one way the project names them in SQL of its own), and its rows become
instances here with the values converted by their fields, as a queryset
would (``from_db_value``, and the database's own converters: SQLite's dates, say).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)


def table(model: type[models.Model]) -> str:
    """``model``'s table as SQL names it, quoted for this connection: ``"tracker_seat"``."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    """The column of ``model``'s field ``name`` (its name or its attname: ``"player"`` and
    ``"player_id"`` name the same foreign key), quoted for this connection, for statements
    written out by hand: ``column(Seat, "player") == '"player_id"'``. A name that is no
    column of the table (unknown, a relation the other model holds, a many-to-many with a
    table of its own) is an error here, when the statement is written, not when the
    database reads it."""
    field = model._meta.get_field(name)
    if not field.concrete or field.many_to_many:
        raise ValueError(f"{model.__name__}.{name} is not a column of {model._meta.db_table}")
    return connection.ops.quote_name(field.column)


def fields_named(model: type[models.Model], attnames: Sequence[str] | None = None) -> list:
    """``model``'s concrete fields, all or those of ``attnames``, in the model's order (the
    order :func:`instance` needs its values in)."""
    fields = list(model._meta.concrete_fields)
    if attnames is None:
        return fields
    unknown = set(attnames) - {f.attname for f in fields}
    if unknown:
        raise ValueError(f"{model.__name__} has no column {sorted(unknown)}")
    return [f for f in fields if f.attname in attnames]


def select_list(alias: str, fields: Sequence[models.Field]) -> str:
    """The columns of ``fields`` on the table aliased ``alias``: ``s.id, s.player_id, ...``."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in fields)


def converters(fields: Sequence[models.Field]) -> list[list[Callable]]:
    """Each field's converters on this connection (often none: no call per value then)."""
    out = []
    for field in fields:
        col = field.get_col(field.model._meta.db_table)
        out.append(connection.ops.get_db_converters(col) + field.get_db_converters(connection))
    return out


def converted(values: Sequence[Any], fields: Sequence[models.Field], convs) -> list[Any]:
    """``values`` (one row's, in the order of ``fields``) as a queryset would read them."""
    out = list(values)
    for k, chain in enumerate(convs):
        if chain:
            value, expression = out[k], fields[k].get_col(fields[k].model._meta.db_table)
            for convert in chain:
                value = convert(value, expression, connection)
            out[k] = value
    return out


def instance(model: type[M], fields: Sequence[models.Field], convs, values: Sequence[Any]) -> M:
    """An instance of ``model`` read from the database with ``values`` for ``fields`` (from
    :func:`fields_named`; the others deferred, as ``only()`` leaves them)."""
    return model.from_db(
        connection.alias, [f.attname for f in fields], converted(values, fields, convs)
    )


def statements_read(statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple]]:
    """The rows of each of ``statements`` (``(sql, params)`` of reads, a ``SELECT … FOR
    UPDATE`` among them), run in order inside the caller's transaction.

    PostgreSQL: sent as one text, which psycopg's client-side binding (Django's default)
    sends as one simple query, so the server answers all of them in one round trip; each
    statement still reads the database as of its own start, as one by one. Elsewhere, or
    with server-side binding (one statement a query), they run one by one. An error is the
    first failing statement's, and the ones after it do not run.
    """
    with connection.cursor() as cursor:
        options = connection.settings_dict.get("OPTIONS") or {}
        if (
            connection.vendor == "postgresql"
            and len(statements) > 1
            and not options.get("server_side_binding")
        ):
            cursor.execute(
                "; ".join(sql for sql, _ in statements),
                [value for _, params in statements for value in params],
            )
            found = [cursor.fetchall()]
            while cursor.nextset():
                found.append(cursor.fetchall())
            return found
        found = []
        for sql, params in statements:
            cursor.execute(sql, params)
            found.append(cursor.fetchall())
        return found
