"""Usernames as the uniqueness rules see them: the canonical form and the confusable skeleton.

Pure functions (no Django). Two usernames are *the same* when their canonical forms are equal
(NFKC, then case-folded, so ``ＲＯＢ`` and ``Rob`` are ``rob``), and *look alike* when their
skeletons are equal: the skeleton of Unicode Technical Standard #39 ("Security Mechanisms",
section 4), each character replaced by the prototype of its confusable class in the Unicode
confusables table, as the ``confusable_homoglyphs`` package ships it (``rоb`` with a
Cyrillic ``о`` has the skeleton of ``rob``, and so has ``r𝐨b``; ``bi11`` has that of
``bill``).

Both are stored (``AccountName``), each under a unique index, so a check is one indexed
lookup and two sign-ups racing for one name cannot both win.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

__all__ = ["canonical_username", "username_skeleton"]


def canonical_username(name: str) -> str:
    """The form in which two usernames are the same: NFKC, case-folded, NFKC again.

    >>> canonical_username("ＲＯＢ"), canonical_username("Rob"), canonical_username("ｒｏｂ")
    ('rob', 'rob', 'rob')
    >>> canonical_username("Straße")
    'strasse'
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The prototype of ``char``'s confusable class (``char`` itself if it has none).

    In the table a character that is confused with others (a prototype) lists them all; one
    that stands for a prototype lists only that prototype. A pair that only list each other
    is one class, whose prototype is the smaller character.

    >>> _prototype("о"), _prototype("I"), _prototype("1"), _prototype("l"), _prototype("m")
    ('o', 'l', 'l', 'l', 'rn')
    """
    entries = confusables_data.get(char)
    if not entries or len(entries) != 1:
        return char  # no look-alike, or a prototype with several
    target = entries[0]["c"]
    back = [e["c"] for e in confusables_data.get(target, [])]
    if back == [char]:  # a pair of two: the smaller one stands for both
        return min(char, target)
    return target


def username_skeleton(name: str) -> str:
    """The UTS #39 skeleton of ``name``'s canonical form: NFD, each character by its
    prototype, NFD again. Equal skeletons are names a reader can take for one another.

    >>> username_skeleton("rоb") == username_skeleton("rob")  # a Cyrillic о
    True
    >>> username_skeleton("bi11") == username_skeleton("Bill")
    True
    >>> username_skeleton("rob") == username_skeleton("bob")
    False
    """
    decomposed = unicodedata.normalize("NFD", canonical_username(name))
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))
