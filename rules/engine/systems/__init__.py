"""The registry of game systems: one `GameSystem` per system, in one list (`SYSTEMS`).

Each entry names a system, the rule document it comes from (see `shared/seeds/README.md`)
and what its campaigns ask of it (the seam, `rules.engine.systems.seam`): what a player
brings, what the close of a chapter asks, what the settlement keeps and how the standings
rank, declared in the system's own `campaign.py`. The resolvers of each system are listed
by `rules.engine.registry`; its catalogue lives in its own package
(`rules.engine.systems.kolaps`). The campaign app's half of the seam (forms, rows, the
settlement's writes) reads these declarations in `campaigns.systems`.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rules.engine.systems.corporates import campaign as corporates
from rules.engine.systems.kolaps import campaign as kolaps
from rules.engine.systems.modern import campaign as modern
from rules.engine.systems.of_the_dead import campaign as of_the_dead
from rules.engine.systems.rapid40k import campaign as rapid40k
from rules.engine.systems.seam import (
    NO_INDEX,
    Address,
    Calculator,
    Close,
    Index,
    Roster,
    Settle,
    Standings,
    Words,
    calculators,
    gettext_noop,
)
from rules.engine.systems.setting import Setting

__all__ = ["SYSTEMS", "GameSystem", "UnknownSystem", "gettext_noop", "index_of", "system_get"]


@dataclass(frozen=True)
class GameSystem:
    """A game system and what the campaign pages ask of it.

    `roster`: what a player brings. `Roster.PROFILE` (`uses_profiles`): their own Of the
    Dead profile, so its campaigns and chapters speak of vocations, survival points,
    required cards and items, and drops, and the player's profile lists its campaigns; a
    unit or an army is entered into each chapter (`campaigns.chapters.entries` describes
    each); a sheet is the player's character. `close`, `settle`, `standings`, `words`: what
    the close of a chapter asks, what the settlement keeps, how the standings rank, and the
    words its pages use (`rules.engine.systems.seam`). `index`: what its index at
    `/rules/<system>/` lists (calculators, the table's pick-up game). `plays_at_table`: the
    live table plays it (`rules.table.systems.ADAPTERS`; the chapter page offers its table).
    `short_name`: what the systems' menu calls it ("": its `name`). `open_settings`: what its
    rule text leaves open, a campaign's choices (`rules.engine.systems.open_settings`)."""

    slug: str
    name: str
    source: str
    summary: str
    roster: Roster
    close: Close
    settle: Settle
    standings: Standings
    words: Words
    index: Index = NO_INDEX
    plays_at_table: bool = False
    short_name: str = ""
    open_settings: Callable[[], Mapping[str, Setting]] | None = None

    @property
    def menu_name(self) -> str:
        """Its name in the systems' menu (to translate: the modern RPG's has a translation)."""
        return self.short_name or self.name

    @property
    def uses_profiles(self) -> bool:
        """Players bring their own Of the Dead character (traumas, survival points)."""
        return self.roster is Roster.PROFILE


SYSTEMS: tuple[GameSystem, ...] = (
    GameSystem(
        slug="kolaps",
        name="KOLAPS : GROUND ZERO",
        short_name="KOLAPS",
        plays_at_table=True,
        source="000_54d039a2b5ac2f23.txt",
        summary=gettext_noop(
            "Tactical skirmish: units of characters costed in PU, the Avatar, talents, "
            "Santé, Souffle and Moral."
        ),
        roster=kolaps.ROSTER,
        close=kolaps.CLOSE,
        settle=kolaps.SETTLE,
        standings=kolaps.STANDINGS,
        words=kolaps.WORDS,
        index=Index(
            calculators=(
                Calculator("test", "kolaps-test", Address.ROUTE, gettext_noop("Talent test")),
                Calculator("ranged", "kolaps-ranged", Address.ROUTE, gettext_noop("Ranged combat")),
                Calculator("melee", "kolaps-melee", Address.ROUTE, gettext_noop("Melee")),
            ),
            table="table-new",
            result_template="rules/calculators/_result.html",
        ),
    ),
    GameSystem(
        slug="of-the-dead",
        name="Of the Dead",
        plays_at_table=True,
        source="004_94726b5a373069e1.txt",
        summary=gettext_noop(
            "Semi-cooperative zombie skirmish: each player plays an idealised self, "
            "kept from chapter to chapter."
        ),
        roster=of_the_dead.ROSTER,
        close=of_the_dead.CLOSE,
        settle=of_the_dead.SETTLE,
        standings=of_the_dead.STANDINGS,
        words=of_the_dead.WORDS,
        index=Index(
            calculators=(
                Calculator("brawl", "of-the-dead-calculator", title=gettext_noop("Brawl")),
                Calculator("shot", "of-the-dead-calculator", title=gettext_noop("Shot")),
                Calculator("throw", "of-the-dead-calculator", title=gettext_noop("Explosive")),
            ),
            table="table-new-of-the-dead",
            result_template="rules/calculators/_of_the_dead_result.html",
        ),
    ),
    GameSystem(
        slug="rapid40k",
        name="Rapid 40000",
        plays_at_table=True,
        source="002_1a930dd7fe550b68.txt",
        summary=gettext_noop("Fast miniatures battles: profiles, a points formula and army lists."),
        roster=rapid40k.ROSTER,
        close=rapid40k.CLOSE,
        settle=rapid40k.SETTLE,
        standings=rapid40k.STANDINGS,
        open_settings=rapid40k.open_settings,
        words=rapid40k.WORDS,
        index=Index(
            calculators=calculators(
                "rapid40k-calculator",
                Address.RESOLVER,
                *("cost", "melee", "shooting", "overwatch", "deviation", "morale"),
                *("disengage", "vehicle"),
            ),
            rolls_of_squads=True,
        ),
    ),
    GameSystem(
        slug="corporates",
        name="Corporates",
        plays_at_table=True,
        source="003_fde41e4e6014fd0d.txt",
        summary=gettext_noop("Cyberpunk combat in five-segment turns with declared actions."),
        roster=corporates.ROSTER,
        close=corporates.CLOSE,
        settle=corporates.SETTLE,
        standings=corporates.STANDINGS,
        open_settings=corporates.open_settings,
        words=corporates.WORDS,
        index=Index(
            calculators=(
                *calculators(
                    "dice-calculator",
                    Address.SYSTEM_PAGE,
                    *("action", "reaction", "shot", "damage", "covering_fire", "melee"),
                    *("critical", "cyber", "takedown", "ramming"),
                ),
                Calculator(
                    "schedule", "corporates-turn", Address.ROUTE, gettext_noop("Turn tracker")
                ),
            ),
            table="table-new",
            table_asks_system=True,
            reads_campaign_settings=True,
        ),
    ),
    GameSystem(
        slug="modern-rpg",
        name=gettext_noop("Modern RPG"),  # the only name with a translation: "JdR moderne"
        plays_at_table=True,
        source="001_0b8cdc51948c6499.txt",
        summary=gettext_noop("Modern-era roleplaying: attitudes, stress dice and chases."),
        roster=modern.ROSTER,
        close=modern.CLOSE,
        settle=modern.SETTLE,
        standings=modern.STANDINGS,
        open_settings=modern.open_settings,
        words=modern.WORDS,
        index=Index(
            calculators=(
                *calculators(
                    "dice-calculator",
                    Address.SYSTEM_PAGE,
                    *("test", "cold_blood", "attitude", "combat", "healing", "chase"),
                    "chase_test",
                ),
                Calculator("chase", "modern-chase", Address.ROUTE, gettext_noop("Chase tracker")),
            ),
            table="table-new",
            table_asks_system=True,
            reads_campaign_settings=True,
        ),
    ),
)

_BY_SLUG = {system.slug: system for system in SYSTEMS}


class UnknownSystem(LookupError):
    """No game system has this slug."""


def system_get(slug: str) -> GameSystem:
    try:
        return _BY_SLUG[slug]
    except KeyError:
        raise UnknownSystem(slug) from None


def index_of(slug: str) -> Index:
    """What the system's index declares (`NO_INDEX` for a slug no system declares: a roll
    of no system's calculators)."""
    system = _BY_SLUG.get(slug)
    return system.index if system else NO_INDEX


def uses_profiles(slug: str) -> bool:
    """Whether the players of `slug` bring an Of the Dead profile (False for an unknown
    slug: nothing of Of the Dead shows where the system is not known)."""
    system = _BY_SLUG.get(slug)
    return system is not None and system.uses_profiles


def profile_systems() -> tuple[str, ...]:
    """The slugs of the systems whose players bring their profile."""
    return tuple(system.slug for system in SYSTEMS if system.uses_profiles)


def system_choices() -> list[tuple[str, str]]:
    return [(system.slug, system.name) for system in SYSTEMS]
