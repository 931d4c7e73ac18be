"""The encounter log page of a chapter: read it, and record a roll while the chapter is
being played (htmx swaps the log; the page works without JavaScript)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.selectors import chapter_get_for_user
from rules.table.cards import encounter_card
from rules.table.forms import EncounterRollForm


@login_required
@require_http_methods(["GET", "POST"])
def chapter_encounter(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk)
    card = encounter_card(request.user, chapter)
    # `?roll=<id>`: arriving from one of your server rolls, it is chosen already.
    initial = {"player": str(request.user.pk), "roll": request.GET.get("roll", "")}
    form = EncounterRollForm(card=card, initial=initial)
    if request.method == "POST" and card.record_for:
        form = EncounterRollForm(request.POST, card=card)
        if form.is_valid() and form.save(request.user, card.chapter) is not None:
            if not request.htmx:
                messages.success(request, _("The roll is recorded."))
                return redirect("chapter-encounter", pk=pk)
            card = encounter_card(request.user, chapter)
            form = EncounterRollForm(card=card, initial={"player": form.cleaned_data["player"]})
    elif request.method == "POST":
        form = None
        messages.error(request, _("Rolls are recorded while the chapter is being played."))
    template = "rules/table/encounter.html"
    if request.htmx:
        template += "#encounter-log"
    return render(request, template, {"card": card, "form": form if card.record_for else None})
