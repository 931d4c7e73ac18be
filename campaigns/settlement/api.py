"""API twins of the settlement pages: the same cards, services and permission checks."""

from dataclasses import asdict

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.settlement.cards import (
    BreakdownLine,
    breakdown_lines,
    campaign_leaderboard_card,
    history_card,
    overall_leaderboard_card,
    settlement_card,
)
from campaigns.settlement.plan import ParticipantPlan, SettlementPlan, TraumaChange, UnitDeparture
from campaigns.settlement.services import death_choice_make, settlement_reopen, settlement_request
from campaigns.statistics.services import HistoryPoint, StandingRow
from characters.serializers import CardSerializer
from rules.engine.systems.of_the_dead.effects import SheetNumbers
from rules.engine.systems.of_the_dead.settlement import DeathChoice


class SettlementSheetSerializer(CardSerializer):
    class Meta:
        dataclass = SheetNumbers
        fields = "__all__"


class SettlementTraumaChangeSerializer(CardSerializer):
    class Meta:
        dataclass = TraumaChange
        fields = "__all__"


class ParticipantPlanSerializer(CardSerializer):
    trauma_changes = SettlementTraumaChangeSerializer(many=True)
    sheet_before = SettlementSheetSerializer(allow_null=True)
    sheet_after = SettlementSheetSerializer(allow_null=True)

    class Meta:
        dataclass = ParticipantPlan
        fields = "__all__"


class SettlementDepartureSerializer(CardSerializer):
    class Meta:
        dataclass = UnitDeparture
        fields = "__all__"


class SettlementPlanSerializer(CardSerializer):
    participants = ParticipantPlanSerializer(many=True)
    departures = SettlementDepartureSerializer(many=True)

    class Meta:
        dataclass = SettlementPlan
        fields = ("played_in_chronique", "participants", "departures")


class SettlementSerializer(serializers.Serializer):
    chapter = serializers.IntegerField()
    status = serializers.CharField(
        help_text="open, awaiting, queued, running, done, failed or reopened"
    )
    settled_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    summary = serializers.DictField()
    preview = SettlementPlanSerializer(allow_null=True)


def _settlement_body(card) -> dict:
    return {
        "chapter": card.chapter.pk,
        "status": card.status,
        "settled_at": card.chapter.settled_at,
        "attempts": card.settlement.attempts if card.settlement else 0,
        "summary": card.settlement.summary if card.settlement else {},
        "preview": asdict(card.plan) if card.plan else None,
    }


class ChapterSettlementAPI(APIView):
    """A chapter's settlement (organisers): GET the preview of every change and the
    progress; POST to confirm, which queues the task (202)."""

    @extend_schema(responses=SettlementSerializer)
    def get(self, request, pk: int):
        card = settlement_card(request.user, pk)
        return Response(SettlementSerializer(_settlement_body(card)).data)

    @extend_schema(request=None, responses={202: SettlementSerializer})
    def post(self, request, pk: int):
        card = settlement_card(request.user, pk, with_plan=False)
        settlement_request(actor=request.user, chapter=card.chapter)
        card = settlement_card(request.user, pk, with_plan=False)
        return Response(
            SettlementSerializer(_settlement_body(card)).data, status=status.HTTP_202_ACCEPTED
        )


class ChapterSettlementReopenAPI(APIView):
    """Reopen a settled chapter (organisers): its effects are reverted."""

    @extend_schema(request=None, responses=SettlementSerializer)
    def post(self, request, pk: int):
        card = settlement_card(request.user, pk, with_plan=False)
        settlement_reopen(actor=request.user, chapter=card.chapter)
        card = settlement_card(request.user, pk)
        return Response(SettlementSerializer(_settlement_body(card)).data)


class ReputationBreakdownSerializer(CardSerializer):
    class Meta:
        dataclass = BreakdownLine
        fields = "__all__"


class StandingSerializer(CardSerializer):
    breakdown = ReputationBreakdownSerializer(many=True)

    class Meta:
        dataclass = StandingRow
        fields = "__all__"


def _standing(row) -> dict:
    return {**asdict(row), "breakdown": [asdict(line) for line in breakdown_lines(row)]}


class CampaignLeaderboardAPI(APIView):
    """A campaign's leaderboard (organisers and participants), ranked by reputation."""

    @extend_schema(responses=StandingSerializer(many=True))
    def get(self, request, pk: int):
        card = campaign_leaderboard_card(request.user, pk)
        return Response(StandingSerializer([_standing(r) for r in card.rows], many=True).data)


class LeaderboardAPI(APIView):
    """The leaderboard of all campaigns: public statistics, and your own."""

    @extend_schema(responses=StandingSerializer(many=True))
    def get(self, request):
        card = overall_leaderboard_card(request.user)
        return Response(StandingSerializer([_standing(r) for r in card.rows], many=True).data)


class HistoryChapterSerializer(CardSerializer):
    class Meta:
        dataclass = HistoryPoint
        fields = "__all__"


class HistoryTraumaSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.CharField()
    permanence = serializers.CharField()
    active = serializers.BooleanField()
    chapter = serializers.IntegerField(source="chapter_id", allow_null=True)


class HistorySerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    chapters = HistoryChapterSerializer(many=True)
    traumas = HistoryTraumaSerializer(many=True)
    standing = StandingSerializer(allow_null=True)


class ProfileHistoryAPI(APIView):
    """A character's settled chapters (survival points, traumas, kills over time) and
    reputation with its breakdown: its player, or anyone when public with statistics."""

    @extend_schema(responses=HistorySerializer)
    def get(self, request, username: str):
        card = history_card(request.user, username)
        body = {
            "username": card.player.username,
            "name": card.player.public_name,
            "chapters": [asdict(p) for p in card.points],
            "traumas": HistoryTraumaSerializer(card.traumas, many=True).data,
            "standing": _standing(card.standing) if card.standing else None,
        }
        return Response(HistorySerializer(body).data)


class DeathChoiceSerializer(serializers.Serializer):
    choice = serializers.ChoiceField(choices=[c.value for c in DeathChoice])


class DeathChoiceAPI(APIView):
    """RULES-NOTES O6: your dead character returns as a zombie or takes reincarnation."""

    @extend_schema(
        request=DeathChoiceSerializer,
        responses=inline_serializer("DeathChoiceResult", {"status": serializers.CharField()}),
    )
    def post(self, request):
        serializer = DeathChoiceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = death_choice_make(actor=request.user, choice=serializer.validated_data["choice"])
        return Response({"status": profile.status})
