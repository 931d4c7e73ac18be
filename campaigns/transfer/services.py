"""Export a whole campaign as JSON, and import such a file (docs/campaign-export.md).

`campaign_export` reads the campaign's tables (`document.TABLES`) in a fixed number of
queries, whatever its size. `campaign_import` is the one writer of an import: it validates
the whole file first (size, JSON, the JSON Schema of its version, every reference inside
it), then writes every row in ONE transaction with new ids, and appends the history line
"imported by". A file refused is a sentence, and nothing is written.

Only the importer is an existing account: the export's organiser, and the player of the
importer's own username, become whoever imports the file. Every other player of the file
becomes a NEW inactive account without a password (its username the file's one, or
`<username>-2`, `-3`... when that name is taken here, whatever its case; its display name
the file's), so that no file can reach another account's sheet, ledger or traumas.
"""

import json
import re
import unicodedata
from datetime import datetime, timedelta
from typing import Any

import jsonschema
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chapters.services import chapter_date_check
from campaigns.models import Campaign, CampaignEvent
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.statistics.services import statistics_recompute
from campaigns.transfer import document, game
from campaigns.transfer.document import FORMAT, TABLES, VERSION, Table
from characters.accounts.services import IMPORTED_PREFIX
from characters.models import Player, Profile, Trauma
from characters.permissions import Refusal, require
from rules.engine.errors import RuleInputError
from rules.engine.systems.open_settings import check_settings

# The most accounts one file may create (its players other than the importer).
MAX_NEW_PLAYERS = 200


def max_bytes() -> int:
    """The largest file accepted: the API's body limit, for the page and the API alike."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# --- Export --------------------------------------------------------------------------------


def campaign_export(*, actor, campaign: Campaign) -> dict:
    """The campaign as the documented JSON document (organisers only). One query per table
    and one for the players the rows name, whatever the campaign's size."""
    require(campaign_role(actor, campaign), CAN_MANAGE, visible=CAN_VIEW)
    read = []
    for table in TABLES:
        queryset = table.model.objects.filter(table.rows(campaign)).order_by("pk")
        if table.m2m:
            queryset = queryset.prefetch_related(*table.m2m)
        read.append((table, list(queryset)))
    named = {
        f.value_from_object(obj)
        for table, objects in read
        for f in table.fields
        if f.is_relation and f.related_model is Player
        for obj in objects
    }
    players = {
        pk: (username, display_name)
        for pk, username, display_name in Player.objects.filter(pk__in=named - {None}).values_list(
            "pk", "username", "display_name"
        )
    }
    rows: dict[str, list] = {}
    ids: dict[type[models.Model], set[int]] = {}
    for table, objects in read:
        out = []
        for obj in objects:
            row: dict[str, Any] = {"id": obj.pk}
            for f in table.fields:
                value = f.value_from_object(obj)
                if f.is_relation and value is not None:
                    if f.related_model is Player:
                        value = players[value][0]
                    elif value not in ids.get(f.related_model, ()):
                        value = None  # a row of another campaign (a trauma's chapter)
                row[document.key_of(f)] = document.value_out(f, value)
            for name in table.m2m:
                row[name] = sorted(o.pk for o in getattr(obj, name).all())
            for (name, column, key), target in document.JSON_IDS.items():
                if name == table.name:  # an id of a row not exported (another campaign's)
                    held = document.id_table(target, campaign.system)
                    known = ids.get(TABLE_BY_NAME[held]) if held else None
                    row[column] = _known_ids(row[column], key, known)
            out.append(row)
        ids[table.model] = {row["id"] for row in out}
        rows[table.name] = out
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "players": [
            {"username": username, "display_name": display_name}
            for username, display_name in sorted(players.values())
        ],
        "tables": rows,
    }


TABLE_BY_NAME = {table.name: table.model for table in TABLES}


def _known_ids(value: Any, key: str, known: set[int] | None) -> Any:
    """`value` with every id at `key` that is not in `known` made null."""
    if isinstance(value, dict):
        return {
            k: (v if v in (known or ()) else None) if k == key else _known_ids(v, key, known)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_known_ids(v, key, known) for v in value]
    return value


def campaign_export_text(*, actor, campaign: Campaign) -> str:
    return json.dumps(campaign_export(actor=actor, campaign=campaign), ensure_ascii=False, indent=1)


# --- Import --------------------------------------------------------------------------------


def _refuse(message: str) -> Refusal:
    return Refusal(message, field="file")


def _parse(text: bytes | str) -> dict:
    size = len(text.encode() if isinstance(text, str) else text)
    if size > max_bytes():
        raise _refuse(
            _("This file is too large: a campaign export may weigh up to %(size)s KB.")
            % {"size": -(-max_bytes() // 1024)}
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise _refuse(
            _("This file is not JSON: choose a campaign exported from Chronique.")
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(_("This file is not a Chronique campaign export."))
    if data.get("version") != VERSION:
        raise _refuse(
            _("This export is of version %(version)s; this Chronique reads version %(ours)s.")
            % {"version": str(data.get("version"))[:20], "ours": VERSION}
        )
    validator = jsonschema.Draft202012Validator(
        _schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "/"
        raise _refuse(
            _("This export does not follow its schema at %(where)s: %(problem)s")
            % {"where": where[:200], "problem": _problem(error)}
        )
    for table in document.TABLES:
        data["tables"].setdefault(table.name, [])
    return data


def _problem(error: jsonschema.ValidationError) -> str:
    """What is wrong, in the reader's language (jsonschema's own messages are English)."""
    if error.validator == "required":
        missing = re.match(r"'(.{1,80})' is a required property", error.message)
        return _("the field %(name)s is missing") % {"name": missing[1] if missing else "?"}
    if error.validator == "additionalProperties":
        return _("a field this version does not have")
    if error.validator == "type":
        return _("a value of the wrong type")
    if error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return _("a number out of range")
    if error.validator in ("minLength", "maxLength"):
        return _("a text too long or empty")
    if error.validator in ("enum", "const"):
        return _("a value that is not one of the allowed choices")
    if error.validator in ("pattern", "format"):
        return _("a value in the wrong format")
    return _("a value that is not allowed")


_SCHEMA: dict | None = None


def _schema() -> dict:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads(document.SCHEMA_FILE.read_text())
    return _SCHEMA


def _check_references(data: dict) -> None:
    """Every reference inside the file points to a row or a player of the file."""
    tables = data["tables"]
    usernames = {p["username"] for p in data["players"]}
    if len({name.casefold() for name in usernames}) != len(data["players"]):
        raise _refuse(_("This export lists a player twice."))
    if not all(re.fullmatch(r"[\w.@+-]+", name) and _is_latin(name) for name in usernames):
        raise _refuse(_("This export holds a username in the wrong format."))
    if len(tables["campaign"]) != 1:
        raise _refuse(_("This export must hold exactly one campaign."))
    if len(usernames - {tables["campaign"][0]["organiser"]}) > MAX_NEW_PLAYERS:
        raise _refuse(
            _("This export holds more than %(count)s players: it cannot be imported.")
            % {"count": MAX_NEW_PLAYERS}
        )
    ids = {}
    for table in TABLES:
        seen = [row["id"] for row in tables[table.name]]
        if len(set(seen)) != len(seen):
            raise _refuse(_("This export repeats a row of %(table)s.") % {"table": table.name})
        ids[table.model] = set(seen)
        for row in tables[table.name]:
            for f in table.fields:
                if document.key_of(f) not in row:
                    continue  # a column the schema lets the file leave out: its default
                value = row[document.key_of(f)]
                if not f.is_relation or value is None:
                    if value is None and not f.null:
                        raise _missing(table, f)
                    continue
                known = usernames if f.related_model is Player else ids.get(f.related_model, set())
                if value not in known:
                    raise _missing(table, f)
            for name in table.m2m:
                if not set(row[name]) <= ids[table.model._meta.get_field(name).related_model]:
                    raise _refuse(
                        _("This export refers to a row it does not hold (%(table)s, %(field)s).")
                        % {"table": table.name, "field": name}
                    )
    held = {table.name: ids[table.model] for table in TABLES}
    system = tables["campaign"][0]["system"]
    for (name, column, key), target in document.JSON_IDS.items():
        rows = held.get(document.id_table(target, system) or "", set())
        for row in tables[name]:
            for value in _values_at(row.get(column), key):
                if value is not None and (type(value) is not int or value not in rows):
                    raise _refuse(
                        _("This export refers to a row it does not hold (%(table)s, %(field)s).")
                        % {"table": name, "field": f"{column}.{key}"}
                    )


def _values_at(value: Any, key: str) -> list:
    """The values of `key` anywhere inside a JSON value (its depth already checked)."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found += [v for k, v in item.items() if k == key]
            stack += [v for k, v in item.items() if k != key]
        elif isinstance(item, list):
            stack += item
    return found


def _check_json(data: dict) -> None:
    """No JSON value of a row nests deeper than `document.JSON_DEPTH` (the pages and the
    renumbering walk them)."""
    for table in TABLES:
        columns = [document.key_of(f) for f in table.fields if isinstance(f, models.JSONField)]
        for row in data["tables"][table.name]:
            for column in columns:
                stack = [(row.get(column), 1)]
                while stack:
                    item, depth = stack.pop()
                    if isinstance(item, dict | list):
                        if depth > document.JSON_DEPTH:
                            raise _refuse(
                                _("This export nests a value too deeply (%(table)s, %(field)s).")
                                % {"table": table.name, "field": column}
                            )
                        items = item.values() if isinstance(item, dict) else item
                        stack += [(v, depth + 1) for v in items]


def _missing(table: Table, f: models.Field) -> Refusal:
    return _refuse(
        _("This export refers to a row it does not hold (%(table)s, %(field)s).")
        % {"table": table.name, "field": f.name}
    )


def _players_for(actor, data: dict) -> tuple[dict[str, Player], int]:
    """Usernames to accounts: the importer for the export's organiser and for the importer's
    own username (whatever its case); every other player a NEW inactive account without a
    password, named `imported-<username>` (`-2`, `-3`... when taken here) and shown as
    "<name> (imported)", so that it never takes a name someone may sign up with nor passes
    for a player of this site. With the number of accounts created."""
    organiser = data["tables"]["campaign"][0]["organiser"]
    mine = {organiser.casefold(), actor.username.casefold()}
    others = [p for p in data["players"] if p["username"].casefold() not in mine]
    found = {p["username"]: actor for p in data["players"] if p not in others}
    found[organiser] = actor
    if not others:
        return found, 0
    bases = {p["username"]: IMPORTED_PREFIX + p["username"][:130] for p in others}
    pattern = "^(%s)(-[0-9]+)?$" % "|".join(  # noqa: UP031 - a regular expression
        sorted({re.escape(base) for base in bases.values()})
    )
    taken = {
        name.casefold()
        for name in Player.objects.filter(username__iregex=pattern).values_list(
            "username", flat=True
        )
    }
    chosen = {}
    for p in others:
        name, number = bases[p["username"]], 1
        while name.casefold() in taken:
            number += 1
            name = f"{bases[p['username']]}-{number}"
        taken.add(name.casefold())
        chosen[p["username"]] = name
    Player.objects.bulk_create(
        [
            Player(
                username=chosen[p["username"]],
                display_name=_imported_name(p["display_name"] or p["username"]),
                email=f"{chosen[p['username']]}@imported.invalid",
                is_active=False,
                password=make_password(None),
            )
            for p in others
        ]
    )
    accounts = Player.objects.filter(username__in=chosen.values()).in_bulk(field_name="username")
    found.update({old: accounts[new] for old, new in chosen.items()})
    return found, len(others)


def _imported_name(name: str) -> str:
    """The display name of an imported player: marked, within the column's 80 characters."""
    marked = _("%(name)s (imported)")
    room = 80 - len(marked % {"name": ""})
    return marked % {"name": name[:room].strip()}


def _is_latin(name: str) -> bool:
    """Letters of the Latin script only (accents allowed): a Cyrillic a (U+0430) in a name
    would read as the Latin one."""
    return all(
        not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN")
        for ch in unicodedata.normalize("NFC", name)
    )


def _json_ids(
    table: Table, f: models.Field, value: Any, new_ids: dict[str, dict[int, int]], system: str
) -> Any:
    keys = {
        key: document.id_table(target, system) or ""
        for (t, name, key), target in document.JSON_IDS.items()
        if t == table.name and name == f.name
    }
    if not keys:
        return value

    def renumber(item: Any) -> Any:
        if isinstance(item, dict):
            return {
                k: (new_ids[keys[k]][v] if k in keys and v is not None else renumber(v))
                for k, v in item.items()
            }
        if isinstance(item, list):
            return [renumber(v) for v in item]
        return item

    return renumber(value)


def campaign_import(*, actor, text: bytes | str) -> Campaign:
    """Create the campaign of an export file, with everything it holds; a file refused
    writes nothing."""
    data = _parse(text)
    _check_json(data)
    _check_references(data)
    _check_rules(data)
    try:
        game.check_sheets(data["tables"])
        game.check_sheet_entries(data["tables"], document.SHEET_TABLES)
        game.derive(data["tables"], _kept_sheets(actor, data))
    except game.GameProblem as problem:
        raise _refuse(
            _("This export breaks its game's rules (%(table)s, %(field)s): nothing was imported.")
            % {"table": problem.table, "field": problem.column}
        ) from None
    try:
        return _write(actor, data)
    except RecursionError:
        raise _refuse(_("This export nests a value too deeply: nothing was imported.")) from None
    except (IntegrityError, DataError, ValueError, ValidationError):
        raise _refuse(
            _(
                "This export holds rows that contradict each other or this site's rules: "
                "nothing was imported."
            )
        ) from None


def _kept_sheets(actor, data: dict) -> set[int]:
    """The file's sheets of the importer when they have one here: not written (they keep
    theirs)."""
    if not Profile.objects.filter(player=actor).exists():
        return set()
    organiser = data["tables"]["campaign"][0]["organiser"]
    mine = {organiser.casefold(), actor.username.casefold()}
    return {p["id"] for p in data["tables"]["profiles"] if p["player"].casefold() in mine}


def _check_rules(data: dict) -> None:
    """What the services would have refused and the schema cannot say."""
    campaign = data["tables"]["campaign"][0]
    try:
        check_settings(campaign["system"], campaign.get("rules_settings") or {})
    except RuleInputError:
        raise _refuse(_("This export's rules settings are not those of its game system.")) from None
    for chapter in data["tables"]["chapters"]:
        try:
            starts_at = datetime.fromisoformat(chapter.get("starts_at") or "")
        except ValueError:
            continue  # none, or not a date: the write refuses the latter with the rest
        try:
            chapter_date_check(starts_at)
        except Refusal as refusal:
            raise _refuse(refusal.message) from None


def _write(actor, data: dict) -> Campaign:
    """Every row of the file, in one transaction (the file is valid)."""
    tables = data["tables"]
    system = tables["campaign"][0]["system"]
    with transaction.atomic():
        _one_import_at_a_time()
        _check_pace(actor, data)
        players, new_accounts = _players_for(actor, data)
        # Only the importer can have a sheet here already (every other player is new).
        sheets = dict(Profile.objects.filter(player=actor).values_list("player_id", "pk"))
        new_ids: dict[str, dict[int, int]] = {}
        by_model = {}
        kept_sheets: set[int] = set()  # ids in the file of the sheets not written
        for table in TABLES:
            objects, olds = [], []
            auto_now = [
                f
                for f in table.fields
                if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
            ]
            for row in tables[table.name]:
                if table.model is Profile and players[row["player"]].pk in sheets:
                    # A player keeps the sheet they have here; the file's one and its
                    # traumas are not written, its ledger rows point to the one kept.
                    new_ids.setdefault(table.name, {})[row["id"]] = sheets[
                        players[row["player"]].pk
                    ]
                    kept_sheets.add(row["id"])
                    continue
                if table.model is Trauma and row["profile"] in kept_sheets:
                    # Not written: a ledger effect naming it names no trauma.
                    new_ids.setdefault(table.name, {})[row["id"]] = None
                    continue
                values = {}
                for f in table.fields:
                    if document.key_of(f) not in row:
                        continue  # left out of the file: the model's default
                    value = row[document.key_of(f)]
                    if f.is_relation:
                        if value is not None:
                            value = (
                                players[value].pk
                                if f.related_model is Player
                                else by_model[f.related_model][value]
                            )
                        values[f.attname] = value
                    else:
                        values[f.attname] = _json_ids(table, f, f.to_python(value), new_ids, system)
                objects.append(table.model(**values))
                olds.append(row)
            created = table.model.objects.bulk_create(objects)
            mapping = new_ids.setdefault(table.name, {})
            mapping.update({row["id"]: obj.pk for row, obj in zip(olds, created, strict=True)})
            by_model[table.model] = mapping
            for row, obj in zip(olds, created, strict=True):
                for name in table.m2m:
                    target = table.model._meta.get_field(name).related_model
                    getattr(obj, name).set([by_model[target][i] for i in row[name]])
                for f in auto_now:
                    if f.name in row:
                        setattr(obj, f.attname, _when(row[f.name]))
            if auto_now and created:  # kept as exported, not the time of the import
                table.model.objects.bulk_update(
                    created, [f.attname for f in auto_now], batch_size=500
                )
        campaign = Campaign.objects.get(pk=new_ids["campaign"][tables["campaign"][0]["id"]])
        # Derived numbers recomputed, never trusted: the statistics rebuilt from the ledger.
        statistics_recompute(campaign_id=campaign.pk)
        CampaignEvent.objects.create(
            campaign=campaign,
            actor=actor,
            verb="imported",
            data={"exported_at": data["exported_at"], "accounts": new_accounts},
        )
    return campaign


# Any number: the key of the PostgreSQL lock that makes imports wait for each other.
_IMPORT_LOCK = 0x43484931


def _one_import_at_a_time() -> None:
    """Imports run one after the other (PostgreSQL; SQLite writes one at a time anyway):
    two imports of one file would otherwise pick the same new usernames, and all but one
    would fail on them."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_IMPORT_LOCK])


def _check_pace(actor, data: dict) -> None:
    """At most `CAMPAIGN_IMPORTS_PER_DAY` imports and `CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY`
    accounts created by one importer in 24 hours (read from the history lines "imported"
    the importer wrote; a copied line of a file counts for nothing)."""
    lines = CampaignEvent.objects.filter(
        actor=actor, verb="imported", at__gte=timezone.now() - timedelta(days=1)
    ).values_list("data", flat=True)
    made = [d.get("accounts") for d in lines if isinstance(d, dict)]
    made = [n for n in made if type(n) is int and n >= 0]
    organiser = data["tables"]["campaign"][0]["organiser"]
    mine = {organiser.casefold(), actor.username.casefold()}
    asked = sum(1 for p in data["players"] if p["username"].casefold() not in mine)
    if (
        len(made) >= settings.CAMPAIGN_IMPORTS_PER_DAY
        or sum(made) + asked > settings.CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY
    ):
        raise _refuse(
            _(
                "You have imported as many campaigns and players as a day allows: "
                "try again tomorrow."
            )
        )


def _when(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)
