"""Eligibility in the words of the pages: the engine's checks
(`rules.engine.systems.of_the_dead.eligibility`) with their reasons translated."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from rules.engine.systems.of_the_dead import eligibility as rules
from rules.engine.systems.of_the_dead.eligibility import PlayerFacts, Requirement

__all__ = ["Check", "Eligibility", "PlayerFacts", "Requirement", "eligibility"]


@dataclass(frozen=True)
class Check:
    key: str  # players, profile, status, survival_points, cards, items
    met: bool
    reason: str


@dataclass(frozen=True)
class Eligibility:
    checks: list[Check] = field(default_factory=list)

    @property
    def eligible(self) -> bool:
        return all(check.met for check in self.checks)

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
                _(check.message) % check.params if check.params else _(check.message),
            )
            for check in verdict.checks
        ]
    )
