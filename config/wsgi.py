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

from characters.widgets import RENDERER

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _prepare() -> list[str]:
    """Imports every view module and compiles every template (a template that does not
    compile stops the worker here, not a visitor's request); the templates' names."""
    get_resolver().url_patterns  # noqa: B018 - imports every view module
    templates = Path(settings.BASE_DIR) / "templates"
    names = [p.relative_to(templates).as_posix() for p in sorted(templates.rglob("*.html"))]
    for name in names:
        if name.startswith("jinja2/"):  # the form renderer's own (characters/widgets.py)
            RENDERER.engine.get_template(name.removeprefix("jinja2/"))
        else:
            get_template(name)
    return names


_prepare()
