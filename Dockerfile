# One image for the web server, the Celery worker and beat (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

RUN useradd --create-home --uid 1000 homegame

# The dependencies alone, in a layer that changes only with pyproject.toml: the package
# folders are empty here, so the wheel built from them carries no code, and it is removed
# again. The application lives once, in /app, copied below (the site, gunicorn and celery
# import it from the working directory).
COPY pyproject.toml README.md ./
RUN mkdir homegame tracker api web \
    && pip install --no-cache-dir . \
    && pip uninstall --yes homegame \
    && rmdir homegame tracker api web

# Only what the site runs: no tests, docs, benchmarks or CI files (.dockerignore keeps
# secrets such as .env out of the build context too).
COPY manage.py ./
COPY homegame ./homegame
COPY tracker ./tracker
COPY api ./api
COPY web ./web
COPY templates ./templates
COPY static ./static
# collectstatic needs settings but no database or real secret.
RUN DEBUG=false SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

USER homegame
EXPOSE 8000
# Exec form: gunicorn is PID 1 and gets the stop signal itself, so it drains its requests.
CMD ["gunicorn", "homegame.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--graceful-timeout", "20", "--access-logfile", "-"]
