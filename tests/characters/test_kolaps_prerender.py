"""A KOLAPS unit's page and print rendered ahead after a change, for its owner's next visit:
served kept (one query, no template), showing the change, in the language and theme the
owner reads them; a render ahead that fails never fails the change."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.kolaps import services, tasks, views
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ahead(settings):
    settings.KOLAPS_PRERENDER = True


def _text(response) -> str:
    return response.content.decode().replace("\u00a0", " ")


def _unit_of(owner, size: int):
    unit = services.unit_create(owner=owner, name="Section 4")
    for n in range(size):
        services.character_create(
            owner=owner, name=f"Agent {n}", archetype="agent-de-police", rank="novice", unit=unit
        )
    unit.refresh_from_db()
    return unit


def _rename(owner, unit, old: str, new: str, capture) -> None:
    character = unit.members.get(name=old)
    with capture(execute=True):
        services.character_change(
            actor=owner, character=character, op="rename", version=character.version, name=new
        )


def test_it_serves_the_next_print_and_unit_page_rendered_ahead_with_the_change(
    ahead, client, player, django_capture_on_commit_callbacks, django_assert_num_queries
):
    unit = _unit_of(player, 3)
    client.force_login(player)
    page, sheet = (
        reverse("kolaps-unit", args=[unit.pk]),
        reverse("kolaps-unit-print", args=[unit.pk]),
    )
    assert client.get(page).status_code == client.get(sheet).status_code == 200
    _rename(player, unit, "Agent 1", "Ornella", django_capture_on_commit_callbacks)
    for url in (sheet, page):
        with django_assert_num_queries(1):  # the unit and its members
            response = client.get(url)
        assert response.templates == []  # nothing rendered: kept
        assert "Ornella" in _text(response) and "Agent 1" not in _text(response)
    assert "\ue000" not in _text(response)  # this request's token, in place of the mark


def test_it_renders_ahead_in_the_language_and_theme_the_owner_reads(
    ahead, client, player, django_capture_on_commit_callbacks
):
    unit = _unit_of(player, 2)
    client.force_login(player)
    client.cookies["django_language"] = "en"
    client.cookies["theme"] = "dark"
    page = reverse("kolaps-unit", args=[unit.pk])
    client.get(page)
    _rename(player, unit, "Agent 0", "Ornella", django_capture_on_commit_callbacks)
    response = client.get(page)
    assert response.templates == []
    assert 'data-theme="dark"' in _text(response) and "Print" in _text(response)
    client.cookies["django_language"] = "fr"  # not read lately: rendered when asked for
    response = client.get(page)
    assert response.templates != [] and "Imprimer" in _text(response)


def test_it_renders_the_french_print_ahead_for_an_owner_not_seen_lately(
    ahead, client, player, django_capture_on_commit_callbacks
):
    unit = _unit_of(player, 2)
    _rename(player, unit, "Agent 0", "Ornella", django_capture_on_commit_callbacks)
    client.force_login(player)
    response = client.get(reverse("kolaps-unit-print", args=[unit.pk]))
    assert response.templates == [] and "Ornella" in _text(response)
    assert "Imprimez avec votre navigateur (A4)." in _text(response)


def test_rendering_ahead_twice_renders_nothing_the_second_time(ahead, client, player):
    unit = _unit_of(player, 2)
    client.force_login(player)
    client.get(reverse("kolaps-unit", args=[unit.pk]))
    character = unit.members.get(name="Agent 0")
    services.character_change(
        actor=player, character=character, op="rename", version=character.version, name="Zoé"
    )
    assert tasks.kolaps_unit_prerender(unit.pk) == 2  # the page and the print
    assert tasks.kolaps_unit_prerender(unit.pk) == 0


def test_it_enqueues_once_a_change_commits_and_never_for_a_refused_one(
    ahead, player, django_capture_on_commit_callbacks, settings
):
    unit = _unit_of(player, 1)
    character = unit.members.get()
    with django_capture_on_commit_callbacks() as enqueued:
        services.character_change(
            actor=player, character=character, op="rename", version=character.version, name="Zoé"
        )
    assert len(enqueued) == 1
    with django_capture_on_commit_callbacks() as enqueued, pytest.raises(services.StaleVersion):
        services.character_change(
            actor=player, character=character, op="rename", version=0, name="Yves"
        )
    assert enqueued == []
    settings.KOLAPS_PRERENDER = False
    unit.refresh_from_db()
    with django_capture_on_commit_callbacks() as enqueued:
        services.unit_change(actor=player, unit=unit, op="rename", version=unit.version, name="B")
    assert enqueued == []


def test_it_keeps_another_players_units_out_of_the_pages_rendered_ahead(
    ahead, client, player, django_capture_on_commit_callbacks
):
    unit = _unit_of(player, 1)
    other = PlayerFactory(username="bruno")
    client.force_login(player)
    client.get(reverse("kolaps-unit", args=[unit.pk]))
    _rename(player, unit, "Agent 0", "Ornella", django_capture_on_commit_callbacks)
    intruder = Client()
    intruder.force_login(other)
    for name in ("kolaps-unit", "kolaps-unit-print"):
        assert intruder.get(reverse(name, args=[unit.pk])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_render_ahead_that_fails_never_fails_the_change(ahead, client, monkeypatch):
    """Committed for real: the task runs in the request, after the change committed."""
    owner = PlayerFactory()
    unit = _unit_of(owner, 2)
    client.force_login(owner)
    page = reverse("kolaps-unit", args=[unit.pk])
    client.get(page)

    def broken(*, unit_id):
        raise RuntimeError("the render ahead broke")

    monkeypatch.setattr(views, "unit_prerender", broken)
    response = client.post(page, {"op": "rename", "name": "Brigade", "version": unit.version})
    assert response.status_code == 302
    assert "Brigade" in _text(client.get(page))
