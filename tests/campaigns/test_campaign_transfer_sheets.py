"""A Corporates or modern RPG campaign's export carries the character sheets entered into its
chapters and their entries (docs/campaign-export.md): imported, each is a new sheet of its
player's account, entered into the imported chapter, and the close's record names it, so
that settling the imported chapter carries its levels to that copy, never to a sheet that
exists. A forged entry or record naming another's sheet is refused."""

import json

import pytest
from django.utils import translation

from campaigns.chapters.entries import chapter_entry_enter
from campaigns.chapters.services import chapter_close, chapter_plan, chapter_start
from campaigns.models import ChapterCorporatesEntry, ChapterModernEntry, ChapterOutcome
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.settlement.apply import settlement_apply
from campaigns.systems.base import EntryResultInput
from campaigns.systems.entry_kinds import CORPORATES_SHEET, MODERN_SHEET
from campaigns.transfer.services import campaign_export, campaign_import
from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import corporates_character_create
from characters.modern.models import ModernCharacter
from characters.modern.services import modern_character_create
from characters.permissions import Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

DICE = {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8}


def _closed_modern():
    """A modern campaign whose chapter is closed, not yet settled: Lina lost 4 hit points
    and earned 5 XP, Marc took 1 stress."""
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Marseille", system="modern-rpg")
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le Vieux-Port")
    lina = modern_character_create(
        owner=alice, name="Lina", characteristics=DICE, description="Secret"
    )
    marc = modern_character_create(owner=bruno, name="Marc", characteristics=DICE)
    chapter_entry_enter(actor=alice, chapter=chapter, kind=MODERN_SHEET, roster=lina)
    chapter_entry_enter(actor=bruno, chapter=chapter, kind=MODERN_SHEET, roster=marc)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="x",
        entry_results=[
            EntryResultInput(lina.pk, "played", answers={"wounds": 4, "stress": 0, "xp": 5}),
            EntryResultInput(marc.pk, "played", answers={"wounds": 0, "stress": 1, "xp": 0}),
        ],
    )
    return organiser, campaign, lina, marc


def _refusal(actor, data) -> str:
    with pytest.raises(Refusal) as refusal, translation.override("en"):
        campaign_import(actor=actor, text=json.dumps(data))
    return str(refusal.value.message)


def test_a_sheet_campaign_travels_whole_and_its_settlement_writes_only_the_copies():
    organiser, campaign, lina, marc = _closed_modern()
    data = campaign_export(actor=organiser, campaign=campaign)
    tables = data["tables"]
    assert sorted(s["name"] for s in tables["modern_characters"]) == ["Lina", "Marc"]
    assert len(tables["modern_entries"]) == 2
    assert "description" not in tables["modern_characters"][0]  # stays home
    importer = PlayerFactory()
    imported = campaign_import(actor=importer, text=json.dumps(data))
    chapter = imported.chapters.get()
    entries = list(ChapterModernEntry.objects.filter(chapter=chapter).select_related("character"))
    assert sorted(e.character.name for e in entries) == ["Lina", "Marc"]
    for entry in entries:
        # A new sheet of the entry's (new) player, frozen as it was when the chapter started.
        assert entry.character_id not in (lina.pk, marc.pk)
        assert entry.character.owner_id == entry.player_id
        assert entry.frozen["sheet"] == {"stress": 0, "hp": 10, "hp_max": 10}
    copies = {e.character.name: e.character for e in entries}
    records = {o.record["entry"]: o.record for o in ChapterOutcome.objects.filter(chapter=chapter)}
    assert records["Lina"]["sheet"] == copies["Lina"].pk
    assert copies["Lina"].description == ""
    settlement_apply(chapter_id=chapter.pk)
    lina_copy = ModernCharacter.objects.get(pk=copies["Lina"].pk)
    marc_copy = ModernCharacter.objects.get(pk=copies["Marc"].pk)
    assert (lina_copy.hp, marc_copy.stress) == (6, 1)
    # The sheets of the campaign exported are as they were.
    lina.refresh_from_db()
    marc.refresh_from_db()
    assert (lina.hp, lina.stress, marc.hp, marc.stress) == (10, 0, 10, 0)


def test_a_forged_entry_of_a_sheet_the_file_does_not_hold_is_refused():
    organiser, campaign, _lina, _marc = _closed_modern()
    victim = modern_character_create(owner=PlayerFactory(), name="Victim", characteristics=DICE)
    data = campaign_export(actor=organiser, campaign=campaign)
    data["tables"]["modern_entries"][0]["character"] = victim.pk
    assert _refusal(organiser, data) == (
        "This export refers to a row it does not hold (modern_entries, character)."
    )
    assert not ChapterModernEntry.objects.filter(character=victim).exists()


def test_a_forged_entry_of_another_players_sheet_is_refused():
    """The importer enters, as themselves, the sheet the file gives another player."""
    organiser, campaign, _lina, marc = _closed_modern()
    data = campaign_export(actor=organiser, campaign=campaign)
    forger = PlayerFactory()
    data["players"].append({"username": forger.username, "display_name": "F"})
    data["tables"]["memberships"].append(
        {**data["tables"]["memberships"][-1], "id": 10**6, "player": forger.username}
    )
    entry = next(e for e in data["tables"]["modern_entries"] if e["player"] == marc.owner.username)
    entry["player"] = forger.username
    count = ModernCharacter.objects.count()
    assert "breaks its game's rules (modern_entries, player)" in _refusal(forger, data)
    assert ModernCharacter.objects.count() == count


def test_a_record_naming_a_sheet_the_file_does_not_hold_is_refused():
    organiser, campaign, _lina, _marc = _closed_modern()
    victim = modern_character_create(owner=PlayerFactory(), name="Victim", characteristics=DICE)
    data = campaign_export(actor=organiser, campaign=campaign)
    data["tables"]["outcomes"][0]["record"]["sheet"] = victim.pk
    assert _refusal(organiser, data) == (
        "This export refers to a row it does not hold (outcomes, record.sheet)."
    )


def test_sheets_of_another_system_are_refused():
    organiser, campaign, lina, _marc = _closed_modern()
    data = campaign_export(actor=organiser, campaign=campaign)
    vex = corporates_character_create(owner=lina.owner, name="Vex")
    owner = data["tables"]["modern_characters"][0]["owner"]
    data["tables"]["corporates_characters"] = [
        {"id": vex.pk, "name": "Vex", "owner": owner, "catalogue_version": "1",
         "numbers": {}, "weapon": "cutting", "updated_at": data["exported_at"]}
    ]  # fmt: skip
    assert "breaks its game's rules (corporates_characters, character)" in _refusal(organiser, data)
    assert CorporatesCharacter.objects.count() == 1


def test_a_corporates_campaign_exports_its_entries():
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Arcologie", system="corporates")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="I")
    vex = corporates_character_create(owner=alice, name="Vex")
    chapter_entry_enter(actor=alice, chapter=chapter, kind=CORPORATES_SHEET, roster=vex)
    data = campaign_export(actor=organiser, campaign=campaign)
    imported = campaign_import(actor=PlayerFactory(), text=json.dumps(data))
    (entry,) = ChapterCorporatesEntry.objects.filter(chapter__campaign=imported)
    assert entry.character.name == "Vex" and entry.character_id != vex.pk
    assert entry.character.owner.username.startswith("imported-")
