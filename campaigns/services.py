"""The only writer of campaigns: validate, one transaction, append to the history."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CampaignEvent, Membership
from config.permissions import Refusal
from rules.systems import UnknownSystem, system_get


def _record(*, campaign: Campaign, actor, verb: str, **data) -> CampaignEvent:
    return CampaignEvent.objects.create(campaign=campaign, actor=actor, verb=verb, data=data)


def campaign_create(*, organiser, name: str, system: str, description: str = "") -> Campaign:
    name = name.strip()
    if not name:
        raise Refusal(_("Give the campaign a name."), field="name")
    try:
        system_get(system)
    except UnknownSystem:
        raise Refusal(_("Chronique does not know this game system."), field="system") from None
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name, system=system, description=description.strip(), organiser=organiser
        )
        _record(campaign=campaign, actor=organiser, verb="created", name=name, system=system)
    return campaign


def campaign_add_participant(*, actor, campaign: Campaign, player) -> Membership:
    if actor.pk != campaign.organiser_id:
        raise Refusal(_("Only the organiser adds participants."), status=403)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.memberships.filter(player=player).exists():
            raise Refusal(_("This player already takes part in the campaign."), field="player")
        membership = Membership.objects.create(campaign=locked, player=player)
        _record(campaign=locked, actor=actor, verb="participant_added", player=player.username)
    return membership
