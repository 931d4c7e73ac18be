"""A player's upcoming chapters as an iCalendar feed (RFC 5545).

Lines end with CRLF and are folded at 75 octets (a continuation line starts with one
space); text values escape backslash, semicolon, comma and newline (RFC 5545 §3.3.11).
Times are written in UTC ("Z"). Chapters without a date are left out.

Names and texts users typed are isolated in the values (FIRST STRONG ISOLATE ... POP
DIRECTIONAL ISOLATE around each, `characters.bidi`, when it holds right-to-left letters or
bidi controls): TEXT has no markup, and a calendar shows SUMMARY "campaign — n. title" on
one line, where a right-to-left override typed in the campaign's name would otherwise
reverse the chapter's title after it. The characters are kept as typed, never dropped.
"""

from datetime import UTC, datetime, timedelta

from django.http import Http404
from django.urls import reverse

from campaigns.models import CalendarFeed, Chapter
from characters.bidi import isolate_text

LINE_OCTETS = 75


def escape_text(value: str) -> str:
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def fold(line: str) -> str:
    """Split a content line into chunks of at most 75 octets, never inside a character."""
    encoded = line.encode()
    if len(encoded) <= LINE_OCTETS:
        return line
    parts, current, limit = [], b"", LINE_OCTETS
    for char in line:
        piece = char.encode()
        if len(current) + len(piece) > limit:
            parts.append(current.decode())
            current, limit = b"", LINE_OCTETS - 1  # continuation lines start with a space
        current += piece
    parts.append(current.decode())
    return "\r\n ".join(parts)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar(
    chapters, *, host: str, name: str, now: datetime | None = None, scheme: str = "https"
) -> str:
    now = now or datetime.now(UTC)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Chronique//Chapters//FR",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for chapter in chapters:
        if chapter.starts_at is None:
            continue
        end = chapter.starts_at + timedelta(minutes=chapter.duration_minutes)
        summary = (
            f"{isolate_text(chapter.campaign.name)} — {chapter.number}. "
            f"{isolate_text(chapter.title)}"
        )
        description = "\n".join(
            isolate_text(part)
            for part in (chapter.objectives, chapter.weather, chapter.time_of_day)
            if part
        )
        url = f"{scheme}://{host}{reverse('chapter-detail', args=[chapter.pk])}"
        lines += [
            "BEGIN:VEVENT",
            f"UID:chapter-{chapter.pk}@{host}",
            f"DTSTAMP:{_utc(now)}",
            f"DTSTART:{_utc(chapter.starts_at)}",
            f"DTEND:{_utc(end)}",
            f"SUMMARY:{escape_text(summary)}",
        ]
        if chapter.place:
            lines.append(f"LOCATION:{escape_text(isolate_text(chapter.place))}")
        if description:
            lines.append(f"DESCRIPTION:{escape_text(description)}")
        lines += [f"URL:{url}", "STATUS:CONFIRMED", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def calendar_for_token(token: str, *, host: str, scheme: str = "https") -> str:
    """Two queries: the feed with its player, their upcoming chapters."""
    feed = CalendarFeed.objects.select_related("player").filter(token=token).first()
    if feed is None:
        raise Http404
    chapters = (
        Chapter.objects.upcoming_for(feed.player)
        .select_related("campaign")
        .order_by("starts_at", "pk")
    )
    name = f"Chronique — {isolate_text(feed.player.public_name)}"
    return calendar(chapters, host=host, name=name, scheme=scheme)
