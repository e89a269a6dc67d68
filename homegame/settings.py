"""Settings for homegame, read from the environment with safe embedded defaults.

With nothing set, the site runs on a SQLite file in the project folder and
Celery runs tasks eagerly in-process. ``DATABASE_URL`` and
``CELERY_BROKER_URL`` switch to PostgreSQL and real workers. With
``DEBUG`` off, a missing ``SECRET_KEY`` refuses to start.
See the environment table in README.md.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, env_str
from .logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

_DEV_SECRET_KEY = "django-insecure-homegame-development-only-key"
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY in the environment, or DEBUG=true for development."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])
# A refused form post says why (Secure cookies over plain HTTP, an untrusted origin).
CSRF_FAILURE_VIEW = "homegame.errors.csrf_failure"

INSTALLED_APPS = [
    "web.apps.AdminConfig",  # django.contrib.admin, its login with the sign-in limits
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",  # the lock per username and address (below); its tables migrate with ours
    "tracker",
    "api",
    "web",
]

MIDDLEWARE = [
    # First: every error answered under /api/ gets the API's error body, whoever made it.
    "api.middleware.ApiErrorBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "homegame.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "homegame.middleware.InputGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tracker.audit.middleware.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "homegame.urls"
WSGI_APPLICATION = "homegame.wsgi.application"
ASGI_APPLICATION = "homegame.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", default=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a busy writer instead of failing at once (the entry form and API may overlap).
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
_TEST_DB_NAME = env_str("DATABASE_TEST_NAME")
if _TEST_DB_NAME:
    DATABASES["default"]["TEST"] = {"NAME": _TEST_DB_NAME}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds API rate-limit counters: share it between processes in production (Redis).
_CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _CACHE_URL,
            # Fail fast when Redis is down: the limits then fall back to per-process memory.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if _CACHE_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            # Not Django's 300: a burst of sign-in attempts must not push the locks out.
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    )
}

# --- Who is asking, and sign-in limits (tracker/core/ratelimit.py) -----------
# Proxies in front of the site that append to X-Forwarded-For; 0: ignore that header.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", default=0)
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5)  # one username, one address
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)  # one address
LOGIN_USER_FAILURE_LIMIT = env_int("LOGIN_USER_FAILURE_LIMIT", default=50)  # one username
# One username, any addresses, in 24 hours from the first: then refused until they are over.
LOGIN_USER_DAILY_FAILURE_LIMIT = env_int("LOGIN_USER_DAILY_FAILURE_LIMIT", default=100)
LOGIN_WINDOW_SECONDS = env_int("LOGIN_WINDOW_SECONDS", default=900)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", default=900)
LOGIN_USER_LOCKOUT_SECONDS = env_int("LOGIN_USER_LOCKOUT_SECONDS", default=60)
# An address a user signed in from is exempt from that user's user-wide lock this long.
LOGIN_KNOWN_ADDRESS_SECONDS = env_int("LOGIN_KNOWN_ADDRESS_SECONDS", default=30 * 86400)

# django-axes keeps the lock per username and address (tracker/accounts/signin.py asks it
# before any password is checked, and answers in the site's own words): each wrong password
# is an AccessAttempt row (the admin lists them), counted while it is within
# LOGIN_LOCKOUT_SECONDS of the pair's last one; a right password deletes the pair's rows.
# The username is counted by its canonical form, the address as the other limits count it.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_LOCKOUT_SECONDS)
AXES_USERNAME_CALLABLE = "tracker.accounts.signin.counted_username"
AXES_CLIENT_IP_CALLABLE = "tracker.core.ratelimit.counted_address"
AXES_RESET_ON_SUCCESS = False  # tracker/accounts/signin.py clears the pair at every sign-in
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a refused attempt counts nothing
AXES_DISABLE_ACCESS_LOG = True  # no row per successful sign-in
AXES_VERBOSE = False
# Axes's middleware and backend answer a lockout with their own page and refuse any
# authenticate() without a request; here the login forms and the token endpoint ask axes
# themselves (tracker/accounts/signin.py), so neither is installed.
SILENCED_SYSTEM_CHECKS = ["axes.W002", "axes.W003"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: once a new password is saved, the user's API tokens are revoked.
    {"NAME": "tracker.accounts.passwords.ApiTokensRevokedOnPasswordChange"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# In development static files come straight from the finders; production serves collectstatic output.
STATIC_ROOT = None if DEBUG else BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Sign-up: attempts per address in a window (tracker/core/ratelimit.py).
SIGNUP_ADDRESS_LIMIT = env_int("SIGNUP_ADDRESS_LIMIT", default=10)
SIGNUP_WINDOW_SECONDS = env_int("SIGNUP_WINDOW_SECONDS", default=3600)
# Password reset: requests from one client address, and for one e-mail address, in a window
# (each request counts; past the limit nothing is sent, tracker/core/ratelimit.py).
PASSWORD_RESET_ADDRESS_LIMIT = env_int("PASSWORD_RESET_ADDRESS_LIMIT", default=5)
PASSWORD_RESET_EMAIL_LIMIT = env_int("PASSWORD_RESET_EMAIL_LIMIT", default=3)
PASSWORD_RESET_WINDOW_SECONDS = env_int("PASSWORD_RESET_WINDOW_SECONDS", default=3600)
# E-mail verification: how long a link works, and how many verification mails one account,
# or one address, is sent in a window (sign-up and the profile's "send the link again").
EMAIL_VERIFY_MAX_AGE_SECONDS = env_int("EMAIL_VERIFY_MAX_AGE_SECONDS", default=3 * 24 * 3600)
EMAIL_VERIFY_MAIL_LIMIT = env_int("EMAIL_VERIFY_MAIL_LIMIT", default=3)
EMAIL_VERIFY_WINDOW_SECONDS = env_int("EMAIL_VERIFY_WINDOW_SECONDS", default=3600)
# Mails: printed on the console unless EMAIL_BACKEND names another backend.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env_int("EMAIL_PORT", default=25)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", default="homegame <noreply@localhost>")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", default=30)  # seconds for one SMTP conversation
# The outbox (tracker/mail): a worker holds a claimed message this long (longer than one SMTP
# conversation); a message still "sending" after it is sent again by the sweep. A message
# never claimed this many seconds after it was asked for is sent by the sweep too.
MAIL_LEASE_SECONDS = env_int("MAIL_LEASE_SECONDS", default=120)
MAIL_SWEEP_GRACE = env_int("MAIL_SWEEP_GRACE", default=60)
MAIL_MAX_ATTEMPTS = env_int("MAIL_MAX_ATTEMPTS", default=5)
# The site's address in mails asked for outside a request (a night's results when its last
# hand is settled by the worker, a dispute's mails from the API): links and unsubscribe.
SITE_URL = env_str("SITE_URL", default="http://localhost:8000/") or "http://localhost:8000/"

# Sign-in finds an account by its canonical name too ("bob" signs in "Bob": docs/rulings.md).
AUTHENTICATION_BACKENDS = ["tracker.accounts.backends.AccountNameBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_CONTENT_TYPE_NOSNIFF = True

# --- Transport and browser security (README "Security headers") -------------
# HTTPS only: redirect plain HTTP, and tell browsers to remember it (HSTS). Off by default,
# since they only make sense once the site is served over HTTPS.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # container health checks speak plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
# X-Forwarded-Proto says the request came over HTTPS only behind proxies we trust (they must
# set it); without TRUSTED_PROXY_COUNT anyone could send it, so the connection's scheme counts.
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# Scripts, styles, images and connections from this site only; no plugins, no framing.
# 'wasm-unsafe-eval' lets the live logger compile WebAssembly (the browser's Python that
# runs tracker/engine/, static/vendor/pyodide/); it allows no eval() of JavaScript.
_DEFAULT_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
CONTENT_SECURITY_POLICY = env_str("CONTENT_SECURITY_POLICY", _DEFAULT_CSP) or ""
# Swagger UI (/api/docs/) ships an inline stylesheet: that page alone allows inline styles.
CONTENT_SECURITY_POLICY_DOCS = CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)

# /healthz shows which check failed to staff users and to requests with this token
# (Authorization: Bearer <token>); everyone else sees the status only.
HEALTHZ_TOKEN = env_str("HEALTHZ_TOKEN", "") or ""

# --- Input bounds ------------------------------------------------------------
# Request bodies (JSON, forms) over this many bytes are refused with 413 (Django's setting).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)
# JSON deeper than this many levels is refused with 400 (api/parsers.py).
API_JSON_MAX_DEPTH = env_int("API_JSON_MAX_DEPTH", default=32)

# --- Uploads (PHH import) ---------------------------------------------------
# One upload, in all, and each user's uploads a minute, on the pages and the API alike.
PHH_UPLOAD_MAX_BYTES = env_int("PHH_UPLOAD_MAX_BYTES", default=64 * 1024 * 1024)
PHH_UPLOAD_BYTES_PER_MINUTE = env_int("PHH_UPLOAD_BYTES_PER_MINUTE", default=128 * 1024 * 1024)
PHH_UPLOADS_PER_MINUTE = env_int("PHH_UPLOADS_PER_MINUTE", default=10)
FILE_UPLOAD_HANDLERS = [
    "homegame.uploads.UploadBound",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# --- REST API -------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "writes": env_str("API_WRITE_RATE", "120/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "homegame API",
    "DESCRIPTION": (
        "Record stud hands, check showdowns with the wild-card engine, run tournaments "
        "and read standings. Errors always have the body "
        '{"error": {"code", "message", "fields": {path: [messages]}}}.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI is served from the installed sidecar package, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "VariantEnum": "tracker.tournaments.models.VARIANT_CHOICES",
        "HandVariantEnum": "tracker.hands.models.HAND_VARIANT_CHOICES",
        "HandStatusEnum": "tracker.hands.models.HandStatus",
        "TournamentStatusEnum": "tracker.tournaments.models.TournamentStatus",
        "JobStatusEnum": "tracker.hands.models.JobStatus",
    },
}

# --- Celery ---------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or None
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or CELERY_BROKER_URL
# No broker configured: run tasks in-process, errors propagate to the caller.
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task whose worker died unacknowledged is delivered again after this many seconds (Redis).
# Sending a task must fail fast when Redis is away: the web request has committed by then and
# the periodic sweep (below) sends what could not be sent (docs/recording.md, "Safe retries").
_BROKER_TIMEOUT = float(env_int("CELERY_BROKER_TIMEOUT", default=2))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    "socket_connect_timeout": _BROKER_TIMEOUT,
    "socket_timeout": _BROKER_TIMEOUT,
    "max_retries": 0,
}
CELERY_BROKER_CONNECTION_TIMEOUT = _BROKER_TIMEOUT
CELERY_TASK_PUBLISH_RETRY = False
# A worker keeps its database connection from one task to the next: opening one costs about
# as much as settling a hand. Celery closes it every CELERY_DB_REUSE_MAX tasks; before each
# task it is dropped if it is broken or older than WORKER_DATABASE_CONN_MAX_AGE seconds
# (homegame/celery.py). The web processes keep DATABASE_CONN_MAX_AGE.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", default=1000)
WORKER_DATABASE_CONN_MAX_AGE = env_int("WORKER_DATABASE_CONN_MAX_AGE", default=600)
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = _BROKER_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = _BROKER_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 0}}

# The sweep (Celery beat): settles recorded hands no task settled, and resumes or fails jobs
# whose worker stopped sending heartbeats (tracker/hands/services/sweep.py,
# tracker/interchange/services/imports.py).
SWEEP_INTERVAL = env_int("SWEEP_INTERVAL", default=20)  # seconds between sweeps
SETTLE_GRACE = env_int("SETTLE_GRACE", default=15)  # a recorded hand older than this is swept
JOB_HEARTBEAT_TIMEOUT = env_int("JOB_HEARTBEAT_TIMEOUT", default=60)  # a silent job is stale
JOB_MAX_RESTARTS = env_int("JOB_MAX_RESTARTS", default=3)  # then the job is failed
# A re-evaluation job is split into chunks of this many hands, which any worker takes.
REEVALUATION_CHUNK_SIZE = env_int("REEVALUATION_CHUNK_SIZE", default=500)
# Hands of a chunk re-read in one transaction (one write of the job's progress): a worker
# killed in the middle of a chunk loses at most this many readings, made again on resume.
REEVALUATION_BATCH_SIZE = env_int("REEVALUATION_BATCH_SIZE", default=250)
CELERY_BEAT_SCHEDULE = {
    "hands-sweep": {"task": "tracker.hands_sweep", "schedule": float(SWEEP_INTERVAL)},
    "imports-sweep": {"task": "tracker.imports_sweep", "schedule": float(SWEEP_INTERVAL)},
    "outbox-sweep": {"task": "tracker.outbox_sweep", "schedule": float(SWEEP_INTERVAL)},
    # The day-before reminders of scheduled nights (idempotent: each night is reminded once).
    "night-reminders": {"task": "tracker.night_reminders", "schedule": 600.0},
    # The results mail of a night whose task was lost (idempotent: one mail per player).
    "night-results-sweep": {"task": "tracker.night_results_sweep", "schedule": 300.0},
}
# How long the yes / no / maybe link of a night's mail works (and never after it starts).
RSVP_LINK_MAX_AGE_SECONDS = env_int("RSVP_LINK_MAX_AGE_SECONDS", default=30 * 24 * 3600)

# --- Logging: one JSON object per line on stdout (plain text in development runs) ----
LOG_LEVEL = (env_str("LOG_LEVEL", "INFO") or "INFO").upper()
LOG_FORMAT = (env_str("LOG_FORMAT", "text" if DEBUG else "json") or "json").lower()
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}.")
LOGGING = logging_config(level=LOG_LEVEL, fmt=LOG_FORMAT)
