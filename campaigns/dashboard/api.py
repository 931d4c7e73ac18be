"""API twin of the dashboard: the same card."""

from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.dashboard.cards import DashboardCard, dashboard_card
from characters.serializers import card_serializer

DashboardCardSerializer = card_serializer(DashboardCard)


class DashboardAPI(APIView):
    """What is next for you: your next chapter and whether you may play it, the votes
    awaiting your ballot, a death choice to make, your characters and units, your
    campaigns' latest history and, as an organiser, the chapters to close and the
    settlements to confirm."""

    @extend_schema(responses=DashboardCardSerializer)
    def get(self, request):
        return Response(DashboardCardSerializer(asdict(dashboard_card(request.user))).data)
