"""API twins of the settlement pages: the same cards, services and permission checks."""

from dataclasses import asdict

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.selectors import campaign_get_for_user, chapter_get_for_user
from campaigns.settlement.cards import (
    BreakdownLine,
    HistoryCard,
    SettlementCard,
    campaign_leaderboard_card,
    history_card,
    overall_leaderboard_card,
    settlement_card,
)
from campaigns.settlement.plan import SettlementPlan, TraumaChange
from campaigns.settlement.services import death_choice_make, settlement_reopen, settlement_request
from campaigns.statistics.services import HistoryPoint, StandingRow
from campaigns.systems.base import UnitDeparture
from campaigns.systems.fields import speak
from characters.profiles.selectors import statistics_player_get_for_user
from characters.serializers import CardSerializer, card_serializer
from rules.engine.systems import system_get
from rules.engine.systems.of_the_dead.effects import SheetNumbers
from rules.engine.systems.of_the_dead.settlement import DeathChoice

# A participant's sheet, trauma changes and a unit's departures, wherever the plan nests them.
SettlementSheetSerializer = card_serializer(SheetNumbers, name="SettlementSheet")
SettlementTraumaChangeSerializer = card_serializer(TraumaChange, name="SettlementTraumaChange")
SettlementDepartureSerializer = card_serializer(UnitDeparture, name="SettlementDeparture")


class SettlementPlanSerializer(CardSerializer):
    class Meta:
        dataclass = SettlementPlan
        fields = ("played_in_chronique", "participants", "departures")


class SettlementSerializer(CardSerializer):
    chapter = serializers.IntegerField(source="chapter.pk")
    settled_at = serializers.DateTimeField(source="chapter.settled_at", allow_null=True)
    attempts = serializers.IntegerField()
    summary = serializers.DictField()
    preview = SettlementPlanSerializer(source="plan", allow_null=True)

    class Meta:
        dataclass = SettlementCard
        fields = ("chapter", "status", "settled_at", "attempts", "summary", "preview")
        extra_kwargs = {
            "status": {"help_text": "open, awaiting, queued, running, done, failed or reopened"}
        }

    def to_representation(self, instance):
        """As the campaign's system speaks (`campaigns.systems.fields`)."""
        return speak(super().to_representation(instance), system_get(instance.campaign.system))


class ChapterSettlementAPI(APIView):
    """A chapter's settlement (organisers): GET the preview of every change and the
    progress; POST to confirm, which queues the task (202)."""

    @extend_schema(responses=SettlementSerializer)
    def get(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage", with_settlement=True)
        return Response(SettlementSerializer(settlement_card(chapter)).data)

    @extend_schema(request=None, responses={202: SettlementSerializer})
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        settlement_request(actor=request.user, chapter=chapter)
        # Read again: the settlement may have run already (no broker: tasks run in-process).
        chapter = chapter_get_for_user(request.user, pk, need="manage", with_settlement=True)
        card = settlement_card(chapter, with_plan=False)
        return Response(SettlementSerializer(card).data, status=status.HTTP_202_ACCEPTED)


class ChapterSettlementReopenAPI(APIView):
    """Reopen a settled chapter (organisers): its effects are reverted."""

    @extend_schema(request=None, responses=SettlementSerializer)
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        settlement_reopen(actor=request.user, chapter=chapter)
        # Reopened: read again.
        chapter = chapter_get_for_user(request.user, pk, need="manage", with_settlement=True)
        return Response(SettlementSerializer(settlement_card(chapter)).data)


ReputationBreakdownSerializer = card_serializer(BreakdownLine, name="ReputationBreakdown")


class StandingSerializer(CardSerializer):
    breakdown = ReputationBreakdownSerializer(many=True, source="breakdown_lines")

    class Meta:
        dataclass = StandingRow


class StandingsColumnSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The statistic, a key of each row's `values`.")
    label = serializers.CharField(help_text="Its heading, in the reader's language.")


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    score = serializers.IntegerField(help_text="What the campaign ranks by (`score_heading`).")
    values = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The player's figure of each of `columns`, by its key.",
    )
    breakdown = ReputationBreakdownSerializer(
        many=True,
        required=False,
        help_text="How the score sums, line by line: only where players bring their own "
        "profile (Of the Dead's reputation); absent otherwise.",
    )


class StandingsSerializer(serializers.Serializer):
    system = serializers.CharField()
    ranked = serializers.BooleanField(
        help_text="False: the campaign shows its party, not a ranking."
    )
    score_heading = serializers.CharField()
    columns = StandingsColumnSerializer(many=True)
    rows = StandingsRowSerializer(many=True)


def standings_data(card) -> dict:
    """A campaign's standings with the columns its system declares (`Standings.columns`),
    the same as its page's table, and no other figure."""
    explains = card.explains_reputation
    rows = []
    for row, values in card.table:
        line = {
            "rank": row.rank,
            "username": row.username,
            "name": row.name,
            "score": row.score,
            "values": {c.name: v for c, v in zip(card.columns, values, strict=True)},
        }
        if explains:
            line["breakdown"] = [asdict(b) for b in row.breakdown_lines]
        rows.append(line)
    return {
        "system": card.system.slug,
        "ranked": card.ranked,
        "score_heading": card.score_heading,
        "columns": [{"key": c.name, "label": c.heading} for c in card.columns],
        "rows": rows,
    }


class CampaignLeaderboardAPI(APIView):
    """A campaign's standings (organisers and participants), as its system declares them:
    its `columns` (the page's table) and each player's `values` of them, ranked by `score`
    (Of the Dead's reputation, KOLAPS and Rapid 40000's standing points) in the order of
    `rank`; the score's `breakdown` only where players bring a profile."""

    @extend_schema(responses=StandingsSerializer)
    def get(self, request, pk: int):
        card = campaign_leaderboard_card(campaign_get_for_user(request.user, pk))
        return Response(StandingsSerializer(standings_data(card)).data)


class LeaderboardAPI(APIView):
    """The leaderboard of all campaigns: public statistics, and your own."""

    @extend_schema(responses=StandingSerializer(many=True))
    def get(self, request):
        card = overall_leaderboard_card(request.user)
        return Response(StandingSerializer(card.rows, many=True).data)


HistoryChapterSerializer = card_serializer(HistoryPoint, name="HistoryChapter")


class HistoryTraumaSerializer(serializers.Serializer):
    # A trauma as the profile records it (the card hands over the rows).
    name = serializers.CharField()
    kind = serializers.CharField()
    permanence = serializers.CharField()
    active = serializers.BooleanField()
    chapter = serializers.IntegerField(source="chapter_id", allow_null=True)


class HistorySerializer(CardSerializer):
    username = serializers.CharField(source="player.username")
    name = serializers.CharField(source="player.public_name")
    chapters = HistoryChapterSerializer(many=True, source="points")
    traumas = HistoryTraumaSerializer(many=True)
    standing = StandingSerializer(allow_null=True)

    class Meta:
        dataclass = HistoryCard
        fields = ("username", "name", "chapters", "traumas", "standing")


class ProfileHistoryAPI(APIView):
    """A character's settled chapters (survival points, traumas, kills over time) and
    reputation with its breakdown: its player, or anyone when public with statistics."""

    @extend_schema(responses=HistorySerializer)
    def get(self, request, username: str):
        player = statistics_player_get_for_user(request.user, username)
        return Response(HistorySerializer(history_card(request.user, player)).data)


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
