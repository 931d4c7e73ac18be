"""The Rapid 40000 forms: the builder's posts read into the service's `data`, the new
army, the import and the comparison.

The builder's many small forms (add a squad, add fighters, +/- a count) all post to the
army page with an `action`; `change_data` turns the posted strings into what
`services.army_change` checks, so the page and the API share every check.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.permissions import Refusal
from rules.engine.systems.rapid40k.catalogue import load_catalogue

CUSTOM = "custom"


def faction_choices() -> list[tuple[str, str]]:
    return [("", _("None")), *((s, a.label) for s, a in load_catalogue().armies.items())]


def profile_choices(faction: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
    """The annex rows grouped by army (`army:row`), only the army's own when it has a
    faction, then a custom profile."""
    cat = load_catalogue()
    groups = [
        (army.label, [(f"{army.slug}:{row.slug}", row.label) for row in army.profiles.values()])
        for army in cat.armies.values()
        if not faction or army.slug == faction
    ]
    return [*groups, (_("Your own"), [(CUSTOM, _("Custom profile (below)"))])]


def _number(post, name: str) -> int | None:
    text = (post.get(name) or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise Refusal(_("A whole number is expected here."), field=name) from None


def _profile(post, prefix: str):
    """An annex row (`army:row`), or the custom profile's fields."""
    choice = post.get(prefix) or ""
    if choice != CUSTOM:
        return choice or None
    return {
        "quality": _number(post, "quality"),
        "combat": _number(post, "combat"),
        "weapon": post.get("weapon") or "",
        "special_rules": post.getlist("special_rules"),
    }


def change_data(action: str, post) -> dict:
    """What the builder's form for `action` posted, as the service reads it."""
    if action == "settings":
        return {
            "name": post.get("name", ""),
            "faction": post.get("faction", ""),
            "points_limit": _number(post, "points_limit"),
        }
    if action == "squad_add":
        return {
            "name": post.get("squad_name", ""),
            "slot": post.get("slot", ""),
            "vehicle": post.get("vehicle") or None,
            "leader": _profile(post, "leader"),
        }
    if action == "squad_remove":
        return {"squad": _number(post, "squad")}
    if action == "fighter_add":
        return {
            "squad": _number(post, "squad"),
            "profile": _profile(post, "profile"),
            "count": _number(post, "count") or 1,
        }
    if action == "fighter_count":
        return {
            "squad": _number(post, "squad"),
            "fighter": _number(post, "fighter"),
            "count": _number(post, "count"),
        }
    return {}


class ArmyCreateForm(forms.Form):
    name = forms.CharField(label=_("Army name"), max_length=80)
    faction = forms.ChoiceField(label=_("Annex army"), choices=faction_choices, required=False)
    points_limit = forms.IntegerField(
        label=_("Points limit"), min_value=1, max_value=100_000, required=False
    )


class ImportForm(forms.Form):
    text = forms.CharField(label=_("The army file (JSON)"), widget=forms.Textarea, required=False)
    file = forms.FileField(label=_("or the file itself"), required=False)


class CompareForm(forms.Form):
    a = forms.TypedChoiceField(label=_("First list"), coerce=int)
    b = forms.TypedChoiceField(label=_("Second list"), coerce=int)

    def __init__(self, armies, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(a.id, f"{a.name} ({a.points})") for a in armies]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices
