"""The live page's log is drawn by its Jinja2 partial (`rules/table/_log.html`): newest
turn first, newest line first, its time in the viewer's time zone, names escaped, undone
lines marked, in French and in English. Compared as HTML, not byte for byte."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test.html import parse_html
from django.utils import translation

from rules.table.cards import LogLine, LogTurn
from rules.table.views import log_html


def _line(version: int, text: str, author: str, undone: bool = False) -> LogLine:
    at = datetime(2026, 11, 25, 21, 5, 7, 123456 * (version % 2), tzinfo=UTC)
    return LogLine(version=version, kind="action", author=author, at=at, text=text, undone=undone)


CARD = SimpleNamespace(
    log=[
        LogTurn(turn=1, lines=[_line(1, "La rencontre <commence> & co", 'Orga "1"')]),
        LogTurn(
            turn=1200,
            lines=[
                _line(1040, "Martel tire sur Croc : touché", "alice", undone=True),
                _line(1041, "Action #1040 undone.", "<b>bruno</b>"),
            ],
        ),
    ]
)


@pytest.mark.parametrize(
    ("language", "turn", "undone"), [("fr", "Tour", "annulé"), ("en", "Turn", "undone")]
)
def test_the_log_draws_its_turns_and_lines_newest_first(language, turn, undone):
    with translation.override(language):
        drawn = log_html(CARD)
    # Paris time (the settings' zone): 21:05 UTC is 22:05.
    expected = f"""
        <h3>{turn} 1200</h3>
        <ol class="history" reversed>
          <li data-version="1041"><time datetime="2026-11-25T22:05:07.123456+01:00">22:05</time>
            Action #1040 undone. <small>— &lt;b&gt;bruno&lt;/b&gt;</small></li>
          <li data-version="1040" class="undone">
            <time datetime="2026-11-25T22:05:07+01:00">22:05</time>
            Martel tire sur Croc : touché <small>— alice</small> <small>({undone})</small></li>
        </ol>
        <h3>{turn} 1</h3>
        <ol class="history" reversed>
          <li data-version="1"><time datetime="2026-11-25T22:05:07.123456+01:00">22:05</time>
            La rencontre &lt;commence&gt; &amp; co <small>— Orga &quot;1&quot;</small></li>
        </ol>
    """
    assert parse_html(drawn) == parse_html(expected)


def test_an_empty_log_draws_nothing():
    assert log_html(SimpleNamespace(log=[])).strip() == ""
