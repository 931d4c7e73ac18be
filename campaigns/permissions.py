"""The one permission helper for campaigns."""

from config.permissions import Role


def campaign_role(viewer, campaign, *, member_ids: set[int] | None = None) -> set[Role]:
    """Organiser and participants see a campaign; anyone else does not know it exists.

    `member_ids` lets a caller that already loaded the memberships avoid a query.
    """
    roles = {Role.ANYONE}
    if not viewer.is_authenticated:
        return roles
    if campaign.organiser_id == viewer.pk:
        roles.add(Role.ORGANISER)
    if member_ids is None:
        member_ids = set(campaign.memberships.values_list("player_id", flat=True))
    if viewer.pk in member_ids:
        roles.add(Role.PARTICIPANT)
    return roles


CAN_VIEW = {Role.ORGANISER, Role.PARTICIPANT}
CAN_MANAGE = {Role.ORGANISER}
