"""API twin of the catalogue page: the same card."""

from dataclasses import asdict

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.serializers import card_serializer
from rules.catalogue.cards import CatalogueCard, catalogue_card

CatalogueCardSerializer = card_serializer(CatalogueCard)


class CatalogueAPI(APIView):
    """A game system's catalogue in sections (KOLAPS archetypes, Rapid 40000 armies, the
    tables of Of the Dead, Corporates and the modern RPG...), filtered by `q` (case and
    accents ignored); 404 for a system without one."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="words to look for")],
        responses=CatalogueCardSerializer,
    )
    def get(self, request, system: str):
        card = catalogue_card(system, request.query_params.get("q", ""))
        return Response(CatalogueCardSerializer(asdict(card)).data)
