"""The pages of Corporates characters: the list with the creation form, the sheet and its
change form, its history with the undo, and its print sheet. Each calls the
fetch-and-authorise helper and one service."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.corporates.cards import (
    corporates_character_get_for_user,
    event_changes,
    sheet_card,
)
from characters.corporates.forms import SheetForm
from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import (
    corporates_character_create,
    corporates_character_undo,
    corporates_character_update,
)
from characters.permissions import Refusal
from characters.rosters.views import sheet_saved

PAGES = "characters/corporates"


@login_required
@require_http_methods(["GET", "POST"])
def corporates_list(request: HttpRequest) -> HttpResponse:
    """Your characters, and the form of a new one (the catalogue's numbers to start from)."""
    form = SheetForm()
    if request.method == "POST":
        form = SheetForm(request.POST)
        created = sheet_saved(
            form, lambda **sheet: corporates_character_create(owner=request.user, **sheet)
        )
        if created is not None:
            return redirect("corporates-character", pk=created.pk)
    context = {"form": form, "characters": CorporatesCharacter.objects.owned_by(request.user)}
    status = 400 if form.is_bound else 200
    return render(request, f"{PAGES}/list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def corporates_character(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet; POST changes it (the version shown travels with the form)."""
    character = corporates_character_get_for_user(request.user, pk, need="view")
    if request.method == "POST":
        character = corporates_character_get_for_user(request.user, pk, need="edit")
        form = SheetForm(request.POST)
        changed = sheet_saved(form, _update(request, form, character))
        if changed is not None:
            return redirect("corporates-character", pk=changed.pk)
        character.refresh_from_db()
    else:
        form = SheetForm(initial=SheetForm.initial_for(character))
    status = 400 if form.is_bound else 200
    return render(
        request, f"{PAGES}/sheet.html", {"card": sheet_card(character), "form": form}, status=status
    )


def _update(request, form, character):
    return lambda **sheet: corporates_character_update(
        actor=request.user,
        character=character,
        version=form.cleaned_data.get("version") or 0,
        **sheet,
    )


@login_required
@require_GET
def corporates_character_history(request: HttpRequest, pk: int) -> HttpResponse:
    character = corporates_character_get_for_user(request.user, pk, need="view")
    events = list(character.events.select_related("actor", "undone_by"))
    for event in events:
        event.changes = event_changes(event)
    return render(
        request,
        f"{PAGES}/history.html",
        {"card": sheet_card(character, can_undo=_undoable(events)), "events": events},
    )


def _undoable(events) -> bool:
    """Whether a change still stands to be undone, from the rows the page already has."""
    for event in events:
        if event.before is not None and event.undoes_id is None and not hasattr(event, "undone_by"):
            return True
    return False


@login_required
@require_POST
def corporates_character_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the latest change still standing; a stale page or nothing left to undo is a
    message on the history page."""
    character = corporates_character_get_for_user(request.user, pk, need="edit")
    version = request.POST.get("version", "")
    try:
        corporates_character_undo(
            actor=request.user,
            character=character,
            version=int(version) if version.isdigit() else -1,
        )
    except Refusal as refusal:
        messages.error(request, str(refusal.message))
    else:
        messages.success(request, _("The latest change is undone."))
    return redirect("corporates-character-history", pk=character.pk)


@login_required
@require_GET
def corporates_character_print(request: HttpRequest, pk: int) -> HttpResponse:
    character = corporates_character_get_for_user(request.user, pk, need="view")
    return render(request, f"{PAGES}/print.html", {"card": sheet_card(character, can_undo=False)})
