"""Rapid 40000: alice's Space Marines and bruno's Orks, built with the builder's service
as a player would click, both valid and balanced (1,135 against 1,152 points: no single
figure brings them closer); a Rapid 40000 campaign of orga with both lists entered in its
first chapter."""

from campaigns.chapters.rapid40k import chapter_army_enter
from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign
from campaigns.services import campaign_add_participant, campaign_create
from characters.rapid40k import services as rapid40k
from characters.rapid40k.models import Rapid40kArmy

DEMO_MARINES = "Ultramarines, 4e escouade"
DEMO_ORKS = "Waaagh Gorkamorka"
DEMO_RAPID40K_CAMPAIGN = "Armageddon : la ruche Hadès"
POINTS_LIMIT = 1300

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


def _army(owner, name: str, faction: str, squads) -> Rapid40kArmy:
    army = Rapid40kArmy.objects.filter(owner=owner, name=name).first()
    if army is not None:
        return army  # loaded before: whatever the demo users did since stays
    army = rapid40k.army_create(owner=owner, name=name, faction=faction, points_limit=POINTS_LIMIT)
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


def load_rapid40k_demo(players) -> None:
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    marines = _army(alice, DEMO_MARINES, "space_marines", MARINES)
    orks = _army(bruno, DEMO_ORKS, "orks", ORKS)
    campaign = Campaign.objects.filter(name=DEMO_RAPID40K_CAMPAIGN, organiser=orga).first()
    if campaign is None:
        campaign = campaign_create(
            organiser=orga,
            name=DEMO_RAPID40K_CAMPAIGN,
            system="rapid40k",
            description="Les Ultramarines tiennent la ruche contre la Waaagh, bataille après "
            "bataille.",
        )
        for player in (alice, bruno):
            campaign_add_participant(actor=orga, campaign=campaign, player=player)
    if campaign.chapters.exists():
        return
    chapter = chapter_plan(
        actor=orga,
        campaign=campaign,
        title="Les docks de la ruche",
        objectives="Tenir les trois plateformes de chargement jusqu'au sixième tour.",
        place="Chez Morgane, Lyon 7e",
    )
    for player, army, side in ((alice, marines, "Impérium"), (bruno, orks, "Waaagh")):
        if army.is_valid:
            chapter_army_enter(actor=player, chapter=chapter, army=army, side=side)
