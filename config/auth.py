"""The logged-in player of a request, without a database query on every page.

Django's `AuthenticationMiddleware` reads the player's row on each request (after the
session's row). `CachedAuthenticationMiddleware` keeps the row in the cache for
`AUTH_USER_CACHE_SECONDS`, and the session's own checks still run on the cached row: the
backend must still be configured, the player active, and the session's hash must match the
password's (a password changed elsewhere logs the session out, as before). Every save or
delete of a player forgets its cached row at once (`config.models.forget_player`), so a rename, a
deactivation or a new password is seen by the next request.

`CachedTokenAuthentication` does the same for the API's tokens (`Authorization: Token ...`):
the token's player number is kept in the cache (under a hash of the key) and the player's
row is the one above; DRF's checks still run on it (the player active). Deleting a token
(rotated, revoked, its player deleted) forgets it at once and leaves a tombstone in its
place (`config.models.revoke_token`); a request fills the cache with `add`, never over the
tombstone, so a token read from the database just before its deletion was committed is not
cached after it.

With more than one server process, the cache must be shared (`CACHE_URL=redis://...`, as
compose sets it); with the per-process default a process could keep a forgotten row up to
`AUTH_USER_CACHE_SECONDS`.
"""

from functools import partial

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import AuthenticationMiddleware, auser
from django.core.cache import cache
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from config.models import TOKEN_REVOKED, player_cache_key, token_cache_key


def _cached(request):
    session = request.session
    user_id = session.get(auth.SESSION_KEY)
    session_hash = session.get(auth.HASH_SESSION_KEY)
    if (
        user_id is None
        or not session_hash
        or session.get(auth.BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS
    ):
        return auth.get_user(request)
    user = cache.get(player_cache_key(user_id))
    if (
        user is not None
        and user.is_active
        and constant_time_compare(session_hash, user.get_session_auth_hash())
    ):
        return user
    user = auth.get_user(request)  # the database, with every check (and flush) of Django's
    if user.is_authenticated:
        cache.set(player_cache_key(user.pk), user, settings.AUTH_USER_CACHE_SECONDS)
    return user


def get_user(request):
    if not hasattr(request, "_cached_user"):
        request._cached_user = _cached(request)
    return request._cached_user


class CachedAuthenticationMiddleware(AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)  # its checks, and `request.auser` as Django's
        request.user = SimpleLazyObject(lambda: get_user(request))
        request.auser = partial(auser, request)


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token authentication without its query (the token joined to its player) on
    every request: the live table's devices act through the API many times a minute."""

    def authenticate_credentials(self, key):
        user_id = cache.get(token_cache_key(key))
        if user_id is not None and user_id != TOKEN_REVOKED:
            user = cache.get(player_cache_key(user_id))
            if user is not None and user.is_active:
                return user, Token(key=key, user_id=user_id)
        user, token = super().authenticate_credentials(key)  # the database, DRF's checks
        # `add`: a deletion committed since the read above left its tombstone, kept.
        cache.add(token_cache_key(key), user.pk, settings.AUTH_USER_CACHE_SECONDS)
        cache.set(player_cache_key(user.pk), user, settings.AUTH_USER_CACHE_SECONDS)
        return user, token
