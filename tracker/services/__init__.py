"""Writes: every change to the data goes through a service (atomic, keyword-only arguments)."""
