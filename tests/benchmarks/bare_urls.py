"""The site's URLs plus one bare response (`/bench/bare/`), for the page-speed bench: the
cost of the whole middleware stack with nothing behind it."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), path("", include("config.urls"))]
