"""Characters lost in a chapter leave their unit for good, kept in the history
(`kolaps_services.unit_remove_lost`, called by the post-chapter settlement)."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.services import chapter_plan
from campaigns.services import campaign_create
from characters.kolaps import services as kolaps
from characters.kolaps import undo as kolaps_undo
from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.permissions import Forbidden, Refusal
from tests.campaigns.test_kolaps_chapters import build_unit
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def chapter():
    organiser = PlayerFactory(username="orga")
    campaign = campaign_create(organiser=organiser, name="K", system="kolaps")
    return chapter_plan(actor=organiser, campaign=campaign, title="La gare")


def test_it_takes_the_lost_out_recomputes_the_vu_and_keeps_them_in_the_history(chapter, client):
    alice = PlayerFactory(username="alice")
    unit, (chief, veteran, novice) = build_unit(
        alice, "Nord", ranks=("novice", "veteran", "novice")
    )
    assert unit.vu == 5
    unit = kolaps.unit_remove_lost(
        actor=None, unit=unit, character_ids=[veteran.pk, novice.pk], chapter=chapter
    )
    assert (unit.vu, unit.status) == (1, KolapsUnit.Status.VALID)
    assert list(unit.members.values_list("pk", flat=True)) == [chief.pk]
    # The characters stay among Alice's, out of any unit.
    assert KolapsCharacter.objects.filter(pk__in=[veteran.pk, novice.pk], unit=None).count() == 2
    change = KolapsChange.objects.filter(unit=unit, verb="lost").get()
    assert change.actor is None and change.data["chapter"] == chapter.pk
    assert change.data["characters"] == [[veteran.pk, "Nord 1"], [novice.pk, "Nord 2"]]
    client.force_login(alice)
    html = client.get(reverse("kolaps-unit-history", args=[unit.pk])).content.decode()
    assert (
        "Lost Nord 1, Nord 2 in the chapter La gare" in html
    )  # no actor: the sentence starts the line


def test_it_is_idempotent_for_a_settlement_run_twice(chapter):
    alice = PlayerFactory(username="alice")
    unit, (_chief, lost) = build_unit(alice, "Nord", ranks=("novice", "aguerri"))
    kolaps.unit_remove_lost(actor=None, unit=unit, character_ids=[lost.pk], chapter=chapter)
    version = KolapsUnit.objects.get(pk=unit.pk).version
    kolaps.unit_remove_lost(actor=None, unit=unit, character_ids=[lost.pk], chapter=chapter)
    assert KolapsUnit.objects.get(pk=unit.pk).version == version
    assert KolapsChange.objects.filter(unit=unit, verb="lost").count() == 1


def test_a_lost_avatar_leaves_the_unit_a_draft(chapter):
    alice = PlayerFactory(username="alice")
    unit, (chief, _other) = build_unit(alice, "Nord", ranks=("novice", "novice"))
    unit = kolaps.unit_remove_lost(actor=alice, unit=unit, character_ids=[chief.pk])
    assert unit.status == KolapsUnit.Status.DRAFT
    chief.refresh_from_db()
    assert (chief.unit_id, chief.is_avatar) == (None, False)


def test_undo_does_not_bring_the_lost_back(chapter):
    alice = PlayerFactory(username="alice")
    unit, (_chief, lost) = build_unit(alice, "Nord", ranks=("novice", "novice"))
    unit = kolaps.unit_remove_lost(actor=None, unit=unit, character_ids=[lost.pk])
    with pytest.raises(Refusal, match="Characters lost in a chapter do not come back"):
        kolaps_undo.unit_undo(actor=alice, unit=unit, version=unit.version)
    assert unit.members.count() == 1


def test_only_the_owner_or_the_system_removes_the_lost(chapter):
    alice, bruno = PlayerFactory(username="alice"), PlayerFactory(username="bruno")
    unit, (_chief, lost) = build_unit(alice, "Nord", ranks=("novice", "novice"))
    with pytest.raises(Forbidden):
        kolaps.unit_remove_lost(actor=bruno, unit=unit, character_ids=[lost.pk])
    assert unit.members.count() == 2


def test_a_dead_character_is_not_offered_back_to_its_unit_and_cannot_rejoin_it(chapter, client):
    """RULES-NOTES CL1: "dead by the death roll; the dead leave their unit for good"."""
    alice = PlayerFactory(username="alice")
    unit, (_chief, dead) = build_unit(alice, "Nord", ranks=("novice", "novice"))
    loner = kolaps.character_create(
        owner=alice, name="Libre", archetype="agent-de-police", rank="novice"
    )
    # What the settlement of a chapter where Nord 1 died does.
    unit = kolaps.unit_remove_lost(actor=None, unit=unit, character_ids=[dead.pk], chapter=chapter)
    client.force_login(alice)
    url = reverse("kolaps-unit", args=[unit.pk])
    html = client.get(url).content.decode()
    assert f'<option value="{loner.pk}">Libre</option>' in html
    assert f'<option value="{dead.pk}">' not in html
    html = client.post(url, {"op": "add", "character": dead.pk, "version": unit.version})
    assert "Nord 1 died in a chapter: the dead do not rejoin a unit." in html.content.decode()
    answer = client.post(
        reverse("api-kolaps-unit-change", args=[unit.pk]),
        {"op": "add", "character": dead.pk, "version": unit.version},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "the dead do not rejoin a unit" in str(answer.json())
    assert KolapsCharacter.objects.get(pk=dead.pk).unit_id is None
    with pytest.raises(Refusal, match="the dead do not rejoin a unit"):
        kolaps.unit_add_character(actor=alice, unit=unit, version=unit.version, character=dead)
    # Reopening the chapter brings them back: alive again, they may be added.
    kolaps.unit_restore_lost(actor=None, unit=unit, character_ids=[dead.pk], chapter=chapter)
    assert KolapsCharacter.objects.get(pk=dead.pk).unit_id == unit.pk
