"""KOLAPS pages: my units and characters, the builder, the unit page, shared and print views,
history with undo, export and import.

Short views: parse with a form, authorise through `kolaps_cards` (owner only; a shared unit
through its link), call one service, render. Without JavaScript a POST redirects back to
the page (or shows the refusal); with htmx it returns the page's region to swap.
"""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.kept import kept_page, theme_of
from characters.kolaps import cards, printing, reads, services, undo
from characters.kolaps import unit_file as kolaps_io
from characters.kolaps.forms import (
    CharacterChangeForm,
    CharacterCreateForm,
    CompareForm,
    ImportForm,
    UndoForm,
    UnitChangeForm,
    UnitCreateForm,
    archetype_options,
    rank_choices,
)
from characters.permissions import Refusal


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return ""


def _opponent_vu(request) -> int | None:
    if "opponent_vu" not in request.GET:
        return None
    form = CompareForm(request.GET)
    return form.cleaned_data["opponent_vu"] if form.is_valid() else None


# --- Lists -----------------------------------------------------------------------------------


@login_required
@require_GET
def kolaps_list(request: HttpRequest) -> HttpResponse:
    return _list_page(request)


def _list_page(request, *, unit_form=None, character_form=None) -> HttpResponse:
    """My units and characters, with the two creation forms (one of them with its errors).
    Kept as sent under a key naming all it shows (`cards.list_page_key`: the player's units'
    and characters' rows, language, theme, path) for `KOLAPS_UNIT_CACHE_SECONDS`: shown
    again unchanged, the page costs one read and neither costing nor rendering. A form's
    errors or messages to show are always rendered afresh."""
    rows = cards.list_rows(request.user)
    seconds = settings.KOLAPS_UNIT_CACHE_SECONDS
    key = None
    to_show = len(get_messages(request))  # counted, not read: they stay to be shown
    plain = not request.META.get("QUERY_STRING")  # another query: rendered, not kept
    if seconds and plain and unit_form is None and character_form is None and not to_show:
        key = cards.list_page_key(rows, request.user.pk, request.path, theme_of(request))

    def render_page(extra: dict) -> str:
        context = {
            "units": rows.units(),
            "characters": rows.characters(),
            "unit_form": UnitCreateForm() if unit_form is None else unit_form,
            "character_form": CharacterCreateForm() if character_form is None else character_form,
        }
        return render_to_string("characters/kolaps/list.html", {**context, **extra}, request)

    return kept_page(request, key, seconds, render_page)


@login_required
@require_POST
def unit_create(request: HttpRequest) -> HttpResponse:
    form = UnitCreateForm(request.POST)
    if form.is_valid():
        try:
            unit = services.unit_create(owner=request.user, name=form.cleaned_data["name"])
        except Refusal as refusal:
            form.add_error("name", str(refusal.message))
        else:
            return redirect("kolaps-unit", pk=unit.pk)
    return _list_page(request, unit_form=form)


@login_required
@require_POST
def character_create(request: HttpRequest) -> HttpResponse:
    form = CharacterCreateForm(request.POST)
    unit = None
    if form.is_valid():
        if form.cleaned_data.get("unit"):
            unit = reads.unit_get_for_user(request.user, form.cleaned_data["unit"])
        try:
            character = services.character_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                archetype=form.cleaned_data["archetype"],
                rank=form.cleaned_data["rank"],
                unit=unit,
            )
        except Refusal as refusal:
            form.add_error(
                refusal.field if refusal.field in form.fields else None, str(refusal.message)
            )
        else:
            return redirect("kolaps-character", pk=character.pk)
    if unit is not None:
        return _unit_page(request, unit, message=_first_error(form), typed=form.data)
    return _list_page(request, character_form=form)


# --- The character builder -------------------------------------------------------------------


def _character_page(request, character, *, message="", status=200) -> HttpResponse:
    template = "characters/kolaps/character.html"
    if request.htmx and request.htmx.target == "character-builder":
        template += "#character-builder"
    return render(
        request,
        template,
        {"character": cards.character_card_for(character), "message": message},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _builder(
        request, "character", pk, CharacterChangeForm, lambda form: form.fields_for_service()
    )


def _builder(request, kind: str, pk: int, form_class, fields_of) -> HttpResponse:
    """The page of a character or a unit (`kind`). POST runs the one operation its form
    names, with the fields `fields_of(form)` gives the service, and answers the page: the
    changed object (a fragment for htmx, else a redirect; a copy is always a redirect to
    it), or the current state with the sentence when the operation is refused or the
    version is stale."""
    obj = reads.GET_FOR_USER[kind](request.user, pk)
    page = PAGES[kind]
    if request.method == "GET":
        return page(request, obj)
    form = form_class(request.POST)
    if not form.is_valid():
        return page(request, obj, message=_first_error(form))
    op, version = form.cleaned_data["op"], form.cleaned_data["version"]
    try:
        fields = fields_of(form)
        if op == "duplicate":
            changed = services.DUPLICATE[kind](actor=request.user, **{kind: obj})
        else:
            changed = services.CHANGE[kind](
                actor=request.user, op=op, version=version, **{kind: obj}, **fields
            )
    except services.StaleVersion as stale:
        return page(request, stale.current, message=str(stale.message))
    except Refusal as refusal:
        obj.refresh_from_db()
        return page(request, obj, message=str(refusal.message))
    if request.htmx and op != "duplicate":
        return page(request, changed)
    return redirect(f"kolaps-{kind}", pk=changed.pk)


@login_required
@require_GET
def character_print(request: HttpRequest, pk: int) -> HttpResponse:
    character = reads.character_get_for_user(request.user, pk)

    def render_page(extra: dict) -> str:
        sheets = printing.sheets_html([cards.character_sheet(character)])
        context = {
            "title": character.name,
            "unit": None,
            "back": reverse("kolaps-character", args=[pk]),
        }
        return printing.page_html(request, context | extra, sheets)

    return kept_page(request, None, 0, render_page)


def _history_page(request: HttpRequest, kind: str, obj) -> HttpResponse:
    """The changes of a character or a unit, newest first; POST undoes the last one."""
    message = ""
    if request.method == "POST":
        form = UndoForm(request.POST)
        try:
            if not form.is_valid():
                raise Refusal(_first_error(form))
            undo.UNDO[kind](actor=request.user, version=form.cleaned_data["version"], **{kind: obj})
        except Refusal as refusal:
            message = str(refusal.message)
        else:
            return redirect(f"kolaps-{kind}-history", pk=obj.pk)
        obj.refresh_from_db()
    return render(
        request,
        "characters/kolaps/history.html",
        {
            "object": obj,
            "back": reverse(f"kolaps-{kind}", args=[obj.pk]),
            "undo_url": reverse(f"kolaps-{kind}-history", args=[obj.pk]),
            "changes": cards.history_for(**{kind: obj}),
            "can_undo": undo.can_undo(obj),
            "message": message,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_history(request: HttpRequest, pk: int) -> HttpResponse:
    return _history_page(request, "character", reads.character_get_for_user(request.user, pk))


# --- The unit page ---------------------------------------------------------------------------


def _unit_page(request, unit, *, message="", typed=None) -> HttpResponse:
    """The unit page. Kept as sent under a key naming all it shows (`cards.unit_page_key`:
    the unit's row, the owner's free characters, language, theme, path) for
    `KOLAPS_UNIT_CACHE_SECONDS`: shown again unchanged, the page costs two small reads
    (the unit, the owner's free characters) and no rendering; its members are read only
    when it is rendered. A page with a refusal, typed values, a comparison or messages to
    show is always rendered afresh."""
    opponent_vu = _opponent_vu(request)
    template = "characters/kolaps/unit.html"
    target = request.htmx.target if request.htmx else None
    target = target if target in ("unit-compare", "unit-body") else None  # a key's variant
    if target:
        template += f"#{target}"
    free = reads.free_characters(request.user.pk)
    seconds = settings.KOLAPS_UNIT_CACHE_SECONDS
    key = None
    to_show = len(get_messages(request))  # counted, not read: they stay to be shown
    plain = not request.META.get("QUERY_STRING")  # another query: rendered, not kept
    if seconds and plain and not message and not typed and opponent_vu is None and not to_show:
        key = cards.unit_page_key(
            "unit", unit, request.user.pk, free, request.build_absolute_uri("/"),
            request.path, target, theme_of(request),
        )  # fmt: skip

    def render_page(extra: dict) -> str:
        card = cards.unit_card(unit, opponent_vu=opponent_vu)
        context = {
            "unit": card,
            # What the new-character form had typed when it was refused: kept, form open.
            "typed": typed or {},
            "free_characters": free,
            "message": message,
            "compare_form": CompareForm(request.GET if opponent_vu is not None else None),
            # Resolved once for the list of members, however long.
            "character_base": reverse("kolaps-character", args=[1])[: -len("1/")],
            "avatar_label": _("Avatar"),
            "make_avatar_label": _("Make Avatar"),
            "remove_label": _("Remove"),
            "archetypes": archetype_options(),
            "ranks": rank_choices(),
            # Plain strings for the list of members: it is the bulk of the page at 30.
            "members": [
                {
                    "id": str(c.id),
                    "name": c.name,
                    "avatar": c.is_avatar,
                    "line": f"{c.archetype_label} · {c.rank_label} · {c.value} PU"
                    f" · {c.pp_spent}/{c.pp_budget} PP",
                }
                for c in card.characters
            ],
            "share_url": request.build_absolute_uri(
                reverse("kolaps-shared", args=[card.share_token])
            )
            if card.share_token
            else "",
        }
        return render_to_string(template, {**context, **extra}, request)

    return kept_page(request, key, seconds, render_page)


# The page a change answers with, by kind.
PAGES = {"character": _character_page, "unit": _unit_page}


@login_required
@require_http_methods(["GET", "POST"])
def unit_page(request: HttpRequest, pk: int) -> HttpResponse:
    def fields_of(form) -> dict:
        """`character` is one of yours, by id."""
        character = form.cleaned_data.get("character")
        if character:
            try:
                character = reads.character_get_for_user(request.user, character)
            except Http404:
                raise Refusal(_("Choose one of your characters.")) from None
        return {"character": character or None, "name": form.cleaned_data.get("name") or ""}

    if request.method == "GET":
        return _unit_page(request, reads.unit_get_for_user(request.user, pk))
    return _builder(request, "unit", pk, UnitChangeForm, fields_of)


def _print_page(request, unit, *, back: str) -> HttpResponse:
    """A unit's print sheets, kept as sent under a key naming all they show (the unit's row,
    the language, the link back) for `KOLAPS_SHEET_CACHE_SECONDS`: its members are read only
    when it is rendered; when something changed, each member's sheet still comes from the
    cache unless it changed itself (`printing.sheets_html`)."""
    seconds = settings.KOLAPS_SHEET_CACHE_SECONDS
    key = cards.unit_page_key("print", unit, back) if seconds else None

    def render_page(extra: dict) -> str:
        card, sheets = cards.unit_print_card(unit)
        context = {"title": card.name, "unit": card, "members": printing.summary(card)}
        sheets_html = printing.sheets_html(sheets)
        return printing.page_html(request, context | {"back": back} | extra, sheets_html)

    return kept_page(request, key, seconds, render_page)


@login_required
@require_GET
def unit_print(request: HttpRequest, pk: int) -> HttpResponse:
    unit = reads.unit_get_for_user(request.user, pk)
    return _print_page(request, unit, back=reverse("kolaps-unit", args=[pk]))


@login_required
@require_http_methods(["GET", "POST"])
def unit_history(request: HttpRequest, pk: int) -> HttpResponse:
    return _history_page(request, "unit", reads.unit_get_for_user(request.user, pk))


@login_required
@require_GET
def unit_export(request: HttpRequest, pk: int) -> HttpResponse:
    unit = reads.unit_get_for_user(request.user, pk)
    response = HttpResponse(
        kolaps_io.unit_export_text(unit), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="kolaps-unit-{unit.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def unit_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            unit = kolaps_io.unit_import(owner=request.user, text=form.content())
        except Refusal as refusal:
            form.add_error(None, str(refusal.message))
        else:
            return redirect("kolaps-unit", pk=unit.pk)
    return render(request, "characters/kolaps/import.html", {"form": form})


# --- Shared by link (read-only, anyone with the link) ----------------------------------------


@require_GET
def shared_unit(request: HttpRequest, token: str) -> HttpResponse:
    unit = reads.unit_for_token(token)
    card = cards.unit_card(unit, opponent_vu=_opponent_vu(request))
    template = "characters/kolaps/shared.html"
    if request.htmx and request.htmx.target == "unit-compare":
        template += "#unit-compare"
    return render(
        request,
        template,
        {"unit": card, "token": token, "compare_form": CompareForm(request.GET or None)},
    )


@require_GET
def shared_print(request: HttpRequest, token: str) -> HttpResponse:
    unit = reads.unit_for_token(token)
    back = reverse("kolaps-shared", args=[token])
    return _print_page(request, unit, back=back)
