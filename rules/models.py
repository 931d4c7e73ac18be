"""The models of the rules app's feature folders, imported here so that Django finds them."""

from rules.rolls.models import RollQuerySet, RollRecord
from rules.table import live  # noqa: F401  (its receiver: a logout closes that session's sockets)
from rules.table.models import Combatant, Encounter, EncounterEntry

__all__ = ["Combatant", "Encounter", "EncounterEntry", "RollQuerySet", "RollRecord"]
