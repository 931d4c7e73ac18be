"""WSGI entry point: the pages and the API (gunicorn config.wsgi, threaded workers; the
live table's WebSockets are served from config.asgi, docs/deployment.md)."""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Every view module imported as the worker starts, not on its first visitor's request
# (which would wait a second or more, with every request that came in beside it).
_views = get_resolver().url_patterns
