"""Of the Dead: the vocations, the zombie types, and the tables of its catalogue data file
(movements, cover, ranges, states, explosives, obstacles), every number read from it."""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import ZombieType
from characters.models import TraumaKind, TraumaPermanence, Vocation
from rules.catalogue.entries import CatalogueEntry, CatalogueSection, plus
from rules.engine.systems.of_the_dead.catalogue import load_catalogue
from rules.labels import (
    OTD_COVER_LABELS,
    OTD_MOVE_LABELS,
    OTD_RANGE_LABELS,
    OTD_SIZE_LABELS,
    OTD_TEMPLATE_LABELS,
)

TRAUMA_LABELS = {
    "physical": gettext_lazy("Physical trauma"),
    "psychic": gettext_lazy("Psychic trauma"),
}
EFFECT_LABELS = {
    "stumble": gettext_lazy("a stumble"),
    "stun": gettext_lazy("a stun roll"),
    "unconscious": gettext_lazy("a fainting"),
}


def _dice(n: int, what: str) -> str:
    if what == "attack":
        return ngettext("%(n)s attack die", "%(n)s attack dice", abs(n)) % {"n": plus(n)}
    return ngettext("%(n)s defence die", "%(n)s defence dice", abs(n)) % {"n": plus(n)}


def sections() -> tuple[str, list[CatalogueSection]]:
    cat = load_catalogue()
    vocations = [CatalogueEntry(slug=v.value, label=str(v.label)) for v in Vocation]
    zombies = [CatalogueEntry(slug=z.value, label=str(z.label)) for z in ZombieType]
    permanences = " / ".join(str(p.label) for p in TraumaPermanence)
    traumas = [
        CatalogueEntry(
            slug=kind.value,
            label=str(TRAUMA_LABELS.get(kind.value, capfirst(str(kind.label)))),
            facts=[permanences],
            summary=_(
                "Named by its player; while active it may change the profile's attributes, "
                "and once healed it stays in the profile's history."
            ),
        )
        for kind in TraumaKind
    ]
    moves = [
        CatalogueEntry(
            slug=key,
            label=str(OTD_MOVE_LABELS[key]),
            facts=[
                _("%(cm)s cm") % {"cm": move.cm},
                _("noise %(n)s") % {"n": move.noise},
                _("zeal %(n)s") % {"n": move.zeal},
                *([_("initiative %(n)s") % {"n": plus(move.caution)}] if move.caution else []),
            ],
        )
        for key, move in cat.moves.items()
        if key in OTD_MOVE_LABELS
    ]
    covers = [
        CatalogueEntry(
            slug=key,
            label=str(OTD_COVER_LABELS[key]),
            facts=[_("cannot be attacked") if dice is None else _dice(dice, "defence")],
        )
        for key, dice in cat.cover_dice.items()
        if key in OTD_COVER_LABELS and key != "none"
    ]
    ranges = [
        CatalogueEntry(
            slug=key,
            label=str(OTD_RANGE_LABELS[key]),
            facts=[
                _dice(n, what) for n, what in zip(dice, ("attack", "defence"), strict=True) if n
            ],
        )
        for key, dice in cat.range_dice.items()
        if key in OTD_RANGE_LABELS
    ]
    states = [
        CatalogueEntry(
            slug="panic",
            label=_("Panic"),
            summary=_(
                "As many panic tokens as Moral: stunned. A careful walk removes %(walk)s, "
                "pulling oneself together %(pull)s."
            )
            % {"walk": cat.panic_careful_walk_removes, "pull": cat.panic_pull_together_removes},
        ),
        CatalogueEntry(
            slug="stun",
            label=_("Stun"),
            summary=_("%(tokens)s tokens on the sheet; each wrap-up removes %(n)s.")
            % {"tokens": cat.stun_tokens, "n": cat.stun_wrap_up_removes},
        ),
        CatalogueEntry(
            slug="bleeding",
            label=_("Bleeding"),
            summary=ngettext(
                "%(n)s life point lost each turn without care.",
                "%(n)s life points lost each turn without care.",
                cat.bleeding_life_per_turn,
            )
            % {"n": cat.bleeding_life_per_turn},
        ),
        CatalogueEntry(
            slug="fire",
            label=_("Fire"),
            summary=_(
                "%(ignition)s damage when it catches, then %(life)s life points a turn; the "
                "whole team %(moral)s Moral a turn; %(panic)s panic, %(noise)s noise."
            )
            % {
                "ignition": cat.fire_ignition_damage,
                "life": cat.fire_life_per_turn,
                "moral": plus(cat.fire_team_moral_per_turn),
                "panic": cat.fire_panic,
                "noise": cat.fire_noise,
            },
        ),
    ]
    explosives = [
        CatalogueEntry(
            slug=key,
            label=str(OTD_TEMPLATE_LABELS[key]),
            facts=[
                ngettext("%(n)s damage", "%(n)s damage", template.damage) % {"n": template.damage},
                str(EFFECT_LABELS.get(template.effect, "")),
                *([_("destroys the cover")] if template.destroys_cover else []),
                *([_("the Molotov's template")] if key == cat.molotov_template else []),
            ],
        )
        for key, template in cat.templates.items()
        if key in OTD_TEMPLATE_LABELS
    ]
    obstacles = [
        CatalogueEntry(
            slug=key,
            label=str(OTD_SIZE_LABELS[key]),
            facts=[_("structure %(n)s") % {"n": structure}],
            summary=_("A fall: %(moral)s Moral, on the ground, %(noise)s noise.")
            % {"moral": plus(cat.fall_moral), "noise": cat.fall_noise},
        )
        for key, structure in cat.obstacles.items()
        if key in OTD_SIZE_LABELS
    ]
    return cat.version, [
        CatalogueSection("vocations", "vocation", _("Vocations"), vocations),
        CatalogueSection("zombies", "zombie", _("Zombie types"), zombies),
        CatalogueSection("traumas", "trauma", _("Traumas"), traumas),
        CatalogueSection("moves", "move", _("Movements"), moves),
        CatalogueSection("covers", "cover", _("Cover"), covers),
        CatalogueSection("ranges", "range", _("Ranges"), ranges),
        CatalogueSection("states", "state", _("States"), states),
        CatalogueSection("explosives", "explosive", _("Explosives"), explosives),
        CatalogueSection("obstacles", "obstacle", _("Obstacles (stumble)"), obstacles),
    ]
