"""Pages of the post-chapter settlement: preview and confirm, progress, reopen; the
leaderboards; a character's history; the dead player's choice. Short views: load a card
or call one service, render."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.selectors import campaign_get_for_user, chapter_get_for_user
from campaigns.settlement import charts
from campaigns.settlement.cards import (
    campaign_leaderboard_card,
    history_card,
    overall_leaderboard_card,
    settlement_card,
)
from campaigns.settlement.services import death_choice_make, settlement_reopen, settlement_request
from campaigns.statistics.columns import BY_NAME
from characters.bidi import isolate_text
from characters.models import ProfileStatus
from characters.permissions import Refusal
from characters.profiles.selectors import statistics_player_get_for_user
from rules.engine.systems.of_the_dead.settlement import DeathChoice

# The running totals a character's history draws, survival points first (the solid line).
OVER_TIME = (BY_NAME["survival_points"], BY_NAME["kills_total"])


@login_required
@require_http_methods(["GET", "POST"])
def chapter_settlement(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the preview of every change, or the settlement's progress. POST: confirm."""
    chapter = chapter_get_for_user(request.user, pk, need="manage", with_settlement=True)
    if request.method == "POST":
        settlement_request(actor=request.user, chapter=chapter)
        messages.success(request, _("The settlement is on its way."))
        return redirect("chapter-settlement", pk=pk)
    card = settlement_card(chapter)
    return render(request, "campaigns/settlement/settlement.html", {"card": card})


@login_required
@require_GET
def chapter_settlement_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """The progress region, polled by htmx every second while the task is queued or runs."""
    chapter = chapter_get_for_user(request.user, pk, need="manage", with_settlement=True)
    card = settlement_card(chapter, with_plan=False)
    return render(request, "campaigns/settlement/_progress.html", {"card": card})


@login_required
@require_POST
def chapter_settlement_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk, need="manage")
    settlement_reopen(actor=request.user, chapter=chapter)
    messages.success(request, _("The chapter is reopened: its effects are undone."))
    return redirect("chapter-settlement", pk=pk)


def _leaderboard_page(request: HttpRequest, card) -> HttpResponse:
    chart = charts.bar_chart(
        title=card.score_heading, rows=[(row.name, row.score) for row in card.rows[:15]]
    )
    return render(request, "campaigns/settlement/leaderboard.html", {"card": card, "chart": chart})


@login_required
@require_GET
def campaign_leaderboard(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk)
    return _leaderboard_page(request, campaign_leaderboard_card(campaign))


@login_required
@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    return _leaderboard_page(request, overall_leaderboard_card(request.user))


def _initials(name: str) -> str:
    """ "La Chute de Lyon" -> "LCL " (three letters at most, the capitals first)."""
    words = [w for w in name.split() if w[:1].isupper()] or name.split()
    return "".join(w[0] for w in words[:3]).upper() + " " if words else ""


@login_required
@require_GET
def profile_history(request: HttpRequest, username: str) -> HttpResponse:
    card = history_card(request.user, statistics_player_get_for_user(request.user, username))
    # Each point names its campaign (initials under the axis, in full in its tooltip and in
    # the chart's description) and its chapter.
    labels = [f"{_initials(p.campaign_name)}{p.chapter_number}" for p in card.points]
    titles = [
        _("%(campaign)s, chapter %(number)s: %(title)s")
        % {
            "campaign": isolate_text(p.campaign_name),
            "number": p.chapter_number,
            "title": isolate_text(p.chapter_title),
        }
        for p in card.points
    ]
    over_time = charts.line_chart(
        title=_("Survival points and kills over chapters"),
        labels=labels,
        titles=titles,
        series=[
            (column.label, [getattr(p, column.running) for p in card.points])
            for column in OVER_TIME
        ],
    )
    kills = charts.bar_chart(title=_("Kills by zombie type"), rows=card.kills_by_type)
    return render(
        request,
        "campaigns/settlement/history.html",
        {"card": card, "over_time": over_time, "kills_chart": kills},
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile_death_choice(request: HttpRequest) -> HttpResponse:
    """RULES-NOTES O6: the dead player's choice, zombie or reincarnation."""
    refusal = None
    if request.method == "POST":
        try:
            death_choice_make(actor=request.user, choice=request.POST.get("choice", ""))
        except Refusal as exc:
            refusal = exc.message
        else:
            messages.success(request, _("Your choice is made."))
            return redirect("profile-death-choice")
    profile = getattr(request.user, "otd_profile", None)
    return render(
        request,
        "campaigns/settlement/death_choice.html",
        {
            "profile": profile,
            "pending": profile is not None and profile.status == ProfileStatus.DEAD,
            "choices": [
                (DeathChoice.ZOMBIE, _("Come back as a zombie")),
                (DeathChoice.REINCARNATED, _("Take the reincarnation rule")),
            ],
            "refusal": refusal,
        },
    )
