"""The rules engine against icepool, an independent dice-probability library, and the odds
endpoint against a minimal JSON view: equal results, ratios measured in one run.

`make bench` installs icepool (the `bench` extra); nothing else uses it. icepool counts
multisets of dice its own way; both sides share only the K5 decision of one roll
(`talent_test.judge`) and the tables, so equal numbers mean our counting is right.
Printed: our time, icepool's, the ratio (target >= 20x), the cold whole table (target
< 20 ms), and the odds endpoint's request rate as a share of a minimal JSON view's
(target >= 0.7x).
"""

import json
import time
from fractions import Fraction

import icepool
import pytest
from django.http import JsonResponse
from django.test import Client
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as site_urlpatterns
from rules.calculators.api import rendered_odds
from rules.engine.dice import Dice
from rules.engine.systems.kolaps import attack as attack_module
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import melee
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.catalogue import load_catalogue

RANK_OF_THRESHOLD = {2: "expert", 3: "veteran", 4: "aguerri"}
D6 = icepool.d6


def _best(seconds: list[float]) -> float:
    return min(seconds)


def _timed(fn, rounds: int = 3) -> tuple[object, float]:
    times = []
    result = None
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, _best(times)


# --- The talent-test table: 1-15 dice x thresholds 2, 3, 4 ----------------------------------


def ours_table() -> dict[tuple[int, int], dict[str, Fraction]]:
    """The whole table, cold: the odds cache is emptied first."""
    t.odds.cache_clear()
    return {
        (n, threshold): t.odds(t.TestSetup(db=n, rank=rank)).outcomes
        for n in range(1, 16)
        for threshold, rank in RANK_OF_THRESHOLD.items()
    }


def icepool_table() -> dict[tuple[int, int], dict[str, Fraction]]:
    out = {}
    for n in range(1, 16):
        rolls = D6.pool(n).expand()  # every sorted roll of n dice, with its multiplicity
        for threshold, rank in RANK_OF_THRESHOLD.items():
            test = t.TestSetup(db=n, rank=rank)
            outcomes = rolls.map(lambda dice, test=test: t.judge(test, dice).outcome)
            denominator = outcomes.denominator()
            out[(n, threshold)] = {o: Fraction(q, denominator) for o, q in outcomes.items() if q}
    return out


def test_bench_the_talent_test_table_against_icepool():
    start = time.perf_counter()
    cold = ours_table()
    cold_ms = (time.perf_counter() - start) * 1000
    ours, our_time = _timed(ours_table)
    theirs, their_time = _timed(icepool_table, rounds=1)
    assert ours == theirs == cold
    for outcomes in ours.values():
        assert sum(outcomes.values()) == 1
    print(
        f"\ntalent-test table (1-15 dice x thresholds 2, 3, 4): ours {our_time * 1000:.1f} ms "
        f"(cold {cold_ms:.1f} ms), icepool {their_time * 1000:.0f} ms: "
        f"{their_time / our_time:.0f}x faster, equal exact fractions"
    )


# --- The melee pipeline: opposition, attack roll, table row, death ------------------------------

FIGHT = {
    "a": {
        "rank": "veteran",
        "affiliation": "apc",
        "talents": {"corps-a-corps": 2},
        "weapon": "matraque-composite",
        "armour": "tenue-legere-sti-europa",
    },
    "b": {
        "rank": "aguerri",
        "affiliation": "sheol",
        "talents": {"corps-a-corps": 1, "esquive": 1, "metabolisme-inhumain-vampire": 1},
        "use": ["esquive"],
        "weapon": "griffes",
    },
}


def _icepool_dice(dice: Dice) -> icepool.Die:
    if dice.count == 0:
        return icepool.Die([dice.constant])
    if dice.keep_best:
        return D6.pool(dice.count).expand().map(lambda dice: max(dice), star=False)
    return dice.count @ D6


def _icepool_attack(attack: attack_module.Attack, catalogue) -> icepool.Die:
    """One attack, computed by icepool: outcomes (row, target dies, attacker dies)."""
    table = attack.damage_table(catalogue)
    follow = catalogue.tables.follow_ups
    power = icepool.map(
        lambda a, b: c.divided_power(a + b, attack.power_divisor),
        _icepool_dice(attack.power),
        _icepool_dice(attack.power_bonus),
    )
    rolls = D6.pool(attack.test.dice_count).expand()

    def row_of(dice, value):
        judged = t.judge(attack.test, dice)
        damage = judged.referent + value if judged.outcome == "success" else None
        row = attack.worse(c.table_row(table, judged.outcome, damage), catalogue)
        removed = judged.six_six_six and attack.affiliation in follow.six_six_six
        return row, removed

    rows = icepool.map(row_of, rolls, power)

    def consequence(row_removed):
        row, removed = row_removed
        if removed:
            return icepool.Die([(row, True, False)])
        if row in c.WOUNDS:
            wound = c.apply_wound(catalogue, row, attack.target_sante, attack.target_death_modifier)
            if wound.killed:
                return icepool.Die([(row, True, False)])
            threshold = wound.death_threshold or 0
            return D6.map(lambda die: (row, die < threshold, False))
        if row == "major_incident":

            def incident(face):
                effect = c.face_row(follow.major_incident[attack.table], face)[2]
                if not follow.incident_effects[effect].get("attacker_death_roll"):
                    return icepool.Die([(row, False, False)])
                after = max(
                    1,
                    attack.attacker_sante - follow.incident_effects[effect]["attacker_sante_loss"],
                )
                threshold = c.death_threshold(catalogue, after) or 0
                return D6.map(lambda die: (row, False, die < threshold))

            return D6.map(incident)
        return icepool.Die([(row, False, False)])

    return rows.map(consequence)


def icepool_melee(depth: int) -> dict:
    catalogue = load_catalogue()
    prepared = melee.setup(FIGHT)
    score_a = D6.explode(depth=depth) + prepared.bonus("a")
    score_b = D6.explode(depth=depth) + prepared.bonus("b")
    difference = score_a - score_b
    strikes: dict[tuple[str, int], icepool.Die] = {}

    def strike(d):
        if d == 0:
            return icepool.Die([("none", "exchange", False, False)])
        side = "a" if d > 0 else "b"
        attack = melee.strike(prepared, side, abs(d), catalogue)
        key = (side, max(-2, attack.db))
        if key not in strikes:
            strikes[key] = _icepool_attack(attack, catalogue).map(lambda o, s=side: (s, *o))
        return strikes[key]

    whole = difference.map(strike)
    denominator = whole.denominator()
    rows = {"a": {}, "b": {}}
    dies = {"a": Fraction(0), "b": Fraction(0)}
    exchange = Fraction(0)
    for (side, row, target_dies, attacker_dies), q in whole.items():
        p = Fraction(q, denominator)
        if side == "none":
            exchange += p
            continue
        other = "b" if side == "a" else "a"
        rows[side][row] = rows[side].get(row, 0) + p
        dies[other] += p * target_dies
        dies[side] += p * attacker_dies
    return {"exchange": exchange, "rows": rows, "dies": dies}


def ours_melee() -> melee.MeleeOdds:
    """The melee pipeline, cold: every cache emptied first."""
    t.odds.cache_clear()
    attack_module._attack_odds.cache_clear()
    attack_module.power_distribution.cache_clear()
    return melee.melee_odds(melee.setup(FIGHT))


def test_bench_the_melee_pipeline_against_icepool():
    ours, our_time = _timed(ours_melee)
    theirs, their_time = _timed(lambda: icepool_melee(melee.DEPTH), rounds=1)
    # icepool keeps the last explosion's mass where we drop it: equal within the cut.
    tolerance = float(ours.dropped) * 4
    assert abs(float(ours.exchange - theirs["exchange"])) <= tolerance
    for side in ("a", "b"):
        assert set(ours.rows[side]) == set(theirs["rows"][side])
        for row, p in ours.rows[side].items():
            assert abs(float(p - theirs["rows"][side][row])) <= tolerance
        assert abs(float(ours.dies[side] - theirs["dies"][side])) <= tolerance
    print(
        f"\nmelee pipeline (explosions cut at {melee.DEPTH}, rows and deaths of both sides): "
        f"ours {our_time * 1000:.1f} ms, icepool {their_time * 1000:.0f} ms: "
        f"{their_time / our_time:.0f}x faster, equal within {tolerance:.1e}"
    )


# --- The odds endpoint against a minimal JSON view on the same server ----------------------------


def minimal_json(request):
    """A plain Django view: reads the JSON body, answers JSON."""
    return JsonResponse({"ok": bool(json.loads(request.body))})


class MinimalAPI(APIView):
    """The rules API's own stack (DRF parsers, renderers, authentication, AllowAny), no
    rules: what any endpoint of the API costs before it does anything."""

    permission_classes = [AllowAny]

    def post(self, request):
        return Response({"ok": True})


urlpatterns = [
    *site_urlpatterns,
    path("bench/minimal-json/", minimal_json),
    path("bench/minimal-api/", MinimalAPI.as_view()),
]

ROUNDS = 200
BODY = json.dumps({"db": 4, "rank": "veteran", "sante": 6})
# 216 different setups: every request of a round is a body the rendered-answer cache has
# not seen (it is emptied before each round), so the view parses, resolves and renders.
FRESH_BODIES = [
    json.dumps({"db": db, "rank": rank, "sante": sante})
    for db in range(-2, 7)
    for rank in ("novice", "aguerri", "veteran", "expert")
    for sante in range(1, 7)
]


def _round(client: Client, url: str, bodies: list[str]) -> float:
    rendered_odds.clear()
    start = time.perf_counter()
    for index in range(ROUNDS):
        client.post(url, bodies[index % len(bodies)], content_type="application/json")
    return ROUNDS / (time.perf_counter() - start)


def _rates(client: Client, runs: list[tuple[str, list[str]]], repeats: int = 9) -> list[float]:
    """Requests per second of each (URL, bodies): the best of `repeats` rounds, taken in
    turns so that the load of this shared machine falls on every URL alike."""
    for url, bodies in runs:
        for body in bodies[:20]:
            assert client.post(url, body, content_type="application/json").status_code == 200
    best = [0.0] * len(runs)
    for _ in range(repeats):
        for index, (url, bodies) in enumerate(runs):
            best[index] = max(best[index], _round(client, url, bodies))
    return best


@pytest.mark.django_db
@pytest.mark.urls("tests.benchmarks.test_rules_bench")
def test_bench_the_odds_endpoint_against_a_minimal_json_view():
    client = Client()
    ranged = "/api/v1/rules/kolaps/ranged/odds"
    shot = json.dumps(
        {
            "attacker": {"rank": "veteran", "talents": {"fusil": 2}},
            "weapon": "fa-f4",
            "distance_cm": 45,
        }
    )
    assert client.post(ranged, shot, content_type="application/json").status_code == 200
    odds_url = "/api/v1/rules/kolaps/test/odds"
    odds, fresh, minimal, minimal_api = _rates(
        client,
        [
            (odds_url, [BODY]),
            (odds_url, FRESH_BODIES),
            ("/bench/minimal-json/", [BODY]),
            ("/bench/minimal-api/", [BODY]),
        ],
    )
    print(
        f"\nodds endpoint (kolaps/test, 4 dice): {odds / minimal:.2f}x the rate of a minimal "
        f"Django JSON view, {odds / minimal_api:.2f}x a minimal DRF view; "
        f"a body not asked before (parsed, resolved, rendered): {fresh / minimal:.2f}x "
        f"({minimal:.0f} and {minimal_api:.0f} req/s in this run)"
    )
    assert odds > 0 and fresh > 0
