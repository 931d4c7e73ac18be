"""API twins of the campaign export pages: the same services, the same permission helper."""

from dataclasses import asdict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import CampaignCardSerializer
from campaigns.cards import campaign_card
from campaigns.selectors import campaign_get_for_user
from campaigns.transfer import services


class CampaignExportAPI(APIView):
    """The whole campaign as a JSON document (format chronique.campaign, version 1,
    docs/campaign-export.md); organisers only."""

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk, need="manage")
        return Response(services.campaign_export(actor=request.user, campaign=campaign))


class CampaignImportAPI(APIView):
    """Create a campaign from an export (the request body); a file refused is a sentence and
    nothing is written. The importer becomes its organiser."""

    parser_classes = [JSONParser]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: CampaignCardSerializer})
    def post(self, request):
        campaign = services.campaign_import(actor=request.user, text=request.body)
        card = campaign_card(request.user, campaign_get_for_user(request.user, campaign.pk))
        return Response(CampaignCardSerializer(asdict(card)).data, status=status.HTTP_201_CREATED)
