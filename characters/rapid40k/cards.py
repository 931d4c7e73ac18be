"""What the Rapid 40000 pages and the API show of an army, and the one way to fetch one.

`army_get_for_user` fetches and authorises (the owner only; anyone else gets a 404) in one
query; `army_card` loads the squads in one more and prices nothing from the database: the
stored points, and the problems read from the engine on the plain state.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.rapid40k import services
from characters.rapid40k.models import Rapid40kArmy, Rapid40kChange
from rules.engine.systems.rapid40k import costing
from rules.engine.systems.rapid40k.catalogue import Catalogue


def army_get_for_user(user, pk: int, need: str = "view") -> Rapid40kArmy:
    """The army `pk` if `user` may `need` it (view or edit: the owner only), else a 404."""
    if not user.is_authenticated:
        raise Http404
    army = Rapid40kArmy.objects.filter(pk=pk, owner=user).first()
    if army is None:
        raise Http404
    return army


def army_get_shared(token: str) -> Rapid40kArmy:
    army = Rapid40kArmy.objects.filter(share_token=token).first() if token else None
    if army is None:
        raise Http404
    return army


@dataclass
class FigureLine:
    index: int
    label: str
    quality: int
    combat: int
    weapon: str
    weapon_label: str
    special_rules: list[str]
    rules_label: str
    count: int
    each: int
    points: int


@dataclass
class SquadCard:
    index: int
    name: str
    slot: str
    slot_label: str
    vehicle: str | None
    vehicle_label: str
    points: int
    figures: int
    leader: FigureLine | None
    fighters: list[FigureLine] = field(default_factory=list)


@dataclass
class ArmyCard:
    id: int
    name: str
    faction: str
    faction_label: str
    points: int
    points_limit: int | None
    status: str
    version: int
    catalogue_version: str
    share_token: str | None
    squads: list[SquadCard]
    problems: list[str]
    figures: int


def _figure(index: int, entry: dict, cat: Catalogue, count: int = 1) -> FigureLine:
    profile = services.profile_of(entry)
    weapon = cat.weapons.get(profile.weapon)
    rules = [cat.special_rules[s].label for s in profile.special_rules if s in cat.special_rules]
    each = costing.profile_cost(profile, cat)
    weapon_label = weapon.label if weapon else profile.weapon
    return FigureLine(
        index=index,
        label=f"{profile.quality}+ / C{profile.combat} · {weapon_label}",
        quality=profile.quality,
        combat=profile.combat,
        weapon=profile.weapon,
        weapon_label=weapon_label,
        special_rules=list(profile.special_rules),
        rules_label=", ".join(rules),
        count=count,
        each=each,
        points=each * count,
    )


# Problems whose sentence agrees with a count ("compte 1 combattant", "0 combattant").
PLURAL_PROBLEMS = {
    "fighters": (
        "Squad %(squad)s has %(count)s fighter besides its leader: a squad has %(min)s to %(max)s.",
        "Squad %(squad)s has %(count)s fighters besides its leader: a squad has %(min)s to "
        "%(max)s.",
    ),
}


def problem_sentences(result: costing.ListPrice) -> list[str]:
    sentences = []
    for p in result.problems:
        plural = PLURAL_PROBLEMS.get(p.code)
        if plural is not None and isinstance(p.params.get("count"), int):
            sentences.append(ngettext(*plural, p.params["count"]) % p.params)
        else:
            sentences.append(_(p.message) % p.params)
    return sentences


def army_card(army: Rapid40kArmy, squads=None) -> ArmyCard:
    squads = list(army.squads.all()) if squads is None else squads
    cat = services.catalogue(army.catalogue_version)
    state = services.army_state(army, squads)
    result = services.price(state, army.catalogue_version)
    cards = []
    for i, squad in enumerate(squads):
        slot = cat.structure.slots.get(squad.slot)
        vehicle = cat.vehicles.get(squad.vehicle) if squad.vehicle else None
        cards.append(
            SquadCard(
                index=i,
                name=squad.name,
                slot=squad.slot,
                slot_label=slot.label if slot else squad.slot,
                vehicle=squad.vehicle or None,
                vehicle_label=vehicle.label if vehicle else "",
                points=squad.points,
                figures=result.squads[i].figures,
                leader=_figure(0, squad.leader, cat) if squad.leader else None,
                fighters=[
                    _figure(j, group, cat, group["count"]) for j, group in enumerate(squad.fighters)
                ],
            )
        )
    faction = cat.armies.get(army.faction)
    return ArmyCard(
        id=army.pk,
        name=army.name,
        faction=army.faction,
        faction_label=faction.label if faction else "",
        points=army.points,
        points_limit=army.points_limit,
        status=army.status,
        version=army.version,
        catalogue_version=army.catalogue_version,
        share_token=army.share_token,
        squads=cards,
        problems=problem_sentences(result),
        figures=sum(s.figures for s in result.squads),
    )


@dataclass
class ArmySummary:
    id: int
    name: str
    points: int
    status: str
    faction_label: str


def armies_for(user) -> list[ArmySummary]:
    cat = services.catalogue()
    return [
        ArmySummary(
            id=a.pk,
            name=a.name,
            points=a.points,
            status=a.status,
            faction_label=cat.armies[a.faction].label if a.faction in cat.armies else "",
        )
        for a in Rapid40kArmy.objects.owned_by(user)
    ]


@dataclass
class ComparisonCard:
    a: ArmySummary
    b: ArmySummary
    difference: int
    cheapest_figure: int | None
    balanced: bool
    ahead: str | None


def comparison_card(a: Rapid40kArmy, b: Rapid40kArmy) -> ComparisonCard:
    """Two lists side by side ('Equilibre des forces'): balanced when the difference is
    below the cheapest figure either list fields."""
    prices = [services.price(services.army_state(x), x.catalogue_version) for x in (a, b)]
    balance = costing.balance(*prices)
    summaries = [ArmySummary(x.pk, x.name, x.points, x.status, "") for x in (a, b)]
    return ComparisonCard(
        a=summaries[0],
        b=summaries[1],
        difference=balance.difference,
        cheapest_figure=balance.cheapest_figure,
        balanced=balance.balanced,
        ahead=balance.ahead,
    )


@dataclass
class ChangeLine:
    id: int
    at: datetime
    actor: str
    verb: str
    undone: bool
    # An undo's line says what it took back.
    undoes_verb: str = ""


def history_of(army: Rapid40kArmy) -> list[ChangeLine]:
    changes = (
        Rapid40kChange.objects.filter(army=army)
        .select_related("actor", "undone_by", "undoes")
        .order_by("-at", "-pk")
    )
    return [
        ChangeLine(
            id=c.pk,
            at=c.at,
            actor=c.actor.public_name if c.actor else "",
            verb=c.verb,
            undone=hasattr(c, "undone_by"),
            undoes_verb=c.undoes.verb if c.undoes is not None else "",
        )
        for c in changes
    ]
