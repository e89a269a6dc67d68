"""Django's error views (handler400/404/500 in homegame/urls.py).

The pages keep Django's HTML answers, with two statuses made precise: a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (or too many fields or files) is a 413, and an exception
raised because the database cannot be reached is a 503 with ``Retry-After``. Under /api/
api/middleware.py then turns any of these into the API's error body.
"""

from __future__ import annotations

import sys

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponse
from django.views import defaults

from api.errors import DATABASE_DOWN, RETRY_AFTER_SECONDS

TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def bad_request(request, exception):
    response = defaults.bad_request(request, exception)
    if isinstance(exception, TOO_LARGE):
        response.status_code = 413
    return response


def page_not_found(request, exception):
    return defaults.page_not_found(request, exception)


def server_error(request):
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_DOWN):
        response = HttpResponse(
            "<h1>Service unavailable</h1><p>Try again in a moment.</p>", status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)
