"""A table write sent twice acts once.

A phone at the table retries after a timeout, sends its offline queue again once the
connection is back, or is tapped twice: each write may carry a key its device made (the
`Idempotency-Key` header, or the `idempotency_key` field of a page's form). The first
write with a key runs and its answer is kept (`TableWrite`); the same key again, from the
same player on the same encounter, gets that answer and changes nothing, for as long as
the encounter lives. A write without a key is served as before.

Two sends of one key at once are served one after the other: the encounter's row is locked
before the key is looked up, in the transaction that runs the write and records its key,
so the second sees the first's record once the first has committed. Only a write that was
applied is kept: a refusal (a stale version, a wrong input) changed nothing, and the same
key sent again is judged again.
"""

import json
import re
import zlib
from collections.abc import Callable
from typing import TypeVar

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from characters.permissions import Refusal
from rules.table.models import Encounter, TableWrite

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
REPLAYED = "Idempotent-Replayed"
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")

Answer = TypeVar("Answer")


def write_key(request) -> str | None:
    """The key a write carries, or None; a malformed one is refused with a sentence."""
    raw = request.headers.get(HEADER)
    if raw is None:
        raw = request.POST.get(FIELD) if request.method == "POST" else None
    if raw is None or raw == "":
        return None
    if not _KEY.fullmatch(raw):
        raise Refusal(
            _("An idempotency key is 8 to 64 letters, digits, dashes or underscores."),
            field=FIELD,
        )
    return raw


def write_once(
    *,
    user,
    encounter_pk: int,
    key: str | None,
    run: Callable[[], Answer],
    applied: Callable[[Answer, int], tuple[int, object] | None],
    replay: Callable[[TableWrite], Answer],
) -> Answer:
    """Run `run` once per key. `applied(answer, version_before)`: the version the write made
    and the body to keep (None when the answer is a refusal: nothing is kept); `replay(write)`: the
    answer to a key already used. The caller has authorised `user` to see the encounter:
    an outsider never locks its row."""
    if key is None:
        return run()
    with transaction.atomic():
        before = (
            Encounter.objects.select_for_update()
            .filter(pk=encounter_pk)
            .values_list("version", flat=True)
            .first()
        )
        if before is None:
            raise Http404
        done = TableWrite.objects.filter(encounter_id=encounter_pk, author=user, key=key).first()
        if done is not None:
            return replay(done)
        answer = run()
        kept = applied(answer, before)
        if kept is not None:
            version, body = kept
            TableWrite.objects.create(
                encounter_id=encounter_pk,
                author=user,
                key=key,
                version=version,
                answer=b""
                if body is None
                else zlib.compress(json.dumps(body, cls=DjangoJSONEncoder).encode()),
            )
        return answer


def _packed(body: object) -> bytes:
    return zlib.compress(json.dumps(body, cls=DjangoJSONEncoder).encode())


def kept_body(write: TableWrite) -> object:
    """The JSON body kept with a write (None for a page's form)."""
    raw = bytes(write.answer)
    return json.loads(zlib.decompress(raw)) if raw else None
