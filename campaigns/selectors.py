"""Fetch and authorise: the one way a view or API class gets a campaign.

`campaign_get_for_user(user, pk, need=...)` answers 404 to someone who may not see the
campaign and 403 (a sentence) to someone who sees it but may not do what `need` names.
Services keep their own final check.
"""

from django.shortcuts import get_object_or_404

from campaigns.models import Campaign
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, CAN_VOTE, campaign_role
from characters.permissions import require

NEEDS = {"view": CAN_VIEW, "manage": CAN_MANAGE, "vote": CAN_VOTE}


def campaign_get_for_user(user, pk: int, *, need: str = "view") -> Campaign:
    campaign = get_object_or_404(Campaign, pk=pk)
    require(campaign_role(user, campaign), NEEDS[need], visible=CAN_VIEW)
    return campaign
