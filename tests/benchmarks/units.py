"""The KOLAPS unit the benches measure: 30 police agents of the three ranks, each with
the rifle and instinctive-shot talents unless told otherwise."""

from characters.kolaps import services

TALENTS = ("fusil", "tir-instinctif")


def unit_of_30(owner, *, name: str = "Bench", talents: tuple[str, ...] = TALENTS):
    unit = services.unit_create(owner=owner, name=name)
    for n in range(30):
        character = services.character_create(
            owner=owner,
            name=f"Agent {n}",
            archetype="agent-de-police",
            rank=("novice", "aguerri", "veteran")[n % 3],
            unit=unit,
        )
        for talent in talents:
            character = services.character_raise(
                actor=owner, character=character, version=character.version, talent=talent
            )
    unit.refresh_from_db()
    return unit
