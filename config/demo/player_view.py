"""What a player sees: an invitation link to La Chute de Lyon that the organiser can copy or
share, and alice's valid unit shared by link, so the dashboard, the invitation's copy and
share buttons and the read-only page of a shared unit all have something to show.

Idempotent by history: a campaign that ever had an invitation, or a unit that was ever
shared or unshared, is left as its users made it.
"""

from campaigns.models import Campaign, Invitation
from campaigns.services import invitation_create
from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsChange, KolapsUnit
from config.demo.keys import recall


def load_player_view(players, campaign: Campaign) -> None:
    if not Invitation.objects.filter(campaign=campaign).exists():
        invitation_create(actor=players["orga"], campaign=campaign)
    unit = recall("kolaps/unit/valid", KolapsUnit)
    if unit is None:
        return
    ever_shared = KolapsChange.objects.filter(unit=unit, verb__in=["shared", "unshared"])
    if not ever_shared.exists():
        kolaps.unit_share(actor=players["alice"], unit=unit, version=unit.version)
