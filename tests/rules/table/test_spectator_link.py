"""The live table's spectator link: the organiser revokes it or makes a new one, on the page
(with or without htmx) and through the API; a revoked link answers 404 at once, on the page,
in the API and on the WebSocket. An ended encounter keeps its link until it is revoked."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from characters.permissions import Forbidden, Refusal
from rules.table.models import Combatant, EncounterEntry, EntryKind
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_end,
    encounter_revoke_spectator_link,
    encounter_rotate_spectator_link,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def game():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    return pick_up_encounter(organiser, opponent), organiser, opponent


def _watch(client, token):
    return client.get(reverse("table-watch", args=[token]))


def _watch_api(token):
    return APIClient().get(reverse("api-table-watch", args=[token]))


def _signed_in(client, player):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_it_revokes_the_link_on_the_page_without_javascript(client, game):
    encounter, organiser, _opponent = game
    old = encounter.spectator_token
    assert _watch(client, old).status_code == 200
    page = _signed_in(client, organiser)
    response = page.post(reverse("table-link-revoke", args=[encounter.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("table-encounter", args=[encounter.pk])
    html = page.get(response["Location"]).content.decode()
    assert "The spectator link is revoked." in html  # the message
    assert 'id="spectator-link-none"' in html and 'id="spectator-link"' not in html
    assert "The spectator link is revoked: it no longer opens." in html  # the log's line
    client.logout()
    assert _watch(client, old).status_code == 404
    assert _watch_api(old).status_code == 404
    encounter.refresh_from_db()
    assert encounter.spectator_token is None


def test_it_makes_a_new_link_with_htmx_and_the_old_one_answers_404(client, game):
    encounter, organiser, _opponent = game
    old = encounter.spectator_token
    response = _signed_in(client, organiser).post(
        reverse("table-link-rotate", args=[encounter.pk]),
        headers={"HX-Request": "true", "HX-Target": "table-main"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="table-main"' in html
    encounter.refresh_from_db()
    new = encounter.spectator_token
    assert new and new != old and len(new) >= 32
    assert reverse("table-watch", args=[new]) in html and old not in html
    assert "A new spectator link replaces the old one, which no longer opens." in html
    client.logout()
    assert _watch(client, old).status_code == 404
    assert _watch_api(old).status_code == 404
    assert _watch(client, new).status_code == 200
    assert _watch_api(new).status_code == 200


def test_it_revokes_and_makes_a_link_through_the_api(game):
    encounter, organiser, _opponent = game
    old = encounter.spectator_token
    api = APIClient()
    api.force_authenticate(organiser)
    revoked = api.post(reverse("api-table-link-revoke", args=[encounter.pk]))
    assert revoked.status_code == 200, revoked.content
    assert revoked.json()["spectator_token"] == ""
    assert _watch_api(old).status_code == 404
    again = api.post(reverse("api-table-link-revoke", args=[encounter.pk]))
    assert again.status_code == 400
    # A sentence in the request's language (French by default).
    assert again.json()["detail"] == "Le lien spectateur de cet affrontement est déjà révoqué."
    made = api.post(reverse("api-table-link-rotate", args=[encounter.pk]))
    assert made.status_code == 200
    new = made.json()["spectator_token"]
    assert new and new != old
    assert _watch_api(new).status_code == 200
    assert _watch_api(old).status_code == 404


def test_it_lets_only_the_organiser_change_the_link(client, game):
    encounter, _organiser, opponent = game
    stranger = PlayerFactory(username="stranger")
    for service in (encounter_revoke_spectator_link, encounter_rotate_spectator_link):
        with pytest.raises(Forbidden):
            service(actor=opponent, encounter=encounter)
    participant = _signed_in(client, opponent)
    assert participant.post(reverse("table-link-revoke", args=[encounter.pk])).status_code == 403
    api = APIClient()
    api.force_authenticate(stranger)
    assert api.post(reverse("api-table-link-rotate", args=[encounter.pk])).status_code == 404
    encounter.refresh_from_db()
    assert _watch(client, encounter.spectator_token).status_code == 200


def test_it_keeps_an_ended_encounters_link_until_it_is_revoked(client, game):
    encounter, organiser, _opponent = game
    encounter = encounter_end(actor=organiser, encounter=encounter, version=None)
    token = encounter.spectator_token
    assert _watch(client, token).status_code == 200
    html = _signed_in(client, organiser).get(reverse("table-encounter", args=[encounter.pk]))
    assert 'id="spectator-revoke-button"' in html.content.decode()
    encounter_revoke_spectator_link(actor=organiser, encounter=encounter)
    client.logout()
    assert _watch(client, token).status_code == 404
    assert _watch_api(token).status_code == 404


def test_it_writes_the_change_in_the_log_and_an_undo_looks_past_it(game):
    encounter, organiser, _opponent = game
    target = Combatant.objects.filter(encounter=encounter).last()
    sante = target.sante
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=None,
        action=ActionInput(kind="wound", target=target.pk, wound="benign"),
    )
    encounter_rotate_spectator_link(actor=organiser, encounter=encounter)
    encounter_revoke_spectator_link(actor=organiser, encounter=encounter)
    lines = list(EncounterEntry.objects.filter(encounter=encounter, kind=EntryKind.LINK))
    assert [line.data for line in lines] == [{"link": "replaced"}, {"link": "revoked"}]
    assert all(line.author == organiser for line in lines)
    encounter.refresh_from_db()
    encounter_undo(actor=organiser, encounter=encounter, version=encounter.version)
    target.refresh_from_db()
    assert target.sante == sante
    with pytest.raises(Refusal, match="revoked already"):
        encounter_revoke_spectator_link(actor=organiser, encounter=encounter)
