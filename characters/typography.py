"""French typography the translations cannot hold by themselves: "de"/"que" elided before a
name that starts with a vowel ("Historique d'Alice"), the name being interpolated after the
sentence was translated. The non-breaking spaces before `: ; ? ! »` and inside « » are
written in the French translations (locale/fr/LC_MESSAGES/django.po) and catalogues."""

import re

from django.utils.translation import get_language

NBSP = "\u00a0"
_VOWEL = "AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô"
# "de Alice" -> "d'Alice": a word of two letters or more starting with a vowel, not an
# acronym ("de l'APC" is the translator's to write), not an English name ("Of the Dead").
_ELISION = re.compile(rf"\b([Dd]|[Qq]u)e (?=[{_VOWEL}][a-zàâçéèêëîïôûù'-])(?!Of )")


def elide(text: str) -> str:
    """`text`, a sentence with a name written in, elided as French writes it; any other
    language's as it is. Keeps a safe string safe (the `elide` filter: an apostrophe for a
    space needs no escaping)."""
    if get_language() != "fr":
        return text
    return _ELISION.sub(r"\1'", text)
