"""`{{ p|chance }}`: a probability (a float, a Fraction or the engine's "a/b") as a
localized percentage with its exact value a tap away (`characters.chance`);
`{{ p|chance_text }}` where no element may stand; `{{ n|grouped }}`, a number with its
thousands separator. Built in: no `{% load %}` needed."""

from django import template
from django.utils.formats import number_format

from characters.chance import chance, chance_text

register = template.Library()

register.filter("chance", chance, is_safe=True)
register.filter("chance_text", chance_text, is_safe=False)


@register.filter
def grouped(value):
    """`{{ army.points|grouped }}`: 1135 as "1 135" in French, "1,135" in English."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return number_format(value, force_grouping=True)
