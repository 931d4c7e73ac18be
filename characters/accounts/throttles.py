"""How many login attempts one address may make in a minute, whatever the names tried.

django-axes locks one account from one address after AXES_FAILURE_LIMIT failures, but an
address trying other names each time is never locked, and every attempt costs a password
hash (config/hashers.py). The login page and the API's token endpoint count attempts per
address in the shared cache, by the minute; past LOGIN_ATTEMPTS_PER_MINUTE they answer
429 with `LOGIN_THROTTLED` without hashing anything.
"""

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

LOGIN_THROTTLED = _("Too many login attempts from your address. Wait a minute, then try again.")


def login_attempt_refused(request: HttpRequest) -> bool:
    """Count this login attempt for the visitor's address; True when it is one too many."""
    minute = int(time.time() // 60)
    key = f"login-attempts:{request.META.get('REMOTE_ADDR', '')}:{minute}"
    cache.add(key, 0, timeout=120)
    try:
        attempts = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=120)
        attempts = 1
    return attempts > settings.LOGIN_ATTEMPTS_PER_MINUTE
