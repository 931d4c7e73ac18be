"""The Redis cache (config/cache.py): Django's, with its Redis client built once.

Every page reads its session and its player from this cache, so each read pays what
building a client costs; the values written and read are Django's RedisCache's."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db.models import F

from characters.compiled import CompiledRead
from characters.models import KolapsUnit
from config.cache import KeptClientRedisCache
from tests.factories import PlayerFactory

BASE_DIR = Path(__file__).resolve().parent.parent


@pytest.fixture
def redis_cache():
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs CELERY_BROKER_URL=redis://... (make test sets it)")
    cache = KeptClientRedisCache(settings.CELERY_BROKER_URL, {"KEY_PREFIX": "test-cache"})
    yield cache
    cache.delete_many(["session", "player", "counter"])


def test_it_reads_back_what_it_writes_and_forgets_what_it_deletes(redis_cache):
    redis_cache.set("session", {"_auth_user_id": "7"}, 60)
    redis_cache.set("player", "Alice", 60)
    assert redis_cache.get("session") == {"_auth_user_id": "7"}
    assert redis_cache.get_many(["session", "player", "nobody"]) == {
        "session": {"_auth_user_id": "7"},
        "player": "Alice",
    }
    assert redis_cache.add("player", "Bruno") is False
    assert redis_cache.incr("counter", 1) if redis_cache.add("counter", 1) else None
    assert redis_cache.get("counter") == 2
    redis_cache.delete("player")
    assert redis_cache.get("player", "gone") == "gone"


def test_it_builds_its_redis_client_once_for_every_operation(redis_cache):
    redis_cache.set("session", "a", 60)
    client = redis_cache._cache.get_client("session", write=True)
    redis_cache.get("session")
    redis_cache.delete("session")
    assert redis_cache._cache.get_client("player") is client


def test_production_redis_cache_url_selects_it():
    """CACHE_URL=redis://... (compose) uses the kept client; locmem stays Django's."""
    probe = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    found = {}
    for url in ("redis://127.0.0.1:6379/1", "locmemcache://"):
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", probe],
            cwd=BASE_DIR,
            env={**os.environ, "CACHE_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        found[url] = result.stdout.strip().splitlines()[-1]
    assert found == {
        "redis://127.0.0.1:6379/1": "config.cache.KeptClientRedisCache",
        "locmemcache://": "django.core.cache.backends.locmem.LocMemCache",
    }


@pytest.mark.django_db
def test_a_compiled_read_names_its_columns_in_the_order_it_selects_them():
    """`CompiledRead.dicts` pairs each value with its column: an annotation named first in
    `values()` is selected first, and read under its own name."""
    owner = PlayerFactory()
    KolapsUnit.objects.create(owner=owner, name="Nord", vu=7, catalogue_version="1")
    read = CompiledRead(
        lambda viewer: (
            KolapsUnit.objects.filter(owner_id=viewer).annotate(x=F("vu")).values("x", "name")
        )
    )
    assert read.dicts(owner.pk) == [{"x": 7, "name": "Nord"}]
