"""Uploads stop at UPLOAD_MAX_BYTES (config/uploads.py): a larger one is refused with a
sentence before its body is read, and every importer reads its file bounded."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIRequest
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import PlayerFactory

IMPORTS = ("rapid40k-army-import", "kolaps-unit-import", "campaign-import")


class _EndlessBody(io.RawIOBase):
    """A request body that is never-ending zeros, counting what was read of it."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = b"0" * len(buffer)
        self.read_bytes += len(buffer)
        return len(buffer)


def test_an_upload_over_the_limit_is_refused_before_its_body_is_read(settings):
    """300 MB said in the headers: nothing of it is read, nothing spooled."""
    body = _EndlessBody()
    environ = RequestFactory()._base_environ(
        PATH_INFO="/campaigns/import/",
        REQUEST_METHOD="POST",
        CONTENT_TYPE="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(300 * 1024 * 1024),
        **{"wsgi.input": body},
    )
    request = WSGIRequest(environ)
    from django.core.exceptions import RequestDataTooBig

    with pytest.raises(RequestDataTooBig):
        request.FILES  # noqa: B018 - reading them is what the test is about
    assert body.read_bytes == 0


@pytest.mark.parametrize("name", IMPORTS)
def test_every_import_page_refuses_a_file_over_the_limit_with_a_sentence(
    db, client, settings, name
):
    client.force_login(PlayerFactory())
    big = SimpleUploadedFile("big.json", b" " * (settings.UPLOAD_MAX_BYTES + 1))
    response = client.post(reverse(name), {"file": big})
    assert response.status_code == 413
    text = response.content.decode().replace("\u00a0", " ")
    assert "Cette requête est trop volumineuse : envoyez au plus 512 Ko." in text


def test_the_army_import_reads_its_file_bounded_and_says_it_is_too_large(db, client, settings):
    """Over DATA_UPLOAD_MAX_MEMORY_SIZE and under the upload's limit: the page's sentence."""
    client.force_login(PlayerFactory())
    file = SimpleUploadedFile("army.json", b" " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10))
    response = client.post(reverse("rapid40k-army-import"), {"file": file})
    assert response.status_code == 200
    text = response.content.decode().replace("\u00a0", " ").replace("&#x27;", "'")
    assert "Ce fichier est trop lourd : un fichier d'armée pèse au plus 512 Ko." in text
