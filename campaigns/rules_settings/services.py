"""The one writer of a campaign's rules settings: the choices its organisers make where the
game system's text is open (RULES-NOTES C1), each checked against the system's catalogue,
saved in one transaction and recorded in the campaign's history."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CampaignEvent
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from characters.permissions import Refusal, require
from rules.engine.errors import RuleInputError
from rules.engine.systems.open_settings import check_settings, settings_of


def campaign_rules_settings(campaign: Campaign) -> dict:
    """The settings a resolver of this campaign takes: its choices, defaults elsewhere."""
    try:
        return check_settings(campaign.system, campaign.rules_settings or {})
    except RuleInputError:
        # A catalogue that dropped a setting or a choice: its defaults hold.
        return check_settings(campaign.system, {})


def campaign_rules_settings_set(*, actor, campaign: Campaign, settings: dict) -> Campaign:
    """Choose the campaign's settings (organisers); a setting left out keeps its default."""
    require(campaign_role(actor, campaign), CAN_MANAGE, visible=CAN_VIEW)
    if not settings_of(campaign.system):
        raise Refusal(_("This game system leaves nothing open to choose."), field="settings")
    try:
        values = check_settings(campaign.system, {**campaign_rules_settings(campaign), **settings})
    except RuleInputError as error:
        raise Refusal(
            _("Choose one of the offered values for each setting."), field=error.field
        ) from error
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        before = campaign_rules_settings(locked)
        changes = {k: [before.get(k), v] for k, v in values.items() if before.get(k) != v}
        if not changes and locked.rules_settings:
            return locked
        locked.rules_settings = values
        locked.save(update_fields=["rules_settings"])
        CampaignEvent.objects.create(
            campaign=locked, actor=actor, verb="rules_settings", data={"changes": changes}
        )
    return locked
