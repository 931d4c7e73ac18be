"""The only writer of campaigns: validate, one transaction, append to the history.

Chapters, votes, vocations and the close of a chapter live next door in
`campaigns.chapters.services`.
"""

import secrets

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Ballot,
    CalendarFeed,
    Campaign,
    CampaignEvent,
    Chapter,
    ChapterStatus,
    ChapterUnitEntry,
    Invitation,
    Membership,
    MembershipRole,
    VocationAssignment,
    VoteStatus,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from characters.permissions import Forbidden, Refusal, require
from rules.engine.systems import UnknownSystem, system_get

# The systems the campaign forms offer, in their order: every registered system plays
# campaigns (`rules.engine.systems.SYSTEMS`), Of the Dead first.
CAMPAIGN_SYSTEMS = ("of-the-dead", "kolaps", "rapid40k", "corporates", "modern-rpg")
MAX_CHAPTERS = 99
OPEN_CHAPTER = (ChapterStatus.PLANNED, ChapterStatus.CURRENT)


def _record(*, campaign: Campaign, actor, verb: str, **data) -> CampaignEvent:
    return CampaignEvent.objects.create(campaign=campaign, actor=actor, verb=verb, data=data)


def require_manager(actor, campaign: Campaign) -> None:
    """Organiser or co-organiser, or a refusal (404 when the actor cannot even see it)."""
    require(campaign_role(actor, campaign), CAN_MANAGE, visible=CAN_VIEW)


def player_ids(campaign: Campaign) -> list[int]:
    """The campaign's players' ids, in the order they joined."""
    return list(
        campaign.memberships.filter(role=MembershipRole.PLAYER)
        .order_by("joined_at", "pk")
        .values_list("player_id", flat=True)
    )


def require_open(chapter: Chapter, message: str, field: str | None = None) -> None:
    """A closed chapter's record no longer changes: refuse with `message` (beside `field`)."""
    if chapter.status == ChapterStatus.CLOSED:
        raise Refusal(message, field=field)


def _check_settings(*, chapters_planned, survival_points_survive, survival_points_victory):
    if chapters_planned is not None and not 1 <= chapters_planned <= MAX_CHAPTERS:
        raise Refusal(
            _("A campaign has between 1 and %(n)s chapters; leave empty for one per player.")
            % {"n": MAX_CHAPTERS},
            field="chapters_planned",
        )
    for field, value in (
        ("survival_points_survive", survival_points_survive),
        ("survival_points_victory", survival_points_victory),
    ):
        if not 0 <= value <= 10:
            raise Refusal(_("Between 0 and 10 points."), field=field)


def campaign_create(
    *,
    organiser,
    name: str,
    system: str,
    description: str = "",
    chapters_planned: int | None = None,
    survival_points_survive: int = 1,
    survival_points_victory: int = 1,
) -> Campaign:
    """A campaign of chapters. `chapters_planned` None means as many as its players (O6)."""
    name = name.strip()
    if not name:
        raise Refusal(_("Give the campaign a name."), field="name")
    try:
        system_get(system)
    except UnknownSystem:
        raise Refusal(_("Chronique does not know this game system."), field="system") from None
    _check_settings(
        chapters_planned=chapters_planned,
        survival_points_survive=survival_points_survive,
        survival_points_victory=survival_points_victory,
    )
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name,
            system=system,
            description=description.strip(),
            organiser=organiser,
            chapters_planned=chapters_planned,
            survival_points_survive=survival_points_survive,
            survival_points_victory=survival_points_victory,
        )
        _record(campaign=campaign, actor=organiser, verb="created", name=name, system=system)
    return campaign


CAMPAIGN_EDITABLE = (
    "name",
    "description",
    "chapters_planned",
    "survival_points_survive",
    "survival_points_victory",
)


def campaign_update(*, actor, campaign: Campaign, **changes) -> Campaign:
    """Rename, describe, or change the number of chapters and the survival points.
    The game system stays what it was created with (its chapters depend on it)."""
    require_manager(actor, campaign)
    unknown = set(changes) - set(CAMPAIGN_EDITABLE)
    if unknown:
        raise ValueError(f"campaign_update cannot change {sorted(unknown)}")
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        values = {name: changes.get(name, getattr(locked, name)) for name in CAMPAIGN_EDITABLE}
        values["name"] = values["name"].strip()
        values["description"] = values["description"].strip()
        if not values["name"]:
            raise Refusal(_("Give the campaign a name."), field="name")
        _check_settings(
            chapters_planned=values["chapters_planned"],
            survival_points_survive=values["survival_points_survive"],
            survival_points_victory=values["survival_points_victory"],
        )
        changed = {
            name: [getattr(locked, name), value]
            for name, value in values.items()
            if getattr(locked, name) != value
        }
        if not changed:
            return locked
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save()
        _record(campaign=locked, actor=actor, verb="updated", changes=changed)
    return locked


def campaign_add_participant(*, actor, campaign: Campaign, player) -> Membership:
    if actor.pk != campaign.organiser_id:
        raise Refusal(_("Only the organiser adds participants."), status=403)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.memberships.filter(player=player).exists():
            raise Refusal(_("This player already takes part in the campaign."), field="player")
        membership = Membership.objects.create(campaign=locked, player=player)
        _record(campaign=locked, actor=actor, verb="participant_added", player=player.public_name)
    return membership


# --- Invitations, joining and leaving ----------------------------------------------------------


def invitation_create(*, actor, campaign: Campaign) -> Invitation:
    """A new join link; earlier links stay valid until revoked."""
    require_manager(actor, campaign)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            campaign=campaign, token=secrets.token_urlsafe(24), created_by=actor
        )
        _record(campaign=campaign, actor=actor, verb="invitation_created", invitation=invitation.pk)
    return invitation


def invitation_revoke(*, actor, invitation: Invitation) -> Invitation:
    """The link stops working at once; whoever joined through it stays."""
    require_manager(actor, invitation.campaign)
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if locked.revoked_at is not None:
            return locked
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
        _record(
            campaign=locked.campaign, actor=actor, verb="invitation_revoked", invitation=locked.pk
        )
    return locked


def invitation_for_token(token: str) -> Invitation:
    """The active invitation with this token, or a refusal."""
    invitation = (
        Invitation.objects.select_related("campaign", "campaign__organiser")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if invitation is None:
        raise Refusal(_("This invitation link was revoked or never existed."), status=404)
    return invitation


def campaign_join(*, player, token: str) -> Membership:
    """Join a campaign as a player through an invitation link."""
    invitation = invitation_for_token(token)
    campaign = invitation.campaign
    if campaign.organiser_id == player.pk:
        raise Refusal(_("You organise this campaign."), status=400)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.memberships.filter(player=player).exists():
            raise Refusal(_("You already take part in this campaign."))
        membership = Membership.objects.create(
            campaign=locked, player=player, role=MembershipRole.PLAYER
        )
        _record(
            campaign=locked,
            actor=player,
            verb="joined",
            player=player.public_name,
            invitation=invitation.pk,
        )
    return membership


def _no_longer_a_player(campaign: Campaign, player) -> None:
    """What a player leaves behind when they stop playing a campaign (leaving it, or
    becoming a co-organiser): vocations in chapters not yet closed, ballots cast by or
    naming them in open votes, and KOLAPS units entered in planned chapters (they would
    otherwise still count in K12 and be checked at the start). Closed chapters keep their
    record."""
    VocationAssignment.objects.filter(
        chapter__campaign=campaign, player=player, chapter__status__in=OPEN_CHAPTER
    ).delete()
    Ballot.objects.filter(vote__campaign=campaign, vote__status=VoteStatus.OPEN).filter(
        Q(voter=player) | Q(nominee=player)
    ).delete()
    ChapterUnitEntry.objects.filter(
        chapter__campaign=campaign, player=player, chapter__status=ChapterStatus.PLANNED
    ).delete()


def campaign_leave(*, player, campaign: Campaign) -> None:
    """Leave a campaign. Vocations in chapters not yet closed and ballots in open votes go
    with the player; closed chapters keep their record."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        membership = locked.memberships.filter(player=player).first()
        if membership is None:
            raise Refusal(_("You do not take part in this campaign."), status=404)
        _no_longer_a_player(locked, player)
        membership.delete()
        _record(campaign=locked, actor=player, verb="left", player=player.public_name)


# --- Co-organisers -------------------------------------------------------------------------------


def co_organiser_add(*, actor, campaign: Campaign, player) -> Membership:
    """The organiser names a co-organiser, who then manages the campaign too (and no
    longer counts as one of its players)."""
    if actor.pk != campaign.organiser_id:
        require(campaign_role(actor, campaign), set(), visible=CAN_VIEW)
        raise Forbidden(_("Only the organiser names co-organisers."))
    if player.pk == campaign.organiser_id:
        raise Refusal(_("You already organise this campaign."), field="username")
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        membership = locked.memberships.filter(player=player).first()
        if membership is not None and membership.role == MembershipRole.CO_ORGANISER:
            raise Refusal(_("This player already co-organises the campaign."), field="username")
        if membership is None:
            membership = Membership.objects.create(
                campaign=locked, player=player, role=MembershipRole.CO_ORGANISER
            )
        else:
            _no_longer_a_player(locked, player)
            membership.role = MembershipRole.CO_ORGANISER
            membership.save(update_fields=["role"])
        _record(campaign=locked, actor=actor, verb="co_organiser_added", player=player.public_name)
    return membership


def co_organiser_remove(*, actor, campaign: Campaign, player) -> None:
    """The co-organiser leaves the campaign's management, and the campaign."""
    if actor.pk != campaign.organiser_id:
        require(campaign_role(actor, campaign), set(), visible=CAN_VIEW)
        raise Forbidden(_("Only the organiser names co-organisers."))
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        deleted, _rows = locked.memberships.filter(
            player=player, role=MembershipRole.CO_ORGANISER
        ).delete()
        if not deleted:
            raise Refusal(_("This player does not co-organise the campaign."), field="username")
        _record(
            campaign=locked, actor=actor, verb="co_organiser_removed", player=player.public_name
        )


# --- The iCalendar feed -------------------------------------------------------------------------


def calendar_feed_token(*, player, rotate: bool = False) -> CalendarFeed:
    """The player's feed token; `rotate` replaces it (the old URL stops working)."""
    with transaction.atomic():
        feed = CalendarFeed.objects.select_for_update().filter(player=player).first()
        if feed is None:
            return CalendarFeed.objects.create(player=player, token=secrets.token_urlsafe(24))
        if rotate:
            feed.token = secrets.token_urlsafe(24)
            feed.save(update_fields=["token"])
    return feed
