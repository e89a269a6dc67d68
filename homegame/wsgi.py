"""WSGI entry point (gunicorn homegame.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "homegame.settings")
application = get_wsgi_application()
