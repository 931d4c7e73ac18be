"""How passwords are hashed: argon2id at OWASP's minimum, and only so many at once.

Django's Argon2 defaults (100 MiB, 8 lanes) cost ~240 ms of CPU a check: a few logins a
second filled both cores, and every page waited behind them. OWASP's password storage
cheat sheet sets argon2id's minimum at 19 MiB of memory, 2 iterations, 1 lane; that is
`Argon2idHasher`. Its algorithm name stays Django's ("argon2"), so hashes stored with the
old parameters still verify, and Django rewrites each with these at its owner's next
login (`must_update` compares the parameters).

`PASSWORD_HASHES_AT_ONCE` bounds the hashes a server process computes at the same time:
the other threads of the process keep serving pages while logins queue for a slot.
"""

import threading
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher

_slots: tuple[int, threading.BoundedSemaphore] | None = None
_slots_lock = threading.Lock()


@contextmanager
def hashing_slot():
    """One of the process's PASSWORD_HASHES_AT_ONCE hashing slots, waited for."""
    global _slots
    size = settings.PASSWORD_HASHES_AT_ONCE
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        slots = _slots[1]
    with slots:
        yield


class Argon2idHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1

    def encode(self, password, salt):
        with hashing_slot():
            return super().encode(password, salt)

    def verify(self, password, encoded):
        with hashing_slot():
            return super().verify(password, encoded)
