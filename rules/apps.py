from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rules")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from rules.table import live

        user_logged_out.connect(live.session_ended, dispatch_uid="table-session-ended")
