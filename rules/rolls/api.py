"""The API twins of the roll pages: your server rolls, and one of them with its replay."""

from dataclasses import asdict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.rolls.models import RollRecord
from rules.rolls.selectors import chapters_being_played, roll_get_for_user
from rules.rolls.services import roll_replay


class RollRecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = RollRecord
        fields = ["id", "at", "system", "resolver", "inputs", "seed", "dice", "outcome"]


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
        record = roll_get_for_user(request.user, pk)
        return Response(
            {
                **RollRecordSerializer(record).data,
                "replay": roll_replay(record=record),
                # Where it can be recorded: POST {"roll": id} to each chapter's encounter log.
                "record_in": [
                    asdict(c) for c in chapters_being_played(request.user, system=record.system)
                ],
            }
        )
