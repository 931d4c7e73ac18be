"""What the chapter page shows of the character sheets entered into a chapter of a
roleplaying campaign (Corporates, modern RPG: `campaigns.chapters.entries.SHEET_KINDS`), and
the viewer's own sheets for the form that enters one: one query each."""

from dataclasses import dataclass

from campaigns.systems.entry_kinds import EntryKind


@dataclass(frozen=True)
class SheetEntryLine:
    """A character entered into the chapter: as it is now while the chapter is planned, as
    it was frozen when it started (`frozen`) afterwards."""

    character_id: int
    name: str
    player: str
    side: str
    mine: bool
    frozen: bool = False


@dataclass(frozen=True)
class SheetChoice:
    """One of the viewer's character sheets, for the form that enters one."""

    id: int
    name: str


def sheet_entries(kind: EntryKind, chapter_id: int, viewer_id) -> list[SheetEntryLine]:
    """The characters entered with their players: one query."""
    rows = (
        kind.entry.objects.filter(chapter_id=chapter_id)
        .order_by("entered_at", "pk")
        .values_list(
            "character_id",
            "character__name",
            "player_id",
            "player__display_name",
            "player__username",
            "side",
            "frozen",
        )
    )
    return [
        SheetEntryLine(
            pk,
            frozen.get("name", name) if frozen else name,
            display or username,
            side,
            player_id == viewer_id,
            frozen=bool(frozen),
        )
        for pk, name, player_id, display, username, side, frozen in rows
    ]


def my_sheets(kind: EntryKind, user) -> list[SheetChoice]:
    """The viewer's sheets of the kind, by name: one query."""
    return [
        SheetChoice(pk, name)
        for pk, name in kind.roster.objects.filter(owner_id=user.pk)
        .order_by("name", "pk")
        .values_list("pk", "name")
    ]
