"""The only writer of Rapid 40000 army lists.

Every operation checks the actor owns the army, locks it and compares the version the
client was shown (a stale one is refused with the current state), applies one edit to the
army's plain state (`army_state`), validates it against the catalogue the army records,
rewrites the squads and recomputes every squad's points, the total and the status from
scratch with `rules.engine.systems.rapid40k.costing`, and appends a history row with the
state before and after, in one transaction: the shape every roster is written in
(`characters.rosters.services.roster_write`), this module saying only what an army's state is
and how it is stored.

A list with structure problems (two troop squads missing, a squad of two) is kept as a
draft: building is allowed to be half-way. What is refused outright is what the catalogue
cannot price (an unknown weapon or rule, a Quality outside 2-6) and anything not the
actor's own.
"""

import secrets
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from characters.permissions import Refusal
from characters.rapid40k.models import Rapid40kArmy, Rapid40kChange, Rapid40kSquad
from characters.rosters.services import StaleVersion as StaleVersion  # the pages catch it here
from characters.rosters.services import (
    clean_name,
    last_undoable,
    lock_owned,
    roster_write,
)
from rules.engine.errors import RuleInputError
from rules.engine.systems.rapid40k import costing
from rules.engine.systems.rapid40k.catalogue import (
    Catalogue,
    CatalogueError,
    Profile,
    current_version,
    load_catalogue,
)

COUNT_MAX = 20
LIMIT_MAX = 100_000
FILE_FORMAT = "chronique.rapid40k.army"
FILE_VERSION = 1
# What a chapter did to an army is a fact of the campaign, not an edit to take back.
CREATION_VERBS = frozenset({"created", "imported"})


def catalogue(version: str | None = None) -> Catalogue:
    try:
        return load_catalogue(version)
    except CatalogueError:
        raise Refusal(_("This catalogue version is unknown."), field="catalogue_version") from None


# --- Plain data -------------------------------------------------------------------------------


def army_state(army: Rapid40kArmy, squads=None) -> dict:
    """What the army is, as plain JSON: compared, undone, exported and imported."""
    squads = list(army.squads.all()) if squads is None else squads
    return {
        "name": army.name,
        "faction": army.faction,
        "points_limit": army.points_limit,
        "squads": [
            {
                "name": s.name,
                "slot": s.slot,
                "vehicle": s.vehicle or None,
                "leader": s.leader,
                "fighters": list(s.fighters),
            }
            for s in squads
        ],
    }


def profile_of(entry: dict) -> Profile:
    return Profile(
        entry.get("quality"),  # type: ignore[arg-type]
        entry.get("combat"),  # type: ignore[arg-type]
        entry.get("weapon"),  # type: ignore[arg-type]
        tuple(entry.get("special_rules") or ()),
    )


def army_list(state: dict) -> costing.ArmyList:
    """The engine's view of a state: each fighter group repeated `count` times."""
    squads = []
    for s in state["squads"]:
        fighters: list[Profile] = []
        for group in s["fighters"]:
            fighters.extend([profile_of(group)] * group["count"])
        squads.append(
            costing.Squad(
                name=s["name"],
                slot=s["slot"],
                leader=profile_of(s["leader"]) if s.get("leader") else None,
                fighters=tuple(fighters),
                vehicle=s.get("vehicle") or None,
            )
        )
    return costing.ArmyList(state["name"], tuple(squads), state.get("points_limit"))


def price(state: dict, version: str) -> costing.ListPrice:
    return costing.list_price(army_list(state), catalogue(version))


# --- Checking what a client sends -------------------------------------------------------------


def _rule_sentence(error: RuleInputError) -> str:
    if error.params.get("kind") == "unknown":
        return _("“%(slug)s” is not a name the catalogue knows (%(field)s).") % {
            "slug": error.params.get("slug"),
            "field": error.field,
        }
    if error.params.get("kind") == "integer":
        return _("A number from %(lo)s to %(hi)s.") % {
            "lo": error.params["lo"],
            "hi": error.params["hi"],
        }
    return _("This profile cannot be priced: check its weapon and special rules.")


def clean_profile(value: Any, cat: Catalogue, field: str = "profile", faction: str = "") -> dict:
    """A profile as stored: an annex row (`"orks:nob"`) or Quality, Combat, weapon, rules.
    An army of a faction takes its own annex rows (and profiles of its own making)."""
    if isinstance(value, str):
        army, _sep, row = value.partition(":")
        entry = cat.armies.get(army)
        printed = entry.profiles.get(row) if entry else None
        if printed is None:
            raise Refusal(
                _("“%(slug)s” is not a name the catalogue knows (%(field)s).")
                % {"slug": value, "field": field},
                field=field,
            )
        if faction and army != faction and entry is not None:
            raise Refusal(
                _("%(profile)s is a %(other)s profile: a %(army)s army takes its own.")
                % {
                    "profile": printed.label,
                    "other": entry.label,
                    "army": cat.armies[faction].label if faction in cat.armies else faction,
                },
                field=field,
            )
        profile = printed.profile
    elif isinstance(value, dict):
        try:
            profile = costing.profile_from(value, cat)
        except RuleInputError as error:
            raise Refusal(_rule_sentence(error), field=field) from error
    else:
        raise Refusal(_("Choose a profile."), field=field)
    return {
        "quality": profile.quality,
        "combat": profile.combat,
        "weapon": profile.weapon,
        "special_rules": list(profile.special_rules),
    }


def _clean_count(value: Any, lo: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= COUNT_MAX:
        raise Refusal(
            _("A number of fighters from %(lo)s to %(hi)s.") % {"lo": lo, "hi": COUNT_MAX},
            field="count",
        )
    return value


def _clean_limit(value: Any) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LIMIT_MAX:
        raise Refusal(
            _("A points limit from 1 to %(hi)s, or none.") % {"hi": LIMIT_MAX},
            field="points_limit",
        )
    return value


def _clean_faction(value: Any, cat: Catalogue) -> str:
    if value in (None, ""):
        return ""
    if value not in cat.armies:
        raise Refusal(_("Choose an army of the annex, or none."), field="faction")
    return str(value)


def _clean_slot(value: Any, cat: Catalogue) -> str:
    if value not in cat.structure.slots:
        raise Refusal(_("Choose the squad's role."), field="slot")
    return str(value)


def _clean_vehicle(value: Any, cat: Catalogue) -> str | None:
    if value in (None, ""):
        return None
    if value not in cat.vehicles:
        raise Refusal(_("Choose a vehicle of the catalogue."), field="vehicle")
    return str(value)


def _index(value: Any, items: list, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(items):
        raise Refusal(_("There is no such line in this list any more."), field=field)
    return value


# --- The edits: one state in, the next state out ----------------------------------------------


def _edit_settings(state: dict, data: dict, cat: Catalogue) -> None:
    if "name" in data:
        state["name"] = clean_name(data["name"])
    if "faction" in data:
        state["faction"] = _clean_faction(data["faction"], cat)
    if "points_limit" in data:
        state["points_limit"] = _clean_limit(data["points_limit"])


def _edit_squad_add(state: dict, data: dict, cat: Catalogue) -> None:
    vehicle = _clean_vehicle(data.get("vehicle"), cat)
    leader = None
    if vehicle is None and data.get("leader") not in (None, ""):
        leader = clean_profile(data["leader"], cat, "leader", state.get("faction", ""))
    state["squads"].append(
        {
            "name": clean_name(data.get("name"), "squad_name"),
            "slot": _clean_slot(data.get("slot"), cat),
            "vehicle": vehicle,
            "leader": leader,
            "fighters": [],
        }
    )


def _edit_squad_edit(state: dict, data: dict, cat: Catalogue) -> None:
    squad = state["squads"][_index(data.get("squad"), state["squads"], "squad")]
    if "name" in data:
        squad["name"] = clean_name(data["name"], "squad_name")
    if "slot" in data:
        squad["slot"] = _clean_slot(data["slot"], cat)
    if data.get("leader") not in (None, "") and not squad.get("vehicle"):
        squad["leader"] = clean_profile(data["leader"], cat, "leader", state.get("faction", ""))


def _edit_squad_remove(state: dict, data: dict, cat: Catalogue) -> None:
    state["squads"].pop(_index(data.get("squad"), state["squads"], "squad"))


def _edit_fighter_add(state: dict, data: dict, cat: Catalogue) -> None:
    squad = state["squads"][_index(data.get("squad"), state["squads"], "squad")]
    if squad.get("vehicle"):
        raise Refusal(_("A vehicle is a squad of its own: it takes no fighters."), field="squad")
    profile = clean_profile(data.get("profile"), cat, faction=state.get("faction", ""))
    count = _clean_count(data.get("count", 1))
    for group in squad["fighters"]:
        if {k: v for k, v in group.items() if k != "count"} == profile:
            group["count"] = _clean_count(group["count"] + count)
            return
    squad["fighters"].append({**profile, "count": count})


def _edit_fighter_count(state: dict, data: dict, cat: Catalogue) -> None:
    squad = state["squads"][_index(data.get("squad"), state["squads"], "squad")]
    index = _index(data.get("fighter"), squad["fighters"], "fighter")
    count = _clean_count(data.get("count"), lo=0)
    if count == 0:
        squad["fighters"].pop(index)
    else:
        squad["fighters"][index]["count"] = count


EDITS: dict[str, Callable[[dict, dict, Catalogue], None]] = {
    "settings": _edit_settings,
    "squad_add": _edit_squad_add,
    "squad_edit": _edit_squad_edit,
    "squad_remove": _edit_squad_remove,
    "fighter_add": _edit_fighter_add,
    "fighter_count": _edit_fighter_count,
}


# --- Locks, writes, history -------------------------------------------------------------------


def _write(army: Rapid40kArmy, state: dict) -> Rapid40kArmy:
    """Store `state`: the squads rewritten, every number recomputed from scratch."""
    result = price(state, army.catalogue_version)
    army.name = state["name"]
    army.faction = state.get("faction") or ""
    army.points_limit = state.get("points_limit")
    army.points = result.total
    army.status = Rapid40kArmy.Status.VALID if result.valid else Rapid40kArmy.Status.DRAFT
    army.version += 1
    army.save()
    army.squads.all().delete()
    Rapid40kSquad.objects.bulk_create(
        Rapid40kSquad(
            army=army,
            position=i,
            name=s["name"],
            slot=s["slot"],
            vehicle=s.get("vehicle") or "",
            leader=s.get("leader"),
            fighters=s.get("fighters") or [],
            points=squad_price.points,
        )
        for i, (s, squad_price) in enumerate(zip(state["squads"], result.squads, strict=True))
    )
    return army


def _record(*, army, actor, verb, before, after, undoes=None, **data) -> Rapid40kChange:
    return Rapid40kChange.objects.create(
        army=army, actor=actor, verb=verb, before=before, after=after, undoes=undoes, data=data
    )


def army_create(
    *, owner, name: str, faction: str = "", points_limit: int | None = None
) -> Rapid40kArmy:
    """A new, empty list (a draft until its command and troop squads are in)."""
    cat = catalogue()
    state = {
        "name": clean_name(name),
        "faction": _clean_faction(faction, cat),
        "points_limit": _clean_limit(points_limit),
        "squads": [],
    }
    with transaction.atomic():
        army = Rapid40kArmy.objects.create(
            owner=owner, name=state["name"], catalogue_version=cat.version, version=0
        )
        _write(army, state)
        _record(army=army, actor=owner, verb="created", before=None, after=state)
    return army


def army_change(*, actor, army: Rapid40kArmy, version: int | None, action: str, data: dict):
    """One edit of the builder (`EDITS`), written and recorded."""
    edit = EDITS.get(action)
    if edit is None:
        raise Refusal(_("This change is not one the builder makes."), field="action")

    def edited(locked: Rapid40kArmy, state: dict) -> dict:
        edit(state, data, catalogue(locked.catalogue_version))
        return state

    return roster_write(
        army,
        lock=lambda army: lock_owned(actor, army, version),
        state=army_state,
        edit=edited,
        store=_write,
        record=lambda locked, before, after: _record(
            army=locked, actor=actor, verb=action, before=before, after=after, **data
        ),
        unchanged_too=True,
    )


def army_undo(*, actor, army: Rapid40kArmy, version: int | None) -> Rapid40kArmy:
    """Take back the last edit not taken back yet: its `before` state comes back."""
    taken_back = []

    def last_before(locked: Rapid40kArmy, state: dict) -> dict:
        last = last_undoable(locked.changes, kept=CREATION_VERBS)
        if last is None:
            raise Refusal(_("There is nothing to undo."), field="version")
        taken_back.append(last)
        return last.before

    return roster_write(
        army,
        lock=lambda army: lock_owned(actor, army, version),
        state=army_state,
        edit=last_before,
        store=_write,
        record=lambda locked, before, after: _record(
            army=locked, actor=actor, verb="undo", before=before, after=after, undoes=taken_back[0]
        ),
        unchanged_too=True,
    )


def army_share(*, actor, army: Rapid40kArmy, version: int | None, shared: bool) -> Rapid40kArmy:
    """Give the list a link anyone can read (a fresh one each time), or take it away."""
    with transaction.atomic():
        locked = lock_owned(actor, army, version)
        locked.share_token = secrets.token_urlsafe(32) if shared else None
        locked.version += 1
        locked.save(update_fields=["share_token", "version", "updated_at"])
        state = army_state(locked)
        _record(army=locked, actor=actor, verb="shared" if shared else "unshared",
                before=state, after=state)  # fmt: skip
    return locked


# --- The army file ----------------------------------------------------------------------------


def army_export(army: Rapid40kArmy, squads=None) -> dict:
    """The JSON file of an army (docs/rapid40k-army-file.md)."""
    return {
        "format": FILE_FORMAT,
        "format_version": FILE_VERSION,
        "catalogue_version": army.catalogue_version,
        **army_state(army, squads),
    }


def army_import(*, owner, payload: Any) -> Rapid40kArmy:
    """A new army from a file: every field checked as the builder checks it; a list with
    structure problems comes in as a draft."""
    if not isinstance(payload, dict) or payload.get("format") != FILE_FORMAT:
        raise Refusal(_("This is not a Rapid 40000 army file."), field="file")
    if payload.get("format_version") != FILE_VERSION:
        raise Refusal(
            _("This army file's format version is not one Chronique reads."), field="file"
        )
    version = payload.get("catalogue_version") or current_version()
    cat = catalogue(version)
    state = {"name": "", "faction": "", "points_limit": None, "squads": []}
    _edit_settings(state, {k: payload.get(k) for k in ("name", "faction", "points_limit")}, cat)
    squads = payload.get("squads")
    if not isinstance(squads, list):
        raise Refusal(_("The file's squads are a list."), field="squads")
    for entry in squads:
        if not isinstance(entry, dict):
            raise Refusal(_("The file's squads are a list."), field="squads")
        _edit_squad_add(state, entry, cat)
        fighters = entry.get("fighters") or []
        if not isinstance(fighters, list):
            raise Refusal(_("A squad's fighters are a list."), field="fighters")
        index = len(state["squads"]) - 1
        for group in fighters:
            if not isinstance(group, dict):
                raise Refusal(_("A squad's fighters are a list."), field="fighters")
            profile = {k: v for k, v in group.items() if k != "count"}
            _edit_fighter_add(
                state, {"squad": index, "profile": profile, "count": group.get("count", 1)}, cat
            )
    with transaction.atomic():
        army = Rapid40kArmy.objects.create(
            owner=owner, name=state["name"], catalogue_version=cat.version, version=0
        )
        _write(army, state)
        _record(army=army, actor=owner, verb="imported", before=None, after=state)
    return army
