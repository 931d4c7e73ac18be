"""The stateless rules API and the audited server rolls (API twins of the calculator)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.models import RollRecord
from campaigns.rolls import resolve, roll_on_server, roll_replay
from rules.resolvers import RESOLVERS, VERBS, resolvers_of
from rules.systems import SYSTEMS


def systems_listing() -> list[dict]:
    return [
        {
            "slug": system.slug,
            "name": system.name,
            "resolvers": [
                {
                    "name": r.name,
                    "summary": r.summary,
                    "reference": r.reference,
                    "verbs": list(VERBS),
                    "input_schema": r.input_schema,
                }
                for r in resolvers_of(system.slug)
            ],
        }
        for system in SYSTEMS
    ]


class RollRecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = RollRecord
        fields = ["id", "at", "system", "resolver", "inputs", "seed", "dice", "outcome"]


class RulesAPI(APIView):
    """The game systems, their resolvers and each resolver's input JSON schema."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"systems": systems_listing()})


class ResolveAPI(APIView):
    """Run a resolver: `odds` and `evaluate` for anyone; `roll` for a logged-in player,
    recorded with its server-chosen seed."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("system", str, OpenApiParameter.PATH, enum=["kolaps"]),
            OpenApiParameter(
                "resolver", str, OpenApiParameter.PATH, enum=[r.name for r in RESOLVERS]
            ),
            OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(VERBS)),
        ],
        request=OpenApiTypes.OBJECT,
        responses=OpenApiTypes.OBJECT,
        description=(
            'kolaps/test body: {"db": 3, "rank": "veteran", "sante": 6} plus '
            '"dice": [3, 4, 5] for evaluate. Every resolver\'s input schema is listed by '
            "GET /api/v1/rules/."
        ),
    )
    def post(self, request, system: str, resolver: str, verb: str):
        data = request.data if isinstance(request.data, dict) else {}
        if verb == "roll":
            record = roll_on_server(player=request.user, system=system, name=resolver, data=data)
            return Response({**record.outcome, "roll_id": record.pk}, status=201)
        return Response(resolve(system=system, name=resolver, verb=verb, data=data))


class RollListAPI(APIView):
    """Your server rolls, newest first (the last 100)."""

    @extend_schema(responses=RollRecordSerializer(many=True))
    def get(self, request):
        rows = RollRecord.objects.for_user(request.user)[:100]
        return Response(RollRecordSerializer(rows, many=True).data)


class RollDetailAPI(APIView):
    """One of your server rolls, and whether replaying its seed gives the same result."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        record = get_object_or_404(RollRecord.objects.for_user(request.user), pk=pk)
        return Response({**RollRecordSerializer(record).data, "replay": roll_replay(record=record)})
