"""What the cache keeps is named under the release, the code itself (config/release.py), and
under keys that hold no raw query string nor cookie (characters/kept.py)."""

import shutil
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from characters.kolaps import services as kolaps
from config.release import SOURCES, code_release
from tests.factories import PlayerFactory

BASE_DIR = Path(settings.BASE_DIR)

# One file of each kind the project ships: a change to any is a new release.
TRACKED = [
    "characters/bidi.py",
    "characters/templatetags/bidi.py",
    "rules/engine/dice.py",
    "templates/characters/kolaps/unit.html",
    "locale/fr/LC_MESSAGES/django.mo",
    "rules/engine/systems/kolaps/catalogues/2026.11.2.json",
    "static/css/chronique.css",
]


def test_the_settings_name_the_cache_under_the_code_and_the_secret():
    assert settings.CACHES["default"]["KEY_PREFIX"] == settings.RELEASE
    assert code_release(BASE_DIR, settings.SECRET_KEY) == settings.RELEASE
    assert code_release(BASE_DIR, "another secret") != settings.RELEASE


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the project's sources to edit."""
    root = tmp_path_factory.mktemp("tree")
    for folder in SOURCES:
        shutil.copytree(
            BASE_DIR / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    return root


@pytest.mark.parametrize("name", TRACKED)
def test_an_edit_to_any_tracked_source_is_a_new_release(tree, name):
    path = tree / name
    assert path.exists(), name  # the list names real files
    before = code_release(tree)
    kept = path.read_bytes()
    path.write_bytes(kept + b"\n")
    try:
        assert code_release(tree) != before
    finally:
        path.write_bytes(kept)
    assert code_release(tree) == before


def test_a_new_file_and_a_renamed_one_are_new_releases_and_bytecode_is_not(tree):
    before = code_release(tree)
    added = tree / "rules" / "engine" / "systems" / "kolaps" / "catalogues" / "9.9.9.json"
    added.write_text("{}")
    assert code_release(tree) != before
    added.unlink()
    cached = tree / "characters" / "__pycache__"
    cached.mkdir(exist_ok=True)
    (cached / "bidi.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert code_release(tree) == before


def _redis_cache(prefix: str) -> dict:
    return {
        "default": {
            "BACKEND": "config.cache.KeptClientRedisCache",
            "LOCATION": settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/12",
            "KEY_PREFIX": prefix,
        }
    }


@pytest.fixture
def shared_cache():
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs CELERY_BROKER_URL=redis://... (make test sets it)")
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/12")
    yield prefix, client
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


@pytest.fixture
def unit_page(db):
    alice = PlayerFactory(username="alice")
    unit = kolaps.unit_create(owner=alice, name="Brigade")
    return alice, reverse("kolaps-unit", args=[unit.pk])


def test_no_page_kept_by_the_old_code_is_served_after_a_change(client, unit_page, shared_cache):
    """Two processes sharing Redis: one of the old code, one after an edit of a tracked
    file (the release each computes at its start)."""
    prefix, _client = shared_cache
    alice, url = unit_page
    client.force_login(alice)
    with override_settings(CACHES=_redis_cache(f"{prefix}-old")):
        assert client.get(url).templates != []
        assert client.get(url).templates == []  # kept, served again by the old code
    with override_settings(CACHES=_redis_cache(f"{prefix}-new")):
        assert client.get(url).templates != []  # rendered by the new code, not served kept


def test_two_thousand_odd_queries_headers_and_theme_cookies_keep_no_new_page(
    client, unit_page, shared_cache
):
    prefix, redis_client = shared_cache
    alice, url = unit_page
    listing = reverse("kolaps-list")
    client.force_login(alice)
    with override_settings(CACHES=_redis_cache(prefix)):
        cache.clear()
        for theme in (None, "light", "dark"):  # the allowed variants
            if theme:
                client.cookies["theme"] = theme
            client.get(url)
            client.get(listing)
        allowed = len(list(redis_client.scan_iter(f"{prefix}*")))
        for i in range(500):
            client.cookies["theme"] = "dark"
            assert client.get(f"{url}?v={i}").status_code == 200
            assert client.get(f"{reverse('kolaps-list')}?x={i}").status_code == 200
            client.cookies["theme"] = f"theme-{i}"
            assert client.get(url).status_code == 200
            assert client.get(listing).status_code == 200
            odd_part = {"HX-Request": "true", "HX-Target": f"part-{i}"}
            assert client.get(url, headers=odd_part).status_code == 200
        assert len(list(redis_client.scan_iter(f"{prefix}*"))) == allowed
