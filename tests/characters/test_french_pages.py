"""What the issue found in French pages, each checked where a player meets it."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters.kolaps import services as kolaps
from characters.profiles.services import profile_create, profile_update
from rules.engine.systems.kolaps.catalogue import catalogue_versions, load_catalogue
from rules.rolls.services import roll_on_server
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_bad_import_says_what_is_wrong_in_french(client):
    client.force_login(PlayerFactory())
    html = client.post(reverse("kolaps-unit-import"), {"text": '{"unit": [1, 2,,]}'})
    text = html.content.decode()
    assert "JSON valide" in text
    assert "Expecting" not in text  # the parser's own English


def test_a_hidden_field_has_no_label_of_its_own(client):
    player = PlayerFactory()
    profile_create(actor=player, player=player, physique=2, psychique=2, reflexes=2, combat=3)
    client.force_login(player)
    html = client.get(reverse("profile-mine")).content.decode()
    assert 'name="version"' in html
    assert 'for="id_version"' not in html


def test_a_profile_edit_names_the_fields_as_the_form_does(client):
    player = PlayerFactory()
    profile = profile_create(
        actor=player, player=player, physique=2, psychique=2, reflexes=2, combat=3
    )
    profile_update(actor=player, profile=profile, version=profile.version, is_public=True)
    client.force_login(player)
    html = client.get(reverse("profile-mine")).content.decode()
    assert "a modifié profil public" in html
    assert "a modifié is_public" not in html


def test_a_print_sheet_describes_talents_in_french(client):
    player = PlayerFactory()
    unit = kolaps.unit_create(owner=player, name="Section")
    chief = kolaps.character_create(
        owner=player, name="Vasseur", archetype="sous-officier", rank="expert", unit=unit
    )
    kolaps.character_raise(
        actor=player, character=chief, version=chief.version, talent="discipline"
    )
    client.force_login(player)
    html = client.get(reverse("kolaps-unit-print", args=[unit.pk])).content.decode()
    assert "Discipline de commandement de l&#x27;APC" in html
    assert "Command discipline" not in html


def test_every_talent_summary_of_every_catalogue_has_its_french():
    with translation.override("fr"):
        missing = [
            talent.summary
            for version in catalogue_versions()
            for talent in load_catalogue(version).talents.values()
            if talent.summary and translation.gettext(talent.summary) == talent.summary
        ]
    assert missing == []


def test_a_roll_page_names_its_resolver_and_shows_its_inputs_as_a_table(client):
    player = PlayerFactory()
    record = roll_on_server(
        player=player, system="kolaps", name="test", data={"db": 3, "rank": "veteran"}
    )
    client.force_login(player)
    html = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "<dd>Jet de talent</dd>" in html
    assert '<th scope="row">Rang</th><td>Vétéran</td>' in html
    assert "{'db'" not in html
