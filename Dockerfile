# Chronique: one image for the web servers (gunicorn, daphne), the Celery worker and beat.
# Build: docker build -t chronique:latest .      Run everything: docker compose up -d
FROM python:3.11-slim

# PYTHONPATH: pip installs the packages into site-packages too, but settings.py derives
# BASE_DIR (templates, static, locale, var) from its own location, so /app must win.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    DJANGO_SETTINGS_MODULE=config.settings

WORKDIR /app

# An unprivileged user with a fixed numeric id (Kubernetes' runAsNonRoot can verify it).
RUN groupadd --system --gid 10001 chronique \
    && useradd --system --uid 10001 --gid chronique --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin chronique

# Dependencies first, so that editing templates or static files reuses this layer.
COPY pyproject.toml ./
COPY config ./config
COPY characters ./characters
COPY campaigns ./campaigns
COPY rules ./rules
RUN pip install . \
    && rm -rf build ./*.egg-info

COPY . .

# Static files are collected (hashed, compressed) into the image; WhiteNoise serves them.
# The throw-away key serves this step only: it is not kept in the image's environment.
RUN SECRET_KEY=collectstatic-only-build-time-dummy-key-not-used-at-runtime \
    python manage.py collectstatic --noinput -v 0 \
    && mkdir -p /app/var/media \
    && chown -R chronique:chronique /app/var

USER 10001:10001

EXPOSE 8000

# The pages and the API (WSGI, threaded workers); compose runs daphne beside it for the live
# table's WebSockets and a proxy in front of both (docs/deployment.md).
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", "--workers", "2", "--threads", "4"]
