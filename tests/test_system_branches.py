"""A game system's differences are read from its declaration (`GameSystem`, its
`Index` and words, its table adapter's settings), never by comparing a system with one
system's slug outside that system's own modules: a sixth system then needs no edit there."""

import re
from pathlib import Path

from rules.engine.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
SLUGS = "|".join(re.escape(system.slug) for system in SYSTEMS)
# `system == "rapid40k"`, `card.system != 'corporates'`, `data["system"] == "kolaps"`,
# `system in ("kolaps", ...)`, `"modern-rpg" == system`.
BRANCH = re.compile(
    rf"""system\w*(?:\[["']\w+["']\])?\s*(?:==|!=)\s*["'](?:{SLUGS})["']"""
    rf"""|system\w*(?:\[["']\w+["']\])?\s+(?:not\s+)?in\s*[(\[{{]\s*["'](?:{SLUGS})["']"""
    rf"""|["'](?:{SLUGS})["']\s*(?:==|!=)\s*[\w.]*system"""
)
SLUG_NAMES = {system.slug.replace("-", "_") for system in SYSTEMS} | {"modern", "k12"}


def _own(path: Path) -> bool:
    """A module of one system's own (its folder, its adapter, its calculators' page...)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return any(part.split("_combatant")[0] in SLUG_NAMES for part in parts)


def _product() -> list[Path]:
    files = []
    for top in ("campaigns", "characters", "rules", "config", "templates"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".html") and "migrations" not in path.parts:
                files.append(path)
    return files


def test_no_page_or_service_branches_on_a_system_slug():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _product()
        if not _own(path)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if BRANCH.search(line)
    ]
    assert found == []
