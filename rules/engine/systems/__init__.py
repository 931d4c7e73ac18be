"""The registry of game systems.

Each entry names a system, the rule document it comes from (see `shared/seeds/README.md`)
and what Chronique tracks for it. The resolvers of each system are listed by
`rules.engine.registry`; its catalogue lives in its own package (`rules.engine.systems.kolaps`).
"""

from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark a string for translation without importing Django (makemessages finds it)."""
    return message


@dataclass(frozen=True)
class GameSystem:
    slug: str
    name: str
    source: str
    summary: str


SYSTEMS: tuple[GameSystem, ...] = (
    GameSystem(
        slug="kolaps",
        name="KOLAPS : GROUND ZERO",
        source="000_54d039a2b5ac2f23.txt",
        summary=gettext_noop(
            "Tactical skirmish: units of characters costed in PU, the Avatar, talents, "
            "Santé, Souffle and Moral."
        ),
    ),
    GameSystem(
        slug="of-the-dead",
        name="Of the Dead",
        source="004_94726b5a373069e1.txt",
        summary=gettext_noop(
            "Semi-cooperative zombie skirmish: each player plays an idealised self, "
            "kept from chapter to chapter."
        ),
    ),
    GameSystem(
        slug="rapid40k",
        name="Rapid 40000",
        source="002_1a930dd7fe550b68.txt",
        summary=gettext_noop("Fast miniatures battles: profiles, a points formula and army lists."),
    ),
    GameSystem(
        slug="corporates",
        name="Corporates",
        source="003_fde41e4e6014fd0d.txt",
        summary=gettext_noop("Cyberpunk combat in five-segment turns with declared actions."),
    ),
    GameSystem(
        slug="modern-rpg",
        name=gettext_noop("Modern RPG"),  # the only name with a translation: "JdR moderne"
        source="001_0b8cdc51948c6499.txt",
        summary=gettext_noop("Modern-era roleplaying: attitudes, stress dice and chases."),
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


def system_choices() -> list[tuple[str, str]]:
    return [(system.slug, system.name) for system in SYSTEMS]
