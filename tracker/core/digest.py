"""Canonical JSON and its SHA-256: the one way a value is hashed to tell requests and hands
apart (a hand's content hash, the import's duplicate check, an Idempotency-Key's request).

The text is ``json.dumps`` with sorted keys and ``default=str``; what differs between the
digests already stored is kept as two switches, so every stored digest stays the same:
``ascii`` (escape non-ASCII characters, as the recorded hands' digests do) and ``compact``
(no spaces after separators; the idempotency fingerprint keeps json's default spacing).

>>> canonical_json({"b": 1, "a": ["é"]})
'{"a":["\\\\u00e9"],"b":1}'
>>> canonical_json({"b": 1, "a": ["é"]}, ascii=False, compact=False)
'{"a": ["é"], "b": 1}'
>>> sha256_hex("abc")[:16]
'ba7816bf8f01cfea'
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["canonical_json", "sha256_hex"]


def canonical_json(value: Any, *, ascii: bool = True, compact: bool = True) -> str:
    """``value`` as JSON with sorted keys (anything JSON does not know as its ``str``)."""
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":") if compact else None,
        ensure_ascii=ascii,
        default=str,
    )


def sha256_hex(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8; a lone surrogate kept as its code point)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
