"""The form of the encounter log page: record one roll of the chapter being played."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.chapters.services import encounter_event_record
from characters.accounts.forms import ServiceForm
from characters.models import Player
from rules.rolls.models import RollRecord


class EncounterRollForm(ServiceForm):
    """One roll of the encounter being played: who rolled (yourself, or anyone for an
    organiser), whom it hit, the damage, and which recorded server roll it was."""

    player = forms.ChoiceField(label=_("Who rolled"))
    target = forms.ChoiceField(label=_("Target"), required=False)
    damage = forms.IntegerField(label=_("Damage"), min_value=0, max_value=100, initial=0)
    roll = forms.ChoiceField(
        label=_("Server roll"),
        required=False,
        help_text=_("One of your recorded server rolls, if the dice were rolled here."),
    )

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(str(pk), name) for pk, name in card.record_for]
        self.fields["target"].choices = [("", _("Nobody (a roll without a target)"))] + [
            (str(pk), name) for pk, name in card.players
        ]
        self.fields["roll"].choices = [("", _("Rolled at the table"))] + [
            (str(pk), label) for pk, label in card.my_rolls
        ]

    def save(self, actor, chapter):
        data = self.cleaned_data
        player = Player.objects.filter(pk=data["player"]).first()
        target = Player.objects.filter(pk=data["target"]).first() if data["target"] else None
        roll = RollRecord.objects.filter(pk=data["roll"]).first() if data["roll"] else None
        return self.run(
            encounter_event_record,
            actor=actor,
            chapter=chapter,
            player=player,
            target=target,
            damage=data["damage"],
            roll=roll,
        )
