"""`{{ sentence|elide }}`: a French sentence with a name written in, elided ("Historique
d'Alice": `characters.typography.elide`), for `{% blocktranslate ... asvar sentence %}`.
Built in (config/settings.py TEMPLATES), no `{% load %}` needed."""

from django import template

from characters.typography import elide

register = template.Library()

register.filter("elide", elide, is_safe=True)
