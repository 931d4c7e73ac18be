"""Rapid 40000: alice's Space Marines and bruno's Orks, built with the builder's service
as a player would click, both valid and balanced (1,135 against 1,152 points: no single
figure brings them closer); a Rapid 40000 campaign of orga with both lists entered in its
first chapter. Each made once and found again by its key (`config.demo.keys`), never by a
name users can change."""

from campaigns.chapters.entries import chapter_army_enter
from campaigns.models import Chapter
from characters.rapid40k import services as rapid40k
from characters.rapid40k.models import Rapid40kArmy
from config.demo.campaigns import demo_campaign, demo_chapter
from config.demo.keys import once
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server

DEMO_MARINES = "Ultramarines, 4e escouade"
DEMO_ORKS = "Waaagh Gorkamorka"
DEMO_RAPID40K_CAMPAIGN = "Armageddon : la ruche Hadès"
DEMO_RAPID40K_CHAPTER = "Les docks de la ruche"
POINTS_LIMIT = 1300
# alice's server rolls: the Tactical squad's morale with its sergeant, a melee against Boyz.
ROLLS = [
    ("morale", {"quality": 3, "special_rules": ["chef"]}),
    (
        "melee",
        {
            "a": {"figures": 5, "combat": 4, "special_rules": ["armure"]},
            "b": {"figures": 5, "combat": 3, "special_rules": ["charge_feroce"], "charged": True},
        },
    ),
]

# (squad, role, leader, [(fighter profile, count)]) as the builder adds them.
MARINES = [
    ("Capitaine Severus", "command", "space_marines:capitaine", [("space_marines:soldat", 3)]),
    ("Escouade Tactique", "troops", "space_marines:sergent",
     [("space_marines:soldat", 4), ("space_marines:soldat_lance_missile", 1)]),
    ("Escouade d'Assaut", "troops", "space_marines:sergent",
     [("space_marines:soldat", 2), ("space_marines:soldat_lance_flammes", 1)]),
]  # fmt: skip
ORKS = [
    ("Big boss Grukk", "command", "orks:big_boss", [("orks:boy", 4)]),
    ("Boyz de la Dent", "troops", "orks:nob", [("orks:boy", 4), ("orks:boy_lance_missile", 1)]),
    ("Boyz du Kraneur", "troops", "orks:nob", [("orks:boy", 5), ("orks:boy_lance_flammes", 1)]),
]


def _army(key: str, owner, name: str, faction: str, squads) -> Rapid40kArmy | None:
    """The list made once under `key`: whatever the demo users did to it since stays."""

    def make() -> Rapid40kArmy:
        army = rapid40k.army_create(
            owner=owner, name=name, faction=faction, points_limit=POINTS_LIMIT
        )
        for index, (squad, slot, leader, fighters) in enumerate(squads):
            army = rapid40k.army_change(
                actor=owner,
                army=army,
                version=army.version,
                action="squad_add",
                data={"name": squad, "slot": slot, "leader": leader},
            )
            for profile, count in fighters:
                army = rapid40k.army_change(
                    actor=owner,
                    army=army,
                    version=army.version,
                    action="fighter_add",
                    data={"squad": index, "profile": profile, "count": count},
                )
        return army

    return once(key, Rapid40kArmy, make, adopt={"owner": owner, "name": name})


def load_rapid40k_demo(players) -> None:
    alice, bruno = players["alice"], players["bruno"]
    marines = _army("rapid40k/army/marines", alice, DEMO_MARINES, "space_marines", MARINES)
    orks = _army("rapid40k/army/orks", bruno, DEMO_ORKS, "orks", ORKS)

    campaign = demo_campaign(
        "rapid40k/campaign",
        players,
        name=DEMO_RAPID40K_CAMPAIGN,
        system="rapid40k",
        description="Les Ultramarines tiennent la ruche contre la Waaagh, bataille après bataille.",
    )
    if campaign is None:
        return

    def enter(chapter: Chapter) -> None:
        for player, army, side in ((alice, marines, "Impérium"), (bruno, orks, "Waaagh")):
            if army is not None and army.is_valid:
                chapter_army_enter(actor=player, chapter=chapter, army=army, side=side)

    demo_chapter(
        "rapid40k/chapter",
        players,
        campaign,
        title=DEMO_RAPID40K_CHAPTER,
        objectives="Tenir les trois plateformes de chargement jusqu'au sixième tour.",
        enter=enter,
        adopt={"campaign": campaign},  # a demo loaded before the keys: its first chapter
    )
    for name, data in ROLLS:
        if not RollRecord.objects.filter(player=alice, system="rapid40k", resolver=name).exists():
            roll_on_server(player=alice, system="rapid40k", name=name, data=data)
