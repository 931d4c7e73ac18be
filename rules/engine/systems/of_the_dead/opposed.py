"""Of the Dead dice pools and the opposed roll (RULES-NOTES O2-O4). Pure: no Django.

O2: "a d6 where 1 is a fiasco, 4 and 5 are successes, 6 is a critical success (also a
success)" — read from the catalogue's `faces`, which a campaign may change.
O3: "Each defender success cancels one attacker success, critical ones first. Remaining
attacker successes are the damage (life markers); remaining criticals draw a
critical-damage card of that total. A caution marker may be discarded to turn one die into a
success; a zeal marker rerolls one die."
O4: "Lucky break: 3 or more criticals in one roll, the roller and their team gain 1 Moral.
Backfire: more than 3 fiascos (4 or more), the roller and their team lose 1 Moral."

Readings where the text is silent (docs/rules.md, "Of the Dead"): the zeal reroll comes
first, on the worst die (a fiasco, else a blank; none when every die succeeded), and spends
the marker; then the caution marker turns the worst die left into a plain success (none to
turn: the marker is kept). Lucky breaks and backfires are read on the dice as they end.

Exact odds work on the counts of each kind of face (a multinomial over the four kinds),
tested against walking every face of every die (`tests/rules/test_of_the_dead_combat.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial
from typing import Any

from rules.engine.dice import Dice
from rules.engine.systems.kolaps.steps import DiceSource
from rules.engine.systems.of_the_dead.catalogue import FACE_KINDS, SIDES, Catalogue

MAX_POOL = 20
_WORST_FIRST = ("fiasco", "blank")


@dataclass(frozen=True)
class Side:
    """One side of a roll: its dice, and the markers it brings (O3)."""

    dice: int
    caution: bool = False  # discards a caution marker to turn one die into a success
    zeal: bool = False  # rerolls one die


@dataclass(frozen=True)
class Counts:
    fiascos: int
    successes: int  # plain successes
    criticals: int

    @property
    def hits(self) -> int:
        """Every success, criticals included (O2: a critical is also a success)."""
        return self.successes + self.criticals


@dataclass(frozen=True)
class Judged:
    """A side's dice as they end: the faces rolled, the die rerolled, the die turned."""

    faces: tuple[int, ...]
    kinds: tuple[str, ...]
    rerolled: int | None  # the index of the die the zeal marker rerolled
    turned: int | None  # the index of the die the caution marker turned into a success
    counts: Counts
    lucky_break: bool
    backfire: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "dice": list(self.faces),
            "kinds": list(self.kinds),
            "rerolled": self.rerolled,
            "turned": self.turned,
            "fiascos": self.counts.fiascos,
            "successes": self.counts.hits,
            "criticals": self.counts.criticals,
            "lucky_break": self.lucky_break,
            "backfire": self.backfire,
        }


def _worst(kinds: list[str]) -> int | None:
    for kind in _WORST_FIRST:
        if kind in kinds:
            return kinds.index(kind)
    return None


def _counts(kinds: Iterable[str]) -> Counts:
    listed = list(kinds)
    return Counts(listed.count("fiasco"), listed.count("success"), listed.count("critical"))


def lucky_break(criticals: int, catalogue: Catalogue) -> bool:
    """O4: "3 or more criticals in one roll"."""
    return criticals >= catalogue.lucky_break_criticals


def backfire(fiascos: int, catalogue: Catalogue) -> bool:
    """O4: "more than 3 fiascos (4 or more)"."""
    return fiascos >= catalogue.backfire_fiascos


def judge(side: Side, faces: tuple[int, ...], reroll: int | None, catalogue: Catalogue) -> Judged:
    """A side's dice with its markers applied (O3): the zeal reroll (`reroll` is the new
    face, needed when `needs_reroll`), then the caution marker."""
    kinds = [catalogue.kind(face) for face in faces]
    shown = list(faces)
    rerolled = turned = None
    if side.zeal:
        rerolled = _worst(kinds)
        if rerolled is not None:
            if reroll is None:
                raise ValueError("the zeal reroll is missing")
            shown[rerolled] = reroll
            kinds[rerolled] = catalogue.kind(reroll)
    if side.caution:
        turned = _worst(kinds)
        if turned is not None:
            kinds[turned] = "success"
    counts = _counts(kinds)
    return Judged(
        faces=tuple(shown),
        kinds=tuple(kinds),
        rerolled=rerolled,
        turned=turned,
        counts=counts,
        lucky_break=lucky_break(counts.criticals, catalogue),
        backfire=backfire(counts.fiascos, catalogue),
    )


def needs_reroll(side: Side, faces: tuple[int, ...], catalogue: Catalogue) -> bool:
    return side.zeal and _worst([catalogue.kind(face) for face in faces]) is not None


def take_side(source: DiceSource, prefix: str, side: Side, catalogue: Catalogue) -> Judged:
    """The dice of a side from `source` (`<prefix>_dice`, then `<prefix>_reroll` when its
    zeal marker rerolls one)."""
    faces = source.take(f"{prefix}_dice", Dice(count=side.dice)) if side.dice else ()
    reroll = None
    if needs_reroll(side, faces, catalogue):
        reroll = source.take(f"{prefix}_reroll", Dice(count=1))[0]
    return judge(side, faces, reroll, catalogue)


@dataclass(frozen=True)
class Exchange:
    """What is left of the attacker's successes once the defender's cancel them (O3)."""

    damage: int
    criticals_left: int
    cancelled: int

    @property
    def critical_card(self) -> bool:
        """O3: "remaining criticals draw a critical-damage card of that total"."""
        return self.criticals_left > 0


def cancel(attacker: Counts, defender_hits: int) -> Exchange:
    """O3: "Each defender success cancels one attacker success, critical ones first"."""
    criticals_left = max(0, attacker.criticals - defender_hits)
    spare = max(0, defender_hits - attacker.criticals)
    successes_left = max(0, attacker.successes - spare)
    damage = criticals_left + successes_left
    return Exchange(damage, criticals_left, attacker.hits - damage)


# --- Exact odds ----------------------------------------------------------------------------


def _face_shares(catalogue: Catalogue) -> dict[str, Fraction]:
    return {kind: Fraction(catalogue.faces.count(kind), SIDES) for kind in FACE_KINDS}


def _compositions(n: int) -> Iterable[tuple[int, int, int, int]]:
    for f in range(n + 1):
        for b in range(n - f + 1):
            for s in range(n - f - b + 1):
                yield f, b, s, n - f - b - s


def _multinomial(counts: tuple[int, ...]) -> int:
    out = factorial(sum(counts))
    for count in counts:
        out //= factorial(count)
    return out


@cache
def side_distribution(side: Side, catalogue: Catalogue) -> Mapping[Counts, Fraction]:
    """The exact distribution of a side's final counts (fiascos, successes, criticals)."""
    p = _face_shares(catalogue)
    kinds = FACE_KINDS
    out: dict[Counts, Fraction] = {}

    def add(key: Counts, weight: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + weight

    for comp in _compositions(side.dice):
        weight = Fraction(_multinomial(comp))
        for kind, count in zip(kinds, comp, strict=True):
            weight *= p[kind] ** count
        if weight == 0:
            continue
        f, b, s, c = comp
        outcomes: list[tuple[tuple[int, int, int, int], Fraction]] = [((f, b, s, c), Fraction(1))]
        if side.zeal and (f or b):
            # The worst die (a fiasco, else a blank) is rolled again.
            base = (f - 1, b, s, c) if f else (f, b - 1, s, c)
            outcomes = []
            for index, kind in enumerate(kinds):
                if p[kind]:
                    new = list(base)
                    new[index] += 1
                    outcomes.append(((new[0], new[1], new[2], new[3]), p[kind]))
        for (f2, b2, s2, c2), share in outcomes:
            if side.caution and f2:
                f2, s2 = f2 - 1, s2 + 1
            elif side.caution and b2:
                b2, s2 = b2 - 1, s2 + 1
            add(Counts(f2, s2, c2), weight * share)
    return out


def flags_odds(
    distribution: Mapping[Counts, Fraction], catalogue: Catalogue
) -> dict[str, Fraction]:
    """P(lucky break) and P(backfire) of one side (O4)."""
    return {
        "lucky_break": sum(
            (p for k, p in distribution.items() if lucky_break(k.criticals, catalogue)),
            Fraction(0),
        ),
        "backfire": sum(
            (p for k, p in distribution.items() if backfire(k.fiascos, catalogue)), Fraction(0)
        ),
    }


def hits_distribution(distribution: Mapping[Counts, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for counts, p in distribution.items():
        out[counts.hits] = out.get(counts.hits, Fraction(0)) + p
    return out


def exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def shares_json(shares: Mapping[Any, Fraction]) -> dict[str, float]:
    return {str(k): float(v) for k, v in sorted(shares.items())}
