"""The root of every route: each app's pages and API twins, included; nothing else lives here
but the project-wide pages (home, health check, language switch, API schema and docs, admin).

The rules API comes first: it is the calculators' hot path (see rules/urls.py).
"""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from campaigns import urls as campaigns_urls
from characters import urls as characters_urls
from config import views
from config.api_root import api_root
from rules import urls as rules_urls

# Swagger UI sets inline styles; on its page alone styles (never scripts) may be inline.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

api_urlpatterns = [
    path("rules/", include(rules_urls.resolve_api_urlpatterns)),
    path("", api_root, name="api-root"),
    path("", include(characters_urls.api_urlpatterns)),
    path("", include(campaigns_urls.api_urlpatterns)),
    path("", include(rules_urls.api_urlpatterns)),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("api/v1/", include(api_urlpatterns)),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("theme/", views.set_theme, name="set_theme"),
    path("", include(characters_urls)),
    path("", include(campaigns_urls)),
    path("", include(rules_urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("admin/", admin.site.urls),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
