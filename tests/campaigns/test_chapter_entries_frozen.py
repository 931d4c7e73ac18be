"""A chapter plays what was entered when it started: the unit or army list is frozen by the
start (its figures, its VU or points, its catalogue version), K12's side changes with it;
later edits change the next chapter, not the one being played."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.entries import chapter_army_enter, chapter_unit_enter, entry_kind_of
from campaigns.chapters.services import UnitResultInput, chapter_close, chapter_plan, chapter_start
from campaigns.models import ChapterArmyEntry, ChapterUnitEntry
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.systems.entry_kinds import ARMY, UNIT
from characters.kolaps import services as kolaps
from characters.permissions import Refusal
from characters.rapid40k import services as rapid40k
from rules.table.kolaps.adapter import ADAPTER
from rules.table.kolaps.combatants import K12_FROM
from tests.campaigns.test_kolaps_chapters import build_unit, kolaps_table
from tests.campaigns.test_rapid40k_chapters import army_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

BOY_PROFILE = {"quality": 4, "combat": 3, "weapon": "fling", "special_rules": []}


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


def _units(client, chapter) -> dict[str, dict]:
    body = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    return {unit["unit_name"]: unit for unit in body["units"]}


def test_each_system_names_its_roster_and_the_roster_is_described_once():
    assert entry_kind_of("kolaps") is UNIT and (UNIT.value, UNIT.entry) == ("vu", ChapterUnitEntry)
    assert entry_kind_of("rapid40k") is ARMY
    assert (ARMY.value, ARMY.entry) == ("points", ChapterArmyEntry)
    assert entry_kind_of("of-the-dead") is None and entry_kind_of("chess") is None


def test_a_character_added_after_the_start_changes_the_next_chapter_not_this_one(client):
    organiser, campaign, chapter, (alice, bruno) = kolaps_table()
    # Avatar Novice 1 + Vétéran 3 + Novice 1 = 5 VU.
    section, _ = build_unit(alice, "Section", ranks=("novice", "veteran", "novice"))
    meute, _ = build_unit(bruno, "Meute", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=section)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=meute)
    chapter_start(actor=organiser, chapter=chapter)

    kolaps.character_create(
        owner=alice, name="Renfort", archetype="agent-de-police", rank="aguerri", unit=section
    )
    section.refresh_from_db()
    assert section.vu == 7

    client.force_login(organiser)
    played = _units(client, chapter)["Section"]
    assert (played["vu"], played["frozen"]) == (5, True)
    assert [m["name"] for m in played["members"]] == ["Section 0", "Section 1", "Section 2"]
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert f'<output data-vu="{section.pk}">5 VU</output>' in html
    assert "Renfort" not in html

    following = chapter_plan(actor=organiser, campaign=campaign, title="Le port")
    chapter_unit_enter(actor=alice, chapter=following, unit=section)
    assert _units(client, following)["Section"]["vu"] == 7


def test_settling_another_chapter_leaves_the_balance_of_the_one_being_played(client):
    """The settlement of another chapter takes lost characters out of the unit
    (`unit_remove_lost`); the chapter in play keeps its sides and its K12."""
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    nord, nord_members = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice"))
    sud, _ = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    before = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()["k12"]

    kolaps.unit_remove_lost(actor=None, unit=nord, character_ids=[nord_members[1].pk])
    nord.refresh_from_db()
    assert nord.vu == 2

    after = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()["k12"]
    assert after == before
    assert [(s["name"], s["vu"]) for s in after["sides"]] == [("Nord", 5), ("Sud", 3)]


def test_k12_side_changes_are_frozen_listed_and_played_on_the_other_side(client):
    """RULES-NOTES K12: "An undervalued unit: for each PU of difference, one character
    changes sides, lowest ranks first." Nord 7 VU against Sud 3 VU: three characters of
    Nord (all but the Avatar) play for Sud."""
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    nord, members = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice", "aguerri"))
    sud, _ = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    chapter_start(actor=organiser, chapter=chapter)

    frozen = ChapterUnitEntry.objects.get(chapter=chapter, unit=nord).frozen
    moves = {m["name"]: m["changes_side_to"] for m in frozen["members"]}
    assert moves == {"Nord 0": "", "Nord 1": "Sud", "Nord 2": "Sud", "Nord 3": "Sud"}

    client.force_login(organiser)
    body = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    assert [(c["name"], c["to_side"]) for c in body["k12"]["changes"]] == [
        ("Nord 2", "Sud"),
        ("Nord 3", "Sud"),
        ("Nord 1", "Sud"),
    ]
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert '<span id="k12-defectors">Nord 2 (Nord), Nord 3 (Nord), Nord 1 (Nord)</span>' in html

    # Edited after the start, Nord would be worth less: the table still plays the freeze.
    kolaps.unit_remove_lost(actor=None, unit=nord, character_ids=[members[1].pk])
    chapter.refresh_from_db()
    sides, combatants, _version = ADAPTER.chapter_combatants(chapter)
    assert sides == ["Nord", "Sud"]
    by_name = {c.name: c for c in combatants}
    assert (by_name["Nord 0"].side, by_name["Nord 0"].player_id) == ("Nord", alice.pk)
    assert (by_name["Nord 1"].side, by_name["Nord 1"].player_id) == ("Sud", bruno.pk)
    assert by_name["Nord 1"].state == {K12_FROM: "Nord"}
    assert by_name["Nord 1"].kolaps_character_id == members[1].pk


def test_the_close_records_losses_among_the_characters_who_played(client):
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    nord, _ = build_unit(alice, "Nord", ranks=("novice", "veteran"))
    sud, _ = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    chapter_start(actor=organiser, chapter=chapter)
    late = kolaps.character_create(
        owner=alice, name="Renfort", archetype="agent-de-police", rank="novice", unit=nord
    )
    with pytest.raises(Refusal, match="only characters of this unit can be lost"):
        chapter_close(
            actor=organiser,
            chapter=chapter,
            epilogue="La gare tombe.",
            outcomes=[],
            unit_results=[UnitResultInput(nord.pk, "defeat", lost_ids=[late.pk])],
        )
    closed = chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="La gare tombe.",
        outcomes=[],
        unit_results=[UnitResultInput(nord.pk, "defeat"), UnitResultInput(sud.pk, "victory")],
    )
    assert closed.unit_results.get(unit=nord).vu == 4  # as it played, not 5


def test_an_army_list_plays_the_points_it_had_at_the_start(client):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Armageddon", system="rapid40k")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La ruche")
    army = army_of(alice)
    chapter_army_enter(actor=alice, chapter=chapter, army=army, side="Nord")
    chapter_start(actor=organiser, chapter=chapter)
    entered = army.points
    rapid40k.army_change(
        actor=alice,
        army=army,
        version=None,
        action="fighter_add",
        data={"squad": 1, "profile": BOY_PROFILE, "count": 2},
    )
    army.refresh_from_db()
    assert army.points > entered

    frozen = ChapterArmyEntry.objects.get(chapter=chapter).frozen
    assert frozen["value"] == entered and len(frozen["members"]) == 3
    client.force_login(organiser)
    body = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    assert [(a["points"], a["frozen"]) for a in body["armies"]] == [(entered, True)]
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert f'<output data-points="{army.pk}">{entered}</output>' in html


@pytest.mark.parametrize("size", [3, 30])
def test_a_started_kolaps_chapter_reads_its_frozen_units_in_the_same_queries(
    client, django_assert_num_queries, size
):
    organiser, _campaign, chapter, players = kolaps_table(size)
    for i, player in enumerate(players):
        unit, _ = build_unit(player, f"U{i}", ranks=("novice", "aguerri", "novice"))
        chapter_unit_enter(
            actor=player, chapter=chapter, unit=unit, side="Nord" if i % 2 else "Sud"
        )
    chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    # user (the session from the cache), chapter, memberships, vocations, outcomes, unit
    # results, votes, the frozen entries (no characters: they are in the freeze)
    with django_assert_num_queries(8):
        response = client.get(reverse("chapter-detail", args=[chapter.pk]))
    assert response.content.decode().count('class="card" data-unit=') == size
