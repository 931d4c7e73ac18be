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


class CampaignCardSerializer(serializers.Serializer):
    summary = CampaignSummarySerializer()
    description = serializers.CharField()
    participants = serializers.ListField(child=serializers.CharField())
    history = EventSerializer(many=True)
    is_organiser = serializers.BooleanField()


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
