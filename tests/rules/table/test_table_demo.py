"""The demo: the KOLAPS chapter being played has its live encounter, in its second turn."""

from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from characters.models import KolapsUnit, Player
from config.demo.encounter import DEMO_ENCOUNTER_CHAPTER
from config.demo.table import DEMO_TABLE_PACK, LATE_RECRUIT
from rules.table.models import Encounter, EntryKind

pytestmark = pytest.mark.django_db


def test_the_demo_chapter_being_played_has_a_live_encounter_in_its_second_turn(client):
    call_command("demo_load", stdout=StringIO())
    call_command("demo_load", stdout=StringIO())
    encounter = Encounter.objects.select_related("chapter").get(system="kolaps")
    assert (encounter.chapter.title, encounter.chapter.status) == (
        DEMO_ENCOUNTER_CHAPTER,
        "current",
    )
    assert (encounter.turn, encounter.phase) == (2, "speech")
    kinds = list(encounter.entries.values_list("kind", flat=True))
    assert kinds.count(EntryKind.ACTION) == 5 and kinds[-1] == EntryKind.END_PHASE
    # The first spectator link replaced before the game began, and the log says so.
    assert kinds[:2] == [EntryKind.CREATED, EntryKind.LINK]
    assert encounter.entries.get(kind=EntryKind.LINK).data == {"link": "replaced"}
    # Tir dans une mêlée 2-3: "Une figurine alliée de la cible reçoit une blessure légère.
    # La figurine est choisie par le joueur contrôlant la cible": bruno chose Croc.
    choice = encounter.entries.get(data__kind="stray_choice")
    assert (choice.author.username, choice.target.name) == ("bruno", "Croc")
    # A light wound (-2 Santé) and its death roll, survived; the end phase heals since.
    outcome = choice.data["outcome"]
    assert (outcome["sante_before"], outcome["sante_after"], outcome["killed"]) == (6, 4, False)
    assert not choice.target.dead
    assert set(encounter.combatants.values_list("side", flat=True)) == {"Police", "Meute"}
    assert encounter.chapter.table_record == {"encounter": encounter.pk, "ended": False}
    client.force_login(Player.objects.get(username="bruno"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "Turn 2" in page and "Sabre" in page and "Brigadier Dupont" in page
    # K18 armed fists: alice's Capitaine Vasseur has Poing armé and a pistol, so her action
    # form offers them; bruno's hunters have none.
    assert 'name="armed_fist"' not in page
    client.force_login(Player.objects.get(username="alice"))
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'name="armed_fist"' in page and "With armed fists (a pistol in melee)" in page
    client.force_login(Player.objects.get(username="orga"))
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    watch = reverse("table-watch", args=[encounter.spectator_token])
    assert f'href="{watch}"' in page and 'id="spectator-revoke-button"' in page


def test_the_demo_chapter_being_played_keeps_the_pack_it_was_entered_with(client):
    """bruno recruited a hunter after the start: his pack's page counts him, the chapter
    being played (its page, its live encounter) plays the pack as it was frozen."""
    call_command("demo_load", stdout=StringIO())
    pack = KolapsUnit.objects.get(name=DEMO_TABLE_PACK)
    assert pack.vu == 13 and pack.members.filter(name=LATE_RECRUIT).exists()
    encounter = Encounter.objects.select_related("chapter").get(system="kolaps")
    entry = encounter.chapter.unit_entries.get(unit=pack)
    assert entry.frozen["value"] == 11
    assert LATE_RECRUIT not in [member["name"] for member in entry.frozen["members"]]
    assert not encounter.combatants.filter(name=LATE_RECRUIT).exists()
    client.force_login(Player.objects.get(username="bruno"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("chapter-detail", args=[encounter.chapter.pk])).content.decode()
    assert f'<output data-vu="{pack.pk}">11 VU</output>' in page
    assert f'data-frozen="{pack.pk}">as it was when the chapter started' in page


def test_the_demo_of_the_dead_chapter_being_played_has_its_encounter_in_its_second_turn(client):
    from config.demo.table_of_the_dead import DEMO_OTD_TABLE_CHAPTER

    call_command("demo_load", stdout=StringIO())
    call_command("demo_load", stdout=StringIO())
    encounter = Encounter.objects.select_related("chapter").get(system="of-the-dead")
    assert (encounter.chapter.title, encounter.chapter.status) == (
        DEMO_OTD_TABLE_CHAPTER,
        "current",
    )
    assert (encounter.turn, encounter.phase) == (2, "movement")
    # Turn 1 played in initiative order (O5): six moves and four attacks, the others
    # passing their turn; then turn 2's moves up to alice's turn.
    actions = encounter.entries.filter(kind=EntryKind.ACTION)
    played = [e.data["kind"] for e in actions.filter(turn=1).order_by("version")]
    assert len([k for k in played if k != "pass"]) == 6 + 4
    assert encounter.entries.filter(kind=EntryKind.END_PHASE).count() == 1
    sides = set(encounter.combatants.values_list("side", flat=True))
    assert sides == {"survivors", "zombies"}
    assert encounter.combatants.get(name="Zonard 1").dead
    client.force_login(Player.objects.get(username="alice"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "Turn 2" in page and "Initiative order" in page and "Le chien" in page
    # Whose turn it is: alice's, and her phone says so (O5, movement: lowest first).
    assert 'id="your-turn"' in page and "Your turn:" in page
    bruno = Player.objects.get(username="bruno")
    client.force_login(bruno)
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'id="playing-now"' in page and 'id="your-turn"' not in page


def test_the_demo_has_a_live_rapid40k_game_bruno_plays_from_his_phone(client):
    from config.demo.table_rapid40k import DEMO_RAPID40K_TABLE

    call_command("demo_load", stdout=StringIO())
    call_command("demo_load", stdout=StringIO())
    encounter = Encounter.objects.get(system="rapid40k")
    assert encounter.title == DEMO_RAPID40K_TABLE and encounter.created_by.username == "alice"
    actions = encounter.entries.filter(kind=EntryKind.ACTION)
    assert [e.data["kind"] for e in actions] == ["set_overwatch", "melee", "overwatch"]
    # The melee and the overwatch shot were rolled by the server and recorded.
    assert all(e.roll_id for e in actions[1:])
    sides = set(encounter.combatants.values_list("side", flat=True))
    assert sides == {"Ultramarines, 4e escouade", "Waaagh Gorkamorka"}
    client.force_login(Player.objects.get(username="bruno"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "Boyz de la Dent" in page and 'id="action-form"' in page and "overwatch" in page
