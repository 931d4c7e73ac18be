"""The action form's widgets are drawn by Jinja2 templates (characters/widgets.py: Django's
template engine per widget and per option was most of the live page's time): the HTML is
what Django's own templates draw, compared as HTML, for every system's form, fresh or sent
back with its values and errors."""

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.template import Context, Template
from django.test.html import parse_html

from characters.widgets import RENDERER
from rules.table.cards import table_card
from rules.table.forms import TableActionForm, TableAddForm
from rules.table.models import Combatant
from rules.table.selectors import encounter_get_for_user
from rules.table.services import encounter_create_quick
from rules.table.views import _wounds
from tests.factories import PlayerFactory
from tests.table_fixtures import otd_table_roles, pick_up_encounter

pytestmark = pytest.mark.django_db


def _encounters():
    organiser = PlayerFactory(username="orga")
    participant = PlayerFactory(username="joueuse")
    found = [pick_up_encounter(organiser)]
    found.append(otd_table_roles(organiser=organiser, participant=participant)["table_otd"])
    for system in ("corporates", "modern-rpg"):
        found.append(
            encounter_create_quick(
                actor=organiser,
                system=system,
                sides=["Les <nôtres>", "Eux & co"],
                fighters=[['Ana "la rouge"'], ["Zed"]],
            )
        )
    return [(organiser, encounter_get_for_user(organiser, e.pk)) for e in found]


# The action form's fields as table.html drew them before.
FIELDS_TEMPLATE = """{% for field in form %}{% if not field.is_hidden %}
  <div class="field field-{{ field.name }}{% if field.errors %} invalid{% endif %}">
    <label for="{{ field.id_for_label }}">{{ field.label }}</label>
    {{ field }}
    {% for error in field.errors %}<p class="error" role="alert">{{ error }}</p>{% endfor %}
  </div>
  {% endif %}{% endfor %}"""


def _drawn(form) -> list:
    """Each field's widget, parsed: the same HTML whatever its quotes, order or spaces."""
    return [parse_html(str(field)) for field in form]


def test_every_widget_of_every_system_is_djangos_own_html():
    for organiser, encounter in _encounters():
        card = table_card(organiser, encounter)
        weapons = [(w, w) for w in dict.fromkeys(w for c in card.mine for w in c.weapons)]
        target = Combatant.objects.filter(encounter=encounter).first().pk
        sent = {"kind": "nothing<>", "target": str(target), "roll": "hand", "dice": "9 x"}
        for args in ((), (sent,)):
            for form in (
                TableActionForm(*args, card=card, wounds=_wounds(), weapons=weapons),
                TableAddForm(*args, prefix="add"),
            ):
                form.is_valid() if args else None
                assert form.renderer is RENDERER
                rows = str(form) if isinstance(form, TableActionForm) else ""
                drawn = _drawn(form)
                form.renderer = get_default_renderer()
                if rows:
                    djangos = Template(FIELDS_TEMPLATE).render(Context({"form": form}))
                    assert parse_html(rows) == parse_html(djangos), encounter.system
                    assert not args or 'class="error" role="alert"' in rows
                assert drawn == _drawn(form), encounter.system
                assert any("<select" in str(field) for field in form)


def test_odd_values_and_attributes_are_escaped_as_django_does(monkeypatch):
    class Odd(forms.Form):
        a = forms.CharField(initial='"<b>&', widget=forms.TextInput(attrs={"data-x": "<'>"}))
        b = forms.ChoiceField(
            choices=[(1, "<un>"), ("g&", [(2, 'deux "2"'), ("", "—")])], initial=2
        )
        c = forms.IntegerField(widget=forms.HiddenInput(attrs={"disabled": True}), initial=3)
        d = forms.FloatField(initial=1234.5, localize=True)
        e = forms.MultipleChoiceField(
            choices=[(1, "<un>"), ("g&", [(2, "deux")])],
            initial=[2],
            widget=forms.CheckboxSelectMultiple(attrs={"class": "a&b"}),
        )
        f = forms.ChoiceField(choices=[(1, "un"), (2, "deux")], widget=forms.RadioSelect)
        g = forms.BooleanField(initial=True)

    form = Odd()
    form.renderer = TableActionForm.default_renderer
    with monkeypatch.context() as patch:  # none of them through Django's template engine
        patch.setattr(DjangoTemplates, "render", lambda *args, **kwargs: 1 / 0)
        drawn = _drawn(form)
        text = "".join(str(field) for field in form)
    form.renderer = get_default_renderer()
    assert drawn == _drawn(form)
    for escaped in ("&lt;b&gt;&amp;", "&lt;un&gt;", "g&amp;", 'value="1234,5"', "a&amp;b"):
        assert escaped in text, escaped
    assert "<b>" not in text and "<un>" not in text
