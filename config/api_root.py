"""The API's front door: where everything is."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse


@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_root(request):
    def link(name):
        return reverse(name, request=request)

    return Response(
        {
            "signup": link("api-signup"),
            "token": link("api-token"),
            "me": link("api-me"),
            "campaigns": link("api-campaign-list"),
            "rules": link("api-rules"),
            "rolls": link("api-roll-list"),
            "schema": link("api-schema"),
            "docs": link("api-docs"),
        }
    )
