"""Fetch and authorise a live encounter: the one way a view or API class gets one.

`encounter_get_for_user(user, pk, need=...)` answers 404 to someone who may not see it and
403 (a sentence) to someone who sees it but may not do what `need` names: "view" and "act"
(organisers and participants: a participant acts for their own combatants, which the
service checks), "manage" (organisers). `encounter_get_by_token` is the spectator's link.
The one exception, the API's action (`rules.table.services.encounter_act_by_id`), makes the
same checks (`encounter_authorize`) on the row it locks, saving the fetch; who may not see
the encounter is filtered out by the locking statement itself, so it locks nothing.
"""

from django.db.models import Q
from django.http import Http404

from rules.table.models import Encounter
from rules.table.services import encounter_authorize


def encounter_get_for_user(user, pk: int, *, need: str = "view") -> Encounter:
    encounter = Encounter.objects.select_related("chapter__campaign").filter(pk=pk).first()
    if encounter is None:
        raise Http404
    encounter_authorize(user, encounter, need)
    return encounter


def encounter_get_by_token(token: str) -> Encounter:
    """The read-only spectator link of a screen beside the table: 404 once the organiser
    revoked or replaced it (`encounter_revoke_spectator_link`), at once. An ended encounter
    keeps its link until then: the finished game stays watchable."""
    encounter = (
        Encounter.objects.select_related("chapter__campaign").filter(spectator_token=token).first()
    )
    if encounter is None or not token:
        raise Http404
    encounter.viewer_roles = set()
    return encounter


PICKUP_SHOWN = 20


def encounters_pickup_of(user) -> list[Encounter]:
    """The pick-up games the user organises or plays in, latest first (one query)."""
    return list(
        Encounter.objects.filter(chapter__isnull=True)
        .filter(Q(created_by=user) | Q(combatants__player=user))
        .distinct()
        .order_by("-created_at", "-pk")[:PICKUP_SHOWN]
    )
