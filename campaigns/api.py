"""API twins of the campaign pages: the same cards, the same permission helper."""

from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.cards import campaign_card, campaign_list_for


class CampaignSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    system_name = serializers.CharField()
    organiser = serializers.CharField()
    participants = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class EventSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    actor = serializers.CharField()
    verb = serializers.CharField()
    data = serializers.DictField()


class ChapterLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    place = serializers.CharField()
    closed_at = serializers.DateTimeField(allow_null=True)
    settled_at = serializers.DateTimeField(allow_null=True)
    eligible = serializers.BooleanField(allow_null=True)
    reasons = serializers.ListField(child=serializers.CharField())


class VoteLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    chapter_title = serializers.CharField()
    opened_at = serializers.DateTimeField()


class InvitationLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    token = serializers.CharField()
    created_at = serializers.DateTimeField()


class CampaignCardSerializer(serializers.Serializer):
    summary = CampaignSummarySerializer()
    description = serializers.CharField()
    participants = serializers.ListField(child=serializers.CharField())
    history = EventSerializer(many=True)
    is_organiser = serializers.BooleanField()
    co_organisers = serializers.ListField(child=serializers.CharField())
    chapters = ChapterLineSerializer(many=True)
    chapters_planned = serializers.IntegerField(allow_null=True)
    chapters_target = serializers.IntegerField()
    open_votes = VoteLineSerializer(many=True)
    invitations = InvitationLineSerializer(many=True)
    can_manage = serializers.BooleanField()
    is_player = serializers.BooleanField()
    is_main_organiser = serializers.BooleanField()
    survival_points_survive = serializers.IntegerField()
    survival_points_victory = serializers.IntegerField()


class CampaignListAPI(APIView):
    """The campaigns you organise or take part in."""

    @extend_schema(responses=CampaignSummarySerializer(many=True))
    def get(self, request):
        rows = campaign_list_for(request.user)
        return Response(CampaignSummarySerializer([asdict(r) for r in rows], many=True).data)


class CampaignDetailAPI(APIView):
    """One campaign: participants and latest history (organiser and participants only)."""

    @extend_schema(responses=CampaignCardSerializer)
    def get(self, request, pk: int):
        return Response(CampaignCardSerializer(asdict(campaign_card(request.user, pk))).data)
