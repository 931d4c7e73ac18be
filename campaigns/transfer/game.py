"""What the rules allow in a campaign file, and what an import derives instead of trusting.

A file is written by anyone: its numbers are checked against the ranges the API and the
pages enforce (read here from their serializers, so that the two never drift apart), and
everything a settlement derives is derived again from the file's own rows:

- a ledger row's figures (kills, survival points, damage, rolls, traumas healed...) and
  its result come from the chapter's outcome, the campaign's survival rule and the
  encounter log, exactly as `campaigns.settlement.plan` computes them;
- a ledger row's effects may only name its own sheet's traumas and a sheet status;
- a sheet's attributes must be a valid creation (RULES-NOTES O1), its life markers, Moral
  and survival points are recomputed.

So an imported campaign weighs on the leaderboard and on a sheet exactly as the same
chapters played here would, never more.
"""

from collections import defaultdict
from typing import Any

from campaigns.api import CampaignWriteSerializer
from campaigns.chapters.api import ChapterWriteSerializer, OutcomeWriteSerializer
from campaigns.chapters.models import ZombieType
from campaigns.chapters.services import MAX_DAMAGE
from campaigns.statistics.columns import RECORDED, database_values
from campaigns.systems.base import ENTRY_KEYS, record_of
from characters.corporates.api import CorporatesSheetSerializer
from characters.kolaps.api import OPPONENT_VU_MAX, CharacterChangeSerializer
from characters.models import ProfileStatus
from characters.modern.api import ModernSheetSerializer
from characters.profiles.api import ProfileCreateSerializer, TraumaCreateSerializer
from characters.rapid40k.forms import ArmyCreateForm
from rules.engine.systems import system_get
from rules.engine.systems.of_the_dead import effects
from rules.engine.systems.of_the_dead.settlement import SurvivalRule, survival_points
from rules.engine.systems.seam import Figures

COUNTER_MAX = 9999


def _bounds(serializer: Any, name: str) -> tuple[int, int]:
    field = serializer().fields[name]
    field = getattr(field, "child", field)
    return field.min_value, field.max_value


def _form_bounds(form: Any, name: str) -> tuple[int, int]:
    field = form.base_fields[name]
    return field.min_value, field.max_value


# (table, column) -> the smallest and largest value the API or the page accepts for it.
RULE_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    **{
        ("campaign", name): _bounds(CampaignWriteSerializer, name)
        for name in ("chapters_planned", "survival_points_survive", "survival_points_victory")
    },
    **{
        ("chapters", name): _bounds(ChapterWriteSerializer, name)
        for name in ("players_min", "players_max", "min_survival_points", "duration_minutes")
    },
    **{
        ("kolaps_characters", name): _bounds(CharacterChangeSerializer, name)
        for name in ("sante", "souffle", "moral")
    },
    ("kolaps_units", "vu"): (0, OPPONENT_VU_MAX),
    ("unit_results", "vu"): (0, OPPONENT_VU_MAX),
    ("rapid40k_armies", "points_limit"): _form_bounds(ArmyCreateForm, "points_limit"),
    **{
        ("corporates_characters", name): _bounds(CorporatesSheetSerializer, name)
        for name in ("fatigue", "wounds")
    },
    **{
        ("modern_characters", name): _bounds(ModernSheetSerializer, name)
        for name in ("hp", "hp_max", "stress")
    },
    **{
        ("profiles", name): _bounds(ProfileCreateSerializer, name)
        for name in ("physique", "psychique", "reflexes", "combat")
    },
    ("encounter_events", "damage"): (0, MAX_DAMAGE),
    # Counted on from by the services (the next chapter, the next member, another try):
    # bounded far below their column's end, so that counting on never overflows it.
    ("chapters", "number"): (1, COUNTER_MAX),
    ("kolaps_characters", "position"): (0, COUNTER_MAX),
    ("rapid40k_squads", "position"): (0, COUNTER_MAX),
    ("settlements", "attempts"): (0, COUNTER_MAX),
}
KILLS = _bounds(OutcomeWriteSerializer, "kills")
TRAUMA_CHANGE = _bounds(TraumaCreateSerializer, "effect")

# The shapes of JSON values a settlement reads back (the schema holds them).
EFFECT_OPS = ("trauma_healed", "trauma_made_permanent", "status")
JSON_RULES: dict[tuple[str, str], dict] = {
    ("outcomes", "kills"): {
        "type": "object",
        "propertyNames": {"enum": list(ZombieType.values)},
        "additionalProperties": {"type": "integer", "minimum": KILLS[0], "maximum": KILLS[1]},
    },
    ("traumas", "effect"): {  # null: no effect (the column accepts it)
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"enum": list(effects.ATTRIBUTES)},
        "additionalProperties": {
            "type": "integer",
            "minimum": TRAUMA_CHANGE[0],
            "maximum": TRAUMA_CHANGE[1],
            "not": {"const": 0},
        },
    },
    ("ledger", "effects"): {
        "type": "array",
        "maxItems": 100,
        "items": {
            "type": "object",
            "properties": {
                "op": {"enum": list(EFFECT_OPS)},
                "trauma": {"type": ["integer", "null"], "minimum": 1},
                "before": {"enum": list(ProfileStatus.values)},
                "after": {"enum": list(ProfileStatus.values)},
            },
            "required": ["op"],
            "additionalProperties": False,
        },
    },
}


class GameProblem(Exception):
    """The file breaks a rule the schema cannot say: (table, column) where."""

    def __init__(self, table: str, column: str) -> None:
        super().__init__(table, column)
        self.table, self.column = table, column


def check_sheets(tables: dict) -> None:
    """Every sheet is a valid creation (RULES-NOTES O1: at least 1 in each attribute, 9 in
    all), as `profile_create` demands."""
    for row in tables["profiles"]:
        problems = effects.creation_problems({name: row[name] for name in effects.ATTRIBUTES})
        if problems:
            raise GameProblem("profiles", problems[0].field or "physique")


def check_sheet_entries(tables: dict, sheet_tables: dict[str, tuple[str, str]]) -> None:
    """A character sheet enters a chapter of its own system's campaign only, entered by its
    owner, as `campaigns.chapters.entries` demands: a forged entry of a sheet the file
    gives another player, or of another system's sheet, is refused. `sheet_tables`: each
    system's tables of entries and of sheets (`document.SHEET_TABLES`)."""
    system = tables["campaign"][0]["system"]
    for slug, (entries, sheets) in sheet_tables.items():
        if slug != system and (tables[entries] or tables[sheets]):
            raise GameProblem(entries if tables[entries] else sheets, "character")
        owners = {sheet["id"]: sheet["owner"] for sheet in tables[sheets]}
        for entry in tables[entries]:
            if owners.get(entry["character"]) != entry["player"]:
                raise GameProblem(entries, "player")


def derive(tables: dict, kept: set[int]) -> None:
    """Rewrite, in the file's rows, what the settlement derives: every ledger row's result
    and figures from its outcome, every sheet's life markers, Moral and survival points;
    and every version counter starts again at 1.

    `kept`: the file's sheets not written (the importer keeps the one they have here). The
    ledger rows of such a sheet name none, and revert nothing when reopened: an import
    never writes to a sheet that exists."""
    for rows in tables.values():
        for row in rows:
            if "version" in row:  # a new row here: its edits count from 1 again
                row["version"] = 1
    campaign = tables["campaign"][0]
    game = system_get(campaign["system"])
    of_the_dead = game.uses_profiles
    rule = SurvivalRule(
        survive=campaign.get("survival_points_survive", 1),
        victory=campaign.get("survival_points_victory", 1),
    )
    outcomes = {(o["chapter"], o["player"]): o for o in tables["outcomes"]}
    settled = _settled(game, tables["outcomes"])
    traumas = {t["id"]: t for t in tables["traumas"]}
    profiles = {p["id"]: p for p in tables["profiles"]}
    dealt: dict[tuple[int, str], int] = defaultdict(int)
    rolled: dict[tuple[int, str], int] = defaultdict(int)
    taken: dict[tuple[int, str], int] = defaultdict(int)
    played = set()
    for event in tables["encounter_events"]:
        chapter, damage = event["chapter"], event.get("damage", 0)
        played.add(chapter)
        rolled[chapter, event["player"]] += 1
        if event.get("target") is not None:
            dealt[chapter, event["player"]] += damage
            taken[chapter, event["target"]] += damage
    gained: dict[tuple[int, int], int] = defaultdict(int)
    for trauma in tables["traumas"]:
        gained[trauma.get("chapter"), trauma["profile"]] += 1
    points: dict[int, int] = defaultdict(int)
    for row in tables["ledger"]:
        key = (row["chapter"], row["player"])
        outcome = outcomes.get(key)
        if outcome is None and row.get("reverted_at") is not None:
            # A row reverted before its outcome was taken back: it counts for nothing.
            outcome = {"result": "defeat", "died": True, "kills": {}}
            row["effects"] = []
        if outcome is None:
            raise GameProblem("ledger", "chapter")
        profile = row.get("profile")
        if profile is not None and profiles[profile]["player"] != row["player"]:
            raise GameProblem("ledger", "profile")
        if profile in kept:
            row["profile"] = profile = None
            row["effects"] = []
        row["effects"] = _effects(row.get("effects") or [], profile, traumas)
        died = bool(outcome.get("died", False))
        kills = dict.fromkeys(ZombieType.values, 0)
        kills.update(outcome.get("kills") or {})
        played_here = row["chapter"] in played
        figures = _Figures(
            kills=kills,
            kills_total=sum(kills.values()),
            survival_points=(
                survival_points(result=outcome["result"], died=died, rule=rule)
                if of_the_dead
                else 0
            ),
            traumas_gained=gained[row["chapter"], profile] if profile is not None else 0,
            traumas_healed=_count(row["effects"], "trauma_healed"),
            traumas_permanent=_count(row["effects"], "trauma_made_permanent"),
            damage_dealt=dealt[key] if played_here else None,
            damage_taken=taken[key] if played_here else None,
            rolls=rolled[key] if played_here else None,
            **vars(settled.get(key, Figures())),
        )
        row.update(database_values(figures, RECORDED))
        row.update(
            result=outcome["result"],
            died=died,
            survived=not died,
            won=outcome["result"] == "victory",
        )
        if profile is not None and row.get("reverted_at") is None:
            points[profile] += row["survival_points"]
    for profile in tables["profiles"]:
        active = [
            t.get("effect")
            for t in tables["traumas"]
            if t["profile"] == profile["id"] and t.get("active", True)
        ]
        numbers = effects.sheet_numbers(
            {name: profile[name] for name in effects.ATTRIBUTES}, active
        )
        profile.update(
            life_markers=numbers.life_markers,
            moral=numbers.moral,
            survival_points=points[profile["id"]],
        )


# The largest numbers a close's record may hold (`ChapterOutcome.record`, what the system's
# settlement reads): a character's or a squad's value, a squad's figures, a counted answer.
RECORD_VALUE_MAX, RECORD_FIGURES_MAX, RECORD_COUNT_MAX, RECORD_MEMBERS_MAX = (
    100_000,
    1_000,
    1_000,
    200,
)


def _settled(game, outcomes: list) -> dict[tuple[int, int], Figures]:
    """Each participant's figures as the system's settlement computes them from the close's
    record (`rules.engine.systems.seam`), chapter by chapter: the ledger's value destroyed
    and lost, characters lost and experience are derived, never read from the file. A
    record beyond the rules' numbers is refused."""
    by_chapter: dict[int, list] = defaultdict(list)
    for outcome in outcomes:
        record = outcome.get("record") or {}
        _check_record(record)
        by_chapter[outcome["chapter"]].append(
            record_of(outcome["player"], outcome["result"], outcome.get("side", ""), record)
        )
    return {
        (chapter, player): figures
        for chapter, records in by_chapter.items()
        for player, figures in game.settle(records).items()
    }


def _check_record(record: Any) -> None:
    if not isinstance(record, dict):
        raise GameProblem("outcomes", "record")
    members = record.get("members", [])
    if not isinstance(members, list) or len(members) > RECORD_MEMBERS_MAX:
        raise GameProblem("outcomes", "record")
    for member in members:
        if not isinstance(member, dict):
            raise GameProblem("outcomes", "record")
        value, figures, lost = (member.get(k) or 0 for k in ("value", "figures", "lost"))
        if not all(isinstance(n, int) for n in (value, figures, lost)):
            raise GameProblem("outcomes", "record")
        if not (0 <= value <= RECORD_VALUE_MAX and 0 <= figures <= RECORD_FIGURES_MAX):
            raise GameProblem("outcomes", "record")
        if not 0 <= lost <= max(figures, 1):
            raise GameProblem("outcomes", "record")
    for name, value in record.items():
        top = RECORD_VALUE_MAX if name in ENTRY_KEYS else RECORD_COUNT_MAX
        if isinstance(value, int) and not 0 <= value <= top:
            raise GameProblem("outcomes", "record")


def _count(found: list, op: str) -> int:
    """The traumas an effect list changed with `op`, each once (a trauma the file does not
    hold, null, counts as one each, as where it was settled)."""
    named = {e["trauma"] for e in found if e["op"] == op and e["trauma"] is not None}
    return len(named) + sum(1 for e in found if e["op"] == op and e["trauma"] is None)


class _Figures:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def _effects(found: list, profile: int | None, traumas: dict[int, dict]) -> list:
    """The effects a reopen will revert: only on the row's own sheet (a trauma of that
    sheet, a status between two of the rules' states). A row without a sheet in the file
    (a player who left) keeps what it counts and nothing to revert."""
    kept = []
    for effect in found:
        if effect["op"] == "status":
            if profile is None:
                continue
            if "before" not in effect or "after" not in effect:
                raise GameProblem("ledger", "effects")
            kept.append({"op": "status", "before": effect["before"], "after": effect["after"]})
        else:
            trauma = effect.get("trauma")
            if trauma is not None and (profile is None or traumas[trauma]["profile"] != profile):
                raise GameProblem("ledger", "effects")
            kept.append({"op": effect["op"], "trauma": trauma})
    return kept
