"""The modern RPG demo: orga's campaign with alice and bruno, and a worked example rolled on
the server: a forced test, a shot through an aggressive attitude and a vest, a chase round
on foot with its event, a pedestrian's second-round test flat out, and bruno's buckshot at
short range (the campaign rolls buckshot's 1D as a d8, a setting its calculators use)."""

from campaigns.models import Campaign
from campaigns.rules_settings.services import (
    campaign_rules_settings,
    campaign_rules_settings_set,
)
from characters.modern.models import ModernCharacter
from characters.modern.services import modern_character_create
from config.demo.campaigns import demo_campaign
from config.demo.keys import once
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server

CAMPAIGN = "Poursuite à Marseille"
EXAMPLES = (
    ("test", {"characteristic": 8, "skill": 6, "stress": 1, "force": True}),
    (
        "combat",
        {
            "characteristic": 10,
            "skill": 8,
            "attitude": "aggressive",
            "target_attitude": "careful",
            "rate_of_fire": 2,
            "weapon_damage": 3,
            "vest": "class_ii",
            "hp": 10,
            "hp_max": 10,
        },
    ),
    ("chase", {"terrain": "foot", "band": "short", "pursued_successes": 2, "pursuer_successes": 1}),
    (
        "chase_test",
        {
            "mover": "foot",
            "round": 2,
            "risk": "flat_out",
            "risk_dice": 1,
            "endurance": 8,
            "characteristic": 10,
            "skill": 6,
        },
    ),
)
BUCKSHOT = {
    "characteristic": 8,
    "skill": 6,
    "ammunition": "buckshot",
    "range": "short",
    "weapon_damage": 4,
    "vest": "class_iia",
    "hp": 10,
    "hp_max": 10,
}


def load_modern(players) -> Campaign | None:
    """The campaign, created once, alice's character, and her examples, each rolled once."""

    campaign = demo_campaign(
        "modern/campaign",
        players,
        name=CAMPAIGN,
        system="modern-rpg",
        description=(
            "Un informateur file dans les ruelles du Panier\u00a0; la police n'est jamais loin."
        ),
        then=lambda campaign: campaign_rules_settings_set(
            actor=players["orga"], campaign=campaign, settings={"buckshot_die": 8}
        ),
    )
    alice = players["alice"]
    once(
        "modern/character/alice",
        ModernCharacter,
        lambda: modern_character_create(
            owner=alice,
            name="Lina Marchetti",
            characteristics={"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8},
            skills={"tir": 6, "athletisme": 4, "conduite": 5},
            specialities=["pistolet", "course", "esquive"],
        ),
    )
    for name, data in EXAMPLES:
        if not RollRecord.objects.filter(player=alice, system="modern-rpg", resolver=name).exists():
            roll_on_server(player=alice, system="modern-rpg", name=name, data=data)
    bruno = players["bruno"]
    if not RollRecord.objects.filter(player=bruno, system="modern-rpg", resolver="combat").exists():
        roll_on_server(
            player=bruno,
            system="modern-rpg",
            name="combat",
            data={**BUCKSHOT, "settings": campaign_rules_settings(campaign)},
        )
    return campaign
