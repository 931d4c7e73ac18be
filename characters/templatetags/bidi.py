"""`{{ name|bdi }}`: user text isolated where it is shown among the site's words
(`characters.bidi`); `{{ name|bdi_text }}` where no element may stand (a `<title>`,
an `<option>`). Built in (config/settings.py TEMPLATES), no `{% load %}` needed."""

from django import template

from characters.bidi import isolate_html, isolate_text

register = template.Library()

register.filter("bdi", isolate_html, is_safe=True)
register.filter("bdi_text", isolate_text, is_safe=True)
