"""Fetch and authorise a server roll: a player sees their own rolls, anyone else gets a 404."""

from django.http import Http404

from rules.rolls.models import RollRecord


def roll_get_for_user(user, pk: int) -> RollRecord:
    record = RollRecord.objects.for_user(user).filter(pk=pk).first()
    if record is None:
        raise Http404
    return record
