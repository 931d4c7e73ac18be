"""French typography the translations cannot hold: "de"/"que" elided before a name that
starts with a vowel ("Historique d'Alice"), the name written in after the sentence was
translated (`{{ sentence|elide }}` after `{% blocktranslate ... asvar sentence %}`: a
built-in filter, config/settings.py). The non-breaking spaces before `: ; ? ! »` and inside
« » are written in the French translations (locale/fr/LC_MESSAGES/django.po)."""

import re

from django import template
from django.utils.translation import get_language

_VOWEL = "AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô"
# "de Alice" -> "d'Alice": a word of two letters or more starting with a vowel, not an
# acronym ("de l'APC" is the translator's to write), not an English name ("Of the Dead").
_ELISION = re.compile(rf"\b([Dd]|[Qq]u)e (?=[{_VOWEL}][a-zàâçéèêëîïôûù'-])(?!Of )")


def elide(text: str) -> str:
    """`text`, a sentence with a name written in, elided as French writes it; any other
    language's as it is. A plain `str`: the `elide` filter keeps a safe sentence safe (an
    apostrophe in element text needs no escaping)."""
    if get_language() != "fr":
        return text
    return _ELISION.sub(r"\1'", text)


register = template.Library()
register.filter("elide", elide, is_safe=True)
