"""Load what a campaign page shows in a fixed number of queries, as plain data."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.chapters.eligibility import Eligibility, Requirement, eligibility
from campaigns.chapters.services import facts_of
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
from characters.compiled import CompiledRead
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


_LISTED = (
    "pk", "name", "system", "organiser__display_name", "organiser__username", "n_participants",
    "created_at",
)  # fmt: skip
# The campaigns a viewer organises or is a member of, newest first, with their number of
# players (counted over all the campaign's memberships, not only the viewer's own). Compiled
# once: written as a queryset it took the campaign list from 4.4 to 8.0 ms of CPU
# (tests/benchmarks/test_browsing_pages_bench.py, "campaign list", 2026-11-28).
_CAMPAIGN_LIST = CompiledRead(
    lambda viewer: (
        Campaign.objects.filter(
            Q(organiser_id=viewer)
            | Exists(Membership.objects.filter(campaign=OuterRef("pk"), player_id=viewer))
        )
        .annotate(
            n_participants=Count(
                "memberships", filter=Q(memberships__role=MembershipRole.PLAYER), distinct=True
            )
        )
        .order_by("-created_at", "-pk")
        .values_list(*_LISTED)
    )
)


def campaign_list_for(user) -> list[CampaignSummary]:
    """One query, whatever the number of campaigns."""
    if not user.is_authenticated:
        return []
    return [
        CampaignSummary(
            id=pk,
            name=name,
            system=system,
            system_name=gettext(system_get(system).name),
            organiser=display or username,
            participants=participants,
            created_at=created_at,
        )
        for pk, name, system, display, username, participants, created_at in _CAMPAIGN_LIST.rows(
            user.pk
        )
    ]


# The campaign page's reads, each for one campaign's id (the profile: the viewer's), compiled
# once per process: written as querysets they took the page from 5.1 to 12.4 ms of CPU
# (tests/benchmarks/test_browsing_pages_bench.py, "campaign page", 2026-11-28). Plain values,
# not models: a campaign may have many chapters, and its page lists them.
_EVENTS = CompiledRead(
    lambda campaign: (
        CampaignEvent.objects.filter(campaign_id=campaign)
        .order_by("-at", "-pk")
        .values_list("at", "actor__display_name", "actor__username", "verb", "data")[:HISTORY_SHOWN]
    )
)
_CHAPTER_LINE = (
    "pk", "number", "title", "status", "starts_at", "place", "closed_at", "settled_at",
    "players_min", "players_max", "min_survival_points", "required_cards", "required_items",
)  # fmt: skip
_CHAPTERS = CompiledRead(
    lambda campaign: (
        Chapter.objects.filter(campaign_id=campaign).order_by("number").values_list(*_CHAPTER_LINE)
    )
)


class ViewerProfile(NamedTuple):
    """What eligibility reads of the viewer's profile (`facts_of`)."""

    status: str
    survival_points: int
    cards: list
    equipment: list


_PROFILE = CompiledRead(
    lambda viewer: (
        Profile.objects.filter(player_id=viewer)
        .order_by("pk")
        .values_list(*ViewerProfile._fields)[:1]
    )
)


def viewer_profile(viewer: int) -> ViewerProfile | None:
    """The Of the Dead profile of the player `viewer` (an id), as eligibility reads it; one
    query, compiled once (the campaign page and the dashboard)."""
    return next(map(ViewerProfile._make, _PROFILE.rows(viewer)), None)


_OPEN_VOTES = CompiledRead(
    lambda campaign: Vote.objects.filter(campaign_id=campaign, status=VoteStatus.OPEN).values_list(
        "pk", "kind", "chapter__title", "opened_at", "closes_at"
    )
)
_INVITATIONS = CompiledRead(
    lambda campaign: Invitation.objects.filter(
        campaign_id=campaign, revoked_at__isnull=True
    ).values_list("pk", "token", "created_at")
)


def campaign_card(user, campaign: Campaign) -> CampaignCard:
    """What `user` sees of a campaign they may see (`campaign_get_for_user`), in a fixed
    number of queries whatever the number of participants or chapters: its memberships, its
    latest history, its chapters, its open votes, and for organisers the active invitations,
    for a player their profile.

    Rows are read as plain values: no model is built per participant.
    """
    members = members_of(campaign)
    player_ids = members.player_ids
    roles = campaign_role(user, campaign, members=members)
    can_manage = bool(roles & CAN_MANAGE)
    is_player = Role.PARTICIPANT in roles
    events = _EVENTS.rows(campaign.pk)
    chapters = _CHAPTERS.rows(campaign.pk)
    profiles = system_get(campaign.system).uses_profiles
    facts = None
    if is_player and profiles:
        facts = facts_of(viewer_profile(user.pk))
    elif is_player:
        facts = facts_of(None)
    verdicts: dict[Requirement, Eligibility] = {}  # chapters often ask the same
    lines = []
    for (pk, number, title, status, starts_at, place, closed_at, settled_at,
         players_min, players_max, min_points, cards, items) in chapters:  # fmt: skip
        verdict = None
        if facts is not None and status != ChapterStatus.CLOSED:
            requirement = Requirement(
                players_min=players_min,
                players_max=players_max,
                min_survival_points=min_points,
                required_cards=tuple(cards),
                required_items=tuple(items),
            )
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
                id=pk,
                number=number,
                title=title,
                status=status,
                starts_at=starts_at,
                place=place,
                closed_at=closed_at,
                settled_at=settled_at,
                eligible=verdict.eligible if verdict else None,
                reasons=verdict.reasons if verdict else [],
            )
        )
    votes = [
        VoteLine(
            id=vote_id,
            kind=kind,
            chapter_title=title or "",
            opened_at=opened_at,
            closes_at=closes_at,
        )
        for vote_id, kind, title, opened_at, closes_at in _OPEN_VOTES.rows(campaign.pk)
        # Past its date a vote is closed, whether or not the task has counted it yet.
        if closes_at is None or closes_at > timezone.now()
    ]
    invitations = []
    if can_manage:
        invitations = [
            InvitationLine(id=inv_id, token=token, created_at=created_at)
            for inv_id, token, created_at in _INVITATIONS.rows(campaign.pk)
        ]
    return CampaignCard(
        summary=_summary(campaign, len(player_ids)),
        description=campaign.description,
        participants=[member.name for member in members.players],
        co_organisers=[member.name for member in members.co_organisers],
        history=[
            EventLine(
                at=at,
                actor=display or username or "",
                verb=verb,
                data=data,
                sentence=event_sentence(display or username or "", verb, data),
            )
            for at, display, username, verb, data in events
        ],
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
