"""Undoing what a post-chapter settlement did to a profile, when its chapter is reopened.

System work only (no actor: the organiser's reopening, campaigns.settlement, decides it):
each function locks the profile, writes, bumps `version`, recomputes the derived numbers
and appends one `ProfileEvent`, exactly like the services of `characters.profiles`,
whose helpers it uses. Nothing a player does reaches these.
"""

from django.db import transaction

from characters.models import Trauma, TraumaPermanence
from characters.profiles import _locked, _record, _save


def trauma_unheal(*, trauma: Trauma, chapter=None) -> Trauma:
    """A trauma healed by a settlement that is reopened is active again."""
    with transaction.atomic():
        locked = _locked(trauma.profile)
        trauma = Trauma.objects.select_for_update().get(pk=trauma.pk)
        if trauma.active:
            return trauma
        trauma.active = True
        trauma.healed_at = None
        trauma.save(update_fields=["active", "healed_at"])
        _save(locked)
        _record(
            profile=locked,
            actor=None,
            verb="trauma_unhealed",
            trauma=trauma.pk,
            name=trauma.name,
            chapter=getattr(chapter, "pk", None),
        )
    return trauma


def trauma_make_temporary(*, trauma: Trauma, chapter=None) -> Trauma:
    """A trauma made permanent by a settlement that is reopened is temporary again."""
    with transaction.atomic():
        locked = _locked(trauma.profile)
        trauma = Trauma.objects.select_for_update().get(pk=trauma.pk)
        if trauma.permanence == TraumaPermanence.TEMPORARY:
            return trauma
        trauma.permanence = TraumaPermanence.TEMPORARY
        trauma.save(update_fields=["permanence"])
        _save(locked)
        _record(
            profile=locked,
            actor=None,
            verb="trauma_made_temporary",
            trauma=trauma.pk,
            name=trauma.name,
            chapter=getattr(chapter, "pk", None),
        )
    return trauma
