"""API twin of the encounter log page: the same card, service and permission checks."""

from dataclasses import asdict
from datetime import UTC

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.chapters.services import MAX_DAMAGE, encounter_event_record
from campaigns.selectors import chapter_get_for_user
from characters.models import Player
from characters.serializers import CardSerializer
from rules.rolls.models import RollRecord
from rules.table.cards import EncounterCard, EncounterRow, encounter_card


class EncounterRowSerializer(CardSerializer):
    class Meta:
        dataclass = EncounterRow
        # The log gives its times in UTC ("...Z"), as it always has.
        extra_kwargs = {"at": {"default_timezone": UTC}}


class EncounterLogSerializer(CardSerializer):
    chapter_id = serializers.IntegerField(source="chapter.pk")
    status = serializers.CharField(source="chapter.status")
    can_record = serializers.BooleanField()

    class Meta:
        dataclass = EncounterCard
        fields = ("chapter_id", "status", "can_record", "rows")


class EncounterRollSerializer(serializers.Serializer):
    """Ids; a refusal of the service names the same fields."""

    player = serializers.IntegerField(required=False, help_text="Who rolled; yourself if absent.")
    target = serializers.IntegerField(required=False, allow_null=True)
    damage = serializers.IntegerField(min_value=0, max_value=MAX_DAMAGE, default=0)
    roll = serializers.IntegerField(
        required=False, allow_null=True, help_text="One of the rolling player's server rolls."
    )


def _log(card: EncounterCard) -> dict:
    return EncounterLogSerializer(card).data


def _found(model, pk, field: str, sentence: str):
    if pk is None:
        return None
    found = model.objects.filter(pk=pk).first()
    if found is None:
        raise serializers.ValidationError({field: [sentence]})
    return found


class ChapterEncounterAPI(APIView):
    """A chapter's encounter log (organisers and participants); POST records a roll while
    the chapter is being played (an organiser for any player, a player for themself)."""

    @extend_schema(responses=EncounterLogSerializer)
    def get(self, request, pk: int):
        return Response(_log(encounter_card(request.user, chapter_get_for_user(request.user, pk))))

    @extend_schema(request=EncounterRollSerializer, responses={201: EncounterRowSerializer})
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        serializer = EncounterRollSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        unknown_player = _("Choose a player of this campaign.")
        event = encounter_event_record(
            actor=request.user,
            chapter=chapter,
            player=_found(Player, data.get("player"), "player", unknown_player) or request.user,
            target=_found(Player, data.get("target"), "target", unknown_player),
            damage=data["damage"],
            roll=_found(
                RollRecord,
                data.get("roll"),
                "roll",
                _("Choose one of the rolling player's own server rolls."),
            ),
        )
        row = next(row for row in encounter_card(request.user, chapter).rows if row.id == event.pk)
        return Response(asdict(row), status=status.HTTP_201_CREATED)
