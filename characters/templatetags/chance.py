"""`{{ p|chance }}`: a probability (a float, a Fraction or the engine's "a/b") as a
localized percentage with its exact value a tap away (`characters.chance`);
`{{ p|chance_text }}` where no element may stand. Built in: no `{% load %}` needed."""

from django import template

from characters.chance import chance, chance_text

register = template.Library()

register.filter("chance", chance, is_safe=True)
register.filter("chance_text", chance_text, is_safe=False)
