"""The project's own deploy checks (`manage.py check --deploy`)."""

from django.conf import settings
from django.core import checks

PER_PROCESS = "django.core.cache.backends.locmem.LocMemCache"


@checks.register(checks.Tags.security, deploy=True)
def shared_cache(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Sessions (`cached_db`) and the signed-in player's row are read from the cache: with a
    per-process cache, a logout or a password change made through one server process would
    not reach another's copy. Production sets `CACHE_URL` to a shared cache (Redis)."""
    cached_sessions = settings.SESSION_ENGINE.endswith(("cached_db", ".cache"))
    if cached_sessions and settings.CACHES["default"]["BACKEND"] == PER_PROCESS:
        return [
            checks.Warning(
                "Sessions and the signed-in player are cached in each process's memory.",
                hint="Set CACHE_URL to a shared cache (redis://host:6379/1) when more than "
                "one server process runs, or SESSION_ENGINE=django.contrib.sessions.backends.db.",
                id="chronique.W001",
            )
        ]
    return []


@checks.register(checks.Tags.security, deploy=True)
def public_secret_key(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The default SECRET_KEY is in the repository: anyone could sign a session or a
    password-reset link with it. Django's own check (security.W009) lets it pass, being
    long and varied enough; this one names it."""
    if settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY:
        return [
            checks.Error(
                "SECRET_KEY is the public development key.",
                hint="Set SECRET_KEY to a long random value of your own: python3 -c "
                "'import secrets; print(secrets.token_urlsafe(50))'.",
                id="chronique.E001",
            )
        ]
    return []
