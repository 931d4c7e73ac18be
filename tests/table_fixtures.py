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
