"""French typography on the text of an HTML page: a non-breaking space before `: ; ? !` and
inside « », and "de"/"que" elided before a name that starts with a vowel ("Historique
d'Alice"), names being interpolated after the sentence was translated.

`config.middleware.FrenchTypographyMiddleware` gives it to every French page. It lives in
the lowest Django layer so that a page rendered outside a request (the KOLAPS unit page and
print, rendered ahead by a task: characters/kolaps/tasks.py) gets the same typography.
"""

import re

NBSP = "\u00a0"
# Text between tags, outside the elements whose text is code or typed by the visitor.
# Only the text that holds something to change: most text between tags is white space or
# words without punctuation, skipped in C rather than handed to Python one by one.
_CANDIDATE_TEXT = re.compile(r">([^<]*(?:[ \t][:;?!»]|«|\b(?:[Dd]|[Qq]u)e )[^<]*)<")
_RAW = re.compile(r"<(script|style|pre|code|textarea)\b.*?</\1>", re.S | re.I)
_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([:;?!»])")
_AFTER_GUILLEMET = re.compile(r"«[ \t]+")
# "de Alice" -> "d'Alice": a word of two letters or more starting with a vowel, not an
# acronym ("de l'APC" is the translator's to write), not an English name ("Of the Dead").
_ELISION = re.compile(r"\b([Dd]|[Qq]u)e (?=[AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô][a-zàâçéèêëîïôûù'-])(?!Of )")


def french_typography(text: str) -> str:
    text = _BEFORE_PUNCTUATION.sub(lambda m: NBSP + m.group(1), text)
    text = _AFTER_GUILLEMET.sub("«" + NBSP, text)
    return _ELISION.sub(lambda m: m.group(1) + "'", text)


def _typeset_text(match: re.Match) -> str:
    return f">{french_typography(match.group(1))}<"


def typeset(html: str) -> str:
    """French typography on the text of `html`, never inside tags, scripts, styles or code."""
    pieces, last = [], 0
    for raw in _RAW.finditer(html):
        pieces.append(_CANDIDATE_TEXT.sub(_typeset_text, html[last : raw.start()]))
        pieces.append(raw.group(0))
        last = raw.end()
    pieces.append(_CANDIDATE_TEXT.sub(_typeset_text, html[last:]))
    return "".join(pieces)


def unchanged(html: str) -> str:
    return html


def typography_for(language: str):
    """What a page in `language` is given: French typography for French, nothing else."""
    return typeset if language == "fr" else unchanged
