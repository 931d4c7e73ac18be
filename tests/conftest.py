"""Shared fixtures: fast hashing, plain static storage, the five roles, a real worker."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.signals import setting_changed

from tests.factories import PASSWORD, PlayerFactory

BASE_DIR = Path(__file__).resolve().parent.parent
OUTPUT_DIR = BASE_DIR / "test-output"


@pytest.fixture(autouse=True, scope="session")
def _test_settings():
    """Test-only settings: a fast password hasher and static files served from the finders."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # A module imported while tests were collected (the ASGI application builds its
    # middleware, WhiteNoise reads the static files storage) may have made the manifest
    # storage already: Django's own handler for this setting forgets it.
    setting_changed.send(
        sender=type(settings), setting="STORAGES", value=settings.STORAGES, enter=True
    )
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    Path(settings.STATIC_ROOT).mkdir(exist_ok=True)  # WhiteNoise warns when it is missing
    # A queue of this session's own, set before Celery reads its configuration, so tasks
    # left in Redis by another run never reach this run's worker.
    settings.CELERY_TASK_DEFAULT_QUEUE = f"test-{uuid.uuid4().hex[:8]}"
    from config.celery import app

    # In-process tasks unless a test asks for the real worker.
    app.conf.task_always_eager = True
    yield


@pytest.fixture(autouse=True)
def _empty_cache():
    """Sessions and players are cached (config/auth.py): each test starts from an empty
    cache, as its database starts from an empty transaction."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """A request in English leaves English active in the thread (Django's LocaleMiddleware
    does not put the language back): each test starts in the site's default, French, as a
    new visitor's request does, whatever the test before it asked for."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def player(db):
    return PlayerFactory(username="alice")


@pytest.fixture
def other_player(db):
    return PlayerFactory(username="bruno")


@pytest.fixture
def roles(db):
    """One user per role of the authorization matrix, around one campaign."""
    return make_roles()


def make_roles() -> dict:
    """The world of the roles fixture, built in the current transaction."""
    from campaigns.services import campaign_add_participant, campaign_create

    owner = PlayerFactory(username="owner")
    other = PlayerFactory(username="other")
    organiser = PlayerFactory(username="organiser")
    participant = PlayerFactory(username="participant")
    campaign = campaign_create(organiser=organiser, name="Matrix", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=participant)
    from rules.rolls.services import roll_on_server

    roll = roll_on_server(
        player=owner, system="kolaps", name="test", data={"db": 3, "rank": "novice"}
    )
    from tests.kolaps_chapter_fixtures import kolaps_chapter_objects
    from tests.of_the_dead_fixtures import of_the_dead_objects

    of_the_dead = of_the_dead_objects(owner=owner, organiser=organiser, campaign=campaign)
    # The post-chapter settlement: a settled chapter in which the participant
    # died, and a closed one awaiting its settlement.
    from tests.settlement_fixtures import settlement_roles

    settlement = settlement_roles(organiser=organiser, participant=participant, campaign=campaign)
    world = {
        "anonymous": None,
        "owner": owner,
        "other_player": other,
        "organiser": organiser,
        "participant": participant,
        "campaign": campaign,
        "roll": roll,
        **_kolaps_roles(owner),
        **_rapid40k_roles(owner),
        **of_the_dead,
        **kolaps_chapter_objects(
            owner=owner,
            organiser=organiser,
            participant=participant,
            profile=of_the_dead["profile"],
        ),
        **settlement,
        **_rapid40k_chapter_roles(organiser=organiser, participant=participant),
        **_sheet_chapter_roles(organiser=organiser, participant=participant),
        **_modern_roles(owner),
        **_corporates_roles(owner),
    }
    from tests.table_fixtures import table_roles

    world.update(
        table_roles(
            organiser=organiser, participant=participant, kolaps_campaign=world["kolaps_campaign"]
        )
    )
    return world


def _rapid40k_roles(owner) -> dict:
    """Rapid 40000: a shared army list of the owner with one squad."""
    from characters.rapid40k import services as rapid40k

    army = rapid40k.army_create(owner=owner, name="Matrix army", faction="orks")
    army = rapid40k.army_change(
        actor=owner,
        army=army,
        version=army.version,
        action="squad_add",
        data={"name": "Boyz", "slot": "troops", "leader": "orks:nob"},
    )
    army = rapid40k.army_share(actor=owner, army=army, version=army.version, shared=True)
    return {"rapid40k_army": army}


def _rapid40k_chapter_roles(*, organiser, participant) -> dict:
    """A Rapid 40000 campaign of the organiser with the participant as player, two planned
    chapters and the participant's valid army list entered into the first."""
    from campaigns.chapters.entries import chapter_army_enter
    from campaigns.chapters.services import chapter_plan
    from campaigns.services import campaign_add_participant, campaign_create
    from characters.rapid40k import services as rapid40k

    campaign = campaign_create(organiser=organiser, name="Matrix Rapid 40000", system="rapid40k")
    campaign_add_participant(actor=organiser, campaign=campaign, player=participant)
    army = rapid40k.army_import(
        owner=participant,
        payload={
            "format": "chronique.rapid40k.army",
            "format_version": 1,
            "name": "Participant army",
            "faction": "orks",
            "squads": [
                {
                    "name": name,
                    "slot": slot,
                    "leader": leader,
                    "fighters": [{**boy, "count": 4}],
                }
                for name, slot, leader in (
                    ("Boss", "command", "orks:big_boss"),
                    ("Boyz 1", "troops", "orks:nob"),
                    ("Boyz 2", "troops", "orks:nob"),
                )
                for boy in [
                    {
                        "quality": 4,
                        "combat": 3,
                        "weapon": "fling",
                        "special_rules": ["charge_feroce"],
                    }
                ]
            ],
        },
    )
    assert army.is_valid
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La ruche")
    other_chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    chapter_army_enter(actor=participant, chapter=chapter, army=army)
    return {
        "rapid40k_campaign": campaign,
        "rapid40k_chapter": chapter,
        "rapid40k_other_chapter": other_chapter,
        "participant_army": army,
    }


def _sheet_chapter_roles(*, organiser, participant) -> dict:
    """A Corporates campaign of the organiser with the participant as player, two planned
    chapters and the participant's character sheet entered into the first."""
    from campaigns.chapters.entries import chapter_entry_enter
    from campaigns.chapters.services import chapter_plan
    from campaigns.services import campaign_add_participant, campaign_create
    from campaigns.systems.entry_kinds import CORPORATES_SHEET
    from characters.corporates.services import corporates_character_create

    campaign = campaign_create(organiser=organiser, name="Matrix Corporates", system="corporates")
    campaign_add_participant(actor=organiser, campaign=campaign, player=participant)
    sheet = corporates_character_create(owner=participant, name="Participant runner")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le niveau -12")
    other_chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le toit")
    chapter_entry_enter(actor=participant, chapter=chapter, kind=CORPORATES_SHEET, roster=sheet)
    return {
        "sheet_chapter": chapter,
        "sheet_other_chapter": other_chapter,
        "participant_sheet": sheet,
    }


def _modern_roles(owner) -> dict:
    """The modern RPG: a character of the owner, built within the creation rules."""
    from characters.modern.services import modern_character_create

    character = modern_character_create(
        owner=owner,
        name="Matrix runner",
        characteristics={"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8},
        skills={"tir": 6, "conduite": 5},
        specialities=["pistolet", "course"],
    )
    return {"modern_character": character}


def _corporates_roles(owner) -> dict:
    """Corporates: a character sheet of the owner, changed once (an undo has work to do)."""
    from characters.corporates.services import (
        corporates_character_create,
        corporates_character_update,
    )

    character = corporates_character_create(owner=owner, name="Matrix fixer")
    character = corporates_character_update(
        actor=owner, character=character, version=character.version, numbers={"shot_pool": 6}
    )
    return {"corporates_character": character}


def _kolaps_roles(owner) -> dict:
    """KOLAPS: a shared valid unit of the owner, and a character in no unit."""
    from characters.kolaps import services as kolaps

    unit = kolaps.unit_create(owner=owner, name="Matrix unit")
    chief = kolaps.character_create(
        owner=owner, name="Chief", archetype="agent-de-police", rank="novice", unit=unit
    )
    unit.refresh_from_db()
    kolaps.unit_set_avatar(actor=owner, unit=unit, version=unit.version, character=chief)
    unit.refresh_from_db()
    unit = kolaps.unit_share(actor=owner, unit=unit, version=unit.version)
    loner = kolaps.character_create(
        owner=owner, name="Loner", archetype="agent-de-police", rank="veteran"
    )
    loner = kolaps.character_raise(actor=owner, character=loner, version=1, talent="fusil")
    return {"kolaps_unit": unit, "kolaps_character": loner}


@pytest.fixture
def output_dir(request):
    path = OUTPUT_DIR / request.node.name.replace("/", "_").replace("[", "-").strip("]")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _database_url_for(name: str) -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{name}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real `celery worker` on Redis, working on the test database.

    It consumes a queue named for this session, so nothing left in Redis by another run
    reaches it.
    """
    from django.db import connection

    from config.celery import app

    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.fail("the worker tests need CELERY_BROKER_URL=redis://... (make test sets it)")
    queue = app.conf.task_default_queue
    assert queue == settings.CELERY_TASK_DEFAULT_QUEUE
    env = {
        **os.environ,
        "DATABASE_URL": _database_url_for(connection.settings_dict["NAME"]),
        "DATABASE_POOL": "false",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": queue,
        "EMAIL_URL": "consolemail://",
        "PYTHONUNBUFFERED": "1",
    }
    log_path = OUTPUT_DIR / "celery-worker.log"
    OUTPUT_DIR.mkdir(exist_ok=True)
    log = open(log_path, "w")  # noqa: SIM115 - closed in the teardown
    worker = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--loglevel=INFO", "--concurrency=1", "--pool=prefork",
            "--without-gossip", "--without-mingle", "-Q", queue,
            "-n", f"{queue}@%h",
        ],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail(f"the Celery worker exited early: see {log_path}")
        if "ready." in log_path.read_text():
            break
        time.sleep(0.2)
    else:
        worker.kill()
        pytest.fail(f"the Celery worker did not start within 60 s: see {log_path}")
    yield {"queue": queue, "process": worker, "log": log_path, "app": app}
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
    log.close()


@pytest.fixture
def real_worker(celery_worker_process):
    """Send tasks to the real worker for the duration of one test."""
    app = celery_worker_process["app"]
    app.conf.task_always_eager = False
    yield celery_worker_process
    app.conf.task_always_eager = True


@pytest.fixture
def english():
    """Service sentences in English for the test's assertions (French is the default)."""
    from django.utils import translation

    with translation.override("en"):
        yield
