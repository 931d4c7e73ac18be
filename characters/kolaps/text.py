"""Sentences for what `rules.engine.systems.kolaps.costing` reports, and labels for slugs.

`rules/` names problems by code; this module is where they become translated sentences,
and catalogue slugs become the names the rule text prints ("Fusil", "Agent de Police":
game vocabulary, shown as printed in both languages).
"""

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.systems.kolaps import costing
from rules.engine.systems.kolaps.catalogue_records import Catalogue

SENTENCES: Mapping[str, object] = {
    costing.UNKNOWN_AFFILIATION: gettext_lazy(
        "%(name)s: the affiliation “%(affiliation)s” is not in the KOLAPS catalogue."
    ),
    costing.UNKNOWN_ARCHETYPE: gettext_lazy(
        "%(name)s: the archetype “%(archetype)s” is not in the KOLAPS catalogue."
    ),
    costing.UNKNOWN_RANK: gettext_lazy(
        "%(name)s: the rank “%(rank)s” is not in the KOLAPS catalogue."
    ),
    costing.UNKNOWN_TALENT: gettext_lazy(
        "%(name)s: the talent “%(talent)s” is not in the KOLAPS catalogue."
    ),
    costing.UNKNOWN_EQUIPMENT: gettext_lazy(
        "%(name)s: the item “%(item)s” is not in the KOLAPS catalogue."
    ),
    costing.ARCHETYPE_NOT_OF_AFFILIATION: gettext_lazy(
        "%(name)s: %(archetype)s is not an archetype of the %(affiliation)s."
    ),
    costing.RANK_NOT_ALLOWED: gettext_lazy(
        "%(name)s: the archetype %(archetype)s allows %(allowed)s, not %(rank)s."
    ),
    costing.TALENT_CHOICE_MISSING: gettext_lazy("%(name)s: choose one talent of %(choices)s."),
    costing.TALENT_CHOICE_DOUBLE: gettext_lazy(
        "%(name)s: %(choices)s are alternatives; keep only one."
    ),
    costing.TALENT_NOT_AVAILABLE: gettext_lazy(
        "%(name)s: %(talent)s is not available to this archetype."
    ),
    costing.LEVEL_OUT_OF_RANGE: gettext_lazy("%(name)s: %(talent)s has no level %(level)s."),
    costing.MISSING_PREREQUISITE: gettext_lazy(
        "%(name)s: %(talent)s %(level)s requires %(requires)s."
    ),
    costing.OVER_BUDGET: gettext_lazy(
        "%(name)s spends %(spent)s PP, over the budget of %(budget)s PP."
    ),
    costing.EQUIPMENT_CHOICE_INVALID: gettext_lazy(
        "%(name)s: %(item)s is not one of the choices %(choices)s."
    ),
    costing.EQUIPMENT_CHOICE_COUNT: gettext_lazy(
        "%(name)s: the archetype has %(expected)s equipment choices, %(given)s are made."
    ),
    costing.NO_AVATAR: gettext_lazy("The unit has no Avatar: choose one of its characters."),
    costing.SEVERAL_AVATARS: gettext_lazy("The unit has %(count)s Avatars; it needs exactly one."),
    costing.DUPLICATE_NAME: gettext_lazy(
        "%(count)s characters are named “%(name)s”: each name must be unique in a unit."
    ),
}


def talent_label(catalogue: Catalogue, slug: str) -> str:
    talent = catalogue.talents.get(slug)
    return talent.label if talent else slug


def item_label(catalogue: Catalogue, slug: str) -> str:
    item = catalogue.weapons.get(slug) or catalogue.armours.get(slug)
    return item.label if item else slug


def rank_label(catalogue: Catalogue, slug: str) -> str:
    rank = catalogue.ranks.get(slug)
    return rank.label if rank else slug


def archetype_label(catalogue: Catalogue, slug: str) -> str:
    archetype = catalogue.archetypes.get(slug)
    return archetype.label if archetype else slug


def affiliation_label(catalogue: Catalogue, slug: str) -> str:
    affiliation = catalogue.affiliations.get(slug)
    return affiliation.label if affiliation else slug


def either(labels) -> str:
    """ "A or B or C", as the text writes its choices."""
    return _(" or ").join(labels)


def requirement_text(catalogue: Catalogue, alternatives) -> str:
    return either(f"{talent_label(catalogue, slug)} {level}" for slug, level in alternatives)


def problem_sentence(
    problem: costing.Problem, catalogue: Catalogue, names: Mapping[str, str]
) -> str:
    """The translated sentence of one problem; `names` maps character keys to names."""
    params = dict(problem.params)
    params["name"] = params.get("name") or names.get(problem.character or "", "")
    if "talent" in params:
        params["talent"] = talent_label(catalogue, str(params["talent"]))
    if "item" in params:
        params["item"] = item_label(catalogue, str(params["item"]))
    if "archetype" in params:
        slug = str(params["archetype"])
        params["archetype"] = archetype_label(catalogue, slug)
        if slug in catalogue.archetypes:
            params["allowed"] = ", ".join(
                rank_label(catalogue, rank) for rank in catalogue.archetypes[slug].ranks
            )
    if "rank" in params:
        params["rank"] = rank_label(catalogue, str(params["rank"]))
    if "affiliation" in params:
        params["affiliation"] = affiliation_label(catalogue, str(params["affiliation"]))
    if "requires" in params:
        params["requires"] = requirement_text(catalogue, params["requires"])
    if "choices" in params:
        labels = [
            talent_label(catalogue, slug)
            if slug in catalogue.talents
            else item_label(catalogue, slug)
            for slug in params["choices"]
        ]
        params["choices"] = either(labels)
    params.setdefault("allowed", "")
    return str(SENTENCES[problem.code]) % params
