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
from django.utils.translation import gettext_lazy

from rules.calculators.rapid40k import RESOLVER_LABELS as RAPID40K_CALCULATORS
from rules.calculators.views import OF_THE_DEAD_CALCULATORS
from rules.dice_calculators.cards import TITLES, page_slug
from rules.engine.registry import resolver_get, resolvers_of
from rules.engine.systems import SYSTEMS, system_get

KOLAPS_CALCULATORS = {
    "test": gettext_lazy("Talent test"),
    "ranged": gettext_lazy("Ranged combat"),
    "melee": gettext_lazy("Melee"),
}
# The calculators built from a resolver's schema (rules/dice_calculators/).
SCHEMA_SYSTEMS = ("corporates", "modern-rpg")


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


def _link(system: str, resolver: str, title, url: str) -> IndexLink:
    return IndexLink(
        slug=page_slug(resolver), title=str(title), url=url, api=_api(system, resolver)
    )


def _calculators(system: str) -> list[IndexLink]:
    if system == "kolaps":
        return [
            _link(system, name, title, reverse(f"kolaps-{name}"))
            for name, title in KOLAPS_CALCULATORS.items()
        ]
    if system == "of-the-dead":
        return [
            _link(system, name, title, reverse("of-the-dead-calculator", args=[name]))
            for name, title in OF_THE_DEAD_CALCULATORS.items()
        ]
    if system == "rapid40k":
        return [
            _link(
                system,
                r.name,
                RAPID40K_CALCULATORS[r.name],
                reverse("rapid40k-calculator", args=[r.name]),
            )
            for r in resolvers_of(system)
        ]
    links = [
        _link(
            system,
            r.name,
            TITLES[(system, r.name)],
            reverse("dice-calculator", args=[system, page_slug(r.name)]),
        )
        for r in resolvers_of(system)
        if (system, r.name) in TITLES
    ]
    if system == "corporates":
        links.append(_link(system, "schedule", _("Turn tracker"), reverse("corporates-turn")))
    else:
        links.append(_link(system, "chase", _("Chase tracker"), reverse("modern-chase")))
    return links


def _table(system: str) -> str:
    if system == "kolaps":
        return reverse("table-new")
    if system == "of-the-dead":
        return reverse("table-new-of-the-dead")
    if system in SCHEMA_SYSTEMS:
        return f"{reverse('table-new')}?system={system}"
    return ""


def system_index_card(system: str) -> SystemIndexCard | None:
    """The index of `system`, or None for a slug no system has."""
    if system not in {s.slug for s in SYSTEMS}:
        return None
    found = system_get(system)
    return SystemIndexCard(
        system=system,
        name=str(_(found.name)),
        summary=_(found.summary),
        calculators=_calculators(system),
        catalogue=reverse("catalogue", args=[system]),
        table=_table(system),
    )
