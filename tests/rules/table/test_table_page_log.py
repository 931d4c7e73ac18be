"""The live page's log on a table played all evening: the page draws the lines of
the last versions, newest first, with a link to the full log; the undo button shows only
when the undo would be taken (one level deep: the newest line, an action); the API twin
still answers the whole log."""

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from rules.table.models import Combatant
from rules.table.services import ActionInput, encounter_act, encounter_undo
from rules.table.views import LOG_WINDOW
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


def _wound(organiser, encounter, target):
    action = ActionInput(kind="wound", target=target.pk, wound="superficial")
    encounter_act(actor=organiser, encounter=encounter, version=None, action=action)


@pytest.fixture
def evening(client):
    """An action kept, then as many wounds applied and undone as fill two windows."""
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    kept, other = Combatant.objects.filter(encounter=encounter).order_by("pk")[:2]
    _wound(organiser, encounter, kept)
    for _ in range(LOG_WINDOW):
        _wound(organiser, encounter, other)
        encounter_undo(actor=organiser, encounter=encounter, version=None)
    encounter.refresh_from_db()
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return encounter, organiser, client


def _log_versions(html: str) -> list[int]:
    log = html.split('id="table-log"', 1)[1].split("</section>", 1)[0]
    return [int(part.split('"', 1)[0]) for part in log.split('<li data-version="')[1:]]


def test_the_page_draws_the_last_versions_lines_and_links_to_the_full_log(evening):
    encounter, _organiser, client = evening
    url = reverse("table-encounter", args=[encounter.pk])
    html = client.get(url).content.decode()
    newest = list(range(encounter.version, encounter.version - LOG_WINDOW, -1))
    assert _log_versions(html) == newest
    assert "The encounter begins" not in html
    assert f'href="{url}?log=all" id="full-log-link"' in html
    assert 'data-state-url="' + url + '"' in html

    full = client.get(url + "?log=all").content.decode()
    assert _log_versions(full) == list(range(encounter.version, 0, -1))
    assert "The encounter begins" in full and "full-log-link" not in full
    # A phone reading the full log keeps it when another device changes the table.
    assert 'data-state-url="' + url + '?log=all"' in full


def test_a_phone_reading_the_full_log_keeps_it_after_its_own_action(evening):
    encounter, _organiser, client = evening
    page = reverse("table-encounter", args=[encounter.pk])
    target = Combatant.objects.filter(encounter=encounter).first()
    body = {"version": encounter.version, "kind": "wound", "target": target.pk}
    body |= {"wound": "superficial", "roll": "server"}
    headers = {"HX-Request": "true", "HX-Target": "table-main"}
    full = client.post(
        reverse("table-act", args=[encounter.pk]),
        body,
        headers=headers | {"HX-Current-URL": f"http://testserver{page}?log=all"},
    ).content.decode()
    assert _log_versions(full) == list(range(encounter.version + 1, 0, -1))
    recent = client.post(
        reverse("table-undo", args=[encounter.pk]),
        {"version": encounter.version + 1},
        headers=headers | {"HX-Current-URL": f"http://testserver{page}"},
    ).content.decode()
    assert len(_log_versions(recent)) == LOG_WINDOW and "full-log-link" in recent


def test_it_offers_undo_only_when_the_undo_would_be_taken(evening):
    """Undo is one level deep: after the evening's wounds applied and undone, the action
    kept at version 2 is no longer the last change, and undo refuses it; the page and the
    API twin offer no undo (they offered it, and the click was refused)."""
    encounter, organiser, client = evening
    url = reverse("table-encounter", args=[encounter.pk])
    assert 'id="undo-button"' not in client.get(url).content.decode()
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.get(reverse("api-table-encounter", args=[encounter.pk])).json()["can_undo"] is False
    undo = reverse("api-table-undo", args=[encounter.pk])
    refused = api.post(undo, {}, format="json", headers={"Accept-Language": "en"})
    assert refused.status_code == 400 and "no action to undo" in refused.json()["detail"]
    _wound(organiser, encounter, Combatant.objects.filter(encounter=encounter).first())
    assert 'id="undo-button"' in client.get(url).content.decode()
    assert api.get(reverse("api-table-encounter", args=[encounter.pk])).json()["can_undo"] is True
    undone = client.post(reverse("table-undo", args=[encounter.pk]), {"version": ""})
    assert undone.status_code == 302
    assert 'id="undo-button"' not in client.get(url).content.decode()


def test_a_short_log_is_drawn_whole_without_a_link(client):
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    client.force_login(organiser)
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert _log_versions(html) == [1] and "full-log-link" not in html


def test_a_current_url_header_that_is_no_url_draws_the_recent_log(evening):
    """`HX-Current-URL` is the client's to send: one that is not a URL is not a 500."""
    encounter, _organiser, client = evening
    html = client.get(
        reverse("table-encounter", args=[encounter.pk]),
        headers={"HX-Request": "true", "HX-Current-URL": "http://[oops/?log=all"},
    )
    assert html.status_code == 200
    assert "full-log-link" in html.content.decode()


def _action_before(html: str, mark: str) -> str:
    """The action of the form holding `mark` (an id in it)."""
    return html.split(mark, 1)[0].rsplit('action="', 1)[1].split('"', 1)[0]


def test_a_write_without_javascript_from_the_full_log_comes_back_to_the_full_log(evening):
    """The page read with its full log: its forms post there again, so the page the write
    redirects to (or a refusal shows) is still the full log, not the recent window."""
    encounter, _organiser, client = evening
    page = reverse("table-encounter", args=[encounter.pk])
    html = client.get(page + "?log=all").content.decode()
    target = Combatant.objects.filter(encounter=encounter).first()
    act = _action_before(html, 'id="action-form"')
    assert act == reverse("table-act", args=[encounter.pk]) + "?log=all"
    body = {"version": encounter.version, "kind": "wound", "target": target.pk}
    response = client.post(act, body | {"wound": "superficial", "roll": "server"})
    assert response.status_code == 302 and response["Location"] == page + "?log=all"
    after = client.get(response["Location"]).content.decode()
    assert _log_versions(after) == list(range(encounter.version + 1, 0, -1))
    # The action just made is what an undo takes back (the evening's are undone already).
    undo = _action_before(after, 'id="undo-button"')
    assert undo == reverse("table-undo", args=[encounter.pk]) + "?log=all"
    response = client.post(undo, {"version": encounter.version + 1})
    assert response["Location"] == page + "?log=all"
    # A refusal (a stale version) is shown on the full log too.
    refused = client.post(undo, {"version": 1}).content.decode()
    assert _log_versions(refused)[-1] == 1
    # The odds asked without JavaScript (a GET form) keep it through a hidden field.
    odds = client.get(
        reverse("table-odds", args=[encounter.pk]), body | {"wound": "light", "log": "all"}
    )
    assert _log_versions(odds.content.decode())[-1] == 1
    assert '<input type="hidden" name="log" value="all">' in html


def test_a_write_from_the_recent_log_or_with_another_log_value_comes_back_to_the_window(
    evening,
):
    encounter, _organiser, client = evening
    page = reverse("table-encounter", args=[encounter.pk])
    html = client.get(page).content.decode()
    assert 'name="log"' not in html
    act = reverse("table-act", args=[encounter.pk])
    assert f'action="{act}"' in html
    target = Combatant.objects.filter(encounter=encounter).first()
    body = {"kind": "wound", "target": target.pk, "wound": "superficial", "roll": "server"}
    for query in ("", "?log=everything", "?log=all&log=x"):
        encounter.refresh_from_db()
        response = client.post(act + query, body | {"version": encounter.version})
        assert response.status_code == 302, query
        assert response["Location"] == page, query
