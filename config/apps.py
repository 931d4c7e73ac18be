from django.apps import AppConfig

from config import checks  # registers the project's deploy checks

__all__ = ["ConfigConfig", "checks"]


class ConfigConfig(AppConfig):
    """The project itself, as an app only so that `demo_load` (which seeds every app, and so
    sits above them all) is a management command."""

    name = "config"
    verbose_name = "Chronique"
