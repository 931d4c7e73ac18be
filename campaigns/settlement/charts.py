"""Charts as server-side SVG: no script, readable on a 390 px phone and on paper.

Each function takes plain numbers and labels and returns SVG markup (marked safe: every
label is escaped here). The SVG scales to its container (`viewBox`, width 100%), draws
with presentation attributes only (the site's CSP forbids inline styles), uses dark
strokes and dashes rather than colour alone, and carries a <title> and <desc> for
screen readers; the page shows the same numbers in a table beside it. Each label is
isolated (FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE, `characters.bidi`): a name
typed right to left, or with a bidi control, cannot reorder the words around it in a
tooltip or the description.
"""

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from characters.bidi import isolate_text


def _pair(label: str, value) -> str:
    """ "Alice : 11" in French (its no-break space), "Alice: 11" in English."""
    return pgettext("label and value", "%(label)s: %(value)s") % {"label": label, "value": value}


INK = "#1d1d1b"
MUTED = "#6b6b66"
ACCENT = "#8a2b1d"
WIDTH = 360
FONT = 'font-family="system-ui, sans-serif"'


def _label(text: str) -> str:
    return isolate_text(str(text))


def _frame(title: str, description: str, height: int, body: str) -> SafeString:
    return mark_safe(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMinYMin meet">'
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>{body}</svg>"
    )


def line_chart(
    *,
    title: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    titles: Sequence[str] = (),
) -> SafeString:
    """Running totals over chapters: one polyline per series (solid, then dashed), each
    point labelled with its value; x labels are the chapters. `titles`, when given, name
    each point in full (its campaign and chapter): the point's tooltip, and the chart's
    description read aloud."""
    height, left, right, top, bottom = 220, 28, 12, 16, 48
    count = max(len(labels), 1)
    peak = max([1, *(v for _, values in series for v in values)])
    inner_w, inner_h = WIDTH - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (inner_w * (i + 0.5) / count)

    def y(v: int) -> float:
        return top + inner_h - inner_h * v / peak

    parts = [
        f'<line x1="{left}" y1="{top + inner_h}" x2="{WIDTH - right}" y2="{top + inner_h}" '
        f'stroke="{INK}" stroke-width="1"/>',
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end" font-size="10" {FONT} '
        f'fill="{MUTED}">{peak}</text>',
        f'<text x="{left - 4}" y="{top + inner_h}" text-anchor="end" font-size="10" {FONT} '
        f'fill="{MUTED}">0</text>',
    ]
    dashes = ("", ' stroke-dasharray="6 4"', ' stroke-dasharray="2 3"')
    colours = (INK, ACCENT, MUTED)
    for n, (name, values) in enumerate(series):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        colour = colours[n % len(colours)]
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"'
            f"{dashes[n % len(dashes)]}/>"
        )
        for i, v in enumerate(values):
            tip = f"<title>{escape(_pair(_label(titles[i]), v))}</title>" if i < len(titles) else ""
            parts.append(
                f'<g><circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>{tip}</g>'
                f'<text x="{x(i):.1f}" y="{y(v) - 6:.1f}" text-anchor="middle" font-size="10" '
                f'{FONT} fill="{colour}">{v}</text>'
            )
        legend_y = height - 8
        legend_x = left + n * 150
        parts.append(
            f'<line x1="{legend_x}" y1="{legend_y - 4}" x2="{legend_x + 18}" '
            f'y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"{dashes[n % len(dashes)]}/>'
            f'<text x="{legend_x + 22}" y="{legend_y}" font-size="11" {FONT} '
            f'fill="{INK}">{escape(_label(name))}</text>'
        )
    for i, label in enumerate(labels):
        parts.append(
            f'<text x="{x(i):.1f}" y="{top + inner_h + 14}" text-anchor="middle" '
            f'font-size="10" {FONT} fill="{INK}">{escape(_label(label))}</text>'
        )
    named = [_label(t) for t in (titles if len(titles) == len(labels) else labels)]
    description = "; ".join(
        _pair(
            _label(name),
            ", ".join(f"{label} {v}" for label, v in zip(named, values, strict=False)),
        )
        for name, values in series
    )
    return _frame(title, description, height, "".join(parts))


def bar_chart(*, title: str, rows: Sequence[tuple[str, int]], unit: str = "") -> SafeString:
    """Horizontal bars, one per row, the value written at the end of the bar."""
    bar, gap, left, right = 18, 8, 110, 40
    height = max(1, len(rows)) * (bar + gap) + gap
    peak = max([1, *(v for _, v in rows)])
    inner = WIDTH - left - right
    parts = []
    for i, (label, value) in enumerate(rows):
        top = gap + i * (bar + gap)
        length = inner * value / peak
        parts.append(
            f'<text x="{left - 6}" y="{top + bar - 5}" text-anchor="end" font-size="11" '
            f'{FONT} fill="{INK}">{escape(_label(label))}</text>'
            f'<rect x="{left}" y="{top}" width="{length:.1f}" height="{bar}" fill="{ACCENT}" '
            f'stroke="{INK}" stroke-width="1"/>'
            f'<text x="{left + length + 4:.1f}" y="{top + bar - 5}" font-size="11" {FONT} '
            f'fill="{INK}">{value}{escape(unit)}</text>'
        )
    description = ", ".join(_pair(_label(label), value) for label, value in rows)
    return _frame(title, description, height, "".join(parts))
