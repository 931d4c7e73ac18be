"""Rapid 40000 pages: my armies, the builder, print, history with undo, export and import,
the comparison of two lists and the shared list.

Short views: fetch and authorise through `cards` (the owner only; a shared list through
its link), read the post with `forms`, call one service, render. Without JavaScript a POST
redirects back to the page (or shows the refusal with what was typed); with htmx it
returns the builder's region (`army-body`) with the new points.
"""

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.permissions import Refusal
from characters.rapid40k import cards, services
from characters.rapid40k.forms import (
    CUSTOM,
    ArmyCreateForm,
    CompareForm,
    ImportForm,
    change_data,
    faction_choices,
    profile_choices,
)
from rules.engine.systems.rapid40k.catalogue import load_catalogue

VERB_LABELS = {
    "created": gettext_lazy("created"),
    "imported": gettext_lazy("imported"),
    "settings": gettext_lazy("name, army or limit changed"),
    "squad_add": gettext_lazy("squad added"),
    "squad_edit": gettext_lazy("squad changed"),
    "squad_remove": gettext_lazy("squad removed"),
    "fighter_add": gettext_lazy("fighters added"),
    "fighter_count": gettext_lazy("number of fighters changed"),
    "undo": gettext_lazy("undone"),
    "shared": gettext_lazy("shared by link"),
    "unshared": gettext_lazy("link withdrawn"),
    "entered": gettext_lazy("entered in a chapter"),
}


def _builder_context(card, typed=None) -> dict:
    cat = load_catalogue(card.catalogue_version)
    return {
        "army": card,
        "typed": typed or {},
        "profiles": profile_choices(card.faction),
        "custom": CUSTOM,
        "factions": faction_choices(),
        "slots": [(s.slug, s.label) for s in cat.structure.slots.values()],
        "vehicles": [(s, v.label) for s, v in cat.vehicles.items()],
        "weapons": [(s, w.label) for s, w in cat.weapons.items()],
        "rules": [(s, r.label) for s, r in cat.special_rules.items()],
        "quality_range": range(cat.quality_range[0], cat.quality_range[1] + 1),
    }


def _change_label(change) -> str:
    label = str(VERB_LABELS.get(change.verb, change.verb))
    if change.verb == "undo" and change.undoes_verb:
        undone = VERB_LABELS.get(change.undoes_verb, change.undoes_verb)
        return _("undone: %(change)s") % {"change": undone}
    return label


@login_required
@require_GET
def army_list(request: HttpRequest) -> HttpResponse:
    return _list_page(request, ArmyCreateForm())


def _list_page(request, form) -> HttpResponse:
    armies = cards.armies_for(request.user)
    return render(
        request,
        "characters/rapid40k/list.html",
        {"armies": armies, "form": form, "compare_form": CompareForm(armies)},
    )


@login_required
@require_POST
def army_create(request: HttpRequest) -> HttpResponse:
    form = ArmyCreateForm(request.POST)
    if form.is_valid():
        try:
            army = services.army_create(owner=request.user, **form.cleaned_data)
        except Refusal as refusal:
            form.add_error(form.fields.get(refusal.field) and refusal.field, str(refusal.message))
        else:
            return redirect("rapid40k-army", pk=army.pk)
    return _list_page(request, form)


def _army_page(request, army, *, message="", typed=None, status=200) -> HttpResponse:
    template = "characters/rapid40k/army.html"
    if request.htmx and request.htmx.target == "army-body":
        template += "#army-body"
    context = _builder_context(cards.army_card(army), typed)
    context["message"] = message
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def army_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the builder. POST: one change (`action`), the share link, or a refusal shown
    with what was typed."""
    army = cards.army_get_for_user(request.user, pk, need="edit")
    if request.method == "GET":
        return _army_page(request, army)
    action = request.POST.get("action", "")
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    try:
        if action in ("share", "unshare"):
            army = services.army_share(
                actor=request.user, army=army, version=version, shared=action == "share"
            )
        else:
            if action == "fighter_add" and request.POST.get("as_leader"):
                action = "squad_edit"
                data = change_data("fighter_add", request.POST)
                data = {"squad": data["squad"], "leader": data["profile"]}
            else:
                data = change_data(action, request.POST)
            army = services.army_change(
                actor=request.user, army=army, version=version, action=action, data=data
            )
    except services.StaleVersion as stale:
        return _army_page(request, stale.current, message=str(stale.message), typed=request.POST)
    except Refusal as refusal:
        army.refresh_from_db()
        return _army_page(request, army, message=str(refusal.message), typed=request.POST)
    if request.htmx:
        return _army_page(request, army)
    return redirect("rapid40k-army", pk=army.pk)


@login_required
@require_GET
def army_print(request: HttpRequest, pk: int) -> HttpResponse:
    army = cards.army_get_for_user(request.user, pk)
    return render(request, "characters/rapid40k/print.html", {"army": cards.army_card(army)})


@login_required
@require_http_methods(["GET", "POST"])
def army_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The changes, newest first; POST takes the last one back."""
    army = cards.army_get_for_user(request.user, pk, need="edit")
    message = ""
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = None
        try:
            services.army_undo(actor=request.user, army=army, version=version)
        except Refusal as refusal:
            message = str(refusal.message)
        else:
            return redirect("rapid40k-army-history", pk=army.pk)
        army.refresh_from_db()
    changes = [(c, _change_label(c)) for c in cards.history_of(army)]
    return render(
        request,
        "characters/rapid40k/history.html",
        {"army": army, "changes": changes, "message": message},
    )


@login_required
@require_GET
def army_export(request: HttpRequest, pk: int) -> HttpResponse:
    army = cards.army_get_for_user(request.user, pk)
    text = json.dumps(services.army_export(army), ensure_ascii=False, indent=2)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rapid40k-army-{army.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def army_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("file")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        # One byte more than the limit at most: enough to know the file is too large.
        raw = upload.read(limit + 1) if upload else form.cleaned_data["text"]
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        try:
            if len(raw) > limit:
                raise Refusal(
                    _("This file is too large: an army file may weigh up to %(size)s KB.")
                    % {"size": limit // 1024},
                    field="file",
                )
            try:
                payload = json.loads(text)
            except ValueError:
                raise Refusal(_("This is not a Rapid 40000 army file."), field="file") from None
            army = services.army_import(owner=request.user, payload=payload)
        except Refusal as refusal:
            form.add_error(None, str(refusal.message))
        else:
            return redirect("rapid40k-army", pk=army.pk)
    return render(request, "characters/rapid40k/import.html", {"form": form})


@login_required
@require_GET
def army_compare(request: HttpRequest) -> HttpResponse:
    """Two of my lists side by side, and whether they are balanced."""
    armies = cards.armies_for(request.user)
    form = CompareForm(armies, request.GET or None)
    comparison = None
    if form.is_bound and form.is_valid():
        a = cards.army_get_for_user(request.user, form.cleaned_data["a"])
        b = cards.army_get_for_user(request.user, form.cleaned_data["b"])
        comparison = cards.comparison_card(a, b)
    return render(
        request,
        "characters/rapid40k/compare.html",
        {"form": form, "comparison": comparison},
    )


@require_GET
def army_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A list anyone with the link reads (and prints), signed in or not."""
    army = cards.army_get_shared(token)
    return render(
        request, "characters/rapid40k/print.html", {"army": cards.army_card(army), "shared": True}
    )
