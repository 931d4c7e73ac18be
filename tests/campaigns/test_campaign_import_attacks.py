"""A forged campaign file never changes anything outside the campaign it creates
(docs/campaign-export.md): the recipes of an attack on a clone, each replayed, and every
field of the format forged in turn."""

import json

import pytest
from django.db.models import Max
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign, Chapter, SettlementEntry
from campaigns.settlement.apply import settlement_apply
from campaigns.settlement.services import settlement_reopen
from campaigns.transfer.services import campaign_export, campaign_import
from characters.models import Player, Profile, ProfileStatus
from characters.permissions import Refusal
from tests.factories import PlayerFactory
from tests.settlement_fixtures import closed_chapter, of_the_dead_table


@pytest.fixture
def world(db):
    """Orga's real campaign, settled once: bruno won (3 survival points), claire died."""
    organiser, campaign, players = of_the_dead_table(players=3, prefix="o")
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    bruno, claire = players[0], players[2]
    return organiser, campaign, bruno, claire


def sheet(player) -> Profile:
    return Profile.objects.get(player=player)


def file_of(organiser, campaign) -> dict:
    return campaign_export(actor=organiser, campaign=campaign)


def refusal_of(actor, data) -> str:
    with pytest.raises(Refusal) as refusal, translation.override("en"):
        campaign_import(actor=actor, text=json.dumps(data))
    return str(refusal.value.message)


def unsettle_first_chapter(data: dict) -> None:
    """A closed chapter awaiting its settlement: no ledger, no settlement progress."""
    data["tables"]["chapters"][0]["settled_at"] = None
    data["tables"]["ledger"] = []
    data["tables"]["settlements"] = []


def test_an_import_cannot_give_the_importer_survival_points_beyond_the_rules(world):
    organiser, campaign, bruno, _claire = world
    assert sheet(bruno).survival_points == 2  # a victory: +1 survived, +1 won
    data = file_of(organiser, campaign)
    data["tables"]["campaign"][0]["survival_points_survive"] = 32767
    data["tables"]["campaign"][0]["survival_points_victory"] = 32767
    unsettle_first_chapter(data)
    message = refusal_of(bruno, data)
    assert message.startswith("This export does not follow its schema at tables/campaign/0/")
    assert message.endswith("a number out of range")
    # Within the API's range (0-10), settling the imported chapter gives what a campaign
    # bruno organised himself would: 10 + 10 for a victory, never more.
    data["tables"]["campaign"][0]["survival_points_survive"] = 10
    data["tables"]["campaign"][0]["survival_points_victory"] = 10
    imported = campaign_import(actor=bruno, text=json.dumps(data))
    assert sheet(bruno).survival_points == 2  # the import itself writes nothing to it
    settlement_apply(chapter_id=imported.chapters.get().pk)
    assert sheet(bruno).survival_points == 2 + 20


def test_a_forged_ledger_row_does_not_top_the_leaderboard(world, client):
    organiser, campaign, bruno, _claire = world
    data = file_of(organiser, campaign)
    for row in data["tables"]["ledger"]:
        row.update(kills_zonard=99999, kills_total=99999, survival_points=2147483647)
    imported = campaign_import(actor=bruno, text=json.dumps(data))
    ledger = imported.ledger.get(player=bruno)
    # Recomputed from the chapter's outcome (1 zonard, 1 mastard), never trusted.
    assert (ledger.kills_zonard, ledger.kills_total, ledger.survival_points) == (1, 2, 2)
    client.force_login(bruno)
    rows = client.get(reverse("api-leaderboard")).json()
    mine = next(row for row in rows if row["username"] == bruno.username)
    assert mine["kills_total"] == 4  # 2 in orga's campaign, 2 in the imported copy
    assert sheet(bruno).survival_points == 2


def test_a_forged_effect_and_a_reopen_never_revive_a_character_dead_elsewhere(world):
    organiser, campaign, _bruno, claire = world
    assert sheet(claire).status == ProfileStatus.DEAD  # died in orga's campaign
    data = file_of(organiser, campaign)
    for row in data["tables"]["ledger"]:
        if row["player"] == claire.username:
            row["effects"] = [{"op": "status", "before": "alive", "after": "dead"}]
    imported = campaign_import(actor=claire, text=json.dumps(data))
    assert imported.ledger.get(player=claire).effects == []  # her sheet here is not the file's
    settlement_reopen(actor=claire, chapter=imported.chapters.get())
    assert sheet(claire).status == ProfileStatus.DEAD


def test_a_reopen_reverts_only_what_its_own_settlement_set(world):
    """A ledger row naming a status its chapter did not set (the database written by
    another way than the settlement) leaves the sheet as it is."""
    organiser, campaign, bruno, claire = world
    second = closed_chapter(organiser, campaign, [bruno], title="La ferme", traumas=False)
    settlement_apply(chapter_id=second.pk)
    SettlementEntry.objects.filter(chapter=second, player=bruno).update(
        effects=[{"op": "status", "before": "alive", "after": "zombie"}],
        profile=sheet(claire),
    )
    settlement_reopen(actor=organiser, chapter=second)
    assert sheet(claire).status == ProfileStatus.DEAD
    assert sheet(bruno).status == ProfileStatus.ALIVE


def test_forged_survival_points_never_overflow_a_real_settlement(world):
    organiser, campaign, bruno, _claire = world
    data = file_of(organiser, campaign)
    for row in data["tables"]["ledger"]:
        row["survival_points"] = 2147483647
    campaign_import(actor=bruno, text=json.dumps(data))
    campaign_import(actor=bruno, text=json.dumps(data))
    real = closed_chapter(organiser, campaign, [bruno], title="La ferme", traumas=False)
    assert settlement_apply(chapter_id=real.pk) == "settled"
    assert sheet(bruno).survival_points == 4


def test_a_sheet_beyond_the_rules_is_refused(world):
    organiser, campaign, _bruno, _claire = world
    data = file_of(organiser, campaign)
    data["tables"]["profiles"][0]["physique"] = 32767
    assert "tables/profiles/0/physique: a number out of range" in refusal_of(organiser, data)
    data["tables"]["profiles"][0].update(physique=6, psychique=1, reflexes=1, combat=2)
    assert refusal_of(organiser, data) == (
        "This export breaks its game's rules (profiles, physique): nothing was imported."
    )


def test_imported_players_never_squat_a_name_nor_pass_for_a_real_player(world, client):
    organiser, campaign, _bruno, _claire = world
    data = file_of(organiser, campaign)
    data["players"].append({"username": "Dave", "display_name": "Dave"})
    data["tables"]["memberships"].append(
        {**data["tables"]["memberships"][-1], "id": 999, "player": "Dave"}
    )
    imported = campaign_import(actor=organiser, text=json.dumps(data))
    dave = imported.memberships.get(player__username="imported-Dave").player
    assert dave.display_name == "Dave (importé)" and not dave.is_active
    response = client.post(
        reverse("signup"),
        {"username": "dave", "email": "dave@example.org", "display_name": "Dave",
         "password": "Un-long-mot-de-passe-9", "password_again": "Un-long-mot-de-passe-9"},
    )  # fmt: skip
    assert response.status_code == 302 and Player.objects.filter(username="dave").exists()
    client.logout()
    response = client.post(
        reverse("signup"),
        {"username": "Imported-eve", "email": "eve@example.org", "display_name": "",
         "password": "Un-long-mot-de-passe-9", "password_again": "Un-long-mot-de-passe-9"},
    )  # fmt: skip
    assert "réservés aux joueurs importés" in response.content.decode().replace("\u00a0", " ")
    homoglyph = file_of(organiser, campaign)
    homoglyph["players"].append({"username": "\u0430lice", "display_name": "Alice"})
    assert refusal_of(organiser, homoglyph) == "This export holds a username in the wrong format."


def test_imports_are_paced_per_importer(world, settings):
    organiser, campaign, _bruno, _claire = world
    text = json.dumps(file_of(organiser, campaign))  # 3 players besides the organiser
    importer = PlayerFactory(username="importer")
    settings.CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY = 6
    campaign_import(actor=importer, text=text)
    campaign_import(actor=importer, text=text)
    message = refusal_of(importer, json.loads(text))
    assert message == (
        "You have imported as many campaigns and players as a day allows: try again tomorrow."
    )
    settings.CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY, settings.CAMPAIGN_IMPORTS_PER_DAY = 1000, 2
    assert refusal_of(importer, json.loads(text)) == message
    campaign_import(actor=PlayerFactory(username="other"), text=text)  # per importer


@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_of_one_file_all_succeed():
    """PostgreSQL: four imports of one file at once each get their own new accounts."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    organiser, campaign, _players = of_the_dead_table(players=3, prefix="c")
    text = json.dumps(file_of(organiser, campaign))
    importers = [PlayerFactory(username=f"importer-{n}") for n in range(4)]

    def run(importer):
        try:
            return campaign_import(actor=importer, text=text).pk
        except Refusal as refusal:
            return str(refusal.message)
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, importers))
    assert all(isinstance(r, int) for r in results), results
    assert Player.objects.filter(username__startswith="imported-c-0").count() == 4


# --- Every field of the format, forged ------------------------------------------------------

# The rows an import must leave as they are: every row that existed before it.
OUTSIDE = (
    "characters.Player",
    "characters.Profile",
    "characters.Trauma",
    "characters.KolapsUnit",
    "characters.KolapsCharacter",
    "characters.Rapid40kArmy",
    "characters.Rapid40kSquad",
    "characters.CorporatesCharacter",
    "characters.ModernCharacter",
    "campaigns.ChapterCorporatesEntry",
    "campaigns.ChapterModernEntry",
    "campaigns.Campaign",
    "campaigns.Membership",
    "campaigns.Chapter",
    "campaigns.ChapterOutcome",
    "campaigns.SettlementEntry",
    "campaigns.CharacterStatistics",
)


def outside(limits: dict) -> dict:
    from django.apps import apps

    return {
        name: list(
            apps.get_model(name)
            .objects.filter(pk__lte=limit)
            .order_by("pk")
            .values(*[f.attname for f in apps.get_model(name)._meta.concrete_fields
                      if f.name != "last_login"])
        )
        for name, limit in limits.items()
    }  # fmt: skip


def forged(table, key: str, row: dict, data: dict, stranger: str):
    """The most hostile value of one field: beyond the rules' range or the column's, a row
    or a player of the database the file does not hold, a choice that does not exist..."""
    from django.db import models

    from campaigns.transfer import document, game

    if key == "id":
        return 2**63 - 1
    if key in table.m2m:
        return [Chapter.objects.exclude(pk__in=row[key]).order_by("pk").first().pk]
    f = next(f for f in table.fields if document.key_of(f) == key)
    if f.is_relation:
        if f.related_model is Player:
            data["players"].append({"username": stranger, "display_name": "Alice"})
            return stranger
        return f.related_model.objects.order_by("pk").first().pk
    if isinstance(f, models.BooleanField):
        return not row.get(key, f.default if f.has_default() else False)
    if f.choices:
        return "forged"
    if isinstance(f, models.IntegerField):
        schema = document.json_type(f, table.name)
        if (table.name, key) in game.RULE_RANGES:
            return game.RULE_RANGES[table.name, key][1] + 1
        return schema["maximum"]
    if isinstance(f, models.JSONField):
        if f.has_default() and f.default is list:
            return [{"op": "status", "before": "alive", "after": "dead"},
                    {"op": "trauma_healed", "trauma": None}]  # fmt: skip
        return {"chapter": None, "zonard": 99999, "physique": 9, "psychique": -9}
    if isinstance(f, models.DateTimeField):
        return "1000-01-01T00:00:00+00:00"
    if isinstance(f, models.DateField):
        return "9999-12-31"
    return "\u202e" + "x" * ((f.max_length or 4000) - 1)


@pytest.mark.django_db(transaction=True)
def test_every_field_of_the_format_forged_changes_nothing_outside_the_new_campaign(settings):
    """Each field of each table, in turn, set to its most hostile value in an export of
    the demo: the import is refused with a sentence, or it creates its campaign and
    nothing that existed before changes (nor when its settled chapters are reopened); a
    number beyond the rules' range is always refused."""
    import copy
    from io import StringIO

    from django.apps import apps
    from django.core.management import call_command

    from campaigns.transfer import document, game
    from characters.profiles.services import profile_create

    settings.CAMPAIGN_IMPORTS_PER_DAY = settings.CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY = 10**6
    call_command("demo_load", stdout=StringIO())
    files = [
        campaign_export(actor=c.organiser, campaign=c)
        for c in Campaign.objects.select_related("organiser").order_by("pk")
    ]
    forger = PlayerFactory(username="forger")
    profile_create(actor=forger, player=forger, physique=3, psychique=2, reflexes=2, combat=2)
    stranger = Player.objects.exclude(pk=forger.pk).order_by("pk").first().username
    limits = {
        name: apps.get_model(name).objects.aggregate(m=Max("pk"))["m"] or 0 for name in OUTSIDE
    }
    before = outside(limits)
    forged_fields, refused = 0, 0
    with_votes = next(f for f in files if f["tables"]["votes"])
    if not with_votes["tables"]["ballots"]:  # the demo's votes wait for their ballots
        vote = with_votes["tables"]["votes"][0]
        with_votes["tables"]["ballots"].append(
            {"id": 1, "vote": vote["id"], "voter": with_votes["players"][0]["username"],
             "chapter": (vote["candidates"] or [None])[0], "vocation": "", "nominee": None,
             "cast_at": "2026-01-01T10:00:00+00:00"}
        )  # fmt: skip
    of_the_dead = next(f for f in files if f["tables"]["campaign"][0]["system"] == "of-the-dead")
    of_the_dead["tables"]["vocations"].append(
        {"id": 1, "chapter": of_the_dead["tables"]["chapters"][0]["id"], "source": "chosen",
         "player": of_the_dead["tables"]["memberships"][0]["player"], "vocation": "meneur"}
    )  # fmt: skip
    kolaps = next(f for f in files if f["tables"]["kolaps_units"])
    unit = kolaps["tables"]["unit_entries"][0]
    kolaps["tables"]["unit_results"].append(
        {"id": 1, "chapter": unit["chapter"], "unit": unit["unit"], "unit_name": "Unité",
         "vu": 10, "player": unit["player"], "side": "", "result": "victory",
         "losses": [], "notes": ""}
    )  # fmt: skip
    for table in document.TABLES:
        source = next((f for f in files if f["tables"][table.name]), None)
        assert source is not None, f"no demo campaign has a row of {table.name}"
        keys = ["id", *(document.key_of(f) for f in table.fields), *table.m2m]
        for key in keys:
            data = copy.deepcopy(source)
            row = data["tables"][table.name][0]
            row[key] = forged(table, key, row, data, stranger)
            forged_fields += 1
            try:
                campaign = campaign_import(actor=forger, text=json.dumps(data))
            except Refusal as refusal:
                refused += 1
                assert str(refusal.message), (table.name, key)
                continue
            assert (table.name, key) not in game.RULE_RANGES, f"{table.name}.{key} accepted"
            for chapter in campaign.chapters.filter(settled_at__isnull=False):
                settlement_reopen(actor=forger, chapter=chapter)
            assert outside(limits) == before, f"{table.name}.{key} changed a row outside"
    assert forged_fields > 200 and 0 < refused < forged_fields


def test_a_ledger_row_needs_its_outcome_unless_it_was_reverted(world):
    organiser, campaign, _bruno, _claire = world
    data = file_of(organiser, campaign)
    data["tables"]["outcomes"] = data["tables"]["outcomes"][1:]  # one row loses its outcome
    assert refusal_of(organiser, data) == (
        "This export breaks its game's rules (ledger, chapter): nothing was imported."
    )
    for row in data["tables"]["ledger"]:
        row.update(reverted_at=row["settled_at"], result="forged", kills_zonard=99999)
    imported = campaign_import(actor=organiser, text=json.dumps(data))
    assert all(row.kills_zonard <= 3 for row in imported.ledger.all())


def test_the_systems_figures_are_derived_from_the_close_and_bounded(world):
    """The ledger's value destroyed and lost, characters lost and experience are what the
    system's settlement makes of each close's record (rules.engine.systems.seam), never the
    file's; a record beyond the rules' numbers is refused."""
    organiser, campaign, bruno, _claire = world
    data = file_of(organiser, campaign)
    for row in data["tables"]["ledger"]:
        row.update(value_destroyed=99999, value_lost=99999, characters_lost=99, xp=99)
    imported = campaign_import(actor=bruno, text=json.dumps(data))
    row = imported.ledger.get(player=bruno)
    # Of the Dead's settlement keeps none of these figures.
    assert (row.value_destroyed, row.value_lost, row.characters_lost, row.xp) == (0, 0, 0, 0)
    data = file_of(organiser, campaign)
    data["tables"]["outcomes"][0]["record"] = {"members": [{"name": "x", "value": 10**9}]}
    assert "breaks its game's rules (outcomes, record)" in refusal_of(bruno, data)
