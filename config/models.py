"""The project's own bookkeeping: what the demo created, under keys users never see."""

import hashlib

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import models, transaction
from django.db.models.signals import post_delete, post_save


class DemoObject(models.Model):
    """One object `demo_load` made, found again by `key` whatever users did to it since
    (renamed, moved, another of the same name made): the demo never looks its rows up by a
    name users can change. The row stays when users delete the object, so the demo does not
    make it again."""

    key = models.CharField(max_length=80, unique=True)
    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key


# --- The logged-in player's cached row (config/auth.py) ------------------------------------


def player_cache_key(player_id) -> str:
    return f"auth-player:{player_id}"


def forget_player(sender, instance, **kwargs) -> None:
    """Every save or delete of a player forgets its cached row at once, whoever made it
    (a page, the API, a task, the admin), and again once the change is committed: a request
    read between the save and the commit would otherwise cache the old row (a password
    change or a deactivation would not end a session for `AUTH_USER_CACHE_SECONDS`)."""
    key = player_cache_key(instance.pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


post_save.connect(forget_player, sender=settings.AUTH_USER_MODEL, dispatch_uid="forget-player")
post_delete.connect(forget_player, sender=settings.AUTH_USER_MODEL, dispatch_uid="forget-player")


def token_cache_key(key: str) -> str:
    """The cache keeps the player number of an API token under a hash of it, never the key."""
    return "auth-token:" + hashlib.sha256(key.encode()).hexdigest()


# What the cache holds for a deleted token (never a player number): a request that read the
# token from the database before the deletion cannot cache it afterwards (`cache.add`).
TOKEN_REVOKED = "revoked"


def forget_token(sender, instance, **kwargs) -> None:
    """A saved token (a new one) is read from the database on its first request."""
    key = token_cache_key(instance.key)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def revoke_token(sender, instance, **kwargs) -> None:
    """A deleted token (rotated, revoked, its player deleted) stops working at once, and
    stays stopped: a request that read it from the database just before the deletion was
    committed would otherwise cache it after (for `AUTH_USER_CACHE_SECONDS`). The deletion
    leaves a tombstone, written again once committed, that outlives any such request, and
    `CachedTokenAuthentication` only adds to the cache (`cache.add`), never over it."""
    key = token_cache_key(instance.key)

    def tombstone() -> None:
        cache.set(key, TOKEN_REVOKED, settings.AUTH_USER_CACHE_SECONDS)

    tombstone()
    transaction.on_commit(tombstone)


post_save.connect(forget_token, sender="authtoken.Token", dispatch_uid="forget-token")
post_delete.connect(revoke_token, sender="authtoken.Token", dispatch_uid="forget-token")
