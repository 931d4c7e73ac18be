"""Eligibility in the words of the pages: the engine's checks
(`rules.engine.systems.of_the_dead.eligibility`) with their reasons translated."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.systems.of_the_dead import eligibility as rules
from rules.engine.systems.of_the_dead.eligibility import PlayerFacts, Requirement

__all__ = ["Check", "Eligibility", "PlayerFacts", "Requirement", "eligibility"]


# The engine's messages that carry a number, said in the plural that number needs: the
# engine's message -> (singular, plural, the parameter that counts).
PLURALS = {
    "Survival points: %(have)s of the %(need)s needed.": (
        "Survival points: %(have)s of the %(need)s point needed.",
        "Survival points: %(have)s of the %(need)s needed.",
        "need",
    ),
    "This chapter needs at least %(min)s players; the campaign has %(n)s.": (
        "This chapter needs at least %(min)s player; the campaign has %(n)s.",
        "This chapter needs at least %(min)s players; the campaign has %(n)s.",
        "min",
    ),
}


def _sentence(message: str, params: dict | None) -> str:
    if not params:
        return _(message)
    if message in PLURALS:
        singular, plural, count = PLURALS[message]
        return ngettext(singular, plural, params[count]) % params
    return _(message) % params


@dataclass(frozen=True)
class Check:
    key: str  # players, profile, status, survival_points, cards, items
    met: bool
    reason: str


@dataclass(frozen=True)
class Eligibility(rules.Eligibility):
    """The engine's verdict (`eligible`), its checks (`Check`) with their reasons."""

    @property
    def reasons(self) -> list[str]:
        return [check.reason for check in self.checks if not check.met]


def eligibility(
    requirement: Requirement, facts: PlayerFacts, *, players: int, uses_profiles: bool
) -> Eligibility:
    verdict = rules.eligibility(requirement, facts, players=players, uses_profiles=uses_profiles)
    return Eligibility(
        [
            Check(
                check.key,
                check.met,
                _sentence(check.message, check.params),
            )
            for check in verdict.checks
        ]
    )
