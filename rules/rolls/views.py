"""The player's record of server rolls: the list, and one roll with its replay."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rules.engine.systems import system_get
from rules.rolls.models import RollRecord
from rules.rolls.selectors import chapters_being_played, roll_get_for_user
from rules.rolls.services import roll_replay


@login_required
@require_GET
def roll_list(request: HttpRequest) -> HttpResponse:
    rolls = RollRecord.objects.for_user(request.user)[:100]
    return render(request, "rules/rolls/roll_list.html", {"rolls": rolls})


@login_required
@require_GET
def roll_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = roll_get_for_user(request.user, pk)
    return render(
        request,
        "rules/rolls/roll_detail.html",
        {
            "record": record,
            "replay": roll_replay(record=record),
            "playing": chapters_being_played(request.user, system=record.system),
            # The whole result as the system's calculator shows it (its declaration).
            "result_template": system_get(record.system).index.result_template,
        },
    )
