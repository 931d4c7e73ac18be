"""Fetch and authorise: the one way a view or API class gets an Of the Dead profile, the
player whose profile's history it shows, or a trauma to heal.

A profile is named by its player's username. A viewer sees a profile that is public, or
their own; a player's history (their statistics) when the profile is public and shows its
statistics, or when it is their own (also before they create a profile). Whatever the
viewer may not see is a 404, so that a private profile leaks nothing.
"""

from django.http import Http404
from django.utils.translation import gettext as _

from characters.models import Player, Profile, Trauma


def profile_of(user) -> Profile | None:
    """The viewer's own profile; None until they create it."""
    if not user.is_authenticated:
        return None
    return Profile.objects.filter(player=user).first()


def profile_get_for_user(user, username: str) -> Profile:
    """A public profile, or the viewer's own, with its player (one query)."""
    profile = Profile.objects.select_related("player").filter(player__username=username).first()
    if profile is None:
        raise Http404
    is_owner = user.is_authenticated and user.pk == profile.player_id
    if not (profile.is_public or is_owner):
        raise Http404
    return profile


def statistics_player_get_for_user(user, username: str) -> Player:
    """The player whose profile shows its statistics publicly, or the viewer themself, with
    their profile (`player.otd_profile`, absent before they create one): one query."""
    player = Player.objects.select_related("otd_profile").filter(username=username).first()
    if player is None:
        raise Http404
    profile = getattr(player, "otd_profile", None)
    is_owner = user.is_authenticated and user.pk == player.pk
    public = profile is not None and profile.is_public and profile.show_statistics
    if not (is_owner or public):
        raise Http404
    return player


def trauma_get_for_user(user, pk: int) -> Trauma:
    """One of the viewer's own traumas (anyone else's is a 404)."""
    trauma = Trauma.objects.filter(pk=pk, profile__player_id=user.pk).first()
    if trauma is None:
        raise Http404(_("You have no such trauma."))
    return trauma
