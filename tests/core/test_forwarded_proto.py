"""X-Forwarded-Proto makes a request HTTPS only behind the proxies TRUSTED_PROXY_COUNT
names: without them anyone could send the header (settings are read at start, so each case
starts Django in a subprocess of its own)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CODE = """
import django
django.setup()
from django.test import RequestFactory
request = RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="https")
print(request.is_secure())
"""


def is_secure_with_forwarded_https(**env_extra: str) -> bool:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "homegame.settings",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        **env_extra,
    }
    result = subprocess.run(
        [sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split() == ["True"]


@pytest.mark.parametrize("debug", ["false", "true"])
def test_the_header_is_ignored_without_trusted_proxies(debug):
    assert not is_secure_with_forwarded_https(DEBUG=debug)
    assert not is_secure_with_forwarded_https(DEBUG=debug, TRUSTED_PROXY_COUNT="0")


@pytest.mark.parametrize("debug", ["false", "true"])
def test_the_header_counts_behind_a_trusted_proxy(debug):
    assert is_secure_with_forwarded_https(DEBUG=debug, TRUSTED_PROXY_COUNT="1")
