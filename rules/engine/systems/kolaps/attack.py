"""One attack roll and everything after it, for ranged shots and melee blows alike.

`ranged` (K11) and `melee` (K10) each work out a DB and who rolls; from there an attack is
the same walk: the talent test (K4-K6), the damage value and table row (K7), the wound
and death roll (K8), the incidents (K9), the miss's temper roll and, for a shot into a
melee, the stray shot. `resolve` walks it once with dice from a `DiceSource` (typed or
rolled, see `steps`); `attack_odds` sums the same steps exactly over every face.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.engine.dice import Dice, distribution, parse
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue, DamageTable
from rules.engine.systems.kolaps.steps import DiceSource, Pending, total

D6 = parse("D6")
# The stray shots that hit one of the shooter's own figures (its Moral pays for them).
OWN_SIDE_STRAYS = ("shooter_ally_hit", "shooter_own_figure_hit")
StrayRows = tuple[tuple[int, int, str, tuple[tuple[str, Any], ...]], ...]


@dataclass(frozen=True)
class Modifier:
    source: str
    db: int


@dataclass(frozen=True)
class Attack:
    """Everything one attack roll and its consequences depend on."""

    table: str  # "ranged" or "melee": which damage and incident tables
    modifiers: tuple[Modifier, ...]
    test: t.TestSetup
    power: Dice
    power_bonus: Dice
    power_divisor: int
    affiliation: str | None
    attacker_sante: int
    target_sante: int
    target_death_modifier: int
    into_melee: bool = False
    attacker_death_modifier: int = 0  # the attacker's own inhuman metabolism (K8)
    ablaze: bool = False  # a Shéol whose 666 set it ablaze: melee wounds one level worse
    # "Tir dans une mêlée" as K18 reads it for this shot (`at_the_table.stray_rows`; the
    # catalogue's rows when empty), and the shooter's ally a stray shot on its own side hits
    # (its Santé and death-roll modifier; None: nobody named, the wound is not applied).
    stray_rows: StrayRows = ()
    stray_ally_sante: int | None = None
    stray_ally_death_modifier: int = 0

    @property
    def db(self) -> int:
        return sum(m.db for m in self.modifiers)

    def damage_table(self, catalogue: Catalogue) -> DamageTable:
        tables = catalogue.tables
        return tables.ranged_damage if self.table == "ranged" else tables.melee_damage

    def worse(self, row: str, catalogue: Catalogue) -> str:
        """Shéol 666: "toutes les blessures qu'il occasionne au corps a corps sont
        augmentées d'un niveau"."""
        if self.ablaze and self.table == "melee" and row in c.WOUNDS:
            return catalogue.tables.follow_ups.one_level_worse[row]
        return row


def test_setup(db: int, rank: str, sante: int, catalogue: Catalogue) -> t.TestSetup:
    """The attack roll, read with `catalogue`'s numbers."""
    numbers = t.numbers_of(catalogue)
    return t.TestSetup(db=max(-20, min(30, db)), rank=rank, sante=sante, numbers=numbers)


def describe(attack: Attack) -> dict[str, Any]:
    return {
        "db": attack.db,
        "modifiers": [{"source": m.source, "db": m.db} for m in attack.modifiers],
        "dice_count": attack.test.dice_count,
        "keep_best": attack.test.keep_best,
        "threshold": attack.test.threshold,
        "power": str(attack.power),
        "power_bonus": str(attack.power_bonus) if attack.power_bonus.count else None,
        "power_divisor": attack.power_divisor,
    }


# --- One walk through the dice -------------------------------------------------------------


def resolve(
    attack: Attack, source: DiceSource, out: dict[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """Judge the attack with dice from `source` into `out`; stop at the first roll the
    players have not typed yet (`out["pending"]` names it)."""
    catalogue = catalogue or load_catalogue()
    try:
        _walk(attack, source, catalogue, out)
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    return out


def _walk(attack: Attack, source: DiceSource, catalogue: Catalogue, out: dict[str, Any]) -> None:
    table = attack.damage_table(catalogue)
    faces = source.take("dice", parse(f"{attack.test.dice_count}D6"))
    judged = t.judge(attack.test, faces)
    out.update(outcome=judged.outcome, referent=judged.referent, six_six_six=judged.six_six_six)
    value = None
    if judged.outcome == "success":
        power = total(attack.power, source.take("power_dice", attack.power))
        bonus = total(attack.power_bonus, source.take("power_bonus_dice", attack.power_bonus))
        assert judged.referent is not None
        # K7: "Damage value = referent die + weapon power (rolled) + talent effects."
        value = judged.referent + c.divided_power(power + bonus, attack.power_divisor)
    out["damage_value"] = value
    follow = catalogue.tables.follow_ups
    row = attack.worse(c.table_row(table, judged.outcome, value), catalogue)
    out["row"] = row
    target: dict[str, Any] = {"killed": False}
    out["target"] = target
    six_six_six = follow.six_six_six.get(attack.affiliation or "")
    if judged.six_six_six and six_six_six is not None:
        # The 666 in combat: "l'adversaire est retiré du théatre sur le champ".
        out["six_six_six_effect"] = dict(six_six_six)
        target.update(killed=True, by="six_six_six")
    if row in c.WOUNDS and not target["killed"]:
        _wound(attack, row, source, catalogue, target)
    elif row == "major_incident":
        _incident(attack, source, catalogue, out)
    elif row == "minor_incident":
        minor = follow.minor_incident
        out["incident"] = {"effect": minor, **follow.incident_effects[minor]}
    elif row == "miss":
        _miss(attack, source, catalogue, out)


def _wound(
    attack: Attack, row: str, source: DiceSource, catalogue: Catalogue, target: dict[str, Any]
) -> None:
    wound = c.apply_wound(catalogue, row, attack.target_sante, attack.target_death_modifier)
    target.update(c.wound_json(wound))
    if wound.killed:
        target["by"] = "lethal"
    elif wound.death_threshold is not None:
        die = source.take("death_die", D6)[0]
        if c.dies(wound.death_threshold, die):
            target.update(killed=True, by="death_roll")


def _incident(
    attack: Attack, source: DiceSource, catalogue: Catalogue, out: dict[str, Any]
) -> None:
    """K9: "The major-incident table (1 / 2-5 / 6) is read with a fresh 1D6"."""
    die = source.take("incident_die", D6)[0]
    follow = catalogue.tables.follow_ups
    effect = c.face_row(follow.major_incident[attack.table], die)[2]
    incident: dict[str, Any] = {"effect": effect, **follow.incident_effects[effect]}
    out["incident"] = incident
    if incident.get("attacker_death_roll"):
        floor = catalogue.tables.wounds.sante_floor
        after = max(floor, attack.attacker_sante - incident["attacker_sante_loss"])
        incident["attacker_sante_after"] = after
        death = source.take("attacker_death_die", D6)[0]
        threshold = c.death_threshold(catalogue, after, attack.attacker_death_modifier)
        incident["attacker_killed"] = c.dies(threshold, death)


def stray_rows_of(attack: Attack, catalogue: Catalogue) -> StrayRows:
    if attack.stray_rows:
        return attack.stray_rows
    rows = catalogue.tables.follow_ups.stray_shot
    return tuple((lo, hi, effect, tuple(sorted(extra.items()))) for lo, hi, effect, extra in rows)


def _stray_ally(
    attack: Attack, effect: str, extra: dict[str, Any], catalogue: Catalogue
) -> c.WoundResult | None:
    """The wound a stray shot on the shooter's own side gives the ally named, if any."""
    wound_row = extra.get("ally_wound")
    if effect not in OWN_SIDE_STRAYS or attack.stray_ally_sante is None or not wound_row:
        return None
    return c.apply_wound(
        catalogue, wound_row, attack.stray_ally_sante, attack.stray_ally_death_modifier
    )


def _miss(attack: Attack, source: DiceSource, catalogue: Catalogue, out: dict[str, Any]) -> None:
    follow = catalogue.tables.follow_ups
    if attack.into_melee:
        # Reading: the stray-shot D6 follows the "failure" row (miss); on 4-5, "un échec
        # standard", the miss's temper roll follows as for any miss.
        die = source.take("stray_die", D6)[0]
        rows = stray_rows_of(attack, catalogue)
        _, _, effect, extra = next(r for r in rows if r[0] <= die <= r[1])
        stray: dict[str, Any] = {"effect": effect, **dict(extra)}
        out["stray"] = stray
        wound = _stray_ally(attack, effect, stray, catalogue)
        if wound is not None:
            # The shooter's ally takes the wound at once, with its death roll (K8).
            ally: dict[str, Any] = {"killed": False, **c.wound_json(wound)}
            stray["ally"] = ally
            if wound.killed:
                ally.update(killed=True, by="lethal")
            elif wound.death_threshold is not None:
                death = source.take("stray_death_die", D6)[0]
                if c.dies(wound.death_threshold, death):
                    ally.update(killed=True, by="death_roll")
        if effect != "plain_miss":
            return
    die = source.take("temper_die", D6)[0]
    out["temper"] = {"attacker_moral": -1 if die < follow.temper_threshold else 0}


# --- Exact odds -----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def power_distribution(power: Dice, bonus: Dice, divisor: int) -> tuple[tuple[int, Fraction], ...]:
    """The rolled power (weapon + talent bonus), divided by inhuman metabolism (K7)."""
    weapon = distribution(power)
    extra = distribution(bonus)
    out: dict[int, Fraction] = {}
    for a, pa in weapon.items():
        for b, pb in extra.items():
            value = c.divided_power(a + b, divisor)
            out[value] = out.get(value, Fraction(0)) + pa * pb
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class AttackOdds:
    rows: dict[str, Fraction]
    target_dies: Fraction
    attacker_dies: Fraction
    six_six_six: Fraction
    follow_up: dict[str, Fraction]


def _add(into: dict[str, Fraction], key: str, p: Fraction) -> None:
    if p:
        into[key] = into.get(key, Fraction(0)) + p


def attack_odds(attack: Attack, catalogue: Catalogue | None = None) -> AttackOdds:
    """Exact odds of every table row, of the target's death, and of the follow-ups.

    The talent test's odds give each outcome and, for successes, the referent die
    (K5, K6); a success's damage value adds the power's distribution (K7); each wound's
    death chance is (threshold - 1) / 6 (K8); a 666 removes the target (K5, annexes)
    whatever the row. A test checks every figure against walking each roll one by one.
    """
    return _attack_odds(attack, catalogue or load_catalogue())


# Bounded: the key is built from the caller's input (equipment, protection, gauges) and the
# catalogue (one per shipped version).
@lru_cache(maxsize=4096)
def _attack_odds(attack: Attack, catalogue: Catalogue) -> AttackOdds:
    rows: dict[str, Fraction] = {}
    follow_odds: dict[str, Fraction] = {}
    test_odds = t.odds(attack.test)
    table = attack.damage_table(catalogue)
    for outcome, p in test_odds.outcomes.items():
        if outcome != "success":
            _add(rows, attack.worse(c.table_row(table, outcome, None), catalogue), p)
    crit = test_odds.outcomes.get("critical_success", Fraction(0))
    power = power_distribution(attack.power, attack.power_bonus, attack.power_divisor)
    for referent, p in test_odds.referent.items():
        p_success = p - crit if referent == 6 else p
        for value, pv in power:
            _add(rows, attack.worse(table.wound_for(referent + value), catalogue), p_success * pv)
    follow = catalogue.tables.follow_ups
    six = test_odds.six_six_six if attack.affiliation in follow.six_six_six else Fraction(0)
    # A 666 (three sixes) is a critical success unless the effective rank is Novice, then a
    # success with referent 6: its share of those rows is a removal, not a wound.
    six_rows: dict[str, Fraction] = {}
    if six and attack.test.can_be_critical:
        six_rows["lethal"] = Fraction(1)
    elif six:
        for value, pv in power:
            _add(six_rows, attack.worse(table.wound_for(6 + value), catalogue), pv)
    dies = six
    for row, p in rows.items():
        if row not in c.WOUNDS:
            continue
        alive = p - six * six_rows.get(row, Fraction(0))
        wound = c.apply_wound(catalogue, row, attack.target_sante, attack.target_death_modifier)
        dies += alive * (1 if wound.killed else c.death_chance(wound.death_threshold))
    attacker_dies = Fraction(0)
    major = rows.get("major_incident", Fraction(0))
    for low, high, effect in follow.major_incident[attack.table]:
        p = major * Fraction(high - low + 1, 6)
        _add(follow_odds, f"major_incident:{effect}", p)
        if follow.incident_effects[effect].get("attacker_death_roll"):
            loss = follow.incident_effects[effect]["attacker_sante_loss"]
            after = max(catalogue.tables.wounds.sante_floor, attack.attacker_sante - loss)
            threshold = c.death_threshold(catalogue, after, attack.attacker_death_modifier)
            attacker_dies += p * c.death_chance(threshold)
    miss = rows.get("miss", Fraction(0))
    if attack.into_melee:
        for low, high, effect, extra in stray_rows_of(attack, catalogue):
            share = miss * Fraction(high - low + 1, 6)
            _add(follow_odds, f"stray:{effect}", share)
            hit = _stray_ally(attack, effect, dict(extra), catalogue)
            if hit is not None:
                dies_share = 1 if hit.killed else c.death_chance(hit.death_threshold)
                _add(follow_odds, "stray:ally_dies", share * dies_share)
        temper_share = follow_odds.get("stray:plain_miss", Fraction(0))
    else:
        temper_share = miss
    temper = temper_share * Fraction(follow.temper_threshold - 1, 6)
    _add(follow_odds, "temper:moral_lost", temper)
    return AttackOdds(rows, dies, attacker_dies, six, follow_odds)


def odds_json(result: AttackOdds) -> dict[str, Any]:
    ordered = {row: result.rows[row] for row in c.ROWS if row in result.rows}
    return {
        "rows": {k: float(v) for k, v in ordered.items()},
        "rows_exact": {k: c.exact(v) for k, v in ordered.items()},
        "target_dies": float(result.target_dies),
        "target_dies_exact": c.exact(result.target_dies),
        "attacker_dies": float(result.attacker_dies),
        "six_six_six": float(result.six_six_six),
        "follow_up": {k: float(v) for k, v in result.follow_up.items()},
        **(
            {"stray_ally_dies_exact": c.exact(result.follow_up["stray:ally_dies"])}
            if "stray:ally_dies" in result.follow_up
            else {}
        ),
    }
