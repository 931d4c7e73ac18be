"""The game systems as their declarations say (`rules.engine.systems.SYSTEMS`), for the
pages that list them: the "Dice" menu of every system's index."""

from django import template
from django.utils.translation import gettext as _

from rules.engine.systems import SYSTEMS, GameSystem, UnknownSystem, system_get

register = template.Library()


@register.simple_tag
def menu_systems() -> list[GameSystem]:
    """The systems with an index of their own (calculators), in their declared order."""
    return [system for system in SYSTEMS if system.index.calculators]


@register.filter
def system_name(slug: str) -> str:
    """A system's declared name, translated (the modern RPG's: "JdR moderne")."""
    try:
        return _(system_get(slug).name)
    except UnknownSystem:
        return slug
