"""Widgets drawn without the template engine: a form renderer shared by the apps' forms.

Django draws each widget and each <option> through its own template; on a form of a hundred
widgets (the live table's action form, polled by phones; the organiser's chapter close form)
that was most of the page's time. These draw the same HTML as Django's templates, byte for
byte (tests/rules/table/test_table_widgets.py and tests/campaigns/test_close_widgets.py
compare them), in plain Python; any other template goes to the engine as before. It lives in
the lowest Django layer so that `rules` and `campaigns` may both use it.
"""

import html

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData

_WIDGETS = "django/forms/widgets/"


def _text(value) -> str:
    """`{{ value }}` in a template: localized, escaped unless already safe. A plain string
    (most names, ids and attributes) is escaped as Django's `escape` does, without marking
    each piece safe on the way: the renderer's whole answer is marked safe once."""
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(localize(value))


def _formatted(value) -> str:
    """`{{ value|stringformat:'s' }}`: safe stays safe, anything else escaped."""
    if type(value) is str:
        return html.escape(value)
    text = "%s" % (str(value) if isinstance(value, tuple) else value)
    return text if isinstance(value, SafeData) else html.escape(text)


def _attrs(attrs: dict) -> str:
    return "".join(
        ""
        if value is False
        else f" {_text(name)}"
        if value is True
        else f' {_text(name)}="{_formatted(value)}"'
        for name, value in attrs.items()
    )


def _input(widget: dict) -> str:
    value = "" if widget["value"] is None else f' value="{_formatted(widget["value"])}"'
    return (
        f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"{value}'
        f"{_attrs(widget['attrs'])}>"
    )


def _option(widget: dict) -> str:
    return (
        f'<option value="{_formatted(widget["value"])}"{_attrs(widget["attrs"])}>'
        f"{_text(widget['label'])}</option>"
    )


def _select(widget: dict) -> str:
    parts = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in group_choices:
            if option["template_name"] != _WIDGETS + "select_option.html":
                return ""  # not drawn here: the engine's
            parts.append("\n  " + _option(option) + "\n")
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


_OPTIONS = {_WIDGETS + "checkbox_option.html", _WIDGETS + "radio_option.html"}


def _input_option(widget: dict) -> str:
    """checkbox_option.html / radio_option.html: input_option.html and its newline."""
    wrap = widget.get("wrap_label")
    label_for = widget["attrs"].get("id")
    opening = (f'<label for="{_text(label_for)}">' if label_for else "<label>") if wrap else ""
    closing = f" {_text(widget['label'])}</label>" if wrap else ""
    return f"{opening}{_input(widget)}\n{closing}\n\n"


def _multiple(widget: dict) -> str:
    """checkbox_select.html / radio.html: multiple_input.html."""
    attrs = widget["attrs"]
    parts = ["<div"]
    if attrs.get("id"):
        parts.append(f' id="{_text(attrs["id"])}"')
    if attrs.get("class"):
        parts.append(f' class="{_text(attrs["class"])}"')
    parts.append(">")
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(f"\n  <div><label>{_text(group)}</label>")
        for option in options:
            if option["template_name"] not in _OPTIONS:
                return ""  # not drawn here: the engine's
            parts.append("<div>\n    " + _input_option(option) + "</div>")
        if group:
            parts.append("\n  </div>")
    parts.append("\n</div>")
    return "".join(parts)


_DRAWN = {
    **{
        f"{_WIDGETS}{name}.html": _input
        for name in ("input", "text", "number", "hidden", "email", "url", "password", "checkbox")
    },
    _WIDGETS + "select.html": _select,
    _WIDGETS + "checkbox_select.html": _multiple,
    _WIDGETS + "radio.html": _multiple,
}


class PlainWidgets(DjangoTemplates):
    """A form renderer drawing the usual widgets in Python (byte-identical to Django's)."""

    def render(self, template_name, context, request=None):
        draw = _DRAWN.get(template_name)
        drawn = draw(context["widget"]) if draw is not None else ""
        return drawn or super().render(template_name, context, request=request)
