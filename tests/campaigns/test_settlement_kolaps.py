"""KOLAPS and the post-chapter settlement: the characters a unit lost leave it when the
chapter is settled (through `unit_remove_lost`, kept in the unit's history, VU recomputed),
come back when the settlement is reopened (`unit_restore_lost`, the only way back), and
settling again gives the same result."""

import pytest
from django.utils import translation

from campaigns.chapters.entries import chapter_unit_enter
from campaigns.chapters.services import UnitResultInput, chapter_close
from campaigns.models import CampaignEvent
from campaigns.settlement.apply import settlement_apply
from campaigns.settlement.plan import settlement_plan
from campaigns.settlement.services import settlement_reopen
from characters.kolaps import services as kolaps
from characters.kolaps import undo as kolaps_undo
from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.permissions import Refusal
from tests.campaigns.test_kolaps_chapters import build_unit, kolaps_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def closed():
    """Alice's unit Nord (Avatar Nord 0 novice, Nord 1 veteran, Nord 2 novice: 5 VU) loses
    its Avatar and its veteran; Bruno's unit Sud loses nobody."""
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    nord, members = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice"))
    sud, _sud_members = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord, side="APC")
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    chapter = chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="La gare tombe.",
        unit_results=[
            UnitResultInput(nord.pk, "defeat", lost_ids=[members[0].pk, members[1].pk]),
            UnitResultInput(sud.pk, "victory"),
        ],
    )
    return {"organiser": organiser, "chapter": chapter, "alice": alice, "nord": nord,
            "members": members, "sud": sud}  # fmt: skip


def _state(unit):
    unit = KolapsUnit.objects.get(pk=unit.pk)
    members = list(unit.members.order_by("position", "pk").values_list("pk", "is_avatar"))
    return unit.vu, unit.status, members


def test_the_preview_lists_who_leaves_and_writes_nothing(closed):
    plan = settlement_plan(closed["chapter"])
    assert [(d.unit_name, d.character, d.character_id) for d in plan.departures] == [
        ("Nord", "Nord 0", closed["members"][0].pk),
        ("Nord", "Nord 1", closed["members"][1].pk),
    ]
    assert _state(closed["nord"])[0] == 5


def test_settling_takes_the_lost_out_of_their_unit_and_reopening_brings_them_back(closed):
    nord, (chief, veteran, novice) = closed["nord"], closed["members"]
    whole = _state(nord)
    assert whole == (5, KolapsUnit.Status.VALID, [(chief.pk, True), (veteran.pk, False),
                                                   (novice.pk, False)])  # fmt: skip
    sud_before = _state(closed["sud"])

    settlement_apply(chapter_id=closed["chapter"].pk)
    # Only Nord 2 (novice, 1 VU) is left, without an Avatar: a draft until Alice names one.
    assert _state(nord) == (1, KolapsUnit.Status.DRAFT, [(novice.pk, False)])
    assert KolapsCharacter.objects.filter(pk__in=[chief.pk, veteran.pk], unit=None).count() == 2
    lost = KolapsChange.objects.get(unit=nord, verb="lost")
    assert lost.data["chapter"] == closed["chapter"].pk and lost.actor is None
    assert _state(closed["sud"]) == sud_before
    assert CampaignEvent.objects.filter(verb="unit_member_left").count() == 2
    # An undo by the owner does not bring them back.
    unit = KolapsUnit.objects.get(pk=nord.pk)
    with pytest.raises(Refusal, match="do not come back by an undo"):
        kolaps_undo.unit_undo(actor=closed["alice"], unit=unit, version=unit.version)

    settlement_reopen(actor=closed["organiser"], chapter=closed["chapter"])
    assert _state(nord) == whole
    restored = KolapsChange.objects.get(unit=nord, verb="restored")
    assert restored.undoes_id == lost.pk
    assert restored.data["characters"] == [[chief.pk, "Nord 0"], [veteran.pk, "Nord 1"]]

    settlement_apply(chapter_id=closed["chapter"].pk)
    assert _state(nord) == (1, KolapsUnit.Status.DRAFT, [(novice.pk, False)])
    assert KolapsChange.objects.filter(unit=nord, verb="lost").count() == 2
    # The second settlement's departures are final again.
    unit = KolapsUnit.objects.get(pk=nord.pk)
    with pytest.raises(Refusal, match="do not come back by an undo"):
        kolaps_undo.unit_undo(actor=closed["alice"], unit=unit, version=unit.version)


def test_a_character_put_in_another_unit_meanwhile_stays_there(closed):
    nord, (chief, veteran, novice) = closed["nord"], closed["members"]
    settlement_apply(chapter_id=closed["chapter"].pk)
    other = kolaps.unit_create(owner=closed["alice"], name="Est")
    # CL1: "the dead leave their unit for good": the service refuses them another one...
    with pytest.raises(Refusal, match="the dead do not rejoin a unit"):
        kolaps.unit_add_character(
            actor=closed["alice"], unit=other, version=None, character=veteran
        )
    # ... which one joined before the dead were refused (older data).
    KolapsCharacter.objects.filter(pk=veteran.pk).update(unit=other)
    settlement_reopen(actor=closed["organiser"], chapter=closed["chapter"])
    # The Avatar comes back (the unit had none), the veteran stays in Est.
    assert _state(nord) == (2, KolapsUnit.Status.VALID, [(chief.pk, True), (novice.pk, False)])
    assert KolapsCharacter.objects.get(pk=veteran.pk).unit_id == other.pk
    restored = KolapsChange.objects.get(unit=nord, verb="restored")
    assert restored.data["not_back"] == ["Nord 1"]


def test_restoring_without_a_settlement_writes_nothing(closed):
    nord = closed["nord"]
    version = KolapsUnit.objects.get(pk=nord.pk).version
    kolaps.unit_restore_lost(
        actor=None, unit=nord, character_ids=[m.pk for m in closed["members"]],
        chapter=closed["chapter"],
    )  # fmt: skip
    assert KolapsUnit.objects.get(pk=nord.pk).version == version
    assert not KolapsChange.objects.filter(verb="restored").exists()


def test_the_history_page_tells_the_return(closed, client):
    from django.urls import reverse

    settlement_apply(chapter_id=closed["chapter"].pk)
    settlement_reopen(actor=closed["organiser"], chapter=closed["chapter"])
    client.cookies["django_language"] = "en"
    client.force_login(closed["alice"])
    html = client.get(reverse("kolaps-unit-history", args=[closed["nord"].pk])).content.decode()
    assert "Got Nord 0, Nord 1 back: the settlement of the chapter La gare was reopened" in html


def test_the_preview_page_shows_the_departures(closed, client):
    from django.urls import reverse

    client.cookies["django_language"] = "en"
    client.force_login(closed["organiser"])
    html = client.get(reverse("chapter-settlement", args=[closed["chapter"].pk])).content.decode()
    assert "Leaving their unit" in html
    assert "Nord 0 (Nord)" in html and "Nord 1 (Nord)" in html
