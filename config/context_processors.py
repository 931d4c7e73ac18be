"""What the site layout reads of each request (templates/base.html)."""

from characters.kept import theme_of


def visitor(request) -> dict:
    """Whether the visitor is logged in, and their theme: "light", "dark" or "auto" (no
    cookie, or one holding anything else). The layout's fragments are cached under these,
    read once per request as plain values (never a raw cookie in a cache key)."""
    user = getattr(request, "user", None)
    return {
        "logged_in": bool(user is not None and user.is_authenticated),
        "theme": theme_of(request),
    }
