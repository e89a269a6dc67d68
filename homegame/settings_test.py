"""Settings for the test suite: the real settings, with a test-only secret key.

Tests run with DEBUG off, as in production; everything else (DATABASE_URL,
CELERY_BROKER_URL) still comes from the environment, so the same suite runs
on SQLite with eager tasks and on PostgreSQL with a real worker.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-never-used-in-production")

from .settings import *  # noqa: E402,F403
from .settings import STORAGES  # noqa: E402

# No collectstatic in tests: serve static files straight from the finders.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher"
]  # speed only; production keeps Django's defaults
