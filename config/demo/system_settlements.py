"""A settled chapter in the KOLAPS, Rapid 40000, modern RPG and Corporates campaigns, so
that each shows its own close, settlement and standings (RULES-NOTES CL1 to CL4):

- KOLAPS: "L'avant-poste", alice's "Section Fourvière" against bruno's "Les Loups de la
  Croix-Rousse", units of their own (the units of the other chapters keep their members):
  alice's victory with a wounded brigadier, bruno's defeat with a hunter dead and another
  gone over to the police (K12);
- Rapid 40000: "La plateforme Ouest", both lists entered: bruno's Orks win and lose four
  boyz, alice's Marines lose three of their tactical squad (losses do not carry over);
- modern RPG: "Le Vieux-Port", alice's Lina and bruno's Marc entered: 3 XP to Lina and 2
  to Marc, Lina ends with 2 stress and 3 hit points lost, carried to her sheet; and a
  second session planned, whose close the organiser can open;
- Corporates: "L'extraction", alice's Vex and bruno's Brick entered: Vex ends with 2
  fatigue and 3 wound levels, Brick with 1 and 4, carried to their sheets (CL3).

Each chapter is made once (`config.demo.keys`) through the services, as the organiser would,
and settled by `settlement_apply` as the task does.
"""

from campaigns.chapters.entries import chapter_army_enter, chapter_entry_enter, chapter_unit_enter
from campaigns.chapters.services import chapter_close, chapter_plan, chapter_start
from campaigns.models import Campaign, Chapter
from campaigns.settlement.apply import settlement_apply
from campaigns.systems.base import EntryResultInput
from campaigns.systems.entry_kinds import CORPORATES_SHEET, MODERN_SHEET
from characters.corporates.models import CorporatesCharacter
from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsUnit
from characters.modern.models import ModernCharacter
from characters.modern.services import modern_character_create
from characters.rapid40k.models import Rapid40kArmy
from config.demo.keys import once, recall

PLACE = "Chez Morgane, Lyon 7e"


def _unit(key: str, owner, name: str, archetype: str, members) -> KolapsUnit | None:
    def make() -> KolapsUnit:
        unit = kolaps.unit_create(owner=owner, name=name)
        first = None
        for member, rank in members:
            character = kolaps.character_create(
                owner=owner, name=member, archetype=archetype, rank=rank, unit=unit
            )
            first = first or character
        unit.refresh_from_db()
        return kolaps.unit_set_avatar(actor=owner, unit=unit, version=unit.version, character=first)

    return once(key, KolapsUnit, make, adopt={"owner": owner, "name": name})


def _settled(key: str, campaign: Campaign, title: str, play) -> None:
    """The chapter made once under `key`: planned, entered, played, closed and settled."""

    def make() -> Chapter:
        chapter = chapter_plan(
            actor=campaign.organiser, campaign=campaign, title=title, place=PLACE
        )
        return play(chapter)

    chapter = once(key, Chapter, make, adopt={"campaign": campaign, "title": title})
    if chapter is not None and chapter.settled_at is None and chapter.status == "closed":
        settlement_apply(chapter_id=chapter.pk)


def _kolaps(players) -> None:
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    campaign = recall("kolaps/campaign", Campaign)
    section = _unit(
        "kolaps/unit/fourviere",
        alice,
        "Section Fourvière",
        "agent-de-police",
        (("Lieutenante Garnier", "veteran"), ("Brigadier Roche", "aguerri")),
    )
    loups = _unit(
        "kolaps/unit/loups",
        bruno,
        "Les Loups de la Croix-Rousse",
        "chasseur",
        (("Dent", "veteran"), ("Fauve", "aguerri"), ("Museau", "novice")),
    )
    if campaign is None or section is None or loups is None:
        return

    def play(chapter: Chapter) -> Chapter:
        chapter_unit_enter(actor=alice, chapter=chapter, unit=section, side="Police")
        chapter_unit_enter(actor=bruno, chapter=chapter, unit=loups, side="Meute")
        chapter = chapter_start(actor=orga, chapter=chapter)
        police = {c.name: c.pk for c in section.members.all()}
        pack = {c.name: c.pk for c in loups.members.all()}
        return chapter_close(
            actor=orga,
            chapter=chapter,
            epilogue="La police tient l'avant-poste\u00a0; Fauve tombe, Museau se rend.",
            notable_events=["Fauve est tué au pied de la barricade.", "Museau change de camp."],
            unit_results=[
                EntryResultInput(section.pk, "victory", wounded_ids=[police["Brigadier Roche"]]),
                EntryResultInput(
                    loups.pk,
                    "defeat",
                    lost_ids=[pack["Fauve"]],
                    changed_side_ids=[pack["Museau"]],
                ),
            ],
        )

    _settled("kolaps/chapter/settled", campaign, "L'avant-poste", play)


def _rapid40k(players) -> None:
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    campaign = recall("rapid40k/campaign", Campaign)
    marines = recall("rapid40k/army/marines", Rapid40kArmy)
    orks = recall("rapid40k/army/orks", Rapid40kArmy)
    if campaign is None or marines is None or orks is None:
        return
    if not (marines.is_valid and orks.is_valid):
        return

    def play(chapter: Chapter) -> Chapter:
        chapter_army_enter(actor=alice, chapter=chapter, army=marines, side="Impérium")
        chapter_army_enter(actor=bruno, chapter=chapter, army=orks, side="Waaagh")
        chapter = chapter_start(actor=orga, chapter=chapter)
        tactical = marines.squads.order_by("position", "pk")[1].pk
        boyz = orks.squads.order_by("position", "pk")[1].pk
        return chapter_close(
            actor=orga,
            chapter=chapter,
            epilogue="La Waaagh submerge la plateforme au cinquième tour.",
            army_results=[
                EntryResultInput(marines.pk, "defeat", figures_lost={tactical: 3}),
                EntryResultInput(orks.pk, "victory", figures_lost={boyz: 4}),
            ],
        )

    _settled("rapid40k/chapter/settled", campaign, "La plateforme Ouest", play)


def _sheets_play(orga, kind, entered, epilogue: str, answers):
    """A chapter of a roleplaying campaign: each sheet entered by its owner, the chapter
    started and closed with each sheet's `answers` (its levels at the end, its XP)."""

    def play(chapter: Chapter) -> Chapter:
        for sheet in entered:
            chapter_entry_enter(actor=sheet.owner, chapter=chapter, kind=kind, roster=sheet)
        chapter = chapter_start(actor=orga, chapter=chapter)
        return chapter_close(
            actor=orga,
            chapter=chapter,
            epilogue=epilogue,
            entry_results=[
                EntryResultInput(sheet.pk, "played", answers=found)
                for sheet, found in zip(entered, answers, strict=True)
            ],
        )

    return play


def _modern(players) -> None:
    orga, bruno = players["orga"], players["bruno"]
    campaign = recall("modern/campaign", Campaign)
    lina = recall("modern/character/alice", ModernCharacter)
    marc = once(
        "modern/character/bruno",
        ModernCharacter,
        lambda: modern_character_create(
            owner=bruno,
            name="Marc Ferri",
            characteristics={"reflexes": 8, "endurance": 10, "sang_froid": 8, "empathie": 10},
            skills={"conduite": 6, "combat_rapproche": 4},
            specialities=["pilotage"],
        ),
    )
    if campaign is None or lina is None or marc is None:
        return
    play = _sheets_play(
        orga,
        MODERN_SHEET,
        (lina, marc),
        "L'informateur est retrouvé sur le Vieux-Port, vivant.",
        ({"xp": 3, "stress": 2, "wounds": 3}, {"xp": 2, "stress": 0, "wounds": 0}),
    )
    _settled("modern/chapter/settled", campaign, "Le Vieux-Port", play)
    once(
        "modern/chapter/planned",
        Chapter,
        lambda: chapter_plan(actor=orga, campaign=campaign, title="Le Panier", place=PLACE),
        adopt={"campaign": campaign, "title": "Le Panier"},
    )


def _corporates(players) -> None:
    campaign = recall("corporates/campaign", Campaign)
    vex = recall("corporates/character/alice", CorporatesCharacter)
    brick = recall("corporates/character/bruno", CorporatesCharacter)
    if campaign is None or vex is None or brick is None:
        return
    play = _sheets_play(
        players["orga"],
        CORPORATES_SHEET,
        (vex, brick),
        "Le colis est extrait du niveau -12\u00a0; Brick a couvert la sortie sous le feu.",
        ({"fatigue": 2, "wounds": 3}, {"fatigue": 1, "wounds": 4}),
    )
    _settled("corporates/chapter/settled", campaign, "L'extraction", play)


def load_system_settlements(players) -> None:
    _kolaps(players)
    _rapid40k(players)
    _modern(players)
    _corporates(players)
