"""Whether a player may take part in a chapter, requirement by requirement. Pure: the
caller loads the facts (no query here) and gets every check with its reason, an English
message id with its parameters that the app translates (RULES-NOTES O5-O6 readings below).

Rule text, "Chapitre": "Elle demande des conditions, comme le nombre de joueur, le nombre
de point de survie minimum, la possession de cartes spéciales etc…". Our reading: the
number of players is the campaign's players; survival points, cards and items are the
player's Of the Dead profile's (names compared without case or extra spaces); a dead
character (not yet back as a zombie or reincarnated) cannot play. KOLAPS campaigns have no
profiles: only the number of players is checked there.
"""

from dataclasses import dataclass, field

from rules.engine.systems import gettext_noop as _


@dataclass(frozen=True)
class Requirement:
    players_min: int | None
    players_max: int | None
    min_survival_points: int
    required_cards: tuple[str, ...]
    required_items: tuple[str, ...]


@dataclass(frozen=True)
class PlayerFacts:
    has_profile: bool
    survival_points: int = 0
    cards: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    is_dead: bool = False


@dataclass(frozen=True)
class Check:
    key: str  # players, profile, status, survival_points, cards, items
    met: bool
    message: str  # an English message id, marked for translation; the app translates it
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Eligibility:
    checks: list[Check] = field(default_factory=list)

    @property
    def eligible(self) -> bool:
        return all(check.met for check in self.checks)


def _norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def _missing(required: tuple[str, ...], held: tuple[str, ...]) -> list[str]:
    have = {_norm(name) for name in held}
    return [name for name in required if _norm(name) not in have]


def _carried(
    key: str, required: tuple[str, ...], held: tuple[str, ...], missing: str, all_held: str
) -> Check | None:
    """The check of the cards or items a chapter requires (None when it requires none)."""
    if not required:
        return None
    gone = _missing(required, held)
    if gone:
        return Check(key, False, missing, {"names": ", ".join(gone)})
    return Check(key, True, all_held)


def eligibility(
    requirement: Requirement, facts: PlayerFacts, *, players: int, uses_profiles: bool
) -> Eligibility:
    """Every check of the chapter's requirement for one player (rule text, "Chapitre";
    readings in this module's docstring)."""
    checks: list[Check] = []
    low, high = requirement.players_min, requirement.players_max
    if low is not None and players < low:
        checks.append(
            Check(
                "players",
                False,
                _("This chapter needs at least %(min)s players; the campaign has %(n)s."),
                {"min": low, "n": players},
            )
        )
    elif high is not None and players > high:
        checks.append(
            Check(
                "players",
                False,
                _(
                    "This chapter takes at most %(max)s players; the campaign has %(n)s: "
                    "the organisers choose who plays."
                ),
                {"max": high, "n": players},
            )
        )
    else:
        checks.append(Check("players", True, _("Number of players: fine.")))
    if not uses_profiles:
        return Eligibility(checks)
    if not facts.has_profile:
        checks.append(Check("profile", False, _("Create your Of the Dead profile first.")))
        return Eligibility(checks)
    if facts.is_dead:
        checks.append(
            Check(
                "status",
                False,
                _("Your character is dead: come back as a zombie or by reincarnation first."),
            )
        )
    need = requirement.min_survival_points
    if need:
        met = facts.survival_points >= need
        checks.append(
            Check(
                "survival_points",
                met,
                _("Survival points: %(have)s of the %(need)s needed."),
                {"have": facts.survival_points, "need": need},
            )
        )
    carried = (
        _carried(
            "cards",
            requirement.required_cards,
            facts.cards,
            _("Missing cards: %(names)s."),
            _("Required cards: all carried."),
        ),
        _carried(
            "items",
            requirement.required_items,
            facts.equipment,
            _("Missing items: %(names)s."),
            _("Required items: all carried."),
        ),
    )
    checks.extend(check for check in carried if check is not None)
    return Eligibility(checks)
