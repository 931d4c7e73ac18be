from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project itself, as an app only so that `demo_load` (which seeds every app, and so
    sits above them all) is a management command."""

    name = "config"
    verbose_name = "Chronique"
