"""Hand-history import jobs."""

__all__: list[str] = []
