"""Load what a campaign page shows in a fixed number of queries, as plain data."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Prefetch

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
    """Three queries: the campaign, its participants, its latest history."""
    campaign = (
        Campaign.objects.select_related("organiser")
        .prefetch_related(
            Prefetch(
                "memberships",
                queryset=Membership.objects.select_related("player").order_by("joined_at", "pk"),
            ),
        )
        .filter(pk=pk)
        .first()
    )
    if campaign is None:
        from django.http import Http404

        raise Http404
    memberships = list(campaign.memberships.all())
    roles = campaign_role(user, campaign, member_ids={m.player_id for m in memberships})
    require(roles, CAN_VIEW, visible=CAN_VIEW)
    events = (
        CampaignEvent.objects.filter(campaign=campaign)
        .select_related("actor")
        .order_by("-at", "-pk")[:HISTORY_SHOWN]
    )
    return CampaignCard(
        summary=_summary(campaign, len(memberships)),
        description=campaign.description,
        participants=[m.player.public_name for m in memberships],
        history=[
            EventLine(
                at=e.at, actor=e.actor.public_name if e.actor else "", verb=e.verb, data=e.data
            )
            for e in events
        ],
        is_organiser=campaign.organiser_id == getattr(user, "pk", None),
    )
