"""Pages kept as rendered, under keys naming all they show, in the cache whose `KEY_PREFIX`
is the release (config/release.py): never stale, only unused. What is kept, its key and
what makes it go unused: docs/architecture.md, "Caching". In the lowest app, for every app.
"""

import hashlib
import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.crypto import salted_hmac
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

THEMES = ("light", "dark")


def theme_of(request) -> str:
    """The reader's theme as a page may be kept under it: one of `THEMES`, else "auto" (a
    cookie holding anything else is no new variant)."""
    theme = request.COOKIES.get("theme")
    return theme if theme in THEMES else "auto"


def fragment_key(shown) -> str:
    """A key naming all a page or a fragment shows (`shown`, a value whose `repr` names it),
    with the reader's language and time zone. The code that rendered it is the cache's
    `KEY_PREFIX` (config/release.py), in every key."""
    named = repr((get_language(), get_current_timezone_name(), shown))
    return hashlib.blake2b(named.encode(), digest_size=16).hexdigest()


# What `{% csrf_token %}` and the layout write in a kept page: replaced by this request's
# token each time the page is sent.
# Derived from the secret key, so that no name a user types can be it (a name holding it
# would show each reader their own token in its place).
CSRF = f"\ue000csrf-{salted_hmac('kolaps-kept-page', 'csrf').hexdigest()[:20]}\ue000"


def kept_page(
    request,
    key: str | None,
    seconds: int,
    render_page: Callable[[dict], str],
    *,
    slot: str | None = None,
    stamps: tuple[str, ...] = (),
) -> HttpResponse:
    """The page kept under `key` (a key naming all it shows) with this request's CSRF token,
    else the page `render_page(extra)` renders with `extra` in its context (the token's
    placeholder), kept for `seconds`. No `key`: the page is this request's alone, rendered
    and sent (a refusal, typed values, a comparison, messages to show once).

    `slot`: the cache entry the page is kept in when the keys of one page take turns in it
    (the live table's versions: once a newer one is asked, an older one never is again), so
    that a page asked often costs one entry, not one per change; the entry holds the key
    it was rendered under and answers only that key. `stamps`: what the page shows without
    reading it (`stamp`), read in the same round trip and named with the key."""
    entry = slot or key
    html = None
    if key:
        names = [_stamp_key(name) for name in stamps]
        found = cache.get_many([entry, *names])
        current = tuple(found.get(name) for name in names)
        if None in current:  # a stamp the cache lost: drawn again
            current = tuple(stamp(name) for name in stamps)
        named = (key, current)
        kept = found.get(entry)
        if kept is not None and kept[0] == named:
            html = kept[1]
    if html is None:
        html = render_page({"csrf_token": CSRF})
        if key:
            cache.set(entry, (named, html), seconds)
    if CSRF in html:
        html = html.replace(CSRF, get_token(request))
    return HttpResponse(html)


# --- Stamps: what a kept page shows but does not read to decide it is still right ----------


def _stamp_key(name: str) -> str:
    return f"kept-stamp:{name}"


def stamp(name: str) -> str:
    """The current value of the stamp `name`, renewed by the writes of something a kept page
    shows without reading it (`stamp_renew`): the page names it in its key. A stamp the
    cache lost is drawn anew (pages kept under the old one go unused), never taken back."""
    return cache.get_or_set(_stamp_key(name), lambda: secrets.token_hex(8), None)


def stamp_renew(name: str) -> None:
    cache.set(_stamp_key(name), secrets.token_hex(8), None)


# Players' names as pages show them (a display name, else the username): the live table's
# log names the author of each line.
PLAYER_NAMES = "player-names"
