"""The API twin of a campaign's rules settings: GET for members, POST for organisers."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.rules_settings.services import (
    campaign_rules_settings,
    campaign_rules_settings_set,
)
from campaigns.selectors import campaign_get_for_user
from rules.engine.systems.open_settings import settings_of


def _answer(campaign) -> dict:
    return {
        "system": campaign.system,
        "settings": campaign_rules_settings(campaign),
        "open_settings": settings_of(campaign.system),
    }


class CampaignRulesSettingsAPI(APIView):
    """The campaign's choices where its system's text is open, with each setting's default,
    choices and the passage it interprets; POST `{"settings": {...}}` changes them."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(_answer(campaign_get_for_user(request.user, pk)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk)
        settings = request.data.get("settings") if isinstance(request.data, dict) else None
        campaign = campaign_rules_settings_set(
            actor=request.user,
            campaign=campaign,
            settings=settings if isinstance(settings, dict) else {},
        )
        return Response(_answer(campaign))
