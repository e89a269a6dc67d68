"""The version a live-logger post was made against (templates/tracker/live.html sends it with
every form): a whole number the draft's version field can hold, or the post is refused."""

from __future__ import annotations

from django import forms

from tracker.engine.errors import Code, DomainError

# DraftHand.version is a PositiveIntegerField: 0 to 2**31 - 1 on every database.
VERSION_MAX = 2**31 - 1
VERSION_RULE = f"the page's version is a whole number from 0 to {VERSION_MAX}: reload the page"


class DraftVersionForm(forms.Form):
    version = forms.IntegerField(
        min_value=0,
        max_value=VERSION_MAX,
        required=False,  # none: 0, the version of a hand no step was logged in yet
        error_messages={k: VERSION_RULE for k in ("invalid", "min_value", "max_value")},
    )


def posted_version(data) -> int:
    """The posted ``version``; a DomainError on the field ``version`` if it is out of range."""
    form = DraftVersionForm(data)
    if not form.is_valid():
        raise DomainError(VERSION_RULE, code=Code.INVALID_VERSION, field="version")
    return form.cleaned_data["version"] or 0
