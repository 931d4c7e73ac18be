"""Load what a campaign page shows in a fixed number of queries, as plain data."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.chapters.eligibility import Eligibility, Requirement, eligibility
from campaigns.chapters.services import facts_of, requirement_of
from campaigns.history import event_sentence
from campaigns.models import (
    Campaign,
    CampaignEvent,
    Chapter,
    ChapterStatus,
    Invitation,
    Membership,
    MembershipRole,
    Vote,
    VoteStatus,
)
from campaigns.permissions import CAN_MANAGE, campaign_role, members_of
from characters.models import Profile
from characters.permissions import Role
from rules.engine.systems import system_get

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
    sentence: str = ""  # who did what, in the reader's language (campaigns.history)


@dataclass(frozen=True)
class ChapterLine:
    id: int
    number: int
    title: str
    status: str
    starts_at: datetime | None
    place: str
    closed_at: datetime | None
    settled_at: datetime | None
    eligible: bool | None  # for the viewing player; None when they do not play
    reasons: list[str]

    @property
    def awaiting_settlement(self) -> bool:
        return self.status == ChapterStatus.CLOSED and self.settled_at is None


@dataclass(frozen=True)
class VoteLine:
    id: int
    kind: str
    chapter_title: str
    opened_at: datetime
    closes_at: datetime | None = None  # when it closes itself; None: the organisers close it


@dataclass(frozen=True)
class InvitationLine:
    id: int
    token: str
    created_at: datetime


@dataclass(frozen=True)
class CampaignCard:
    summary: CampaignSummary
    description: str
    participants: list[str]
    history: list[EventLine]
    is_organiser: bool
    co_organisers: list[str] = field(default_factory=list)
    chapters: list[ChapterLine] = field(default_factory=list)
    chapters_planned: int | None = None
    chapters_target: int = 0  # O6: as many as players unless the organisers set a number
    open_votes: list[VoteLine] = field(default_factory=list)
    invitations: list[InvitationLine] = field(default_factory=list)
    can_manage: bool = False
    is_player: bool = False
    is_main_organiser: bool = False
    # Of the Dead's survival points (`GameSystem.uses_profiles`); None in other systems,
    # whose API card leaves them out.
    survival_points_survive: int | None = None
    survival_points_victory: int | None = None


def _summary(campaign: Campaign, participants: int) -> CampaignSummary:
    return CampaignSummary(
        id=campaign.pk,
        name=campaign.name,
        system=campaign.system,
        system_name=gettext(system_get(campaign.system).name),
        organiser=campaign.organiser.public_name,
        participants=participants,
        created_at=campaign.created_at,
    )


def campaign_list_for(user) -> list[CampaignSummary]:
    """One query, whatever the number of campaigns: the campaigns the viewer organises or is
    a member of, newest first, with their number of players (counted over all the
    campaign's memberships, not only the viewer's own)."""
    if not user.is_authenticated:
        return []
    campaigns = (
        Campaign.objects.filter(
            Q(organiser=user)
            | Exists(Membership.objects.filter(campaign=OuterRef("pk"), player=user))
        )
        .select_related("organiser")
        .annotate(
            n_participants=Count(
                "memberships", filter=Q(memberships__role=MembershipRole.PLAYER), distinct=True
            )
        )
        .order_by("-created_at", "-pk")
    )
    return [_summary(campaign, campaign.n_participants) for campaign in campaigns]


# What the campaign page reads of each chapter: its line and what eligibility asks.
_CHAPTER_LINE = (
    "number", "title", "status", "starts_at", "place", "closed_at", "settled_at",
    "players_min", "players_max", "min_survival_points", "required_cards", "required_items",
)  # fmt: skip


class ViewerProfile(NamedTuple):
    """What eligibility reads of the viewer's profile (`facts_of`)."""

    status: str
    survival_points: int
    cards: list
    equipment: list


def viewer_profile(viewer: int) -> ViewerProfile | None:
    """The Of the Dead profile of the player `viewer` (an id), as eligibility reads it; one
    query (the campaign page and the dashboard)."""
    profiles = Profile.objects.filter(player_id=viewer).order_by("pk")
    row = profiles.values_list(*ViewerProfile._fields).first()
    return None if row is None else ViewerProfile._make(row)


def _event_line(event: CampaignEvent) -> EventLine:
    actor = event.actor.public_name if event.actor else ""
    return EventLine(
        at=event.at,
        actor=actor,
        verb=event.verb,
        data=event.data,
        sentence=event_sentence(actor, event.verb, event.data),
    )


def campaign_card(user, campaign: Campaign) -> CampaignCard:
    """What `user` sees of a campaign they may see (`campaign_get_for_user`), in a fixed
    number of queries whatever the number of participants or chapters: its memberships, its
    latest history, its chapters, its open votes, and for organisers the active invitations,
    for a player their profile.

    The members are read as plain values: no model is built per participant.
    """
    members = members_of(campaign)
    player_ids = members.player_ids
    roles = campaign_role(user, campaign, members=members)
    can_manage = bool(roles & CAN_MANAGE)
    is_player = Role.PARTICIPANT in roles
    events = (
        CampaignEvent.objects.filter(campaign=campaign)
        .select_related("actor")
        .order_by("-at", "-pk")[:HISTORY_SHOWN]
    )
    chapters = Chapter.objects.filter(campaign=campaign).order_by("number").only(*_CHAPTER_LINE)
    profiles = system_get(campaign.system).uses_profiles
    facts = None
    if is_player and profiles:
        facts = facts_of(viewer_profile(user.pk))
    elif is_player:
        facts = facts_of(None)
    verdicts: dict[Requirement, Eligibility] = {}  # chapters often ask the same
    lines = []
    for chapter in chapters:
        verdict = None
        if facts is not None and chapter.status != ChapterStatus.CLOSED:
            requirement = requirement_of(chapter)
            verdict = verdicts.get(requirement)
            if verdict is None:
                verdict = verdicts[requirement] = eligibility(
                    requirement,
                    facts,
                    players=len(player_ids),
                    uses_profiles=profiles,
                )
        lines.append(
            ChapterLine(
                id=chapter.pk,
                number=chapter.number,
                title=chapter.title,
                status=chapter.status,
                starts_at=chapter.starts_at,
                place=chapter.place,
                closed_at=chapter.closed_at,
                settled_at=chapter.settled_at,
                eligible=verdict.eligible if verdict else None,
                reasons=verdict.reasons if verdict else [],
            )
        )
    open_votes = Vote.objects.filter(campaign=campaign, status=VoteStatus.OPEN)
    votes = [
        VoteLine(
            id=vote.pk,
            kind=vote.kind,
            chapter_title=vote.chapter.title if vote.chapter else "",
            opened_at=vote.opened_at,
            closes_at=vote.closes_at,
        )
        for vote in open_votes.select_related("chapter")
        # Past its date a vote is closed, whether or not the task has counted it yet.
        if vote.closes_at is None or vote.closes_at > timezone.now()
    ]
    invitations = []
    if can_manage:
        invitations = [
            InvitationLine(id=inv.pk, token=inv.token, created_at=inv.created_at)
            for inv in Invitation.objects.filter(campaign=campaign, revoked_at__isnull=True)
        ]
    return CampaignCard(
        summary=_summary(campaign, len(player_ids)),
        description=campaign.description,
        participants=[member.name for member in members.players],
        co_organisers=[member.name for member in members.co_organisers],
        history=[_event_line(event) for event in events],
        is_organiser=Role.ORGANISER in roles,
        is_main_organiser=campaign.organiser_id == getattr(user, "pk", None),
        chapters=lines,
        chapters_planned=campaign.chapters_planned,
        chapters_target=campaign.chapters_planned or len(player_ids),
        open_votes=votes,
        invitations=invitations,
        can_manage=can_manage,
        is_player=is_player,
        survival_points_survive=campaign.survival_points_survive if profiles else None,
        survival_points_victory=campaign.survival_points_victory if profiles else None,
    )
