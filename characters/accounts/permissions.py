"""The one permission helper for player accounts."""

from characters.permissions import Role


def player_role(viewer, player) -> set[Role]:
    """A player account is its owner's alone; nobody else reads or edits it here."""
    roles = {Role.ANYONE}
    if viewer.is_authenticated and viewer.pk == player.pk:
        roles.add(Role.OWNER)
    return roles
