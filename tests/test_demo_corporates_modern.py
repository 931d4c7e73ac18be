"""The demo shows Corporates and the modern RPG: a campaign each, and worked examples
rolled on the server once, however often the demo is loaded."""

import io

import pytest
from django.core.management import call_command

from campaigns.models import Campaign
from rules.rolls.models import RollRecord


@pytest.mark.django_db
def test_the_demo_has_a_campaign_and_worked_examples_of_each_system():
    call_command("demo_load", stdout=io.StringIO())
    call_command("demo_load", stdout=io.StringIO())
    assert Campaign.objects.filter(system="corporates").count() == 1
    assert Campaign.objects.filter(system="modern-rpg").count() == 1
    # The worked examples (alice's and bruno's); orga's are the table's (below).
    corporates = RollRecord.objects.filter(system="corporates").exclude(player__username="orga")
    assert sorted(corporates.values_list("resolver", flat=True)) == [
        "damage",
        "ramming",
        "shot",
        "takedown",
    ]
    modern = RollRecord.objects.filter(system="modern-rpg").exclude(player__username="orga")
    assert sorted(modern.values_list("resolver", flat=True)) == [
        "chase",
        "chase_test",
        "combat",
        "combat",
        "test",
    ]
    # Bruno's buckshot rolls the campaign's d8 (its setting `buckshot_die`).
    buckshot = modern.get(resolver="combat", player__username="bruno")
    assert buckshot.inputs["settings"]["buckshot_die"] == 8
    second_round = modern.get(resolver="chase_test")
    assert second_round.outcome["round"] == 2 and second_round.outcome["endurance_disadvantage"]
    shot = corporates.get(resolver="shot")
    # "La difficulté est de 12": medium range 15, less the weapon's burst bonus 3.
    assert shot.outcome["difficulty"] == 12


@pytest.mark.django_db
def test_the_demo_has_a_live_encounter_of_each_system_played_a_little():
    from rules.table.models import Encounter, Phase

    call_command("demo_load", stdout=io.StringIO())
    call_command("demo_load", stdout=io.StringIO())
    corporates = Encounter.objects.get(system="corporates")
    # Vex declared three actions: he acts in segments 1, 3 and 5, and struck in segment 1.
    assert corporates.phase == Phase.SEGMENT_1
    vex = corporates.combatants.get(name="Vex")
    assert vex.state["segments"] == [1, 3, 5]
    assert corporates.entries.filter(data__resolver="melee").count() == 1
    modern = Encounter.objects.get(system="modern-rpg")
    assert modern.phase == Phase.ACTION
    assert modern.combatants.get(name="Lina").state["initiative"] == 1
    assert modern.entries.filter(data__resolver="combat").count() == 1


@pytest.mark.django_db
def test_the_demo_has_alices_and_brunos_character_sheets():
    from characters.corporates.models import CorporatesCharacter
    from characters.modern.models import ModernCharacter

    call_command("demo_load", stdout=io.StringIO())
    call_command("demo_load", stdout=io.StringIO())
    sheets = {c.owner.username: c for c in CorporatesCharacter.objects.select_related("owner")}
    assert sorted(sheets) == ["alice", "bruno"]
    vex = sheets["alice"]
    # A session's levels carried, then a change, then the levels the settled chapter
    # "L'extraction" carried (CL3): all in its history, undoable.
    assert (vex.fatigue, vex.wounds) == (2, 3)
    assert [e.verb for e in vex.events.all()] == ["carried", "changed", "carried", "created"]
    lina = ModernCharacter.objects.get(owner__username="alice")
    assert lina.skills == {"tir": 6, "athletisme": 4, "conduite": 5}
    assert [name for name, _c in lina.specialities] == ["pistolet", "course", "esquive"]


@pytest.mark.django_db
def test_the_demo_settles_a_chapter_of_each_that_carries_to_the_sheets():
    """CL3: "each character's fatigue and wound levels carry from session to session"; CL4:
    "the organiser awards XP at a chapter's close ...; stress and wounds carry over"."""
    from campaigns.models import Chapter, SettlementEntry
    from characters.corporates.models import CorporatesCharacter
    from characters.modern.models import ModernCharacter

    call_command("demo_load", stdout=io.StringIO())
    call_command("demo_load", stdout=io.StringIO())
    extraction = Chapter.objects.get(campaign__system="corporates", title="L'extraction")
    assert extraction.settled_at is not None
    brick = CorporatesCharacter.objects.get(owner__username="bruno")
    assert (brick.fatigue, brick.wounds) == (1, 4)
    assert brick.events.first().source == f"chapter:{extraction.pk}"
    port = Chapter.objects.get(campaign__system="modern-rpg", title="Le Vieux-Port")
    lina = ModernCharacter.objects.get(owner__username="alice")
    assert (lina.stress, lina.hp_max - lina.hp) == (2, 3)
    assert lina.xp_awards == {f"chapter:{port.pk}": 3}
    assert ModernCharacter.objects.get(owner__username="bruno").xp_awards == {
        f"chapter:{port.pk}": 2
    }
    # The standings are filled: each player's settled sessions in the ledger.
    for chapter in (extraction, port):
        assert SettlementEntry.objects.filter(chapter=chapter).count() == 2
