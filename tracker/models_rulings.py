"""Disputes, rulings and the audit log (append-only records)."""

__all__: list[str] = []
