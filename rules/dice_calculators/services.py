"""A calculator opened for a campaign (`?campaign=<id>` on the page, `campaign` in the API body
or query): its resolvers take that campaign's stored rules settings instead of the catalogue's
defaults. The campaign goes through its one fetch-and-authorise helper (a campaign the user
cannot see is a 404, as everywhere), and must play the calculator's system."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.rules_settings.forms import SETTING_LABELS, value_label
from campaigns.rules_settings.services import campaign_rules_settings
from campaigns.selectors import campaign_get_for_user
from characters.permissions import Refusal
from rules.engine.systems.open_settings import settings_of


@dataclass(frozen=True)
class InForce:
    """The settings a calculator runs with, and the campaign they come from (None: the
    catalogue's defaults)."""

    campaign: Campaign | None
    settings: dict

    def lines(self, system: str) -> list[tuple[str, str, bool]]:
        """(setting, value in force, whether it is the default) for each open setting."""
        out = []
        for key, spec in settings_of(system).items():
            value = self.settings.get(key, spec["default"])
            out.append(
                (str(SETTING_LABELS.get(key, key)), value_label(value), value == spec["default"])
            )
        return out


def settings_in_force(*, user, system: str, campaign_id) -> InForce:
    """The campaign's settings for this system's calculators, or the defaults when no
    campaign is named. Refuses a malformed id (400), a campaign the user cannot see (404) and
    a campaign of another system (400)."""
    if campaign_id in (None, ""):
        return InForce(None, {})
    try:
        pk = int(campaign_id)
    except (TypeError, ValueError):
        raise Refusal(_("The campaign is given by its number."), field="campaign") from None
    if isinstance(campaign_id, bool) or pk < 1:
        raise Refusal(_("The campaign is given by its number."), field="campaign")
    campaign = campaign_get_for_user(user, pk)
    if campaign.system != system:
        raise Refusal(_("That campaign plays another game system."), field="campaign")
    return InForce(campaign, campaign_rules_settings(campaign))
