"""ASGI entry point: the pages and the API over HTTP, the live encounter over WebSockets
(Django Channels; `rules.urls.websocket_urlpatterns`). Served by daphne (`make run`,
compose, the benchmarks),
behind a gate that refuses unread what daphne must not take (config/asgi_gate.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django is set up before anything imports a model.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import embedded_beat  # noqa: E402
from config.asgi_gate import HttpGate, bound_daphne_bodies  # noqa: E402
from rules.urls import websocket_urlpatterns  # noqa: E402

bound_daphne_bodies()
if settings.EMBEDDED_BEAT:
    embedded_beat.start()

application = HttpGate(
    ProtocolTypeRouter(
        {
            "http": django_application,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
