"""Of the Dead combatants at the table: their live state, what an action does to it, and the
wrap-up phase. Pure: no Django, no query; states in, new states out (never changed in place).

A combatant is its life markers, its Moral and its markers (RULES-NOTES O1, O5; rule text,
"Mécanismes de jeu"). The resolvers (`combat`, `explosives`, `checks`, `turn`) answer with
`effects`, a list of plain dicts naming a role (`"who": "attacker"`); `apply_effects` maps the
roles to combatants and applies them in order. An effect has any of:

- `life`: a change of life markers (0 is the floor: a combatant at 0 is dead);
- `moral`: a change of the combatant's Moral (0 is the floor);
- `team_moral`: a change of the Moral of every combatant of its team still in the game,
  itself included (O4, lucky break and backfire; fire);
- `markers`: `{"panic": 2, "noise": 3, "zeal": -1, ...}` changes of counted markers (0 floor);
- `set`: `{"on_ground": true, "bleeding": true, "burning": true, "stunned": true,
  "unconscious": true, "stealth": false}`.

"stunned" follows the rule text (Étourdissement): 3 tokens on the sheet; "Si un personnage
subit un étourdissement supplémentaire, il se retrouvera alors inconscient". Panic follows
Panique: "Si un personnage cumule autant de marqueurs de Panique que son niveau de Moral,
alors il subira automatiquement un Étourdissement" (read when the count reaches the Moral).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.of_the_dead.catalogue import Catalogue, load_catalogue

MARKERS = ("panic", "stun", "noise", "zeal", "caution", "stealth", "sprint")
FLAGS = ("bleeding", "burning", "on_ground", "unconscious", "dead")
SETTABLE = ("on_ground", "bleeding", "burning", "stunned", "unconscious", "stealth")


@dataclass(frozen=True)
class Combatant:
    """One figure's live state. `stun` counts the tokens on the sheet (stunned while > 0);
    `bleeding_turns` counts the wrap-ups it has bled through without first aid."""

    key: str
    team: str
    reflexes: int
    life: int
    moral: int
    panic: int = 0
    stun: int = 0
    noise: int = 0
    zeal: int = 0
    caution: int = 0
    stealth: int = 0
    sprint: int = 0
    bleeding: bool = False
    bleeding_turns: int = 0
    burning: bool = False
    on_ground: bool = False
    unconscious: bool = False
    dead: bool = False

    @property
    def in_game(self) -> bool:
        return not self.dead

    @property
    def stunned(self) -> bool:
        return self.stun > 0


@dataclass(frozen=True)
class Applied:
    """The states after some effects, and what happened (`{"key": ..., "event": ...}`:
    died, stunned, unconscious, life, moral), in order, for the log."""

    combatants: tuple[Combatant, ...]
    events: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)

    def by_key(self) -> dict[str, Combatant]:
        return {c.key: c for c in self.combatants}


# --- Reading states from JSON (the resolvers' `combatants`) -------------------------------


def read_combatant(data: Mapping[str, Any], path: str) -> Combatant:
    if not isinstance(data, Mapping):
        raise RuleInputError(path.rstrip("."), f"{path} is an object", kind="object")
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise RuleInputError(f"{path}key", f"{path}key is a name", kind="choice", choices=[])
    team = data.get("team", "survivors")
    if not isinstance(team, str):
        raise RuleInputError(f"{path}team", f"{path}team is a name", kind="choice", choices=[])
    values: dict[str, Any] = {
        "reflexes": inputs.integer(data, "reflexes", 0, 20, 0, path),
        "life": inputs.integer(data, "life", 0, 60, path=path),
        "moral": inputs.integer(data, "moral", 0, 40, path=path),
        "bleeding_turns": inputs.integer(data, "bleeding_turns", 0, 10, 0, path),
    }
    for name in MARKERS:
        values[name] = inputs.integer(data, name, 0, 40, 0, path)
    for name in FLAGS:
        values[name] = inputs.flag(data, name, path=path)
    return Combatant(key=key, team=team, **values)


def read_combatants(data: Mapping[str, Any], key: str = "combatants") -> tuple[Combatant, ...]:
    listed = data.get(key)
    if not isinstance(listed, list) or not listed or len(listed) > 60:
        raise RuleInputError(key, f"{key} lists 1 to 60 combatants", kind="list")
    combatants = tuple(read_combatant(item, f"{key}.{i}.") for i, item in enumerate(listed))
    if len({c.key for c in combatants}) != len(combatants):
        raise RuleInputError(key, f"{key}: each key once", kind="list")
    return combatants


def as_json(combatant: Combatant) -> dict[str, Any]:
    return {name: getattr(combatant, name) for name in Combatant.__dataclass_fields__}


# --- Applying effects ---------------------------------------------------------------------


def _stun(c: Combatant, catalogue: Catalogue, events: list[Mapping[str, Any]]) -> Combatant:
    """Étourdissement: 3 tokens; a second stun while stunned: unconscious."""
    if c.stunned or c.unconscious:
        events.append({"key": c.key, "event": "unconscious"})
        return replace(c, stun=0, unconscious=True)
    events.append({"key": c.key, "event": "stunned"})
    return replace(c, stun=catalogue.stun_tokens)


def _life(c: Combatant, change: int, events: list[Mapping[str, Any]]) -> Combatant:
    if not change or c.dead:
        return c
    life = max(0, c.life + change)
    events.append({"key": c.key, "event": "life", "change": life - c.life, "life": life})
    if life == 0:
        events.append({"key": c.key, "event": "died"})
        return replace(c, life=0, dead=True)
    return replace(c, life=life)


def _moral(
    c: Combatant, change: int, catalogue: Catalogue, events: list[Mapping[str, Any]]
) -> Combatant:
    if not change or c.dead:
        return c
    before = c
    moral = max(0, c.moral + change)
    events.append({"key": c.key, "event": "moral", "change": moral - c.moral, "moral": moral})
    return _panic_check(before, replace(c, moral=moral), catalogue, events)


def _panic_check(
    before: Combatant, after: Combatant, catalogue: Catalogue, events: list[Mapping[str, Any]]
) -> Combatant:
    """Panique: as many panic markers as Moral points stuns the figure, once, when reached."""
    if not catalogue.panic_stun_at_moral or after.dead:
        return after
    reached = after.panic > 0 and after.panic >= after.moral
    was = before.panic > 0 and before.panic >= before.moral
    return _stun(after, catalogue, events) if reached and not was else after


def _markers(
    c: Combatant, changes: Mapping[str, Any], catalogue: Catalogue, events: list[Mapping[str, Any]]
) -> Combatant:
    values = {}
    for name, change in changes.items():
        if name not in MARKERS or isinstance(change, bool) or not isinstance(change, int):
            raise RuleInputError("effects", f"{name!r} is not a marker change", kind="list")
        values[name] = max(0, getattr(c, name) + change)
    return _panic_check(c, replace(c, **values), catalogue, events)


def _set(
    c: Combatant, flags: Mapping[str, Any], catalogue: Catalogue, events: list[Mapping[str, Any]]
) -> Combatant:
    for name, value in flags.items():
        if name not in SETTABLE or not isinstance(value, bool):
            raise RuleInputError("effects", f"{name!r} cannot be set", kind="list")
        if name == "stunned":
            c = _stun(c, catalogue, events) if value else replace(c, stun=0)
        elif name == "stealth":
            c = replace(c, stealth=int(value))
        elif name == "bleeding":
            c = replace(c, bleeding=value, bleeding_turns=0)
        elif name == "unconscious" and value and not c.unconscious:
            events.append({"key": c.key, "event": "unconscious"})
            c = replace(c, unconscious=True, stun=0)
        elif name == "on_ground":
            c = replace(c, on_ground=value)
        elif name == "burning":
            c = replace(c, burning=value)
        else:
            c = replace(c, unconscious=value)
    return c


def apply_effects(
    combatants: Sequence[Combatant],
    effects: Iterable[Mapping[str, Any]],
    roles: Mapping[str, str],
    catalogue: Catalogue | None = None,
) -> Applied:
    """The combatants after `effects`, in order. `roles` maps an effect's `who` (attacker,
    defender, ally, thrower, roller...) to a combatant's key; a `who` that is already a key
    needs no entry. The dead take no more effects."""
    catalogue = catalogue or load_catalogue()
    states = {c.key: c for c in combatants}
    events: list[Mapping[str, Any]] = []
    for effect in effects:
        who = roles.get(str(effect.get("who")), str(effect.get("who")))
        if who not in states:
            raise RuleInputError("effects", f"no combatant {who!r}", kind="list")
        c = states[who]
        c = _life(c, int(effect.get("life", 0)), events)
        c = _moral(c, int(effect.get("moral", 0)), catalogue, events)
        c = _markers(c, effect.get("markers", {}), catalogue, events)
        c = _set(c, effect.get("set", {}), catalogue, events)
        states[who] = c
        team_change = int(effect.get("team_moral", 0))
        if team_change:
            for key, mate in states.items():
                if mate.team == c.team and mate.in_game:
                    states[key] = _moral(mate, team_change, catalogue, events)
    return Applied(tuple(states[c.key] for c in combatants), tuple(events))


# --- Named effects of the rule text -------------------------------------------------------


def ignite(who: str, catalogue: Catalogue | None = None) -> list[dict[str, Any]]:
    """Feu: "il subit immédiatement les dégâts dus à l'embrasement [...] Il subira aussi deux
    marqueurs de Panique ainsi qu'une pile de 3 marqueurs de bruit"; it cannot attack any
    more (`combat` refuses a burning attacker) and draws a critical-damage card."""
    catalogue = catalogue or load_catalogue()
    return [
        {
            "who": who,
            "life": -catalogue.fire_ignition_damage,
            "markers": {"panic": catalogue.fire_panic, "noise": catalogue.fire_noise},
            "set": {"burning": True},
        }
    ]


def surrounded(
    who: str, assailants: int, catalogue: Catalogue | None = None
) -> list[dict[str, Any]]:
    """Bagarre: "cerné par 4 ou plus d'adversaires, celui-ci sera mis au sol et perdra un point
    de Moral" — called once, when the assailants reach that number."""
    catalogue = catalogue or load_catalogue()
    if assailants < catalogue.on_the_ground_from:
        return []
    return [{"who": who, "moral": catalogue.on_the_ground_moral, "set": {"on_ground": True}}]


def flee(who: str, catalogue: Catalogue | None = None) -> list[dict[str, Any]]:
    """Fuir: "le fugitif fera deux pas hors de la mêlée et rajoutera 1 marqueur Zèle, 2
    marqueurs de Panique et 2 marqueurs de Bruit" (after a successful evasion roll)."""
    catalogue = catalogue or load_catalogue()
    markers = {"zeal": catalogue.flee_zeal, "panic": catalogue.flee_panic}
    return [{"who": who, "markers": {**markers, "noise": catalogue.flee_noise}}]


def pull_together(who: str, catalogue: Catalogue | None = None) -> list[dict[str, Any]]:
    """Se ressaisir: "Le joueur sacrifie son action durant le tour, mais supprime un marqueur
    de panique"."""
    catalogue = catalogue or load_catalogue()
    return [{"who": who, "markers": {"panic": -catalogue.panic_pull_together_removes}}]


def first_aid(who: str) -> list[dict[str, Any]]:
    """Premiers soins: "arrêter un saignement [...] ou éteindre un incendie"."""
    return [{"who": who, "set": {"bleeding": False, "burning": False}}]


def make_noise(who: str) -> list[dict[str, Any]]:
    """Faire du bruit: "le joueur empile alors 2 marqueurs de bruit"."""
    return [{"who": who, "markers": {"noise": 2}}]


# --- The wrap-up phase (Dénouement) -------------------------------------------------------


def wrap_up(
    combatants: Sequence[Combatant],
    treated: Collection[str] = (),
    catalogue: Catalogue | None = None,
) -> Applied:
    """The end of a turn, in the text's order (3 - PHASE DE DÉNOUEMENT and the markers'
    rules): caution markers (and the sprint indicator) go; every noise pile loses one marker;
    a stunned figure loses one stun token; a bleeding figure not `treated` (first aid this
    turn) loses a life marker, is stunned after its first such turn and falls unconscious
    after its second ("au tour suivant [...] un marqueur d'Étourdissement [...] encore en vie
    au tour suivant sans aucun secours, [...] un marqueur Inconscient"); a burning figure
    loses 2 life markers and its whole team 1 Moral ("Tous les membres de son équipe, lui y
    compris perdent un point de moral par tour tant qu'il sera en feu")."""
    catalogue = catalogue or load_catalogue()
    events: list[Mapping[str, Any]] = []
    states = {c.key: c for c in combatants}
    burning_teams: list[str] = []
    for original in combatants:
        c = states[original.key]
        if c.dead:
            continue
        c = replace(
            c,
            caution=0,
            sprint=0,
            noise=max(0, c.noise - catalogue.noise_decay),
            stun=max(0, c.stun - catalogue.stun_wrap_up_removes),
        )
        if c.bleeding and c.key not in treated:
            c = _life(c, -catalogue.bleeding_life_per_turn, events)
            c = replace(c, bleeding_turns=c.bleeding_turns + 1)
            if not c.dead and c.bleeding_turns == 1:
                c = _stun(c, catalogue, events)
            elif not c.dead and c.bleeding_turns >= 2 and not c.unconscious:
                events.append({"key": c.key, "event": "unconscious"})
                c = replace(c, unconscious=True, stun=0)
        if c.burning and c.key not in treated:
            c = _life(c, -catalogue.fire_life_per_turn, events)
            burning_teams.append(c.team)
        states[c.key] = c
    for team in burning_teams:
        for key, mate in states.items():
            if mate.team == team and mate.in_game:
                states[key] = _moral(mate, catalogue.fire_team_moral_per_turn, catalogue, events)
    return Applied(tuple(states[c.key] for c in combatants), tuple(events))
