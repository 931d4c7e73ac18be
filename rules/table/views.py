"""The table's pages: the encounter log of a chapter (record a roll while it is being
played), and the live encounter (its page, the spectator's screen, the odds of an action, and
one view per write: act, undo, directive, reveal, next phase, end; a pick-up game and a
chapter's encounter to open). htmx swaps the parts; every page works without JavaScript, and
the live script (static/js/table-live.js) swaps the state when another device changed it."""

import functools
import hashlib
import re
from functools import wraps
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone, localtime
from django.utils.translation import get_language, gettext_noop, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.selectors import chapter_get_for_user
from characters.corporates.models import CorporatesCharacter
from characters.kept import PLAYER_NAMES, fragment_key, kept_page, theme_of
from characters.kolaps.models import KolapsUnit
from characters.permissions import Forbidden, Refusal
from characters.rapid40k.models import Rapid40kArmy
from characters.widgets import RENDERER
from rules.engine.systems.kolaps.consequences import WOUNDS
from rules.labels import rank_label, weapon_label
from rules.table.cards import DIRECTIVE_LABELS, encounter_card, table_card
from rules.table.forms import (
    EncounterRollForm,
    TableActionForm,
    TableAddForm,
    TableArmiesForm,
    TableQuickForm,
    TableQuickPartyForm,
    TableStandaloneForm,
    TableStrayForm,
)
from rules.table.idempotency import write_key, write_once
from rules.table.models import Encounter
from rules.table.selectors import (
    encounter_get_by_token,
    encounter_get_for_user,
    encounters_pickup_of,
)
from rules.table.services import (
    encounter_act,
    encounter_add_combatants,
    encounter_advance,
    encounter_choose_stray,
    encounter_create_armies,
    encounter_create_for_chapter,
    encounter_create_quick,
    encounter_create_quick_party,
    encounter_create_standalone,
    encounter_end,
    encounter_odds,
    encounter_reveal,
    encounter_revoke_spectator_link,
    encounter_rotate_spectator_link,
    encounter_set_directive,
    encounter_undo,
)
from rules.table.systems import adapter_for
from rules.templatetags.outcomes import row_label


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


# --- The live encounter -----------------------------------------------------------------------


def _wounds() -> list[tuple[str, str]]:
    return [(slug, row_label(slug)) for slug in WOUNDS]


def _weapons(card) -> list[tuple[str, str]]:
    slugs = dict.fromkeys(w for c in card.mine for w in c.weapons)
    return [(slug, weapon_label(slug)) for slug in slugs]


# The page's log: its last lines, the older ones behind the "full log" link (`?log=all`). A
# table played all evening holds hundreds of lines, and phones poll the page.
LOG_WINDOW = 30
_WRITES = (
    "directive",
    "reveal",
    "undo",
    "advance",
    "act",
    "odds",
    "stray",
    "add",
    "end",
    "link-revoke",
    "link-rotate",
)


def _full_log(request) -> bool:
    """Whether the page asks for the full log: `?log=all`, or a write or refresh that htmx
    sends from a page showing it (its `HX-Current-URL`)."""
    if request.GET.get("log") == "all":
        return True
    current = request.htmx.current_url if request.htmx else None
    if not current:
        return False
    try:
        query = urlsplit(current).query
    except ValueError:  # the header is the client's: "http://[oops/" is not a URL
        return False
    return parse_qs(query).get("log") == ["all"]


FULL_LOG_QUERY = "?log=all"


def _page_after_write(request, encounter) -> HttpResponse:
    """Without JavaScript, a write goes back to the page it was made from: the full log
    stays the full log (the page's forms post to `...?log=all`, the one value read)."""
    url = reverse("table-encounter", args=[encounter.pk])
    return redirect(url + FULL_LOG_QUERY if request.GET.get("log") == "all" else url)


def log_html(card) -> SafeString:
    """The card's log as the page draws it: its Jinja2 partial
    (templates/jinja2/rules/table/_log.html), escaped as it goes; drawn through Django's
    template language, a window of thirty lines cost the page more than its cards and its
    action form together. Its words are translated here (gettext: extracted as the rest)."""
    template = RENDERER.engine.env.get_template("rules/table/_log.html")
    words = {"turn_label": _("Turn %(turn)s"), "undone": _("undone")}
    # Each line's time in the viewer's zone (the lines' times are aware, as the database's).
    local = functools.partial(localtime, timezone=get_current_timezone())
    return mark_safe(template.render(card=card, local=local, **words))  # autoescaped


@functools.cache
def _figure_words(language: str | None) -> dict[str, str]:
    """The words of the sides and their figures (templates/jinja2/rules/table/_sides.html
    and systems/), in `language`, the active one (translated once per language)."""
    return {
        "attacker": _("attacker"),
        "avatar": _("Avatar"),
        "sante": _("Santé"),
        "souffle": _("Souffle"),
        "moral": _("Moral"),
        "life": _("Life"),
        "kills": _("Kills"),
        "dead": _("dead"),
        "unconscious": _("unconscious"),
        "out_of_action": _("out of action"),
        "on_the_ground": _("on the ground"),
        "order_hidden": _("order hidden"),
        "order": _("order"),
        "colon": pgettext("label colon", ":"),
        "hidden": pgettext("order directive", "hidden"),
        "order_field": _("Order"),
        "give_the_order": _("Give the order"),
        "reveal_the_order": _("Reveal the order"),
    }


def _wounds_text(count: int) -> str:
    return ngettext("%(wounds)s wound", "%(wounds)s wounds", count) % {"wounds": count}


def _table_context(
    request, encounter, *, form=None, message: str = "", spectator=False, add_form=None
):
    window = None if _full_log(request) else LOG_WINDOW
    # A write from the full log keeps it (its answer, or the page it redirects to).
    keep = FULL_LOG_QUERY if window is None else ""
    card = table_card(request.user, encounter, spectator=spectator, log_window=window)
    adds = adapter_for(card.system).ADDS_COMBATANTS
    if add_form is None and card.can_manage and card.is_live and adds:
        add_form = TableAddForm(prefix="add", initial={"version": card.version})
    if add_form is not None and add_form.is_bound:
        add_form.data = add_form.data.copy()
        add_form.data["add-version"] = str(card.version)
    if form is None and card.can_act:
        form = TableActionForm(
            card=card,
            wounds=_wounds(),
            weapons=_weapons(card),
            initial={
                "version": card.version,
                "roll": "server",
                "distance_cm": 20,
                "cover": 0,
                "move": "normal",
                "range": "useful",
                "otd_cover": "none",
                **adapter_for(card.system).FORM_INITIAL,
            },
        )
    if form is not None:
        form.data = form.data.copy() if form.is_bound else form.data
        if form.is_bound:
            form.data["version"] = str(card.version)
    return {
        "card": card,
        "log_html": log_html(card),
        # The page's forms' addresses, reversed once (a form per figure used to reverse its own).
        "urls": {
            name.replace("-", "_"): reverse(f"table-{name}", args=[encounter.pk]) + keep
            for name in _WRITES
        },
        "form": form,
        "message": message,
        "spectator": spectator,
        "add_form": add_form,
        # Translated once, not for each figure that draws them.
        "directives": [(slug, str(label)) for slug, label in DIRECTIVE_LABELS.items()],
        # The figures' templates' words and helpers (Jinja2: `{% jinja %}`).
        "words": _figure_words(get_language()),
        "wounds_text": _wounds_text,
        "rank_label": rank_label,
        "full_log": window is None,
        # Older lines left out (the encounter's first line, at version 1, among them).
        "log_hidden": window is not None and card.version > window,
        "full_log_url": (
            reverse("table-watch", args=[encounter.spectator_token])
            if spectator
            else reverse("table-encounter", args=[encounter.pk])
        )
        + FULL_LOG_QUERY,
        "ws_path": (
            f"/ws/table/watch/{encounter.spectator_token}/"
            if spectator
            else f"/ws/table/{encounter.pk}/"
        ),
    }


def _render_table(request, context, status: int = 200) -> HttpResponse:
    template = "rules/table/table.html"
    target = request.htmx.target if request.htmx else None
    if target in ("table-state", "table-main"):
        template += f"#{target}"
        status = 200  # htmx swaps only what it is given
    return render(request, template, context, status=status)


def _after_write(request, encounter) -> HttpResponse:
    if not request.htmx:
        return _page_after_write(request, encounter)
    encounter.refresh_from_db()
    return _render_table(request, _table_context(request, encounter))


def _refused(request, encounter, refusal: Refusal, form=None) -> HttpResponse:
    if isinstance(refusal, Forbidden):
        raise refusal
    encounter.refresh_from_db()
    context = _table_context(request, encounter, form=form, message=str(refusal.message))
    return _render_table(request, context, status=refusal.status)


def _once(view):
    """A page's write acts once per idempotency key (rules.table.idempotency): the live
    script gives each form a key when it is drawn, so a double tap or a form sent again after
    a timeout, or from the offline queue, acts once; the same key again answers the table as
    it stands."""

    @wraps(view)
    def keyed(request: HttpRequest, pk: int) -> HttpResponse:
        try:
            key = write_key(request)
        except Refusal as refusal:
            return _refused(request, encounter_get_for_user(request.user, pk), refusal)
        if key is None:
            return view(request, pk)
        encounter = encounter_get_for_user(request.user, pk)  # 404 before anything is locked

        def applied(response: HttpResponse, before: int) -> tuple[int, object] | None:
            now = Encounter.objects.values_list("version", flat=True).get(pk=pk)
            return (now, None) if now != before else None

        return write_once(
            user=request.user,
            encounter_pk=pk,
            key=key,
            run=lambda: view(request, pk),
            applied=applied,
            replay=lambda write: _after_write(request, encounter),
        )

    return keyed


def _version(request) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if re.fullmatch(r"[0-9]{1,9}", raw) else None


_PARTIALS = ("table-state", "table-main")


def _kept_table(request, encounter, *, spectator: bool = False) -> HttpResponse:
    """The live page as sent, kept for each reader under a key naming all it shows: the
    encounter (its version counts every change: `rules.table.services.lock.log`), the reader
    and their roles, the players' names of the log (`PLAYER_NAMES`), the address and its
    query, the part htmx asks for and whether the log is whole (`HX-Current-URL`), the
    theme, the language, the time zone and the release (`TABLE_PAGE_CACHE_SECONDS`).
    Polled again unchanged, the page costs the fetch that authorises it and one cache read.
    The versions of one page take turns in one cache entry (only the last is asked again).
    A page with messages to show, or another query, is rendered afresh."""
    target = request.htmx.target if request.htmx else None
    partial = target if target in _PARTIALS else None
    seconds = settings.TABLE_PAGE_CACHE_SECONDS
    slot = key = None
    if (
        seconds
        and request.META.get("QUERY_STRING", "") in ("", "log=all")
        and (partial or not len(get_messages(request)))  # counted, not read: still to show
    ):
        shown = (
            "table-page", encounter.pk, encounter.spectator_token, spectator,
            request.user.pk, sorted(getattr(encounter, "viewer_roles", ())),
            request.get_full_path(), partial, _full_log(request), theme_of(request),
        )  # fmt: skip
        slot = "table-page:" + fragment_key(shown)
        key = fragment_key((shown, encounter.version))

    def render_page(extra: dict) -> str:
        context = _table_context(request, encounter, spectator=spectator)
        template = "rules/table/table.html" + (f"#{partial}" if partial else "")
        return render_to_string(template, {**context, **extra}, request)

    return kept_page(request, key, seconds, render_page, slot=slot, stamps=(PLAYER_NAMES,))


@login_required
@require_GET
def table_encounter(request: HttpRequest, pk: int) -> HttpResponse:
    """The live encounter on a phone: the sides and their gauges, the action, the log."""
    return _kept_table(request, encounter_get_for_user(request.user, pk))


@require_GET
def table_watch(request: HttpRequest, token: str) -> HttpResponse:
    """The spectator's screen beside the table: read-only, revealed directives only."""
    return _kept_table(request, encounter_get_by_token(token), spectator=True)


@login_required
@require_GET
def table_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """The exact odds of the action being chosen, before its dice."""
    encounter = encounter_get_for_user(request.user, pk, need="act")
    card = table_card(request.user, encounter)
    form = TableActionForm(request.GET, card=card, wounds=_wounds(), weapons=_weapons(card))
    odds, error = None, ""
    if form.is_valid():
        try:
            odds = encounter_odds(encounter=encounter, action=form.action())
        except Refusal as refusal:
            error = str(refusal.message)
    else:
        error = _("Choose who acts, the target and what it does.")
    rows = adapter_for(card.system).odds_rows(odds) if odds else []
    if not request.htmx:
        # Without JavaScript: the whole page, the action as it was typed, the odds under it.
        context = _table_context(request, encounter, form=form)
        context.update(odds=odds, odds_rows=rows, error=error, odds_shown=True)
        return render(request, "rules/table/table.html", context)
    context = {"odds": odds, "odds_rows": rows, "error": error, "card": card}
    return render(request, "rules/table/_odds.html", context)


@login_required
@require_POST
@_once
def table_act(request: HttpRequest, pk: int) -> HttpResponse:
    encounter = encounter_get_for_user(request.user, pk, need="act")
    card = table_card(request.user, encounter)
    form = TableActionForm(request.POST, card=card, wounds=_wounds(), weapons=_weapons(card))
    if not form.is_valid():
        context = _table_context(request, encounter, form=form)
        return _render_table(request, context, status=400)
    try:
        encounter_act(
            actor=request.user,
            encounter=encounter,
            version=form.cleaned_data.get("version"),
            action=form.action(),
        )
    except Refusal as refusal:
        if refusal.field in form.fields:
            form.add_error(refusal.field, str(refusal.message))
        return _refused(request, encounter, refusal, form=form)
    if not request.htmx:
        return _page_after_write(request, encounter)
    encounter.refresh_from_db()
    return _render_table(request, _table_context(request, encounter, form=form))


def _simple_write(service, **extra):
    @login_required
    @require_POST
    @_once
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        encounter = encounter_get_for_user(request.user, pk, need="act")
        kwargs = {name: parse(request.POST.get(name, "")) for name, parse in extra.items()}
        try:
            service(actor=request.user, encounter=encounter, version=_version(request), **kwargs)
        except Refusal as refusal:
            return _refused(request, encounter, refusal)
        return _after_write(request, encounter)

    view.__doc__ = service.__doc__
    view.__name__ = service.__name__.replace("encounter_", "table_")
    return view


def _id(raw: str) -> int | None:
    return int(raw) if re.fullmatch(r"[0-9]{1,9}", raw) else None


def _text(raw: str) -> str:
    return raw


@login_required
@require_POST
@_once
def table_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser adds zombies of a type, or a non-player character (Of the Dead)."""
    encounter = encounter_get_for_user(request.user, pk, need="manage")
    form = TableAddForm(request.POST, prefix="add")
    if not form.is_valid():
        context = _table_context(request, encounter, add_form=form)
        return _render_table(request, context, status=400)
    try:
        encounter_add_combatants(
            actor=request.user,
            encounter=encounter,
            version=form.cleaned_data.get("version"),
            spec=form.spec(),
        )
    except Refusal as refusal:
        if isinstance(refusal, Forbidden):
            raise
        if refusal.field in form.fields:
            form.add_error(refusal.field, str(refusal.message))
        encounter.refresh_from_db()
        context = _table_context(request, encounter, add_form=form, message=str(refusal.message))
        return _render_table(request, context, status=refusal.status)
    return _after_write(request, encounter)


@login_required
@require_POST
@_once
def table_stray(request: HttpRequest, pk: int) -> HttpResponse:
    """KOLAPS: the target's player (or an organiser) chooses the figure a stray shot hits on
    the target's side; its death roll by the server or typed in."""
    encounter = encounter_get_for_user(request.user, pk, need="act")
    form = TableStrayForm(request.POST)
    if not form.is_valid():
        errors = [str(e) for field_errors in form.errors.values() for e in field_errors]
        encounter.refresh_from_db()
        context = _table_context(request, encounter, message=" ".join(errors))
        return _render_table(request, context, status=400)
    try:
        encounter_choose_stray(
            actor=request.user,
            encounter=encounter,
            version=form.cleaned_data.get("version"),
            ally=form.ally_id(),
            dice=form.cleaned_data["dice"],
        )
    except Refusal as refusal:
        return _refused(request, encounter, refusal)
    return _after_write(request, encounter)


def _link_write(service, done: str):
    @login_required
    @require_POST
    @_once
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        encounter = encounter_get_for_user(request.user, pk, need="manage")
        try:
            service(actor=request.user, encounter=encounter)
        except Refusal as refusal:
            return _refused(request, encounter, refusal)
        if not request.htmx:
            messages.success(request, _(done))
        return _after_write(request, encounter)

    view.__doc__ = service.__doc__
    view.__name__ = service.__name__.replace("encounter_", "table_")
    return view


table_link_revoke = _link_write(
    encounter_revoke_spectator_link, gettext_noop("The spectator link is revoked.")
)
table_link_rotate = _link_write(
    encounter_rotate_spectator_link, gettext_noop("A new spectator link is made.")
)
table_undo = _simple_write(encounter_undo)
table_directive = _simple_write(encounter_set_directive, combatant=_id, directive=_text)
table_reveal = _simple_write(encounter_reveal, combatant=_id)
table_advance = _simple_write(encounter_advance)
table_end = _simple_write(encounter_end)


@login_required
@require_POST
def chapter_table(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser opens the live encounter of the chapter being played (a system the
    table plays: its adapter says who fights)."""
    chapter = chapter_get_for_user(request.user, pk, need="manage")
    encounter = encounter_create_for_chapter(
        actor=request.user, chapter=chapter, title=request.POST.get("title", "")
    )
    return redirect("table-encounter", pk=encounter.pk)


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """A pick-up game: two KOLAPS units, two Rapid 40000 army lists (`armies` in the form),
    or two sides of named Corporates or modern RPG fighters (`quick` in the form)."""
    units = list(KolapsUnit.objects.filter(owner=request.user).order_by("name", "pk"))
    armies = list(Rapid40kArmy.objects.owned_by(request.user).order_by("name", "pk"))
    form = TableStandaloneForm(units=units, initial={"first": "", "second": ""})
    sheets = list(CorporatesCharacter.objects.owned_by(request.user))
    armies_form = TableArmiesForm(armies=armies)
    quick = TableQuickForm(
        initial={"system": request.GET.get("system", "corporates")}, sheets=sheets
    )
    encounter = None
    if request.method == "POST" and "quick" in request.POST:
        quick = TableQuickForm(request.POST, sheets=sheets)
        if quick.is_valid():
            encounter = quick.run(encounter_create_quick, actor=request.user, **quick.arguments())
    elif request.method == "POST" and "armies" in request.POST:
        armies_form = TableArmiesForm(request.POST, armies=armies)
        if armies_form.is_valid():
            by_pk = {a.pk: a for a in armies}
            data = armies_form.cleaned_data
            encounter = armies_form.run(
                encounter_create_armies,
                actor=request.user,
                armies=[by_pk.get(data["first_army"]), by_pk.get(data["second_army"])],
                title=data["armies_title"],
            )
    elif request.method == "POST":
        form = TableStandaloneForm(request.POST, units=units)
        if form.is_valid():
            by_pk = {u.pk: u for u in units}
            encounter = form.run(
                encounter_create_standalone,
                actor=request.user,
                units=[
                    by_pk.get(form.cleaned_data["first"]),
                    by_pk.get(form.cleaned_data["second"]),
                ],
                title=form.cleaned_data["title"],
            )
    if encounter is not None:
        return redirect("table-encounter", pk=encounter.pk)
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "armies": armies_form,
        "quick": quick,
        "games": encounters_pickup_of(request.user),
    }
    return render(request, "rules/table/new.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def table_new_of_the_dead(request: HttpRequest) -> HttpResponse:
    """A pick-up Of the Dead game: your living character; you add the zombies at the table."""
    form = TableQuickPartyForm()
    if request.method == "POST":
        form = TableQuickPartyForm(request.POST)
        if form.is_valid():
            encounter = form.run(
                encounter_create_quick_party,
                actor=request.user,
                title=form.cleaned_data["title"],
            )
            if encounter is not None:
                return redirect("table-encounter", pk=encounter.pk)
    status = 400 if form.is_bound else 200
    return render(request, "rules/table/new_of_the_dead.html", {"form": form}, status=status)


# The app shell the service worker keeps for a phone that lost its network.
SHELL = (
    "css/chronique.css",
    "css/table.css",
    "js/chronique.js",
    "js/table-live.js",
    "js/table-offline.js",
    "vendor/htmx-2.0.11.min.js",
    "favicon.svg",
)


@functools.cache
def _shell() -> tuple[list[str], str]:
    """The shell's addresses, and its release: a digest of what the files hold, so a changed
    script replaces the phones' copies even where its address names no content (tests, a
    storage without a manifest)."""
    digest = hashlib.sha256()
    for name in SHELL:
        found = finders.find(name)
        digest.update(Path(found).read_bytes() if found else name.encode())
    return [static(name) for name in SHELL], digest.hexdigest()[:16]


@require_GET
def table_service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (served from the site's root, so that its scope is the site): the
    table pages as last shown and the app shell, for a reload without a network."""
    shell, release = _shell()
    context = {"shell": shell, "release": release, "static_prefix": settings.STATIC_URL}
    response = render(request, "rules/table/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
