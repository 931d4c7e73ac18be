from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_delete, post_save


class ConfigConfig(AppConfig):
    """The project itself, as an app only so that `demo_load` (which seeds every app, and so
    sits above them all) is a management command."""

    name = "config"
    verbose_name = "Chronique"

    def ready(self):
        from config.auth import forget_player

        post_save.connect(forget_player, sender=settings.AUTH_USER_MODEL, dispatch_uid="forget")
        post_delete.connect(forget_player, sender=settings.AUTH_USER_MODEL, dispatch_uid="forget")
