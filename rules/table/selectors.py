"""Fetch and authorise a live encounter: the one way a view or API class gets one.

`encounter_get_for_user(user, pk, need=...)` answers 404 to someone who may not see it and
403 (a sentence) to someone who sees it but may not do what `need` names: "view" and "act"
(organisers and participants: a participant acts for their own combatants, which the
service checks), "manage" (organisers). `encounter_get_by_token` is the spectator's link.
The one exception, the API's action (`rules.table.services.encounter_act_by_id`), makes the
same checks (`encounter_authorize`) on the row it locks, saving the fetch; who may not see
the encounter is filtered out by the locking statement itself, so it locks nothing.
"""

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Exists, OuterRef, Q, Subquery
from django.http import Http404

from campaigns.models import Campaign, Chapter, Membership
from characters.compiled import CompiledRead, fields_of
from rules.table.models import Combatant, Encounter
from rules.table.services import encounter_authorize

_ENCOUNTER, _CHAPTER, _CAMPAIGN = fields_of(Encounter), fields_of(Chapter), fields_of(Campaign)


def _encounter_rows(pk, viewer):
    """The encounter with its chapter and campaign (none for a pick-up game), and what the
    viewer is to it: their membership of the campaign, whether they play a combatant."""
    membership = Membership.objects.filter(
        campaign=OuterRef("chapter__campaign"), player_id=viewer
    ).values("role")[:1]
    plays = Combatant.objects.filter(encounter=OuterRef("pk"), player_id=viewer)
    return (
        Encounter.objects.filter(pk=pk)
        .order_by()
        .annotate(viewer_membership=Subquery(membership), viewer_plays=Exists(plays))
        .values_list(
            *_ENCOUNTER,
            *(f"chapter__{name}" for name in _CHAPTER),
            *(f"chapter__campaign__{name}" for name in _CAMPAIGN),
            "viewer_membership",
            "viewer_plays",
        )
    )


# Every page and write of the live table fetches its encounter: compiled once per process.
_ENCOUNTER_ROWS = CompiledRead(_encounter_rows, 2)


def _encounter_read(user, pk: int) -> Encounter | None:
    """One query: the encounter, its chapter and campaign, and what `user` is to it, kept
    on it for `encounter_authorize` (`viewer_read`)."""
    rows = _ENCOUNTER_ROWS.rows(pk, user.pk or 0)
    if not rows:
        return None
    row = rows[0]
    split, end = len(_ENCOUNTER), len(_ENCOUNTER) + len(_CHAPTER)
    encounter = Encounter.from_db(DEFAULT_DB_ALIAS, _ENCOUNTER, row[:split])
    if encounter.chapter_id is not None:
        chapter = Chapter.from_db(DEFAULT_DB_ALIAS, _CHAPTER, row[split:end])
        chapter.campaign = Campaign.from_db(DEFAULT_DB_ALIAS, _CAMPAIGN, row[end:-2])
        encounter.chapter = chapter
    encounter.viewer_read = (user.pk, row[-2], row[-1])
    return encounter


def encounter_get_for_user(user, pk: int, *, need: str = "view") -> Encounter:
    encounter = _encounter_read(user, pk)
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
