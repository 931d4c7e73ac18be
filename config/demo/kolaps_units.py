"""KOLAPS units: alice's valid unit, bruno's draft with problems."""

from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsUnit
from config.demo.keys import once

DEMO_KOLAPS_VALID = "Section 4 du quai Saint-Antoine"
DEMO_KOLAPS_DRAFT = "Patrouille de nuit (brouillon)"


def load_kolaps_units(players) -> None:
    """Made once each: an existing demo unit is left as its owner changed it."""
    alice, bruno = players["alice"], players["bruno"]
    once("kolaps/unit/valid", KolapsUnit, lambda: _valid_unit(alice),
         adopt={"owner": alice, "name": DEMO_KOLAPS_VALID})  # fmt: skip
    once("kolaps/unit/draft", KolapsUnit, lambda: _draft_unit(bruno),
         adopt={"owner": bruno, "name": DEMO_KOLAPS_DRAFT})  # fmt: skip


def _valid_unit(alice) -> KolapsUnit:
    unit = kolaps.unit_create(owner=alice, name=DEMO_KOLAPS_VALID)
    chief = kolaps.character_create(
        owner=alice, name="Capitaine Vasseur", archetype="sous-officier", rank="expert",
        unit=unit,
    )  # fmt: skip
    # Pistolet 2, then Poing armé (K18 armed fists: the live table offers a pistol in melee).
    raises = (("discipline", 2), ("ralliement", 1), ("pistolet", 2), ("poing-arme", 1))
    for talent, times in raises:
        for _ in range(times):
            chief.refresh_from_db()
            kolaps.character_raise(
                actor=alice, character=chief, version=chief.version, talent=talent
            )
    dupont = kolaps.character_create(
        owner=alice, name="Brigadier Dupont", archetype="agent-de-police", rank="veteran",
        unit=unit,
    )  # fmt: skip
    for talent in ("fusil", "fusil", *["tir-instinctif"] * 3):  # level 3 costs 1 PU
        dupont.refresh_from_db()
        kolaps.character_raise(actor=alice, character=dupont, version=dupont.version, talent=talent)
    kolaps.character_create(
        owner=alice, name="Agent Lemoine", archetype="agent-anti-emeute", rank="aguerri",
        unit=unit,
    )  # fmt: skip
    kolaps.character_create(
        owner=alice, name="Agent Roux", archetype="agent-de-police", rank="novice", unit=unit
    )
    unit.refresh_from_db()
    kolaps.unit_set_avatar(actor=alice, unit=unit, version=unit.version, character=chief)
    return unit


def _draft_unit(bruno) -> KolapsUnit:
    unit = kolaps.unit_create(owner=bruno, name=DEMO_KOLAPS_DRAFT)
    hunter = kolaps.character_create(
        owner=bruno, name="Nosfer", archetype="chasseur", rank="novice", unit=unit
    )
    for talent in ("corps-a-corps", "corps-a-corps", "corps-a-corps", "marche", "marche"):
        hunter.refresh_from_db()
        kolaps.character_raise(actor=bruno, character=hunter, version=hunter.version, talent=talent)
    hunter.refresh_from_db()
    kolaps.character_raise(actor=bruno, character=hunter, version=hunter.version, talent="saut")
    for _ in range(2):
        hunter.refresh_from_db()
        kolaps.character_raise(
            actor=bruno, character=hunter, version=hunter.version, talent="sonar"
        )
    hunter.refresh_from_db()
    # Over the Novice's 7 PP, then lowering Marche leaves Saut without its prerequisite.
    kolaps.character_raise(actor=bruno, character=hunter, version=hunter.version, talent="esquive")
    hunter.refresh_from_db()
    kolaps.character_lower(actor=bruno, character=hunter, version=hunter.version, talent="marche")
    kolaps.character_create(
        owner=bruno, name="Nosfer", archetype="chasseur", rank="aguerri", unit=unit
    )  # two of one name, and no Avatar: a draft
    return unit
