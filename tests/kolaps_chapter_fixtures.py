"""KOLAPS campaigns serving units, and a trauma to heal, around the matrix's roles.

Called from the `roles` fixture: the owner's profile gets a temporary trauma; a KOLAPS
campaign of the organiser has the participant as player, two planned chapters, and the
participant's valid unit (an Avatar and a second character) entered into the first.
"""


def kolaps_chapter_objects(*, owner, organiser, participant, profile) -> dict:
    from campaigns.chapters.entries import chapter_unit_enter
    from campaigns.chapters.services import chapter_plan
    from campaigns.services import campaign_add_participant, campaign_create
    from characters.kolaps import services as kolaps
    from characters.profiles.services import trauma_add

    trauma = trauma_add(
        actor=owner, profile=profile, name="Cheville foulée", kind="physical", effect=None
    )
    campaign = campaign_create(organiser=organiser, name="Matrix KOLAPS", system="kolaps")
    campaign_add_participant(actor=organiser, campaign=campaign, player=participant)
    unit = kolaps.unit_create(owner=participant, name="Participant unit")
    chief = kolaps.character_create(
        owner=participant, name="Cheffe", archetype="agent-de-police", rank="novice", unit=unit
    )
    private = kolaps.character_create(
        owner=participant, name="Soldat", archetype="agent-de-police", rank="novice", unit=unit
    )
    unit.refresh_from_db()
    unit = kolaps.unit_set_avatar(
        actor=participant, unit=unit, version=unit.version, character=chief
    )
    assert unit.is_valid
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La gare")
    other_chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le tunnel")
    chapter_unit_enter(actor=participant, chapter=chapter, unit=unit)
    return {
        "trauma": trauma,
        "kolaps_campaign": campaign,
        "kolaps_chapter": chapter,
        "kolaps_other_chapter": other_chapter,
        "participant_unit": unit,
        "participant_private": private,
    }
