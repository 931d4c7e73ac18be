"""The live page's log is drawn in one Python loop: the same HTML as the
template loop it replaces, in French and in English, whatever the lines hold."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from rules.table.cards import LogLine, LogTurn
from rules.table.views import log_html

# The page's log as table.html drew it before.
LOG_TEMPLATE = """{% load i18n %}{% for turn in card.log reversed %}
    <h3>{% blocktranslate with turn=turn.turn %}Turn {{ turn }}{% endblocktranslate %}</h3>
    <ol class="history" reversed>
      {% for line in turn.lines reversed %}
      <li data-version="{{ line.version }}"{% if line.undone %} class="undone"{% endif %}><time \
datetime="{{ line.at|date:'c' }}">{{ line.at|time:"H:i" }}</time> {{ line.text }} <small>— \
{{ line.author }}</small>{% if line.undone %}\
 <small>({% translate "undone" %})</small>{% endif %}</li>
      {% endfor %}
    </ol>
    {% endfor %}"""


def _line(version: int, text: str, author: str, undone: bool = False) -> LogLine:
    at = datetime(2026, 11, 25, 21, 5, 7, 123456 * (version % 2), tzinfo=UTC)
    return LogLine(version=version, kind="action", author=author, at=at, text=text, undone=undone)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_log_is_the_template_loops_html(language):
    card = SimpleNamespace(
        log=[
            LogTurn(turn=1, lines=[_line(1, "La rencontre <commence> & co", 'Orga "1"')]),
            LogTurn(
                turn=12,
                lines=[
                    _line(1040, "Martel tire sur Croc : touché", "alice", undone=True),
                    _line(1041, "Action #1040 undone.", "<b>bruno</b>"),
                ],
            ),
        ]
    )
    with translation.override(language):
        expected = Template(LOG_TEMPLATE).render(Context({"card": card}))
        drawn = log_html(card)
    assert drawn == expected
    assert "&lt;b&gt;bruno" in drawn and "22:05</time>" in drawn  # Paris time


def test_an_empty_log_draws_nothing():
    assert log_html(SimpleNamespace(log=[])) == ""
