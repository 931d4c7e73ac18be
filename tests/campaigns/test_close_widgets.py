"""The chapter close form's hundred widgets are drawn by Jinja2 templates
(`characters.widgets`), Django's template engine per widget and per option having been most
of the organiser's page: the HTML is what Django's own templates draw, compared as HTML,
for Of the Dead and KOLAPS, fresh or sent back with its errors, in French and in English.
A fresh player's row is drawn once and stamped with each player's id and name
(`CloseForm._row_stamp`): the same page as drawn row by row."""

import re

import pytest
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.test.html import parse_html
from django.urls import reverse
from django.utils import translation

from campaigns.chapters import forms as close_forms
from campaigns.chapters.cards import close_card
from campaigns.chapters.entries import chapter_unit_enter
from campaigns.chapters.forms import CloseForm
from campaigns.chapters.services import chapter_plan, chapter_table_record
from campaigns.selectors import chapter_get_for_user
from campaigns.services import campaign_add_participant
from characters.widgets import RENDERER
from tests.campaigns.test_kolaps_chapters import build_unit, kolaps_table
from tests.factories import PlayerFactory
from tests.settlement_fixtures import of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _row_stamps_drawn_afresh():
    """Each test draws the players' row stamp itself (kept per process otherwise): a page
    with no player rows (KOLAPS) is then also tried before any stamp exists."""
    close_forms._ROW_STAMPS.clear()


# The CSRF token is masked afresh on every response.
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def _of_the_dead():
    organiser, campaign, players = of_the_dead_table(players=3)
    odd = PlayerFactory(username="odd", display_name='Zoé "<la> rouge" & co')
    campaign_add_participant(actor=organiser, campaign=campaign, player=odd)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le <pont>")
    wrong = {"epilogue": "", "notable_events": "a\nb"}
    for player in [*players, odd]:
        wrong |= {f"p{player.pk}_result": "nope<>", f"p{player.pk}_kills_walker": "x"}
        wrong |= {f"p{player.pk}_side": "S" * 90, f"p{player.pk}_died": "on"}
    return organiser, chapter, wrong


def _kolaps():
    organiser, _campaign, chapter, players = kolaps_table()
    wrong = {"epilogue": ""}
    for index, player in enumerate(players):
        unit, members = build_unit(player, f"Unité <{index}> & co", ranks=("novice", "aguerri"))
        chapter_unit_enter(actor=player, chapter=chapter, unit=unit, side="APC")
        wrong |= {f"u{unit.pk}_result": "nope", f"u{unit.pk}_lost": [str(members[1].pk), "0"]}
    return organiser, chapter, wrong


def _drawn(form) -> list:
    """Each field's widget, parsed: the same HTML whatever its quotes, order or spaces."""
    return [parse_html(str(field)) for field in form]


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("build", [_of_the_dead, _kolaps])
def test_every_widget_of_the_close_form_is_djangos_own_html(build, language):
    organiser, chapter, wrong = build()
    card = close_card(organiser, chapter_get_for_user(organiser, chapter.pk))
    with translation.override(language):
        for args in ((), (wrong,)):
            form = CloseForm(*args, card=card)
            assert not form.is_valid() if args else not form.is_bound
            assert form.renderer is RENDERER
            drawn = _drawn(form)
            text = "".join(str(field) for field in form)
            form.renderer = get_default_renderer()
            assert drawn == _drawn(form)
            assert len(drawn) >= 8 and "<select" in text and 'type="checkbox"' in text


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("build", [_of_the_dead, _kolaps])
def test_the_close_page_is_the_same_html_and_draws_no_widget_with_djangos_engine(
    client, monkeypatch, build, language
):
    organiser, chapter, wrong = build()
    client.force_login(organiser)
    client.cookies["django_language"] = language
    url = reverse("chapter-close", args=[chapter.pk])
    engine_render = DjangoTemplates.render
    drawn_by_engine = []

    def spy(self, template_name, context, request=None):
        drawn_by_engine.append(template_name)
        return engine_render(self, template_name, context, request=request)

    pages = []
    for renderer in (CloseForm.default_renderer, get_default_renderer()):
        monkeypatch.setattr(CloseForm, "default_renderer", renderer)
        with monkeypatch.context() as patch:
            patch.setattr(DjangoTemplates, "render", spy)
            fresh = client.get(url)
            sent = client.post(url, wrong)
        assert fresh.status_code == sent.status_code == 200
        assert 'role="alert"' in sent.content.decode()
        pages.append([parse_html(CSRF.sub(r"\1\"", r.content.decode())) for r in (fresh, sent)])
        if renderer is not get_default_renderer():
            assert drawn_by_engine == []  # every widget drawn by Jinja2
    assert pages[0] == pages[1]
    assert ("Clôturer le chapitre" if language == "fr" else "Close the chapter") in fresh.text


@pytest.mark.parametrize("language", ["fr", "en"])
def test_each_fresh_players_row_is_the_one_django_draws_for_them(client, monkeypatch, language):
    organiser, chapter, _wrong = _of_the_dead()
    first = chapter.campaign.memberships.filter(role="player").order_by("pk").first().player
    # The live encounter filled in one player's row: that one is drawn as it is.
    record = {
        "ended": True,
        "encounter": 1,
        "turns": 3,
        "players": {
            str(first.pk): {
                "name": first.display_name,
                "died": True,
                "damage_dealt": 4,
                "damage_taken": 2,
                "kills": {"zonard": 2},
            }
        },
    }
    chapter_table_record(actor=organiser, chapter=chapter, record=record)
    client.force_login(organiser)
    client.cookies["django_language"] = language
    url = reverse("chapter-close", args=[chapter.pk])
    pages = []
    for stamped in (True, False):
        monkeypatch.setattr(CloseForm, "stamp_rows", stamped)
        pages.append(CSRF.sub(r"\1\"", client.get(url).content.decode()))
    assert pages[0] == pages[1]
    assert pages[0].count("<fieldset>") == 4
    assert "Zoé &quot;&lt;la&gt; rouge&quot; &amp; co" in pages[0]
    assert f'name="p{first.pk}_died" id="id_p{first.pk}_died" checked' in pages[0]
