"""A live encounter of each of Corporates and the modern RPG, as pick-up games orga runs,
played a little through the services as at the table.

Corporates, "Niveau -12": Vex declares three actions (segments 1, 3 and 5), the guard one
(segment 3); in segment 1 Vex strikes (a server roll). The modern RPG, "Ruelles du Panier":
Lina takes an aggressive attitude, Kader a careful one; the round's order puts Lina first and
she shoots (a server roll). Idempotent: made once, then left as the demo users leave it.
"""

from config.demo.keys import once
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_quick,
)


def _act(orga, encounter: Encounter, **action) -> None:
    encounter.refresh_from_db()
    encounter_act(
        actor=orga, encounter=encounter, version=encounter.version, action=ActionInput(**action)
    )


def _advance(orga, encounter: Encounter) -> None:
    encounter.refresh_from_db()
    encounter_advance(actor=orga, encounter=encounter, version=encounter.version)


def _by_name(encounter: Encounter) -> dict[str, int]:
    return {c.name: c.pk for c in Combatant.objects.filter(encounter=encounter)}


def _corporates(orga) -> Encounter:
    encounter = encounter_create_quick(
        actor=orga,
        system="corporates",
        sides=["Extraction", "Sécurité Kessler"],
        fighters=[["Vex"], ["Garde"]],
        title="Niveau -12",
    )
    ids = _by_name(encounter)
    _act(orga, encounter, kind="declare", actor=ids["Vex"], target=ids["Vex"],
         options={"declared": 3})  # fmt: skip
    _advance(orga, encounter)
    _act(orga, encounter, kind="attack", actor=ids["Vex"], target=ids["Garde"])
    return encounter


def _modern(orga) -> Encounter:
    encounter = encounter_create_quick(
        actor=orga,
        system="modern-rpg",
        sides=["Lina", "Les dealers"],
        fighters=[["Lina"], ["Kader", "Momo"]],
        title="Ruelles du Panier",
    )
    ids = _by_name(encounter)
    _act(orga, encounter, kind="attitude", actor=ids["Lina"], target=ids["Lina"],
         options={"attitude": "aggressive"})  # fmt: skip
    _act(orga, encounter, kind="attitude", actor=ids["Kader"], target=ids["Kader"],
         options={"attitude": "careful"})  # fmt: skip
    _advance(orga, encounter)
    _act(orga, encounter, kind="attack", actor=ids["Lina"], target=ids["Kader"])
    return encounter


def load_table_corporates_modern(players) -> Encounter | None:
    orga = players["orga"]
    once("corporates/table", Encounter, lambda: _corporates(orga))
    return once("modern/table", Encounter, lambda: _modern(orga))
