"""The one permission helper for campaigns."""

from campaigns.models import MembershipRole
from characters.permissions import Role


def campaign_role(
    viewer,
    campaign,
    *,
    member_ids: set[int] | None = None,
    co_organiser_ids: set[int] | None = None,
) -> set[Role]:
    """Organisers (the organiser and co-organisers) and participants see a campaign; anyone
    else does not know it exists.

    `member_ids` (players) and `co_organiser_ids` let a caller that already loaded the
    memberships avoid a query.
    """
    roles = {Role.ANYONE}
    if not viewer.is_authenticated:
        return roles
    if campaign.organiser_id == viewer.pk:
        roles.add(Role.ORGANISER)
    if member_ids is None or co_organiser_ids is None:
        rows = list(campaign.memberships.values_list("player_id", "role"))
        member_ids = {pk for pk, role in rows if role == MembershipRole.PLAYER}
        co_organiser_ids = {pk for pk, role in rows if role == MembershipRole.CO_ORGANISER}
    if viewer.pk in member_ids:
        roles.add(Role.PARTICIPANT)
    if viewer.pk in co_organiser_ids:
        roles.add(Role.ORGANISER)
    return roles


CAN_VIEW = {Role.ORGANISER, Role.PARTICIPANT}
CAN_MANAGE = {Role.ORGANISER}
CAN_VOTE = {Role.PARTICIPANT}
