# One image for the web server and the Celery worker.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

RUN useradd --create-home --uid 1000 homegame
COPY pyproject.toml README.md ./
COPY homegame ./homegame
COPY tracker ./tracker
COPY api ./api
COPY web ./web
RUN pip install --no-cache-dir .
COPY . .
# collectstatic needs settings but no database or real secret.
RUN DEBUG=false SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

USER homegame
EXPOSE 8000
CMD ["gunicorn", "homegame.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
