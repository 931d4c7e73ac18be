"""Two KOLAPS units facing each other in a pick-up encounter, for the table's tests."""

from characters.kolaps import services as kolaps
from rules.table.services import encounter_create_standalone


def police_unit(owner, name: str, members: tuple[str, ...] = ("Martel", "Roux")):
    """A unit of agents de police (pistol, assault rifle, baton), the first its Avatar."""
    unit = kolaps.unit_create(owner=owner, name=name)
    characters = [
        kolaps.character_create(
            owner=owner, name=member, archetype="agent-de-police", rank="aguerri", unit=unit
        )
        for member in members
    ]
    unit.refresh_from_db()
    unit = kolaps.unit_set_avatar(
        actor=owner, unit=unit, version=unit.version, character=characters[0]
    )
    return unit


def hunter_unit(owner, name: str, members: tuple[str, ...] = ("Croc", "Griffe")):
    """A unit of chasseurs (claws, hooves, fangs), the first its Avatar."""
    unit = kolaps.unit_create(owner=owner, name=name)
    characters = [
        kolaps.character_create(
            owner=owner, name=member, archetype="chasseur", rank="aguerri", unit=unit
        )
        for member in members
    ]
    unit.refresh_from_db()
    return kolaps.unit_set_avatar(
        actor=owner, unit=unit, version=unit.version, character=characters[0]
    )


def pick_up_encounter(organiser, opponent=None):
    """The organiser's police unit against a shared hunters' unit of `opponent`."""
    ours = police_unit(organiser, "Brigade")
    theirs = hunter_unit(opponent or organiser, "Meute")
    if opponent is not None:
        theirs = kolaps.unit_share(actor=opponent, unit=theirs, version=theirs.version)
    return encounter_create_standalone(actor=organiser, units=[ours, theirs], title="Gare")


def table_roles(*, organiser, participant, kolaps_campaign) -> dict:
    """The matrix's live encounters: the organiser's pick-up game against the participant's
    shared unit, once in its speech phase and once in its action phase; and a KOLAPS chapter
    being played with two units entered, ready for its encounter to open."""
    from campaigns.chapters.entries import chapter_unit_enter
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.services import campaign_add_participant
    from characters.kolaps import services as kolaps
    from rules.table.services import encounter_advance
    from tests.factories import PlayerFactory

    police = police_unit(organiser, "Brigade")
    spare = hunter_unit(organiser, "Meute de l'orga", ("Flair", "Dent"))
    hunters = hunter_unit(participant, "Meute")
    hunters = kolaps.unit_share(actor=participant, unit=hunters, version=hunters.version)
    speech = encounter_create_standalone(actor=organiser, units=[police, hunters], title="Parole")
    action = encounter_create_standalone(actor=organiser, units=[police, hunters], title="Action")
    encounter_advance(actor=organiser, encounter=action, version=1)
    action.refresh_from_db()
    second = PlayerFactory(username="second")
    campaign_add_participant(actor=organiser, campaign=kolaps_campaign, player=second)
    chapter = chapter_plan(actor=organiser, campaign=kolaps_campaign, title="Le quai")
    chapter_unit_enter(actor=participant, chapter=chapter, unit=hunters)
    chapter_unit_enter(actor=second, chapter=chapter, unit=police_unit(second, "Renforts"))
    chapter = chapter_start(actor=organiser, chapter=chapter)
    return {
        **otd_table_roles(organiser=organiser, participant=participant),
        "table_police": police,
        "table_spare": spare,
        "table_hunters": hunters,
        "table_speech": speech,
        "table_action": action,
        "table_chapter": chapter,
    }


def otd_table_roles(*, organiser, participant) -> dict:
    """An Of the Dead chapter being played and its live encounter: a survivor's character
    and a zonard; the participant is one of the campaign's players (an encounter's
    participant), and plays no figure in it."""
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.services import campaign_add_participant, campaign_create
    from characters.profiles.services import profile_create
    from rules.table.services import (
        NewCombatants,
        encounter_add_combatants,
        encounter_create_for_chapter,
    )
    from tests.factories import PlayerFactory

    survivor = PlayerFactory(username="survivor")
    campaign = campaign_create(organiser=organiser, name="Table des morts", system="of-the-dead")
    for player in (participant, survivor):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    profile_create(actor=survivor, player=survivor, physique=2, psychique=2, reflexes=3, combat=2)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    encounter_add_combatants(
        actor=organiser,
        encounter=encounter,
        version=None,
        spec=NewCombatants(kind="zombie", zombie_type="zonard", combat=2, life=2),
    )
    encounter.refresh_from_db()
    return {"table_otd": encounter}


def table_snapshot() -> tuple:
    """What a refused write on the table must leave as it was."""
    from rules.table.models import Combatant, Encounter, EncounterEntry

    return (
        sorted(Encounter.objects.values_list("pk", "version", "turn", "phase", "status")),
        sorted(
            Combatant.objects.values_list("pk", "sante", "souffle", "moral", "directive", "dead")
        ),
        EncounterEntry.objects.count(),
    )
