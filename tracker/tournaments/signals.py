"""What the tournaments package tells the features built on it, without importing them.

``final_standings_written`` is sent inside the transaction that stores a finished night's
final standings: when the night ends (its hand limit, its last player standing, a deal) and
again when a ruling moves chips of a finished night. Arguments: ``tournament`` and
``cause`` (a few words on why, e.g. "ruling 12 on hand 3"; empty when the night ends).
The league money ledger listens (tracker/money/receivers.py): it posts the night's results
and, after a ruling, the correcting entries.
"""

from __future__ import annotations

from django.dispatch import Signal

final_standings_written = Signal()
