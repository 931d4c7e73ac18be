"""One way of showing a chance on every page: a localized percentage, with the exact
fraction a tap away.

The engine answers exact fractions ("37457/46656") and floats (0.803); a player reads
"80,3 %" (French: a decimal comma and a narrow no-break space before the sign; English
"80.3%"). A chance below 0.05 % that can still happen reads "< 0,1 %", above 99.95 % but not
certain "> 99,9 %": "0 %" and "100 %" are kept for the impossible and the certain. The exact
value sits in the `title` of a focusable `<abbr>`, which the stylesheet shows on focus, so a
tap on a phone shows it too.

It lives in the lowest app so that every app's pages and cards can use it (as `bidi` does).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext


def as_fraction(value) -> Fraction | float | None:
    """A probability from what the engine answers: "a/b", a Fraction, a float or an int."""
    if value is None or value == "":
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return value
    return None


def _percent(number: str) -> str:
    return pgettext("a percentage", "%(number)s%%") % {"number": number}


def chance_text(value) -> str:
    """The percentage alone, for places where no element may stand."""
    p = as_fraction(value)
    if p is None:
        return ""
    if p <= 0:
        return _percent("0")
    if p >= 1:
        return _percent("100")
    if isinstance(p, Fraction):
        percent = Decimal(p.numerator * 100) / Decimal(p.denominator)
    else:
        percent = Decimal(repr(p * 100))
    shown = percent.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if shown <= 0:
        return gettext("< %(chance)s") % {"chance": _percent(number_format(Decimal("0.1"), 1))}
    if shown >= 100:
        return gettext("> %(chance)s") % {"chance": _percent(number_format(Decimal("99.9"), 1))}
    return _percent(number_format(shown, 1))


def _exact(p: Fraction | float) -> str:
    if isinstance(p, Fraction):
        if p.denominator == 1:
            return str(p.numerator)
        if 0 < p < Fraction(1, 1000):
            return gettext("%(fraction)s, about 1 in %(n)s") % {
                "fraction": f"{p.numerator}/{p.denominator}",
                "n": number_format(round(1 / p), force_grouping=True),
            }
        return f"{p.numerator}/{p.denominator}"
    if p <= 0 or p >= 1:
        return ""  # the impossible and the certain have nothing more to say
    if p < 0.001:
        return gettext("about 1 in %(n)s") % {"n": number_format(round(1 / p), force_grouping=True)}
    return _percent(number_format(Decimal(repr(p * 100)).quantize(Decimal("0.01")), 2))


def chance(value) -> SafeString | str:
    """`<abbr class="chance" title="37457/46656" tabindex="0">80,3 %</abbr>`."""
    p = as_fraction(value)
    if p is None:
        return ""
    exact = _exact(p)
    if not exact:
        return format_html('<span class="chance">{}</span>', chance_text(p))
    return format_html(
        '<abbr class="chance" title="{}" tabindex="0">{}</abbr>', exact, chance_text(p)
    )
