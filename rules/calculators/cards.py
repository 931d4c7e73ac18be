"""The index of a game system at `/rules/<system>/`: its calculators, its catalogue and where
its table is laid, for the five systems alike. The page and its API twin share this card, so
the two list the same things in the same order.

Read from the registries (no query). A calculator's address uses its resolver's name in
kebab-case (`covering-fire`): the page addresses have one style, the engine and the API keep
the resolver's own name (`covering_fire`), which stored rolls and API clients already use.
"""

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from rules.dice_calculators.cards import page_slug
from rules.engine.registry import resolver_get
from rules.engine.systems import SYSTEMS, GameSystem, system_get
from rules.engine.systems.seam import Address, Calculator
from rules.labels import resolver_label


@dataclass(frozen=True)
class IndexLink:
    slug: str
    title: str
    url: str
    api: str = ""  # the API route answering the same question ("" when none)


@dataclass(frozen=True)
class SystemIndexCard:
    system: str
    name: str
    summary: str
    calculators: list[IndexLink] = field(default_factory=list)
    catalogue: str = ""
    table: str = ""  # where a pick-up game of the system starts ("": from a campaign chapter)


def _api(system: str, resolver: str) -> str:
    if resolver_get(system, resolver) is None:
        return ""
    return reverse("api-resolve", kwargs={"system": system, "resolver": resolver, "verb": "odds"})


def _url(system: str, calculator: Calculator) -> str:
    if calculator.address is Address.ROUTE:
        return reverse(calculator.route)
    if calculator.address is Address.RESOLVER:
        return reverse(calculator.route, args=[calculator.resolver])
    return reverse(calculator.route, args=[system, page_slug(calculator.resolver)])


def _calculators(system: GameSystem) -> list[IndexLink]:
    """The calculators the system declares (`GameSystem.index`), in its order."""
    return [
        IndexLink(
            slug=page_slug(c.resolver),
            title=_(c.title) if c.title else resolver_label(c.resolver, system.slug),
            url=_url(system.slug, c),
            api=_api(system.slug, c.resolver),
        )
        for c in system.index.calculators
    ]


def _table(system: GameSystem) -> str:
    if not system.index.table:
        return ""
    url = reverse(system.index.table)
    return f"{url}?system={system.slug}" if system.index.table_asks_system else url


def system_index_card(system: str) -> SystemIndexCard | None:
    """The index of `system`, or None for a slug no system has."""
    if system not in {s.slug for s in SYSTEMS}:
        return None
    found = system_get(system)
    return SystemIndexCard(
        system=system,
        name=str(_(found.name)),
        summary=_(found.summary),
        calculators=_calculators(found),
        catalogue=reverse("catalogue", args=[system]),
        table=_table(found),
    )
