"""KOLAPS print sheets: a unit's print (its summary, then each member's sheet) and a
character's, rendered for `views` (which keeps them as sent).

A unit's members mostly share their line (archetype, rank, costs), gauges, talents and
equipment: each distinct part is rendered once per print, however many sheets show it, and
written into the sheets at marks; the sheets themselves are rendered in one pass. Each
sheet is kept under a key naming all it shows (`cards.Sheet.key`), so a print after a
change renders only the sheets that changed.
"""

from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.utils.crypto import salted_hmac
from django.utils.safestring import mark_safe

from characters.kolaps import cards


def mark(name: str) -> str:
    """A mark a page is rendered with in place of `name`, replaced before it is sent. Derived
    from the secret key, so that no name a user types can be it (a name holding it would
    have the marked thing written in its place)."""
    return f"\ue000{name}-{salted_hmac('kolaps-kept-page', name).hexdigest()[:20]}\ue000"


_SHEETS = mark_safe(mark("sheets"))


def summary(unit: cards.UnitCard) -> list[tuple[cards.CharacterCard, str]]:
    """The print's summary: each member with its cells after the name (archetype, rank, PU,
    PP), rendered once for the members of one archetype and rank who bought the same."""
    template = get_template("characters/kolaps/print.html#member-cells")
    cells: dict[tuple, str] = {}
    members = []
    for c in unit.characters:
        shown = (c.archetype_label, c.rank_label, c.value, c.pp_spent, c.pp_budget)
        if shown not in cells:
            cells[shown] = mark_safe(template.render({"c": c}))
        members.append((c, cells[shown]))
    return members


def page_html(request, context: dict, sheets: list[str]) -> str:
    """The print page around its `sheets`, written in after the page is rendered (each
    sheet's HTML is kept on its own: `sheets_html`)."""
    html = render_to_string(
        "characters/kolaps/print.html", {**context, "sheets": [_SHEETS]}, request
    )
    return html.replace(_SHEETS, "".join(sheets), 1)


def sheets_html(sheets: list[cards.Sheet]) -> list[str]:
    """Each character's print sheet as HTML: from the cache when the same sheet (same
    character, numbers, catalogue and language: `Sheet.key`) was rendered in the last
    `KOLAPS_SHEET_CACHE_SECONDS`, else rendered and kept. A unit of 30 printed again costs
    one cache read instead of 30 full cards and sheets.

    Rendered afresh, the parts a unit's members mostly share (their line, gauges, talents,
    equipment, an item's numbers) are each rendered once per print however many sheets
    show them (`_sheet_parts.html`); the sheets to render are rendered together
    (`_sheets.html`, marks where the parts go and between sheets), then each is given its
    parts."""
    seconds = settings.KOLAPS_SHEET_CACHE_SECONDS
    found = cache.get_many([sheet.key for sheet in sheets]) if seconds else {}
    missing = [sheet for sheet in sheets if sheet.key not in found]
    if missing:
        parts = _SheetParts()
        members = [sheet.card() for sheet in missing]
        shared = [parts.of(card) for card in members]
        html = get_template("characters/kolaps/_sheets.html").render(
            {"characters": members, **_PARTS, "end": _END}
        )
        new = {}
        for sheet, own, parts_of in zip(missing, html.split(_END)[:-1], shared, strict=True):
            for place, part in zip(_PARTS.values(), parts_of, strict=True):
                own = own.replace(place, part, 1)
            new[sheet.key] = found[sheet.key] = own
        if seconds:
            cache.set_many(new, seconds)
    return [mark_safe(found[sheet.key]) for sheet in sheets]


# Safe (nothing in them to escape): written as they are, without escaping each time.
_PARTS = {
    name: mark_safe(mark(f"sheet-{name}")) for name in ("line", "gauges", "talents", "equipment")
}
_END = mark_safe(mark("sheet-end"))


class _SheetParts:
    """The shared parts of the sheets of one print, each rendered once. Talent lists and
    items are known by their identity: the cards of one print share the objects of what
    their members share (`cards.character_card`'s `lines`), and each is kept here with its
    HTML, so that no other object takes its id meanwhile."""

    def __init__(self):
        self.templates = {
            name: get_template(f"characters/kolaps/_sheet_parts.html#sheet-{name}")
            for name in ("line", "gauges", "talents", "equipment")
        }
        self.item_template = get_template("characters/kolaps/_item.html")
        self.done: dict = {}

    def _once(self, key, shown, render) -> str:
        if key not in self.done:
            self.done[key] = (shown, mark_safe(render()))
        return self.done[key][1]

    def of(self, card: cards.CharacterCard) -> tuple[str, str, str, str]:
        """The card's parts, in the order of `_PARTS`."""
        return self.line(card), self.gauges(card), self.talents(card), self.equipment(card)

    def line(self, card: cards.CharacterCard) -> str:
        """Affiliation, archetype, rank, threshold, PU and PP: the same for members of one
        archetype and rank who bought the same."""
        shown = (card.affiliation_label, card.archetype_label, card.rank_label,
                 card.success_threshold, card.value, card.pp_spent, card.pp_budget)  # fmt: skip
        render = partial(self.templates["line"].render, {"character": card})
        return self._once(("line", *shown), None, render)

    def gauges(self, card: cards.CharacterCard) -> str:
        def render() -> str:
            return self.templates["gauges"].render({"gauges": card.gauges})

        return self._once(("gauges", card.sante, card.souffle, card.moral), None, render)

    def talents(self, card: cards.CharacterCard) -> str:
        talents = card.talents
        render = partial(self.templates["talents"].render, {"talents": talents})
        return self._once(("talents", id(talents)), talents, render)

    def equipment(self, card: cards.CharacterCard) -> str:
        def render() -> str:
            items = [(item, self._item(item)) for item in card.equipment]
            return self.templates["equipment"].render({"items": items})

        key = ("equipment", *(id(item) for item in card.equipment))
        return self._once(key, card.equipment, render)

    def _item(self, item: cards.ItemLine) -> str:
        render = partial(self.item_template.render, {"item": item})
        return self._once(("item", id(item)), item, render)
