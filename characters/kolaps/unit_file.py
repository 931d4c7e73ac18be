"""Export a KOLAPS unit as JSON, and import it back (docs/kolaps-unit-json.md).

The file holds choices only (slugs, levels, gauges, who is the Avatar) with the schema and
catalogue versions; numbers such as the VU are recomputed on import, never trusted. An
export is deterministic (same unit, same bytes), so export → import → export is identical.

A bad file is refused as a whole, before anything is written, with the line and the field
at fault: the decoder below notes the line of every value so that a wrong rank on line 14
is reported as line 14, not as "somewhere in characters[2]".
"""

import json
from dataclasses import dataclass
from json.decoder import scanstring

from django.utils.translation import gettext as _

from characters.kolaps import services
from characters.kolaps.models import GAUGE_MAX, GAUGE_MIN, KolapsCharacter, KolapsUnit
from characters.permissions import Refusal

SCHEMA = "chronique.kolaps.unit"
SCHEMA_VERSION = 1
MAX_CHARACTERS = 200
MAX_BYTES = 512 * 1024
CHARACTER_KEYS = ("name", "affiliation", "archetype", "rank", "avatar", "talents", "equipment",
                  "gauges")  # fmt: skip
GAUGE_KEYS = ("sante", "souffle", "moral")


def unit_export(unit: KolapsUnit, members: list[KolapsCharacter]) -> dict:
    """The unit as the documented JSON document (schema version 1)."""
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "catalogue_version": unit.catalogue_version,
        "unit": {
            "name": unit.name,
            "vu": unit.vu,
            "characters": [
                {
                    "name": m.name,
                    "affiliation": m.affiliation,
                    "archetype": m.archetype,
                    "rank": m.rank,
                    "avatar": m.is_avatar,
                    "talents": dict(sorted(m.talents.items())),
                    "equipment": list(m.equipment),
                    "gauges": {"sante": m.sante, "souffle": m.souffle, "moral": m.moral},
                }
                for m in members
            ],
        },
    }


def unit_export_text(unit: KolapsUnit, members: list[KolapsCharacter] | None = None) -> str:
    """The file's text; `members` in their order, read when not given."""
    if members is None:
        members = list(unit.members.order_by("position", "pk"))
    return json.dumps(unit_export(unit, members), ensure_ascii=False, indent=2) + "\n"


# --- Reading with line numbers ---------------------------------------------------------------


class ImportError_(Refusal):
    """A file refused: `line` and `field` say where, the message says what."""

    def __init__(self, *, line: int | None, field: str, problem: str):
        if line is None and field == "file":
            # The whole file: no field of it to name ("champ file" read as a field called file).
            message = _("The file: %(problem)s") % {"problem": problem}
        elif line is None:
            message = _("Field %(field)s: %(problem)s") % {"field": field, "problem": problem}
        elif field == "file":
            message = _("Line %(line)s: %(problem)s") % {"line": line, "problem": problem}
        else:
            message = _("Line %(line)s, field %(field)s: %(problem)s") % {
                "line": line,
                "field": field,
                "problem": problem,
            }
        super().__init__(message, field="file")
        self.line = line
        self.path = field


def _lines_of(text: str) -> dict[str, int]:
    """The line of every value of a JSON text, by path ("unit.characters[2].rank")."""
    lines: dict[str, int] = {}
    decoder = json.JSONDecoder()
    # Values come in the order of the text: the newlines are counted on from the last one
    # (counting from the start for each value made a large file cost its square).
    seen = [0, 1]  # the position reached, and its line

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: str) -> int:
        i = skip(i)
        seen[1] += text.count("\n", seen[0], i)
        seen[0] = i
        lines[path] = seen[1]
        if text[i] == "{":
            i = skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = scanstring(text, skip(i) + 1)
                i = skip(i) + 1  # the colon
                i = skip(value(i, f"{path}.{key}" if path else key))
                if text[i] == "}":
                    return i + 1
                i += 1  # the comma
        if text[i] == "[":
            i = skip(i + 1)
            if text[i] == "]":
                return i + 1
            index = 0
            while True:
                i = skip(value(i, f"{path}[{index}]"))
                index += 1
                if text[i] == "]":
                    return i + 1
                i += 1
        _parsed, end = decoder.raw_decode(text, i)
        return end

    value(0, "")
    return lines


def _parent(path: str) -> str:
    if path.endswith("]"):
        return path[: path.rindex("[")]
    return path.rsplit(".", 1)[0] if "." in path else ""


@dataclass
class _Reader:
    lines: dict[str, int]

    def fail(self, path: str, problem: str):
        """Refuse at `path`, on the line of its value (or of the nearest enclosing one)."""
        located = path
        while located not in self.lines and located:
            located = _parent(located)
        raise ImportError_(line=self.lines.get(located), field=path or "file", problem=problem)

    def object(self, raw, path, keys=None) -> dict:
        if not isinstance(raw, dict):
            self.fail(path, _("expected an object."))
        for key in raw if keys is not None else ():
            if key not in keys:
                self.fail(f"{path}.{key}" if path else key, _("unknown field."))
        for key in keys or ():
            if key not in raw:
                self.fail(f"{path}.{key}" if path else key, _("missing."))
        return raw

    def text(self, raw, path, choices=None) -> str:
        if not isinstance(raw, str) or not raw.strip():
            self.fail(path, _("expected a non-empty text."))
        if len(raw) > services.NAME_MAX:
            self.fail(path, _("at most 80 characters."))
        if choices is not None and raw not in choices:
            self.fail(path, _("“%(value)s” is not in the KOLAPS catalogue.") % {"value": raw})
        return raw

    def integer(self, raw, path, low, high) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            self.fail(
                path,
                _("expected a whole number from %(low)s to %(high)s.") % {"low": low, "high": high},
            )
        return raw

    def list(self, raw, path) -> list:
        if not isinstance(raw, list):
            self.fail(path, _("expected a list."))
        return raw


def unit_import(*, owner, text: str | bytes) -> KolapsUnit:
    """Create the unit of an exported file for `owner`, or refuse the file and save nothing."""
    if isinstance(text, str) and len(text) > MAX_BYTES:  # its UTF-8 is no shorter
        raise ImportError_(line=None, field="file", problem=_("the file is too large."))
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise ImportError_(line=None, field="file", problem=_("the file is too large."))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ImportError_(
                line=None, field="file", problem=_("the file is not UTF-8 text.")
            ) from None
    try:
        raw = json.loads(text)
        lines = _lines_of(text)
    except json.JSONDecodeError as exc:
        raise ImportError_(
            line=exc.lineno,
            field="file",
            # The parser's own message is English developer text: say where, in words.
            problem=_(
                "this is not valid JSON (column %(column)s): check the commas, quotes and brackets."
            )
            % {"column": exc.colno},
        ) from None
    except RecursionError:
        raise ImportError_(
            line=None, field="file", problem=_("the file is nested too deeply.")
        ) from None
    reader = _Reader(lines)
    rows = _read(reader, raw)
    return services.unit_import(
        owner=owner,
        name=rows["name"],
        characters=rows["characters"],
        source_version=rows["catalogue_version"],
    )


def _read(reader: _Reader, raw) -> dict:
    cat = services.catalogue()
    document = reader.object(
        raw, "", keys=("schema", "schema_version", "catalogue_version", "unit")
    )
    if document["schema"] != SCHEMA:
        reader.fail("schema", _("expected “%(schema)s”.") % {"schema": SCHEMA})
    if document["schema_version"] != SCHEMA_VERSION:
        reader.fail("schema_version", _("this version of Chronique reads schema version 1."))
    catalogue_version = reader.text(document["catalogue_version"], "catalogue_version")
    unit = reader.object(document["unit"], "unit", keys=("name", "vu", "characters"))
    name = reader.text(unit["name"], "unit.name")
    reader.integer(unit["vu"], "unit.vu", 0, 10**6)
    characters = reader.list(unit["characters"], "unit.characters")
    if len(characters) > MAX_CHARACTERS:
        reader.fail("unit.characters", _("at most 200 characters."))
    rows = []
    avatar_seen = False
    for index, raw_character in enumerate(characters):
        path = f"unit.characters[{index}]"
        character = reader.object(raw_character, path, keys=CHARACTER_KEYS)
        archetype = reader.text(character["archetype"], f"{path}.archetype", cat.archetypes)
        affiliation = reader.text(character["affiliation"], f"{path}.affiliation", cat.affiliations)
        rank = reader.text(character["rank"], f"{path}.rank", cat.ranks)
        avatar = character["avatar"]
        if not isinstance(avatar, bool):
            reader.fail(f"{path}.avatar", _("expected true or false."))
        if avatar and avatar_seen:
            reader.fail(f"{path}.avatar", _("a unit has only one Avatar."))
        avatar_seen = avatar_seen or avatar
        talents = reader.object(character["talents"], f"{path}.talents")
        for slug, level in talents.items():
            where = f"{path}.talents.{slug}"
            reader.text(slug, where, cat.talents)
            levels = cat.talents[slug].level_numbers
            reader.integer(level, where, min(levels), max(levels))
        equipment = reader.list(character["equipment"], f"{path}.equipment")
        allowed_items = {**cat.weapons, **cat.armours}
        for position, item in enumerate(equipment):
            reader.text(item, f"{path}.equipment[{position}]", allowed_items)
        gauges = reader.object(character["gauges"], f"{path}.gauges", keys=GAUGE_KEYS)
        for gauge in GAUGE_KEYS:
            reader.integer(gauges[gauge], f"{path}.gauges.{gauge}", GAUGE_MIN, GAUGE_MAX)
        if avatar and gauges["moral"] != GAUGE_MAX:
            # K13, as the units service keeps it: the Avatar's Moral is always 6.
            reader.fail(f"{path}.gauges.moral", _("the Avatar's Moral is always 6."))
        rows.append(
            {
                "name": reader.text(character["name"], f"{path}.name").strip(),
                "affiliation": affiliation,
                "archetype": archetype,
                "rank": rank,
                "is_avatar": avatar,
                "talents": dict(talents),
                "equipment": list(equipment),
                "catalogue_version": catalogue_version,
                **{gauge: gauges[gauge] for gauge in GAUGE_KEYS},
            }
        )
    return {"name": name.strip(), "characters": rows, "catalogue_version": catalogue_version}
