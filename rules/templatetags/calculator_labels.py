"""The calculators' labels in a template: an engine slug (`critical_failure`) as the
translated words the Corporates and modern RPG calculators use."""

from django import template

from rules.dice_calculators.cards import label

register = template.Library()


@register.filter
def calculator_label(slug) -> str:
    return label(slug)
