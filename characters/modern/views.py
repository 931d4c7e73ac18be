"""The pages of modern RPG characters: the list with the creation form checked as you choose
(htmx asks the `sheet-check` partial), the sheet and its change form, its history, its print
sheet and its export. Each calls the fetch-and-authorise helper and one service."""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from characters.modern.cards import modern_character_get_for_user, sheet_card, sheet_export
from characters.modern.forms import SheetForm
from characters.modern.models import ModernCharacter
from characters.modern.services import (
    modern_character_create,
    modern_character_update,
    problem_sentence,
    sheet_check,
)
from characters.rosters.views import sheet_saved

PAGES = "characters/modern"


def _live_check(form: SheetForm, character: ModernCharacter | None = None) -> dict:
    """The creation check of what is chosen so far (totals and sentences), with the XP the
    character was awarded since its creation."""
    if not form.is_bound or not form.is_valid():
        return {}
    awards = character.xp_awards if character is not None else {}
    check = sheet_check({**form.sheet(), "xp_awards": awards})
    return {"check": check, "check_notes": [problem_sentence(p) for p in check.problems]}


@login_required
@require_http_methods(["GET", "POST"])
def modern_list(request: HttpRequest) -> HttpResponse:
    """Your characters, and the form of a new one checked as you build it."""
    if request.method == "POST":
        form = SheetForm(request.POST)
        created = sheet_saved(
            form, lambda **sheet: modern_character_create(owner=request.user, **sheet)
        )
        if created is not None:
            return redirect("modern-character", pk=created.pk)
    else:
        form = SheetForm(request.GET or None)
    context = {
        "form": form,
        "characters": ModernCharacter.objects.owned_by(request.user),
        **_live_check(form),
    }
    template = f"{PAGES}/list.html"
    if request.htmx and request.htmx.target == "sheet-check":
        template += "#sheet-check"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def modern_character(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet; POST changes it (the version shown travels with the form)."""
    character = modern_character_get_for_user(request.user, pk, need="view")
    if request.method == "POST":
        character = modern_character_get_for_user(request.user, pk, need="edit")
        form = SheetForm(request.POST)
        changed = sheet_saved(
            form,
            lambda **sheet: modern_character_update(
                actor=request.user,
                character=character,
                version=form.cleaned_data.get("version") or 0,
                **sheet,
            ),
        )
        if changed is not None:
            return redirect("modern-character", pk=changed.pk)
    else:
        form = SheetForm(initial=SheetForm.initial_for(character))
    return render(
        request,
        f"{PAGES}/sheet.html",
        {"card": sheet_card(character), "form": form, **_live_check(form, character)},
    )


@login_required
@require_GET
def modern_character_history(request: HttpRequest, pk: int) -> HttpResponse:
    character = modern_character_get_for_user(request.user, pk, need="view")
    return render(
        request,
        f"{PAGES}/history.html",
        {"character": character, "events": character.events.select_related("actor")},
    )


@login_required
@require_GET
def modern_character_print(request: HttpRequest, pk: int) -> HttpResponse:
    character = modern_character_get_for_user(request.user, pk, need="view")
    return render(request, f"{PAGES}/print.html", {"card": sheet_card(character)})


@login_required
@require_GET
def modern_character_export(request: HttpRequest, pk: int) -> HttpResponse:
    character = modern_character_get_for_user(request.user, pk, need="view")
    response = HttpResponse(
        json.dumps(sheet_export(character), ensure_ascii=False, indent=2),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="modern-character-{character.pk}.json"'
    return response
