"""What a player sees: an invitation link to La Chute de Lyon that the organiser can copy or
share, alice's valid unit shared by link, and alice opted in to the e-mail notifications
(printed by the console backend of `make run` when orga plans or moves a chapter), so the
dashboard, the invitation's copy and share buttons, the read-only page of a shared unit
and the notifications all have something to show.

Idempotent by history: a campaign that ever had an invitation, a unit that was ever shared
or unshared, a player who ever chose about notifications, is left as its users made it.
"""

from campaigns.models import Campaign, Invitation, NotificationSubscription
from campaigns.notifications.services import notifications_set
from campaigns.services import invitation_create
from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsChange, KolapsUnit
from config.demo.keys import recall


def load_player_view(players, campaign: Campaign) -> None:
    if not Invitation.objects.filter(campaign=campaign).exists():
        invitation_create(actor=players["orga"], campaign=campaign)
    if not NotificationSubscription.objects.filter(player=players["alice"]).exists():
        notifications_set(player=players["alice"], enabled=True, language="fr")
    unit = recall("kolaps/unit/valid", KolapsUnit)
    if unit is None:
        return
    ever_shared = KolapsChange.objects.filter(unit=unit, verb__in=["shared", "unshared"])
    if not ever_shared.exists():
        kolaps.unit_share(actor=players["alice"], unit=unit, version=unit.version)
