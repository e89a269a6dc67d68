"""Evaluate showdowns with the hand-value engine: JSON in on standard input, JSON out."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tracker.engine import evaluate_showdown
from tracker.engine.errors import DomainError


def _error(code: str, message: str, fields: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def _evaluate_text(text: str) -> tuple[dict, bool]:
    """(result or error body, ok)"""
    try:
        showdown = json.loads(text)
    except json.JSONDecodeError as exc:
        return _error("invalid_json", f"not JSON: {exc.msg} (column {exc.colno})"), False
    try:
        return evaluate_showdown(showdown), True
    except DomainError as exc:
        return {"error": exc.as_dict()}, False


class Command(BaseCommand):
    help = (
        "Evaluate a showdown read as one JSON object on standard input and print the result "
        "(hands and winners) as JSON. With --jsonl, read one showdown per line and print one "
        'result per line, in order; a bad line prints {"error": {...}} and the command exits '
        "non-zero after all lines."
    )
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument(
            "--jsonl", action="store_true", help="one showdown per input line, one result per line"
        )

    def handle(self, *args, **options):
        stream = options.get("stdin") or sys.stdin
        if not options["jsonl"]:
            result, ok = _evaluate_text(stream.read())
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            if not ok:
                raise CommandError(result["error"]["message"])
            return
        bad = total = 0
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            total += 1
            result, ok = _evaluate_text(line)
            if not ok:
                bad += 1
                result["error"]["line"] = number
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        if bad:
            raise CommandError(f"{bad} of {total} showdown(s) refused")
