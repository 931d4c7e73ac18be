"""What the dice calculators of Corporates and the modern RPG show: a translated label for
every input field, choice, outcome and answer fact the engine names by slug, and the facts of
an answer in the order a player reads them.

The engine speaks slugs (`wooden_wall`, `critical_failure`); this card is the one place they
become sentences. A slug without a label is not shown, so nothing untranslated reaches a page.
"""

from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from characters.chance import chance
from characters.corporates.text import WEAPON_LABELS
from rules.engine.systems import SYSTEMS
from rules.engine.systems.seam import Address
from rules.labels import RESOLVER_LABELS_BY_SYSTEM

LABELS = {
    "pool": _("Dice (before malus)"),
    "bonus": _("Flat bonus"),
    "declared": _("Declared actions this turn"),
    "undeclared_before": _("Undeclared actions already made"),
    "double_action": _("Double action"),
    "confidence": _("Confidence points spent"),
    "survival": _("Survival mode"),
    "difficulty": _("Difficulty"),
    "a_pool": _("First character's reaction dice"),
    "a_bonus": _("First character's bonus"),
    "b_pool": _("Second character's reaction dice"),
    "b_bonus": _("Second character's bonus"),
    "a_dice": _("First character's dice"),
    "b_dice": _("Second character's dice"),
    "range": _("Range band"),
    "distance_m": _("Distance (m)"),
    "shot_type": _("Shot"),
    "snap_malus": _("Weapon's snap-shot malus"),
    "reflex": _("Reflex-shot reaction roll"),
    "reflex_failure_margin": _("Reaction roll failed by"),
    "stance": _("Stance"),
    "aim_actions": _("Successful aiming actions"),
    "aim_cap": _("Aim bonus cap (weapon score or sight)"),
    "size": _("Visible surface of the target"),
    "movement": _("Target movement"),
    "combat_movement_feint": _("Target's feint level (combat movement)"),
    "fall_segment": _("Segments the target has been falling"),
    "engaged_participants": _("People in the target's melee"),
    "crowd": _("Crowd"),
    "unshouldered": _("Shoulder arm not shouldered"),
    "visibility": _("Visibility"),
    "perception": _("Shooter's Pe"),
    "night_sight": _("Night sight"),
    "burst": _("Burst"),
    "burst_bonus": _("Weapon's burst bonus"),
    "cover": _("Cover hit by a near miss"),
    "cover_armour": _("Armour of the car or door"),
    "other_modifier": _("Other modifier"),
    "weapon": _("Weapon or ammunition type"),
    "firearm": _("Firearm (dice explode on 6)"),
    "damage_dice": _("Damage dice"),
    "damage_bonus": _("Flat damage bonus"),
    "attack_margin": _("Attack margin"),
    "soak_dice": _("Soak dice"),
    "soak_bonus": _("Protection and flat soak"),
    "damage_rolled": _("Damage dice rolled (each 6 then its extra die)"),
    "soak_rolled": _("Soak dice rolled"),
    "firearm_level": _("Firearm level"),
    "weapons": _("Firing modes (one or two weapons)"),
    "metres": _("Width covered (m)"),
    "under_fire": _("The shooter is under fire"),
    "seconds": _("Seconds of fire"),
    "target_feint": _("Mover's feint level"),
    "target_protection": _("Mover's protection"),
    "assailants": _("Assailants the defender faces"),
    "attacker_higher": _("The attacker is above"),
    "defender_back": _("The defender shows his back"),
    "defender_higher": _("The defender is above"),
    "defence": _("Defender's situation"),
    "combat_skill": _("Defender's combat skill"),
    "dodge_skill": _("Defender's dodge"),
    "weapon_defence": _("Defender's weapon defence bonus"),
    "wired_reflexes": _("Defender's wired reflexes"),
    "athletics": _("Fleeing defender's athletics"),
    "running": _("Strikes while running"),
    "dodge_pool": _("Defender's dodge dice (0: none)"),
    "dodge_bonus": _("Flat dodge bonus"),
    "crouched": _("Defender crouched or down"),
    "directed_dodge": _("Directed dodge"),
    "special": _("Special blow"),
    "skill_level": _("Skill level of a forceful blow"),
    "acrobatics_level": _("Acrobatics level"),
    "charge": _("Charge"),
    "dodge_dice": _("Dodge dice"),
    "damage_levels": _("Damage levels of the blow"),
    "wound_levels": _("Wound levels"),
    "location_die": _("d100 location"),
    "dice": _("Dice rolled"),
    "characteristic": _("Characteristic die"),
    "skill": _("Skill die"),
    "equipment_dice": _("Equipment dice"),
    "ammunition_dice": _("Ammunition dice (d8)"),
    "stress": _("Stress points"),
    "risk_dice": _("Risk dice"),
    "advantage": _("Advantages"),
    "disadvantage": _("Disadvantages"),
    "needed": _("Successes needed"),
    "force": _("Force the test"),
    "forced_dice": _("Rerolled dice (neither 1 nor success)"),
    "threshold": _("Success threshold"),
    "stress_threshold": _("Stress threshold"),
    "empathie": _("Empathie die"),
    "sang_froid": _("Sang-froid die"),
    "attitude": _("Attitude"),
    "target_attitude": _("Target's attitude"),
    "rate_of_fire": _("Rate of fire"),
    "melee": _("In melee"),
    "weapon_range": _("Weapon's reference range"),
    "weapon_damage": _("Weapon damage"),
    "ammunition": _("Ammunition"),
    "vest": _("Target's vest"),
    "hp": _("Hit points now"),
    "hp_max": _("Hit points"),
    "protection_dice": _("Attitude protection die"),
    "vest_dice": _("Vest dice"),
    "terrain": _("Terrain"),
    "band": _("Starting range band"),
    "lead": _("Lead now"),
    "risk": _("Risk taken"),
    "pursued_successes": _("Pursued's successes"),
    "pursuer_successes": _("Pursuer's successes"),
    "event": _("Event"),
    "side_die": _("d6 for a 50/50 event (1-3: the pursued)"),
    "loss_die": _("Die of range points lost"),
    "short": _("short"),
    "medium": _("medium"),
    "long": _("long"),
    "extreme": _("extreme"),
    "close": _("close"),
    "standard": _("standard"),
    "snap": _("snap"),
    "aimed": _("aimed"),
    "none": _("none"),
    "front": _("target appears in front"),
    "side_or_behind": _("target appears beside or behind"),
    "standing": _("standing"),
    "braced": _("braced"),
    "prone": _("prone"),
    "eye": _("eye"),
    "hand": _("hand, mouse"),
    "head": _("head, cat"),
    "arm": _("arm, man prone far away, small dog"),
    "leg_or_torso": _("leg, torso, driver, big dog"),
    "crouching": _("man crouching"),
    "motorbike": _("motorbike"),
    "car": _("car"),
    "truck": _("truck"),
    "still": _("still"),
    "axis": _("along the line of fire"),
    "walk": _("walk (1-2 m/s)"),
    "run": _("run (3-6 m/s)"),
    "sprint": _("sprint or jump (7-13 m/s)"),
    "over_50_kmh": _("over 50 km/h"),
    "over_100_kmh": _("over 100 km/h"),
    "over_200_kmh": _("over 200 km/h"),
    "over_500_kmh": _("over 500 km/h"),
    "over_1000_kmh": _("over 1000 km/h"),
    "light": _("light"),
    "dense": _("dense"),
    "normal": _("normal"),
    "reduced": _("reduced (lit street, light mist)"),
    "poor": _("poor (badly lit street, thick mist)"),
    "very_poor": _("very poor (moonlight, smoke)"),
    "infrared": _("infra-red"),
    "light_amplification": _("light amplification"),
    "three_round": _("three-round burst"),
    "free": _("free burst"),
    "plaster_wall": _("plaster wall"),
    "wooden_wall": _("wooden wall"),
    "stone_wall": _("stone wall"),
    "concrete_wall": _("concrete wall"),
    "reinforced_concrete": _("reinforced concrete"),
    "inner_door": _("inner door"),
    "front_door": _("front door"),
    "armoured_door": _("armoured door"),
    "car_door": _("car door"),
    "earth_mound": _("mound of earth"),
    "sandbag": _("sandbag"),
    "bar_counter": _("bar counter, wooden table"),
    **WEAPON_LABELS,  # the Corporates sheet names its melee weapon the same way
    "single": _("single shots"),
    "shotgun": _("shotgun"),
    "heavy": _("heavy weapon"),
    "heavy_burst": _("heavy weapon in bursts"),
    "immobile": _("still or not fighting"),
    "engaged": _("engaged"),
    "fleeing": _("fleeing"),
    "forceful": _("forceful blow"),
    "acrobatic": _("acrobatic attack"),
    "foot": _("on foot"),
    "horse": _("on horseback"),
    "both_foot": _("both charge on foot"),
    "surprised": _("surprised"),
    "hidden": _("hidden"),
    "careful": _("careful"),
    "aggressive": _("aggressive"),
    "ultra_violent": _("ultra-violent"),
    "armour_piercing": _("armour-piercing"),
    "subsonic": _("subsonic"),
    "reinforced_clothes": _("reinforced clothes"),
    "class_iia": _("class IIA vest"),
    "class_ii": _("class II vest"),
    "class_iiia": _("class IIIA+ vest"),
    "class_iii": _("class III+ vest"),
    "class_iv": _("class IV vest"),
    "road": _("on the road"),
    "interception": _("interception"),
    "far": _("far"),
    "horizon": _("on the horizon"),
    "flat_out": _("flat out"),
    "success": _("success"),
    "failure": _("failure"),
    "critical_failure": _("critical failure"),
    "hit": _("hit"),
    "miss": _("miss"),
    "hits_cover": _("hits the cover"),
    "bystander_hit": _("hits someone else in the melee"),
    "a": _("the first character has the initiative"),
    "b": _("the second character has the initiative"),
    "simultaneous": _("simultaneous"),
    "wounded": _("wounded"),
    "critical_roll": _("critical wound roll"),
    "no_roll": _("no critical roll"),
    "out_of_action": _("out of action"),
    "dead": _("dead"),
    "nothing": _("nothing"),
    "off_balance": _("off balance: loses the next action"),
    "hand_drop": _("hand wound: drops what it held"),
    "trunk_stunned": _("trunk wound: stunned, loses 2 actions"),
    "leg_dodge": _("leg wound: dodges cost 1d more"),
    "knocked_down": _("knocked down: drops what it held, loses 1 action"),
    "arm_useless": _("arm wound: the arm is useless"),
    "leg_useless": _("leg wound: the leg is useless"),
    "head_unconscious": _("head wound: unconscious 1d6 hours"),
    "trunk_bleeding": _("trunk wound: unconscious and bleeding"),
    "hand_amputation": _("hand wound: care at 25 or amputation"),
    "foot_amputation": _("foot wound: care at 25 or amputation"),
    "face": _("face wound"),
    "trunk_first_aid": _("trunk wound: first aid at 15 within the minute or death"),
    "death": _("head blow: dies on the spot"),
    "cosmetic": _("cosmetic damage"),
    "light_malfunction": _("light malfunctions"),
    "serious_malfunction": _("serious malfunctions"),
    "breakdown": _("breakdown"),
    "destroyed": _("equipment destroyed"),
    "dead_end": _("dead end"),
    "dense_traffic": _("dense traffic"),
    "obstacle": _("obstacle"),
    "long_vehicle": _("long vehicle"),
    "low_light": _("low light"),
    "police": _("police!"),
    "homeless": _("a homeless man"),
    "slippery": _("slippery ground"),
    "clearing": _("clearing"),
    "gear_failure": _("gear failure"),
    "advertising": _("advertising on the windscreen"),
    "bad_weather": _("bad weather"),
    "pedestrians": _("pedestrians"),
    "police_patrol": _("police patrol"),
    "expressway": _("expressway"),
    "alley": _("alley"),
    "roadworks": _("roadworks"),
    "traffic_jam": _("traffic jam"),
    "two_wheels": _("cyclists or bikers"),
    "oversize_convoy": _("oversize convoy"),
    "location_nothing": _("no cybernetics hit"),
    "location_outgrowth": _("outgrowth"),
    "location_hand": _("hand"),
    "location_arm": _("arm"),
    "location_foot": _("foot"),
    "location_leg": _("leg"),
    "location_face": _("face"),
    "location_eye_or_ear": _("eye or ear"),
    "location_connection": _("connection, sensory interface"),
    "location_general_modification": _("general modification (armour, wired reflexes, skin)"),
    "location_internal_organ": _("internal organ"),
    "location_power_supply": _("power supply"),
    "location_other": _("other (coprocessor, injector)"),
    "reflex_place": _("Where the target appears"),
    "on_guard_vigilance": _("Shooter's vigilance when on guard"),
    "draw": _("Draw and shoot from"),
    "usual": _("usual place"),
    "improbable_place": _("improbable place (+5)"),
    "aimed_place": _("where the shooter aims (-5)"),
    "sling": _("sling (-1)"),
    "belt": _("belt or hip (-3)"),
    "holster": _("holster, sheath or sleeve (-5)"),
    "pocket": _("pocket (-7)"),
    "answer_reflex_roll_difficulty": _("Reflex reaction roll difficulty"),
    "answer_result": _("Result"),
    "answer_difficulty": _("Difficulty"),
    "answer_margin": _("Margin"),
    "answer_extra_damage_dice": _("Extra damage dice"),
    "answer_reaction_lost": _("No reaction this segment"),
    "answer_bullet_margins": _("Margin of each bullet"),
    "answer_cover_protection": _("Protection of the cover hit"),
    "answer_dice_count": _("Dice rolled"),
    "answer_malus_dice": _("Malus dice"),
    "answer_initiative": _("Initiative"),
    "answer_a_result": _("First character's result"),
    "answer_b_result": _("Second character's result"),
    "answer_damage": _("Damage"),
    "answer_soak": _("Soak"),
    "answer_levels": _("Damage levels"),
    "answer_fatigue": _("Fatigue levels"),
    "answer_wound": _("Wound levels"),
    "answer_total": _("Total"),
    "answer_repair_difficulty": _("Repair difficulty (Cybernetics)"),
    "answer_fire_power": _("Fire power"),
    "answer_opponent_malus": _("Malus of opponents at short or medium range"),
    "answer_ammunition": _("Ammunition used"),
    "answer_slowdown_m_per_s": _("Slowdown in the open (m/s)"),
    "answer_forced_dodge": _("The mover must dodge"),
    "answer_bullets_hit": _("Bullets that hit"),
    "answer_against": _("Defence or dodge to beat"),
    "answer_damage_bonus": _("Damage bonus"),
    "answer_defender_damage_bonus": _("Defender's damage bonus"),
    "answer_successes": _("Successes"),
    "answer_stress_gained": _("Stress gained"),
    "answer_equipment_breaks": _("The equipment breaks"),
    "answer_reload": _("Reload before the next shot"),
    "answer_frozen_with_fear": _("Frozen with fear"),
    "answer_final_dice": _("Dice after forcing"),
    "answer_protection_successes": _("Protection successes"),
    "answer_remaining_successes": _("Successes left"),
    "answer_vest_successes": _("Vest successes"),
    "answer_hp": _("Hit points after"),
    "answer_stress_from_wound": _("Stress from the wound"),
    "answer_steady_for_the_encounter": _("Steady for the rest of the encounter"),
    "answer_takes_cover_until_end_of_next_round": _(
        "Takes cover (hidden) until the end of the next round"
    ),
    "answer_another_test": _("Another care test allowed"),
    "answer_hp_change": _("Hit points change"),
    "answer_strikes": _("Strikes"),
    "answer_lead_change": _("Lead change from the event"),
    "answer_lead": _("Lead"),
    "answer_caught": _("Caught"),
    "answer_protection_die": _("Own protection die"),
    "answer_target_protection_die": _("Target's protection die"),
    "answer_ammunition_dice": _("Ammunition dice"),
    "answer_initiative_die": _("Initiative die"),
    "answer_truncated": _("Probability left out by the cut of exploding dice"),
    "answer_vest_dice": _("Vest dice"),
    "pursued": _("the pursued"),
    "pursuer": _("the pursuer"),
    # Chase tests, buckshot, takedowns and the ramming charge.
    "buckshot": _("buckshot"),
    "damage_die": _("Buckshot damage die"),
    "answer_damage_die": _("Buckshot damage die"),
    "mover": _("On foot or driving"),
    "vehicle": _("driving"),
    "round": _("Round of the chase"),
    "endurance": _("Endurance die"),
    "stretch": _("Stretch of road"),
    "open": _("open road"),
    "fast": _("fast stretch (sportivité)"),
    "sport": _("Vehicle's sportivité"),
    "handling": _("Vehicle's maniabilité"),
    "on_two_wheels": _("On two wheels"),
    "opponent_two_wheels": _("The other side is on two wheels too"),
    "endurance_dice": _("Endurance test dice"),
    "winded": _("winded: no running test"),
    "no_progress": _("no success"),
    "progress": _("one success or more"),
    "answer_winded": _("Winded (no running test)"),
    "answer_vehicle_bonus": _("Vehicle bonus counted"),
    "answer_endurance_dice": _("Endurance test dice"),
    "no_endurance_test": _("Careful: a pedestrian does not roll the endurance test"),
    "endurance_test_first": _("A pedestrian starts with an endurance test"),
    "endurance_disadvantage": _("Flat out: a pedestrian's endurance test is at a disadvantage"),
    "run_disadvantage": _("Careful: a pedestrian's running test is at a disadvantage"),
    "no_vehicle_bonuses": _("Careful: a driver cannot use maniabilité or sportivité bonuses"),
    "risk_dice_as_stress": _("Flat out: the risk dice are played as stress dice"),
    "kind": _("Opposed roll"),
    "trip_agility": _("trip: agility against agility"),
    "trip_strength": _("trip: strength against strength"),
    "hold": _("hold: strength against strength"),
    "attacker_pool": _("Attacker's characteristic dice"),
    "attacker_bonus": _("Attacker's other characteristic (bonus)"),
    "defender_pool": _("Defender's characteristic dice"),
    "defender_bonus": _("Defender's other characteristic (bonus)"),
    "attacker_too_light": _("The attacker weighs half the defender or less"),
    "attacker_dice": _("Attacker's dice"),
    "defender_dice": _("Defender's dice"),
    "no_effect": _("no effect"),
    "unbalanced": _("unbalanced: loses the next action"),
    "falls": _("the defender falls"),
    "both_fall": _("both fall"),
    "held": _("held"),
    "throw_possible": _("held, can be thrown"),
    "thrown_and_stunned": _("thrown back and stunned"),
    "damage_to_roll": _("the blow lands: type the damage and soak dice"),
    "size_levels": _("Extra levels a much smaller attacker needs"),
    "answer_opposed_result": _("Opposed result"),
    "answer_hindrance_dice": _("Hindrance (malus dice)"),
    "answer_fall_soak_difficulty": _("Soak roll after the fall, difficulty"),
    "answer_fallen_malus": _("Malus until back on his feet"),
    "answer_levels_dealt": _("Damage levels dealt (one less)"),
    "answer_levels_passed": _("Levels passed"),
    "answer_fatigue_roll_difficulty": _("Fatigue roll after the forceful blow, difficulty"),
    "answer_acrobatics_roll_difficulty": _("Acrobatics roll first, difficulty"),
    "answer_acrobatics_failure_malus_dice": _("Malus dice until the end of the turn if it fails"),
}


def page_slug(resolver: str) -> str:
    """A resolver's name as a page address writes it: `covering_fire` -> `covering-fire`. The
    engine and the API keep the resolver's own name, which stored rolls and clients use."""
    return resolver.replace("_", "-")


def resolver_name(slug: str) -> str:
    """The resolver a page address names: `covering-fire` -> `covering_fire`."""
    return slug.replace("-", "_")


# The systems whose calculators are drawn from their resolvers' schemas (their declaration,
# `GameSystem.index`), and those calculators' titles, in the declared order (Corporates'
# schedule has its turn page).
SCHEMA_SYSTEMS = [system for system in SYSTEMS if system.index.drawn_from_schemas]
SYSTEM_NAMES = {system.slug: _(system.name) for system in SCHEMA_SYSTEMS}
TITLES = {
    (system.slug, c.resolver): RESOLVER_LABELS_BY_SYSTEM[system.slug][c.resolver]
    for system in SCHEMA_SYSTEMS
    for c in system.index.calculators
    if c.address is Address.SYSTEM_PAGE
}

# The facts of an answer a page shows, in reading order (`answer_<key>` labels).
FACTS = (
    "difficulty",
    "reflex_roll_difficulty",
    "result",
    "opposed_result",
    "a_result",
    "b_result",
    "initiative",
    "margin",
    "extra_damage_dice",
    "reaction_lost",
    "bullet_margins",
    "cover_protection",
    "dice_count",
    "malus_dice",
    "successes",
    "protection_successes",
    "remaining_successes",
    "vest_successes",
    "final_dice",
    "stress_gained",
    "equipment_breaks",
    "reload",
    "frozen_with_fear",
    "steady_for_the_encounter",
    "takes_cover_until_end_of_next_round",
    "damage",
    "soak",
    "levels",
    "levels_dealt",
    "levels_passed",
    "fatigue_roll_difficulty",
    "acrobatics_roll_difficulty",
    "acrobatics_failure_malus_dice",
    "hindrance_dice",
    "fall_soak_difficulty",
    "fallen_malus",
    "winded",
    "vehicle_bonus",
    "damage_die",
    "fatigue",
    "wound",
    "total",
    "repair_difficulty",
    "fire_power",
    "opponent_malus",
    "ammunition",
    "slowdown_m_per_s",
    "forced_dodge",
    "bullets_hit",
    "against",
    "damage_bonus",
    "defender_damage_bonus",
    "protection_die",
    "target_protection_die",
    "ammunition_dice",
    "initiative_die",
    "hp",
    "hp_change",
    "stress_from_wound",
    "another_test",
    "strikes",
    "lead_change",
    "lead",
    "caught",
    "truncated",
)
YES, NO = _("yes"), _("no")
# Facts an odds answer gives as a probability (a judged roll gives them as yes or no).
PROBABILITY_FACTS = frozenset(
    {"frozen_with_fear", "truncated", "equipment_breaks", "reload", "caught", "winded"}
)
# Facts worth a line only when they happen.
QUIET_WHEN_FALSE = frozenset(
    {"reaction_lost", "equipment_breaks", "reload", "frozen_with_fear", "caught", "forced_dodge"}
)


def label(slug) -> str:
    """The label of a slug, or the slug itself when it is a number (a count of successes)."""
    text = LABELS.get(str(slug))
    return str(text) if text is not None else str(slug)


# The label in the language of the request that shows it: for choices a form declares once,
# when its module is imported (`label` there would keep the language of that moment).
label_lazy = lazy(label, str)


def _value(key: str, value):
    if isinstance(value, bool):
        return str(YES if value else NO)
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if key in ("initiative", "strikes") and isinstance(value, str):
        return label(value)
    if isinstance(value, float) and key in PROBABILITY_FACTS:
        return chance(value)
    if isinstance(value, float):
        return number_format(round(value, 2))
    return value


def facts(answer: dict) -> list[tuple[str, object]]:
    """(label, value) of each fact the answer holds, in reading order."""
    return [
        (str(LABELS[f"answer_{key}"]), _value(key, answer[key]))
        for key in FACTS
        if answer.get(key) is not None
        and not isinstance(answer[key], dict)
        and answer[key] != []
        and not (key in QUIET_WHEN_FALSE and answer[key] is False)
        and f"answer_{key}" in LABELS
    ]


def outcome_rows(outcomes: dict, prefix: str = "", exact: dict | None = None) -> list[tuple]:
    """(key, label, probability, exact chance) for a table of odds."""
    exact = exact or {}
    return [
        (key, label(f"{prefix}{key}"), p, exact.get(key, p))
        for key, p in outcomes.items()
        if f"{prefix}{key}" in LABELS or str(key).rstrip("+").lstrip("-").isdigit()
    ]


def odds_tables(system: str, name: str, odds: dict) -> list[tuple[str, list]]:
    """The tables of odds an answer carries, each with its translated title."""
    tables = []
    if name == "cyber":
        tables.append((str(_("Location")), outcome_rows(odds.get("locations", {}), "location_")))
    main = odds.get("outcomes")
    if main:
        tables.append((str(_("Odds")), outcome_rows(main, exact=odds.get("outcomes_exact"))))
    for key, title in (
        ("levels", _("Damage levels")),
        ("levels_dealt", _("Damage levels dealt")),
        ("levels_passed", _("Levels passed")),
        ("extra_damage_dice", _("Extra damage dice")),
        ("burst_hits", _("Bullets that hit")),
        ("successes", _("Successes")),
        ("damage", _("Damage")),
        ("stress_gained", _("Stress gained")),
    ):
        table = odds.get(key)
        if isinstance(table, dict) and table:
            tables.append((str(title), outcome_rows(table)))
    return tables
