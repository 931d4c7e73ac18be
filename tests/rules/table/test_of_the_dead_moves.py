"""Of the Dead moves at the live table: the declared move, all of it, unless a distance
says otherwise. The text: "Courir : 18cm ... le personnage devra disposer 2 indicateurs de
« Bruit » près de lui en fin de course ainsi qu'un marqueur « Zèle »"; "il n'est pas obligé
d'aller jusqu'au bout du mouvement ... Cependant si il dépasse alors ... une marche normale
devient une course, un sprint reste un sprint". The page's 20 cm default made every run a
sprint (3 zeal and the sprint marker)."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from rules.table.models import EncounterEntry
from tests.rules.table.otd_fixtures import named, otd_table, pass_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_moves():
    encounter, organiser, anna, _boris = otd_table()
    pass_until(organiser, encounter, "Anna")
    return encounter, anna


def _post(anna, encounter, **body):
    api = APIClient()
    api.force_authenticate(anna)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    me = named(encounter, "Anna")
    data = {"kind": "move", "actor": me.pk, "target": me.pk, **body}
    response = api.post(reverse("api-table-act", args=[encounter.pk]), data, format="json")
    assert response.status_code == 200, response.content
    return named(encounter, "Anna").state, EncounterEntry.objects.filter(
        encounter=encounter
    ).latest("version")


def test_a_run_without_a_distance_is_a_run(anna_moves):
    encounter, anna = anna_moves
    state, line = _post(anna, encounter, options={"move": "run"})
    assert (state.get("zeal"), state.get("noise"), state.get("sprint", 0)) == (1, 2, 0)
    assert line.data["outcome"]["move"] == "run"


def _log(client, anna, encounter) -> str:
    client.force_login(anna)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    log = re.search(r'<div class="table-log".*?</ol>', html, re.S).group(0)
    return re.sub(r"[\u00a0\u202f]", " ", log)


def test_the_log_says_which_move(anna_moves, client):
    """The log said "Alice : Se déplacer", not which move."""
    encounter, anna = anna_moves
    _post(anna, encounter, options={"move": "run"})
    assert "Anna : Se déplacer (Course, 18 cm)" in _log(client, anna, encounter)


def test_a_run_further_than_18_cm_becomes_a_sprint_and_the_log_says_so(anna_moves, client):
    encounter, anna = anna_moves
    state, _line = _post(anna, encounter, options={"move": "run"}, distance_cm=20)
    assert state.get("sprint") == 1
    assert "Anna : Se déplacer (Sprint au lieu de course, 20 cm)" in _log(client, anna, encounter)


def test_the_page_leaves_a_move_s_distance_empty(anna_moves, client):
    encounter, anna = anna_moves
    client.force_login(anna)
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    field = re.search(r'<input[^>]*name="distance_cm"[^>]*>', html).group(0)
    assert "value=" not in field
