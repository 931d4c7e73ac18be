"""The table calculator (phone first) and the player's record of server rolls."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.models import RollRecord
from campaigns.rolls import resolve, roll_on_server, roll_replay
from config.permissions import Refusal
from rules.systems.kolaps.talent_test import RANKS

RANK_LABELS = {
    "novice": _("Novice"),
    "aguerri": _("Aguerri"),
    "veteran": _("Vétéran"),
    "expert": _("Expert"),
}
OUTCOME_LABELS = {
    "critical_failure": _("Critical failure"),
    "failure_with_one": _("Failure with a 1"),
    "failure": _("Failure"),
    "mitigated_success": _("Mitigated success"),
    "success": _("Success"),
    "critical_success": _("Critical success"),
}


class TestForm(forms.Form):
    db = forms.IntegerField(label=_("Difficulty (DB)"), min_value=-20, max_value=30, initial=3)
    rank = forms.ChoiceField(
        label=_("Rank"), choices=[(r, RANK_LABELS[r]) for r in RANKS], initial="veteran"
    )
    sante = forms.IntegerField(label=_("Santé"), min_value=1, max_value=6, initial=6)
    dice = forms.CharField(
        label=_("Dice rolled by hand"),
        required=False,
        help_text=_("The faces, separated by spaces: 3 4 5"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def inputs(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("db", "rank", "sante")}

    def typed_dice(self) -> list[int] | None:
        text = self.cleaned_data.get("dice", "").replace(",", " ").split()
        if not text:
            return None
        try:
            return [int(v) for v in text]
        except ValueError:
            self.add_error("dice", _("Each die is a whole number from 1 to 6."))
            return None


def _labelled(outcomes: dict[str, float]) -> list[tuple[str, str, float, float]]:
    """(key, label, probability, percent) in the order of the outcome table."""
    order = list(OUTCOME_LABELS)
    return [
        (key, str(OUTCOME_LABELS[key]), outcomes[key], outcomes[key] * 100)
        for key in sorted(outcomes, key=order.index)
    ]


@require_http_methods(["GET", "POST"])
def kolaps_test(request: HttpRequest) -> HttpResponse:
    """GET: the odds of the test in the form. POST: judge typed dice, or roll on the server."""
    source = request.POST if request.method == "POST" else (request.GET or None)
    form = TestForm(source, initial={"db": 3, "rank": "veteran", "sante": 6})
    context: dict = {"form": form}
    if form.is_bound and form.is_valid():
        inputs = form.inputs()
        context["odds"] = resolve(system="kolaps", name="test", verb="odds", data=inputs)
        context["odds_rows"] = _labelled(context["odds"]["outcomes"])
        context["six_percent"] = context["odds"]["six_six_six"] * 100
        if request.method == "POST":
            try:
                if request.POST.get("action") == "roll":
                    record = roll_on_server(
                        player=request.user, system="kolaps", name="test", data=inputs
                    )
                    context["result"], context["record"] = record.outcome, record
                else:
                    dice = form.typed_dice()
                    if dice is None and not form.errors:
                        form.add_error(
                            "dice", _("Type the dice you rolled, or roll on the server.")
                        )
                    if dice is not None:
                        context["result"] = resolve(
                            system="kolaps",
                            name="test",
                            verb="evaluate",
                            data={**inputs, "dice": dice},
                        )
            except Refusal as refusal:
                form.add_error(
                    refusal.field if refusal.field in form.fields else None, str(refusal.message)
                )
    template = "campaigns/kolaps_test.html"
    if request.htmx and request.htmx.target == "test-panel":
        template += "#test-panel"
    return render(request, template, context)


@login_required
@require_GET
def roll_list(request: HttpRequest) -> HttpResponse:
    rolls = RollRecord.objects.for_user(request.user)[:100]
    return render(request, "campaigns/roll_list.html", {"rolls": rolls})


@login_required
@require_GET
def roll_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(RollRecord.objects.for_user(request.user), pk=pk)
    return render(
        request,
        "campaigns/roll_detail.html",
        {"record": record, "replay": roll_replay(record=record)},
    )
