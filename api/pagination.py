"""Pagination of every list: ``limit`` and ``offset``, with ``limit`` capped.

Without a cap, ``?limit=`` with a huge number reaches the database as a LIMIT it cannot
hold (a 500 on PostgreSQL); above the cap, a page simply holds ``MAX_LIMIT`` rows.
"""

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500


class Pagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT
