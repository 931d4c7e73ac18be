from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rules")

    def ready(self):
        # The chapter's close reads an encounter still played through this reader: the
        # campaigns app sits below the table and may not import it. Imported here, once the
        # models are loaded, as Django's `ready` hooks do.
        from campaigns.chapters.cards import live_table_reader
        from rules.table.models import Encounter
        from rules.table.services import encounter_summary

        def read(encounter_id: int) -> dict:
            encounter = Encounter.objects.filter(pk=encounter_id).first()
            return encounter_summary(encounter) if encounter is not None else {}

        live_table_reader(read)
