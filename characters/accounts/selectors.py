"""Fetch and authorise: the one way a view or API class gets a player account.

An account is its owner's alone ("view" and "edit" alike): the pages and the API only ever
reach the signed-in player's own, so anyone else is refused.
"""

from characters.accounts.permissions import player_role
from characters.permissions import Role, require

NEEDS = {"view": {Role.OWNER}, "edit": {Role.OWNER}}


def account_get_for_user(user, *, need: str = "edit"):
    """The signed-in player's own account."""
    require(player_role(user, user), NEEDS[need])
    return user
