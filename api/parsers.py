"""The API's JSON parser, with bounds: body size, nesting depth, and no NUL characters or
unpaired surrogates in any text (they cannot be stored in PostgreSQL, nor written back as
UTF-8). Each refusal is a 400 (413 for the size) with the error body."""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import exceptions
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "The request body is too large."
    default_code = "too_large"


def bad_text(text: str) -> str | None:
    """Why ``text`` cannot be taken (a NUL, an unpaired surrogate), or None."""
    if "\x00" in text:
        return "must not contain a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "must not contain an unpaired surrogate (not valid Unicode)"
    return None


def check_json(data, *, max_depth: int) -> None:
    """Walk parsed JSON without recursion; refuse deep nesting and bad text, naming the path."""
    stack = [(data, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            why = bad_text(value)
            if why:
                raise ValidationError({path or "non_field_errors": [why]})
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > max_depth:
            raise ParseError(f"JSON nested deeper than {max_depth} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{key}" if path else key
                why = bad_text(key)
                if why:  # named by the object holding it: the key itself cannot be echoed
                    raise ValidationError({path or "non_field_errors": [f"a key {why}"]})
                stack.append((item, depth + 1, child))
        else:
            for index, item in enumerate(value):
                stack.append((item, depth + 1, f"{path}[{index}]"))


class BoundedJSONParser(JSONParser):
    """DRF's strict JSON parser, reading at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes and
    at most ``API_JSON_MAX_DEPTH`` levels of nesting."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise PayloadTooLarge()
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(f"JSON parse error - the body is not {encoding} text") from None
        strict = api_settings.STRICT_JSON
        try:
            data = json.loads(text, parse_constant=_reject_constant if strict else None)
        except RecursionError:
            raise ParseError(
                f"JSON nested deeper than {settings.API_JSON_MAX_DEPTH} levels"
            ) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_json(data, max_depth=settings.API_JSON_MAX_DEPTH)
        return data


def _reject_constant(name: str):
    raise ValueError(f"Out of range float values are not JSON compliant: {name!r}")
