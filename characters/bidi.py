"""User text shown among the site's own words, kept from reordering them.

A name may hold right-to-left letters or bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE and
its kin): escaped, they are still text, and the Unicode bidi algorithm lets them reorder the
words that follow them on the line ("Marie‮ a rejoint" shown as "Marie tniojer a"). An
isolate confines them to the name: `<bdi>` in HTML (`isolate_html`, the `bdi` filter), the
characters FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE where no element can stand (a
page's `<title>`, plain text: `isolate_text`). Text with neither right-to-left letters nor
bidi controls cannot reorder anything: it is given back unchanged, byte for byte.
"""

import re

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

# What can reorder the text around it: right-to-left letters (Hebrew, Arabic, Syriac,
# Thaana, N'Ko... and their presentation forms, the historic scripts of the SMP), the
# Arabic letter mark and the explicit marks, embeddings, overrides and isolates.
BIDI = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff"
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
FSI, PDI = "\u2068", "\u2069"


def needs_isolation(text: str) -> bool:
    return BIDI.search(text) is not None


def isolate_html(value) -> SafeString:
    """`value` escaped, in a `<bdi>` when it could reorder the line around it."""
    escaped = conditional_escape(value)
    if BIDI.search(escaped) is None:
        return escaped
    return mark_safe(f"<bdi>{escaped}</bdi>")  # escaped above


def isolate_text(text: str) -> str:
    """Plain `text` between FSI and PDI when it could reorder the line around it (not
    escaped: for a page's `<title>` the template escapes it; for iCalendar, RFC 5545's)."""
    text = str(text)
    return f"{FSI}{text}{PDI}" if BIDI.search(text) is not None else text
