"""The KOLAPS : GROUND ZERO rules catalogue: ranks, archetypes, talents, equipment, tables.

Why the numbers live in a data file (`catalogues/<version>.json`) and not in Python: the rule text
(`shared/seeds/000_54d039a2b5ac2f23.txt`, read through `shared/RULES-NOTES.md` K1-K16) is a
draft that will change, and a table of numbers is easier to review against that text, to
diff and to version when it lives in one data file than when it is spread over `if`s. Each
entry carries a `ref` (the reading or section it comes from) and, where the extracted PDF is
too scrambled to be sure, an `uncertain` note saying what is unclear.

Why it is validated when loaded: a data file has no compiler. The loader reads every field
into frozen dataclasses with type checks, refuses unknown fields, parses every dice
expression with the K3 notation, and checks every cross-reference (archetype talents and
equipment, prerequisites, weapon profiles, table rows) before anything uses the catalogue.
A broken catalogue is refused with one `CatalogueError` naming the entry and the field, so
a typo fails at start-up and in the tests instead of in the middle of a player's turn.

Reading conventions (documented here because the data relies on them):

- A talent is one entry with its levels (expertise). "Fusil 2" is the talent `fusil` at
  level 2; "Tir instinctif 1" is the specialisation `tir-instinctif` at level 1.
- Each level carries its own cost and prerequisite. Levels are taken in order, so a level's
  price is the sum of the costs of the levels up to it. A base talent's level 0 costs
  nothing, and each level above 0 costs 1 PP (K2).
- A prerequisite is satisfied by any one of its `any_of` requirements ("Expertise fusil ou
  pistolet 1").
- An archetype's talents and equipment are lists of choice groups: each group is a list of
  alternatives, and a group with one alternative is always included.
- A same-named talent whose numbers differ between the two annexes is one entry per
  affiliation (K16): `charge-apc` and `charge-sheol`, `se-cacher-apc` and `se-cacher-sheol`.
- `db_modifier` is the signed change a talent makes to the DB of the attack roll it applies
  to (Esquive +1 raises the attacker's DB, Ambidextre -1 lowers the vampire's own).

Pure Python: no Django, no third-party packages; the only I/O is reading the JSON file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from rules.engine.systems.catalogue_file import load_version, read_json
from rules.engine.systems.kolaps.catalogue_reading import broken_references, read_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue, CatalogueError

# Every version that ever shipped stays here, side by side: a unit records the version it was
# built with and is costed with that one after a newer catalogue ships.
CATALOGUES_DIR: Final = Path(__file__).with_name("catalogues")


def catalogue_versions() -> tuple[str, ...]:
    """The versions shipped, oldest first; the last is the current catalogue. Listed once
    per process, as each version is read once: the live table looks a catalogue up a dozen
    times per action, and the listing cost more than the rest of the lookup."""
    return _versions_in(CATALOGUES_DIR)


@cache
def _versions_in(directory: Path) -> tuple[str, ...]:
    """The versions in `directory`, listed once per folder (a test may ship another)."""
    versions = (path.stem for path in directory.glob("*.json"))
    return tuple(sorted(versions, key=lambda v: tuple(int(n) for n in v.split("."))))


def _shipped(version: str | None) -> str:
    """`version` if shipped (the current one when None)."""
    versions = catalogue_versions()
    wanted = versions[-1] if version is None else version
    if wanted not in versions:
        raise CatalogueError(f"no KOLAPS catalogue {wanted!r} (shipped: {', '.join(versions)})")
    return wanted


def catalogue_path(version: str | None = None) -> Path:
    """The file of `version` (the current catalogue when None)."""
    return CATALOGUES_DIR / f"{_shipped(version)}.json"


def load_catalogue(version: str | None = None, *, path: Path | None = None) -> Catalogue:
    """Load and validate a catalogue: `version` (the current one when None), each shipped
    version read once and cached.

    `path` loads another file (a candidate edit, a test's broken copy) without caching.
    Raises `CatalogueError` naming the entry and the field of the first structural fault,
    or listing every broken cross-reference.
    """
    if path is not None:
        return _load(path)
    return _shipped_catalogue(CATALOGUES_DIR, version)


@cache
def _shipped_catalogue(directory: Path, version: str | None) -> Catalogue:
    """A shipped version (the current one when None), found once per folder and version:
    the live table asks for its catalogue a dozen times per action and per page; by name,
    not through `catalogue_path`, whose path cost more than the rest of the lookup."""
    return _packaged_catalogue(_shipped(version))


@cache
def _packaged_catalogue(version: str) -> Catalogue:
    return load_version(CATALOGUES_DIR, version, _load, CatalogueError)


def _load(path: Path) -> Catalogue:
    catalogue = read_catalogue(read_json(path, CatalogueError))
    problems = list(broken_references(catalogue))
    if problems:
        listed = "\n- ".join(problems)
        raise CatalogueError(f"{path.name} has {len(problems)} broken reference(s):\n- {listed}")
    return catalogue
