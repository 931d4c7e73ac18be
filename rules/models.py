"""The models of the rules app's feature folders, imported here so that Django finds them."""

from rules.rolls.models import RollQuerySet, RollRecord

__all__ = ["RollQuerySet", "RollRecord"]
