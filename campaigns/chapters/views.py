"""Pages to run a campaign of chapters: create and edit, invitations, members, chapters,
votes, vocations, the close, upcoming chapters and the iCalendar feed.

Short views: parse, check with the campaign's permission helper, call one service, render.
A `Refusal` escaping a view becomes the refusal page (config.middleware).
"""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services
from campaigns.chapters import entries
from campaigns.chapters import services as chapter_services
from campaigns.chapters.calendar import calendar_for_token
from campaigns.chapters.cards import chapter_card, close_card, sheet_card, upcoming_for
from campaigns.chapters.forms import (
    ArmyEntryForm,
    ChapterForm,
    CloseForm,
    EntryForm,
    NextChapterBallotForm,
    SheetEntryForm,
    UnitEntryForm,
    VocationBallotForm,
    VocationForm,
    VoteClosingForm,
    VoteOpenForm,
)
from campaigns.models import CalendarFeed, VoteKind
from campaigns.selectors import (
    campaign_get_for_user,
    chapter_entry_get,
    chapter_get_for_user,
    vote_get_for_user,
)
from campaigns.votes import services as vote_services
from campaigns.votes.cards import vote_card
from characters.permissions import Forbidden, Refusal

# --- Chapters ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def chapter_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    form = ChapterForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        chapter = form.save(request.user, campaign)
        if chapter is not None:
            messages.success(request, _("The chapter is planned."))
            return redirect("chapter-detail", chapter.pk)
    return render(
        request,
        "campaigns/chapters/chapter_form.html",
        {"form": form, "campaign": campaign, "chapter": None},
    )


@login_required
@require_GET
def chapter_detail(request: HttpRequest, pk: int) -> HttpResponse:
    card = chapter_card(request.user, chapter_get_for_user(request.user, pk))
    template = "campaigns/chapters/chapter_detail.html"
    if request.htmx and request.htmx.target in (
        "chapter-vocations",
        "chapter-units",
        "chapter-armies",
        "chapter-sheets",
    ):
        template += "#" + request.htmx.target
    return render(
        request,
        template,
        {
            "chapter": card,
            "vocation_form": (
                VocationForm(card=card) if card.uses_profiles and not card.is_closed else None
            ),
            **{page.form_name: _entry_form(page, card) for page in ENTRY_PAGES.values()},
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def chapter_edit(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk, need="manage")
    if request.method == "POST":
        form = ChapterForm(request.POST, chapter=chapter)
        if form.is_valid() and form.save(request.user) is not None:
            messages.success(request, _("The chapter is saved."))
            return redirect("chapter-detail", pk)
    else:
        form = ChapterForm(chapter=chapter, initial=ChapterForm.initial_for(chapter))
    return render(
        request,
        "campaigns/chapters/chapter_form.html",
        {"form": form, "campaign": chapter.campaign, "chapter": chapter},
    )


@login_required
@require_POST
def chapter_vocation(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk)
    card = chapter_card(request.user, chapter)
    if request.POST.get("action") == "release":
        chapter_services.vocation_release(actor=request.user, chapter=chapter, player=request.user)
        form = VocationForm(card=card)
    else:
        form = VocationForm(request.POST, card=card)
        if form.is_valid():
            form.save(request.user, chapter)
    if request.htmx:
        card = chapter_card(request.user, chapter)
        return render(
            request,
            "campaigns/chapters/chapter_detail.html#chapter-vocations",
            {"chapter": card, "vocation_form": form if form.errors else VocationForm(card=card)},
        )
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
    return redirect("chapter-detail", pk)


@dataclass(frozen=True)
class EntryPage:
    """Where the chapter page shows one kind of roster entered (`campaigns.chapters.entries`):
    its partial, its form and the name the template knows it by, and what it tells the
    player once done."""

    form: type[EntryForm]
    partial: str
    form_name: str
    entered: str
    withdrawn: str


ENTRY_PAGES = {
    "unit": EntryPage(
        UnitEntryForm,
        "chapter-units",
        "unit_form",
        gettext_lazy("Your unit is entered into the chapter."),
        gettext_lazy("The unit is withdrawn from the chapter."),
    ),
    "army": EntryPage(
        ArmyEntryForm,
        "chapter-armies",
        "army_form",
        gettext_lazy("Your army is entered into the chapter."),
        gettext_lazy("The army is withdrawn from the chapter."),
    ),
    "character": EntryPage(
        SheetEntryForm,
        "chapter-sheets",
        "sheet_form",
        gettext_lazy("Your character is entered into the chapter."),
        gettext_lazy("The character is withdrawn from the chapter."),
    ),
}


def _entry_form(page: EntryPage, card, data=None) -> EntryForm | None:
    if not card.can_enter_kind(page.form.kind):
        return None
    return page.form(data, card=card)


def _entries_answer(request, chapter, page: EntryPage, form=None) -> HttpResponse:
    """The roster's section again (htmx), or back to the chapter page with the form's
    errors as messages."""
    if request.htmx:
        card = chapter_card(request.user, chapter)
        if form is None or not form.errors:
            form = _entry_form(page, card)
        return render(
            request,
            f"campaigns/chapters/chapter_detail.html#{page.partial}",
            {"chapter": card, page.form_name: form},
        )
    for errors in form.errors.values() if form is not None else ():
        for error in errors:
            messages.error(request, error)
    return redirect("chapter-detail", chapter.pk)


@login_required
@require_POST
def chapter_entry_enter(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """A player enters one of their rosters (`kind`: "unit", "army") into a chapter."""
    page = ENTRY_PAGES[kind]
    chapter = chapter_get_for_user(request.user, pk)
    card = chapter_card(request.user, chapter)
    if not card.is_player:
        raise Forbidden(str(page.form.kind.words.not_player))
    form = page.form(request.POST, card=card)
    if form.is_valid() and form.save(request.user, chapter) is not None and not request.htmx:
        messages.success(request, page.entered)
    return _entries_answer(request, chapter, page, form)


@login_required
@require_POST
def chapter_entry_withdraw(request: HttpRequest, pk: int, kind: str, **roster: int) -> HttpResponse:
    """Withdraw a roster from a chapter; the URL names its id by the kind (`unit`, `army`)."""
    page = ENTRY_PAGES[kind]
    chapter = chapter_get_for_user(request.user, pk)
    entry_kind = page.form.kind_of(chapter.campaign.system)
    entered = chapter_entry_get(chapter, entry_kind, roster[kind])
    entries.chapter_entry_withdraw(
        actor=request.user, chapter=chapter, kind=entry_kind, roster=entered
    )
    if not request.htmx:
        messages.success(request, page.withdrawn)
    return _entries_answer(request, chapter, page)


@login_required
@require_POST
def chapter_start(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk)
    chapter_services.chapter_start(actor=request.user, chapter=chapter)
    messages.success(request, _("The chapter is being played."))
    return redirect("chapter-detail", pk)


@login_required
@require_http_methods(["GET", "POST"])
def chapter_close(request: HttpRequest, pk: int) -> HttpResponse:
    chapter = chapter_get_for_user(request.user, pk)
    card = close_card(request.user, chapter)
    if not card.can_manage:
        raise Forbidden(_("Only the campaign's organisers close a chapter."))
    if card.is_closed:
        return redirect("chapter-detail", pk)
    form = CloseForm(request.POST or None, card=card)
    if (
        request.method == "POST"
        and form.is_valid()
        and form.save(request.user, chapter) is not None
    ):
        messages.success(
            request,
            _("The chapter is closed. Here is every change its settlement makes: confirm it."),
        )
        return redirect("chapter-settlement", pk)
    return render(
        request,
        "campaigns/chapters/chapter_close.html",
        {
            "chapter": card,
            "form": form,
            "settles": _(card.close.settles),
            "value_word": _(card.words.value) if card.words.value else "",
        },
    )


# --- Votes --------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def vote_open(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    form = VoteOpenForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        vote = form.save(request.user)
        if vote is not None:
            messages.success(request, _("The vote is open."))
            return redirect("vote-detail", vote.pk)
    return render(
        request, "campaigns/chapters/vote_open.html", {"form": form, "campaign": campaign}
    )


def _ballot_form(card, data=None):
    if card.kind == VoteKind.NEXT_CHAPTER:
        return NextChapterBallotForm(data, card=card)
    return VocationBallotForm(data, card=card)


@login_required
@require_http_methods(["GET", "POST"])
def vote_detail(request: HttpRequest, pk: int) -> HttpResponse:
    vote = vote_get_for_user(request.user, pk)
    card = vote_card(request.user, vote)
    form = _ballot_form(card) if card.can_vote else None
    if request.method == "POST":
        if not card.is_open:
            raise Refusal(_("This vote is closed."))
        if not card.can_vote:
            raise Forbidden(_("Only the campaign's players vote."))
        form = _ballot_form(card, request.POST)
        if form.is_valid() and form.save(request.user, vote) is not None:
            messages.success(
                request, _("Your ballot is saved; you may change it until the vote closes.")
            )
            return redirect("vote-detail", pk)
    return _vote_page(request, card, form)


def _vote_page(request, card, form, closing_form=None) -> HttpResponse:
    if closing_form is None and card.can_manage and card.is_open:
        closing_form = VoteClosingForm(initial={"closes_at": card.closes_at})
    return render(
        request,
        "campaigns/chapters/vote_detail.html",
        {"vote": card, "form": form, "closing_form": closing_form},
    )


@login_required
@require_POST
def vote_closing(request: HttpRequest, pk: int) -> HttpResponse:
    """Organisers set, move or remove the date the vote closes itself."""
    vote = vote_get_for_user(request.user, pk, need="manage")
    form = VoteClosingForm(request.POST)
    if form.is_valid() and form.save(request.user, vote) is not None:
        messages.success(
            request,
            _("The vote closes itself on the date set.")
            if form.cleaned_data.get("closes_at")
            else _("The vote has no closing date: close it yourself."),
        )
        return redirect("vote-detail", pk)
    card = vote_card(request.user, vote)
    return _vote_page(request, card, _ballot_form(card) if card.can_vote else None, form)


@login_required
@require_POST
def vote_close(request: HttpRequest, pk: int) -> HttpResponse:
    vote = vote_get_for_user(request.user, pk)
    vote_services.vote_close(actor=request.user, vote=vote)
    messages.success(request, _("The vote is closed; its result is kept."))
    return redirect("vote-detail", pk)


# --- Upcoming chapters and the calendar ------------------------------------------------------


@login_required
@require_GET
def upcoming(request: HttpRequest) -> HttpResponse:
    feed = CalendarFeed.objects.filter(player=request.user).first()
    return render(
        request,
        "campaigns/chapters/upcoming.html",
        {"chapters": upcoming_for(request.user), "feed": feed},
    )


@login_required
@require_POST
def calendar_token(request: HttpRequest) -> HttpResponse:
    services.calendar_feed_token(player=request.user, rotate=True)
    messages.success(request, _("Your calendar address is new; the old one no longer works."))
    return redirect("chapter-upcoming")


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    body = calendar_for_token(token, host=request.get_host(), scheme=request.scheme)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="chronique.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
@require_GET
def profile_sheet(request: HttpRequest) -> HttpResponse:
    sheet = sheet_card(request.user)
    if sheet is None:
        return redirect("profile-mine")
    return render(request, "campaigns/chapters/profile_sheet.html", {"sheet": sheet})
