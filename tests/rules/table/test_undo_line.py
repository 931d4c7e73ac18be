"""The live table's undo line names the action it took back, as that action's own line did
("Undone: "Martel shoots Croc: …"", not "Action #3 undone."), in French and in English, on
the page, in its API twin and on a device that reads only the lines after the action."""

import html as html_module
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from rules.table.cards import table_card
from rules.table.models import Combatant, Encounter
from rules.table.services import ActionInput, encounter_act, encounter_advance, encounter_undo
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db

UNDONE = {"fr": "Annulé\u00a0: «\u00a0{line}\u00a0».", "en": 'Undone: "{line}".'}


@pytest.fixture
def shot_undone():
    """Martel shoots Croc (version 3), then the organiser undoes the shot (version 4)."""
    organiser = PlayerFactory(username="orga", display_name="Orga")
    encounter = pick_up_encounter(organiser)
    encounter_advance(actor=organiser, encounter=encounter, version=1)
    fighters = {c.name: c for c in Combatant.objects.filter(encounter=encounter)}
    shot = ActionInput(
        kind="ranged", actor=fighters["Martel"].pk, target=fighters["Croc"].pk, distance_cm=20
    )
    encounter_act(actor=organiser, encounter=encounter, version=2, action=shot)
    encounter_undo(actor=organiser, encounter=encounter, version=3)
    encounter.refresh_from_db()
    return encounter, organiser


def _api_lines(organiser, encounter, language) -> dict[int, str]:
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.get(
        reverse("api-table-encounter", args=[encounter.pk]), headers={"Accept-Language": language}
    ).json()
    return {line["version"]: line["text"] for turn in answer["log"] for line in turn["lines"]}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_undo_line_quotes_the_line_of_the_action_it_took_back(shot_undone, language):
    encounter, organiser = shot_undone
    lines = _api_lines(organiser, encounter, language)
    shot, undo = lines[3], lines[4]
    assert "Martel" in shot and "Croc" in shot
    assert undo == UNDONE[language].format(line=shot.rstrip("."))
    assert "#" not in undo and "n°" not in undo


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_page_shows_the_undo_line_naming_the_action(client, shot_undone, language):
    encounter, organiser = shot_undone
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    line = re.search(r'<li data-version="4">(.*?)</li>', html, re.S).group(1)
    line = re.sub(r"<time[^>]*>.*?</time>", " ", line)
    text = " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", line)).split())
    assert text.startswith({"fr": "Annulé", "en": "Undone:"}[language])
    assert "Martel" in text and "Croc" in text


def test_a_device_reading_only_the_undo_line_still_reads_which_action(shot_undone):
    """A phone catching up after the shot gets the undo's line alone: it names the shot."""
    encounter, organiser = shot_undone
    encounter = Encounter.objects.get(pk=encounter.pk)
    with translation.override("en"):
        card = table_card(organiser, encounter, log_since=3)
    [line] = [line for turn in card.log for line in turn.lines]
    assert line.version == 4
    assert line.text.startswith('Undone: "Martel shoots Croc')


def test_an_undo_written_before_it_kept_the_action_names_the_kind_of_action(shot_undone):
    encounter, organiser = shot_undone
    undo = encounter.entries.get(version=4)
    undo.data = {"undoes": 3, "kind": "ranged"}
    undo.save(update_fields=["data"])
    assert _api_lines(organiser, encounter, "en")[4] == "Undone: Shoot (action #3)."
    assert _api_lines(organiser, encounter, "fr")[4] == "Annulé\u00a0: Tirer (action n° 3)."
