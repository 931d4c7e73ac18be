"""Load what a campaign page shows in a fixed number of queries, as plain data."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count
from django.http import Http404

from campaigns.models import Campaign, CampaignEvent, Membership
from campaigns.permissions import CAN_VIEW, campaign_role
from config.permissions import require
from rules.systems import system_get

HISTORY_SHOWN = 50


@dataclass(frozen=True)
class CampaignSummary:
    id: int
    name: str
    system: str
    system_name: str
    organiser: str
    participants: int
    created_at: datetime


@dataclass(frozen=True)
class EventLine:
    at: datetime
    actor: str
    verb: str
    data: dict


@dataclass(frozen=True)
class CampaignCard:
    summary: CampaignSummary
    description: str
    participants: list[str]
    history: list[EventLine]
    is_organiser: bool


def _summary(campaign: Campaign, participants: int) -> CampaignSummary:
    return CampaignSummary(
        id=campaign.pk,
        name=campaign.name,
        system=campaign.system,
        system_name=system_get(campaign.system).name,
        organiser=campaign.organiser.public_name,
        participants=participants,
        created_at=campaign.created_at,
    )


def campaign_list_for(user) -> list[CampaignSummary]:
    """One query, whatever the number of campaigns."""
    rows = (
        Campaign.objects.for_user(user)
        .select_related("organiser")
        .annotate(n_participants=Count("memberships", distinct=True))
    )
    return [_summary(row, row.n_participants) for row in rows]


def campaign_card(user, pk: int) -> CampaignCard:
    """Four queries: the campaign, its participants, its latest history (plus the session's).

    Participants and history are read as plain values: no model is built per row.
    """
    campaign = Campaign.objects.select_related("organiser").filter(pk=pk).first()
    if campaign is None:
        raise Http404
    members = list(
        Membership.objects.filter(campaign=campaign)
        .order_by("joined_at", "pk")
        .values_list("player_id", "player__display_name", "player__username")
    )
    roles = campaign_role(user, campaign, member_ids={player_id for player_id, _, _ in members})
    require(roles, CAN_VIEW, visible=CAN_VIEW)
    events = (
        CampaignEvent.objects.filter(campaign=campaign)
        .order_by("-at", "-pk")
        .values_list("at", "actor__display_name", "actor__username", "verb", "data")[:HISTORY_SHOWN]
    )
    return CampaignCard(
        summary=_summary(campaign, len(members)),
        description=campaign.description,
        participants=[display or username for _, display, username in members],
        history=[
            EventLine(at=at, actor=display or username or "", verb=verb, data=data)
            for at, display, username, verb, data in events
        ],
        is_organiser=campaign.organiser_id == getattr(user, "pk", None),
    )
