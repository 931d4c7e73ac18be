"""French typography on the text of an HTML page: a non-breaking space before `: ; ? !` and
inside « », and "de"/"que" elided before a name that starts with a vowel ("Historique
d'Alice"), names being interpolated after the sentence was translated.

`config.middleware.FrenchTypographyMiddleware` gives it to every French page. It lives in
the lowest Django layer so that every app may use it (`characters/kept.py` gives it to a
page once, before keeping it; the KOLAPS print to each of its parts).
"""

import re

NBSP = "\u00a0"
_VOWEL = "AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô"
# Text between tags, outside the elements whose text is code or typed by the visitor.
# Only the text that holds something to change: most text between tags is white space or
# words without punctuation, skipped in C rather than handed to Python one by one ("de"
# or "que" only before a vowel: "mot de passe" has nothing to change).
_CANDIDATE_TEXT = re.compile(rf">([^<]*(?:[ \t][:;?!»]|«|\b(?:[Dd]|[Qq]u)e (?=[{_VOWEL}]))[^<]*)<")
_RAW = re.compile(r"<(script|style|pre|code|textarea)\b.*?</\1>", re.S | re.I)
_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([:;?!»])")
_AFTER_GUILLEMET = re.compile(r"«[ \t]+")
# "de Alice" -> "d'Alice": a word of two letters or more starting with a vowel, not an
# acronym ("de l'APC" is the translator's to write), not an English name ("Of the Dead").
_ELISION = re.compile(rf"\b([Dd]|[Qq]u)e (?=[{_VOWEL}][a-zàâçéèêëîïôûù'-])(?!Of )")


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


def holds_raw_whole(html: str) -> bool:
    """Whether each script, style, pre, code or textarea element opened in `html` closes in
    it (a piece `typeset_around` may skip)."""
    lowered = html.lower()
    return all(
        lowered.count(f"<{name}") == lowered.count(f"</{name}>")
        for name in ("script", "style", "pre", "code", "textarea")
    )


# Joins the gaps `typeset_around` reads: it sits between one gap's closing "<" and the
# next one's opening ">", where the typography sees a tag, so no text runs across it.
_GAP = "\ue002"


def typeset_around(html: str, typeset_pieces: list[str]) -> str:
    """`typeset(html)`, for a page that holds the pieces `typeset_pieces` in this order, each
    typeset already and holding its raw elements whole (the site layout's parts, the same
    on every page: config/templatetags/layout.py): only the text between them is read, with
    the text that touches each piece's edge, in one pass. Should a piece be missing, or the
    text across an edge change (a space before a colon, a "de" before a name), the whole
    page is typeset instead, so the result is always `typeset(html)`'s."""
    if _GAP in html:
        return typeset(html)
    pieces = [*typeset_pieces, ""]
    gaps, edges, last = [], [], 0
    for piece in pieces:
        # Found by its start (quicker to look for than all of it), then compared whole.
        at = html.find(piece[:64], last) if piece else len(html)
        if at < 0 or not html.startswith(piece, at):
            return typeset(html)
        # The gap with the text on either side of it, up to the nearest tags.
        start = max(html.rfind(">", 0, last), 0) if last else 0
        end = html.find("<", at) + 1 if piece else 0
        end = end or len(html)
        gaps.append(html[start:end])
        edges.append((last - start, end - at))
        last = at + len(piece)
    out = []
    for gap, typeset_gap, (left, right), piece in zip(
        gaps, typeset(_GAP.join(gaps)).split(_GAP), edges, pieces, strict=True
    ):
        inner = len(typeset_gap) - right
        if typeset_gap[:left] != gap[:left] or typeset_gap[inner:] != gap[len(gap) - right :]:
            return typeset(html)  # the text across an edge changed
        out.append(typeset_gap[left:inner])
        out.append(piece)
    return "".join(out)


def unchanged(html: str) -> str:
    return html


def typography_for(language: str):
    """What a page in `language` is given: French typography for French, nothing else."""
    return typeset if language == "fr" else unchanged
