"""The Of the Dead table catalogue: dice faces, combat dice, markers, moves, explosives.

Why a data file (`catalogues/<version>.json`): the rule text
(`shared/seeds/004_94726b5a373069e1.txt`, read through RULES-NOTES O2-O5) does not print its
dice faces, and O2 says the reading the product chose is data "that a campaign may change".
So every number of the table lives here, with the passage it comes from (`ref`), and the
resolvers take the catalogue they are given: a campaign that reads its faces differently
ships a new version, and the versions that shipped stay side by side.

Why it is validated when loaded: a data file has no compiler. Every section is read into
frozen dataclasses, unknown or missing keys are refused, the six faces must each name one
of the four kinds and at least one face must be a success; a broken file fails with one
`CatalogueError` naming the field.

Pure Python: no Django; the only I/O is reading the JSON file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

CATALOGUES_DIR: Final = Path(__file__).with_name("catalogues")
FACE_KINDS: Final = ("fiasco", "blank", "success", "critical")
SIDES: Final = 6
MOVES: Final = ("careful", "normal", "run", "sprint")
RANGES: Final = ("useful", "effective")
COVERS: Final = ("none", "partial", "cover", "hidden")
SIZES: Final = ("slight", "moderate", "substantial")
TEMPLATE_EFFECTS: Final = ("stumble", "stun", "unconscious")
ORDERS: Final = ("ascending", "descending")
PHASES: Final = ("movement", "action", "wrap_up")
INITIATIVE_MARKERS: Final = ("panic", "stun", "bleeding", "burning", "sprint", "caution")


class CatalogueError(ValueError):
    """The Of the Dead catalogue is malformed."""


@dataclass(frozen=True)
class Move:
    cm: int
    noise: int
    zeal: int
    caution: int
    sprint: int


@dataclass(frozen=True)
class Template:
    damage: int
    effect: str
    destroys_cover: bool


# Compared and hashed by identity: each version is loaded once (the resolvers cache their
# odds by catalogue).
@dataclass(frozen=True, eq=False)
class Catalogue:
    version: str
    faces: tuple[str, ...]  # the kind of faces 1..6, in order
    lucky_break_criticals: int
    lucky_break_moral: int
    backfire_fiascos: int
    backfire_moral: int
    range_dice: Mapping[str, tuple[int, int]]  # band -> (attack dice, defence dice)
    cover_dice: Mapping[str, int | None]  # None: cannot be attacked
    surrounded_from: int
    surrounded_brawl_dice_lost: int
    surrounded_shot_dice_lost: int
    on_the_ground_from: int
    on_the_ground_moral: int
    no_shot_from: int
    no_throw_from: int
    stealth_attack_dice: int
    stealth_leave_move_cm: int
    stealth_speed_divisor: int
    step_cm: int
    moves: Mapping[str, Move]
    overrun_panic: int
    initiative: Mapping[str, int]
    phase_order: Mapping[str, str]
    panic_stun_at_moral: bool
    panic_careful_walk_removes: int
    panic_pull_together_removes: int
    stun_tokens: int
    stun_wrap_up_removes: int
    bleeding_life_per_turn: int
    fire_ignition_damage: int
    fire_life_per_turn: int
    fire_team_moral_per_turn: int
    fire_panic: int
    fire_noise: int
    obstacles: Mapping[str, int]
    fall_moral: int
    fall_noise: int
    noise_decay: int
    templates: Mapping[str, Template]
    molotov_template: str
    scatter_failure_arc: int
    scatter_critical_failure_arc: int
    flee_steps: int
    flee_zeal: int
    flee_panic: int
    flee_noise: int

    def kind(self, face: int) -> str:
        """What a die showing `face` counts as (O2)."""
        return self.faces[face - 1]


def _section(data: Mapping[str, Any], key: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise CatalogueError(f"{key}: an object is expected")
    found = set(value) - {"ref"}
    if found != set(keys):
        raise CatalogueError(f"{key}: the keys are {sorted(keys)}, not {sorted(found)}")
    return value


def _int(data: Mapping[str, Any], key: str, where: str, lo: int = 0, hi: int = 100) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise CatalogueError(f"{where}.{key}: a whole number from {lo} to {hi}")
    return value


def _bool(data: Mapping[str, Any], key: str, where: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise CatalogueError(f"{where}.{key}: true or false")
    return value


def _choice(value: Any, choices: tuple[str, ...], where: str) -> str:
    if value not in choices:
        raise CatalogueError(f"{where}: one of {', '.join(choices)}")
    return str(value)


def _faces(data: Mapping[str, Any]) -> tuple[str, ...]:
    section = _section(data, "faces", tuple(str(face) for face in range(1, SIDES + 1)))
    faces = tuple(
        _choice(section[str(face)], FACE_KINDS, f"faces.{face}") for face in range(1, SIDES + 1)
    )
    if not {"success", "critical"} & set(faces):
        raise CatalogueError("faces: at least one face is a success")
    return faces


def _moves(data: Mapping[str, Any]) -> dict[str, Move]:
    section = _section(data, "moves", MOVES)
    moves = {}
    for name in MOVES:
        entry = _section(section, name, ("cm", "noise", "zeal", "caution", "sprint"))
        where = f"moves.{name}"
        moves[name] = Move(**{key: _int(entry, key, where) for key in Move.__dataclass_fields__})
    if [moves[name].cm for name in MOVES] != sorted(moves[name].cm for name in MOVES):
        raise CatalogueError("moves: each move reaches at least as far as the one before")
    return moves


def _templates(data: Mapping[str, Any]) -> tuple[dict[str, Template], str, int, int]:
    section = _section(data, "explosives", ("templates", "molotov_template", "scatter"))
    raw = _section(section, "templates", SIZES)
    templates = {}
    for size in SIZES:
        entry = _section(raw, size, ("damage", "effect", "destroys_cover"))
        where = f"explosives.templates.{size}"
        templates[size] = Template(
            damage=_int(entry, "damage", where, 0, 20),
            effect=_choice(entry["effect"], TEMPLATE_EFFECTS, f"{where}.effect"),
            destroys_cover=_bool(entry, "destroys_cover", where),
        )
    molotov = _choice(section["molotov_template"], SIZES, "explosives.molotov_template")
    scatter = _section(section, "scatter", ("failure_arc", "critical_failure_arc", "steps_die"))
    if scatter["steps_die"] != "D6":
        raise CatalogueError("explosives.scatter.steps_die: D6")
    return (
        templates,
        molotov,
        _int(scatter, "failure_arc", "explosives.scatter", 1, 360),
        _int(scatter, "critical_failure_arc", "explosives.scatter", 1, 360),
    )


def _build(data: Mapping[str, Any]) -> Catalogue:
    known = {
        "version", "source", "faces", "lucky_break", "backfire", "range", "cover", "surrounded",
        "stealth", "step_cm", "moves", "overrun_panic", "initiative", "phase_order", "panic",
        "stun", "bleeding", "fire", "stumble", "noise_decay", "explosives", "flee",
    }  # fmt: skip
    if set(data) != known:
        raise CatalogueError(f"the sections are {sorted(known)}, not {sorted(data)}")
    lucky = _section(data, "lucky_break", ("criticals_at_least", "team_moral"))
    backfire = _section(data, "backfire", ("fiascos_at_least", "team_moral"))
    bands = _section(data, "range", RANGES)
    range_dice = {}
    for band in RANGES:
        entry = _section(bands, band, ("attack", "defence"))
        range_dice[band] = (_int(entry, "attack", band, 0, 10), _int(entry, "defence", band, 0, 10))
    cover = _section(data, "cover", COVERS)
    cover_dice: dict[str, int | None] = {
        name: None if cover[name] is None else _int(cover, name, "cover", 0, 10) for name in COVERS
    }
    surrounded = _section(
        data,
        "surrounded",
        (
            "from",
            "brawl_dice_lost",
            "shot_defence_dice_lost_per_assailant",
            "on_the_ground_from",
            "on_the_ground_moral",
            "no_shot_from",
            "no_throw_from",
        ),
    )
    stealth = _section(data, "stealth", ("attack_dice", "leave_move_cm", "speed_divisor"))
    initiative = _section(data, "initiative", INITIATIVE_MARKERS)
    order = _section(data, "phase_order", PHASES)
    panic = _section(
        data, "panic", ("stun_when_at_moral", "careful_walk_removes", "pull_together_removes")
    )
    stun = _section(data, "stun", ("tokens", "wrap_up_removes"))
    bleeding = _section(data, "bleeding", ("life_per_turn",))
    fire = _section(
        data,
        "fire",
        ("ignition_damage", "life_per_turn", "team_moral_per_turn", "panic", "noise"),
    )
    stumble = _section(data, "stumble", ("obstacles", "fall_moral", "fall_noise"))
    obstacles = _section(stumble, "obstacles", SIZES)
    flee = _section(data, "flee", ("steps", "zeal", "panic", "noise"))
    templates, molotov, failure_arc, critical_arc = _templates(data)
    version = data["version"]
    if not isinstance(version, str):
        raise CatalogueError("version: a string")
    return Catalogue(
        version=version,
        faces=_faces(data),
        lucky_break_criticals=_int(lucky, "criticals_at_least", "lucky_break", 1, 20),
        lucky_break_moral=_int(lucky, "team_moral", "lucky_break", 0, 6),
        backfire_fiascos=_int(backfire, "fiascos_at_least", "backfire", 1, 20),
        backfire_moral=_int(backfire, "team_moral", "backfire", -6, 0),
        range_dice=MappingProxyType(range_dice),
        cover_dice=MappingProxyType(cover_dice),
        surrounded_from=_int(surrounded, "from", "surrounded", 1, 20),
        surrounded_brawl_dice_lost=_int(surrounded, "brawl_dice_lost", "surrounded"),
        surrounded_shot_dice_lost=_int(
            surrounded, "shot_defence_dice_lost_per_assailant", "surrounded"
        ),
        on_the_ground_from=_int(surrounded, "on_the_ground_from", "surrounded", 1, 20),
        on_the_ground_moral=_int(surrounded, "on_the_ground_moral", "surrounded", -6, 0),
        no_shot_from=_int(surrounded, "no_shot_from", "surrounded", 1, 20),
        no_throw_from=_int(surrounded, "no_throw_from", "surrounded", 1, 20),
        stealth_attack_dice=_int(stealth, "attack_dice", "stealth", 0, 10),
        stealth_leave_move_cm=_int(stealth, "leave_move_cm", "stealth"),
        stealth_speed_divisor=_int(stealth, "speed_divisor", "stealth", 1, 10),
        step_cm=_int(data, "step_cm", "", 1, 100),
        moves=MappingProxyType(_moves(data)),
        overrun_panic=_int(data, "overrun_panic", "", 0, 10),
        initiative=MappingProxyType(
            {name: _int(initiative, name, "initiative", -10, 10) for name in INITIATIVE_MARKERS}
        ),
        phase_order=MappingProxyType(
            {phase: _choice(order[phase], ORDERS, f"phase_order.{phase}") for phase in PHASES}
        ),
        panic_stun_at_moral=_bool(panic, "stun_when_at_moral", "panic"),
        panic_careful_walk_removes=_int(panic, "careful_walk_removes", "panic", 0, 10),
        panic_pull_together_removes=_int(panic, "pull_together_removes", "panic", 0, 10),
        stun_tokens=_int(stun, "tokens", "stun", 1, 10),
        stun_wrap_up_removes=_int(stun, "wrap_up_removes", "stun", 1, 10),
        bleeding_life_per_turn=_int(bleeding, "life_per_turn", "bleeding", 0, 10),
        fire_ignition_damage=_int(fire, "ignition_damage", "fire", 0, 10),
        fire_life_per_turn=_int(fire, "life_per_turn", "fire", 0, 10),
        fire_team_moral_per_turn=_int(fire, "team_moral_per_turn", "fire", -6, 0),
        fire_panic=_int(fire, "panic", "fire", 0, 10),
        fire_noise=_int(fire, "noise", "fire", 0, 10),
        obstacles=MappingProxyType(
            {size: _int(obstacles, size, "stumble.obstacles", 1, 10) for size in SIZES}
        ),
        fall_moral=_int(stumble, "fall_moral", "stumble", -6, 0),
        fall_noise=_int(stumble, "fall_noise", "stumble", 0, 10),
        noise_decay=_int(data, "noise_decay", "", 0, 10),
        templates=MappingProxyType(templates),
        molotov_template=molotov,
        scatter_failure_arc=failure_arc,
        scatter_critical_failure_arc=critical_arc,
        flee_steps=_int(flee, "steps", "flee", 0, 10),
        flee_zeal=_int(flee, "zeal", "flee", 0, 10),
        flee_panic=_int(flee, "panic", "flee", 0, 10),
        flee_noise=_int(flee, "noise", "flee", 0, 10),
    )


def catalogue_versions() -> tuple[str, ...]:
    """Every version that shipped, oldest first; the last is the current one (the directory
    is read once: the files ship with the code)."""
    return _versions_in(CATALOGUES_DIR)


@cache
def _versions_in(directory: Path) -> tuple[str, ...]:
    """The versions in `directory`, listed once per folder (a test may ship another)."""
    versions = (path.stem for path in directory.glob("*.json"))
    return tuple(sorted(versions, key=lambda v: tuple(int(part) for part in v.split("."))))


def read_catalogue(data: Mapping[str, Any]) -> Catalogue:
    """A catalogue from its JSON data (a campaign's own reading of the faces, say), validated."""
    return _build(data)


@cache
def load_catalogue(version: str | None = None) -> Catalogue:
    """The catalogue of `version` (the current one when None), validated."""
    versions = catalogue_versions()
    wanted = version or versions[-1]
    if wanted not in versions:
        raise CatalogueError(f"no Of the Dead catalogue {wanted!r}")
    path = CATALOGUES_DIR / f"{wanted}.json"
    catalogue = _build(json.loads(path.read_text(encoding="utf-8")))
    if catalogue.version != wanted:
        raise CatalogueError(f"{path.name} says it is version {catalogue.version}")
    return catalogue
