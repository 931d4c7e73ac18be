"""Secrets stay out of the logs: invitation, calendar, share and password-reset tokens
travel in URL paths, and Django logs paths (every 404 as "Not Found: /join/<token>/",
the development server every request line).

`RedactTokens` rewrites any path segment that looks like a token (20 or more URL-safe
characters: what `secrets.token_urlsafe` makes) as `[token]` before a record is written,
whatever route it came from, so a route added later is covered too.
"""

import logging
import re

TOKEN = re.compile(r"(?<=/)[A-Za-z0-9_-]{20,}(?=[/.?\s\"]|$)")


def redact(text: str) -> str:
    return TOKEN.sub("[token]", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
