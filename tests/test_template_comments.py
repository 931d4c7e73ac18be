"""A Django `{# … #}` comment ends on its own line: one spread over several lines is not a
comment at all, and the page shows it to the player (the calculators' fields did). Longer
notes use `{% comment %}`."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_no_template_has_a_comment_spread_over_lines():
    spread = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]
    assert spread == []
