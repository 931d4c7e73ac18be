"""WSGI entry point: the pages and the API (gunicorn config.wsgi, threaded workers; the
live table's WebSockets are served from config.asgi, docs/deployment.md).

A worker prepares what every request needs before it takes its first: every view module
imported and Chronique's templates compiled. Else its first visitors wait a second or more
for them, and every request that came in beside them waits too."""

import os
from pathlib import Path

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.template.loader import get_template
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _prepare() -> None:
    get_resolver().url_patterns  # noqa: B018 - imports every view module
    templates = Path(settings.BASE_DIR) / "templates"
    for path in sorted(templates.rglob("*.html")):
        get_template(path.relative_to(templates).as_posix())


_prepare()
