"""Uploads stop at UPLOAD_MAX_BYTES: a larger request is refused (413, with the sentence of
`config.views.bad_request`) before its body is read, or as soon as its files pass the limit
when it does not say its length. Django's own limit (DATA_UPLOAD_MAX_MEMORY_SIZE) counts a
form's fields but not its files, which it would otherwise spool whole, to memory or disk,
before any view could refuse them.

First in FILE_UPLOAD_HANDLERS; it stores nothing itself, every chunk goes on to Django's
handlers after it.
"""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler


class LimitedUploadHandler(FileUploadHandler):
    def __init__(self, request=None) -> None:
        super().__init__(request)
        self.received = 0

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length > settings.UPLOAD_MAX_BYTES:
            raise RequestDataTooBig("upload over UPLOAD_MAX_BYTES")
        return None  # the parsing goes on, chunk by chunk

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > settings.UPLOAD_MAX_BYTES:
            raise RequestDataTooBig("upload over UPLOAD_MAX_BYTES")
        return raw_data

    def file_complete(self, file_size):
        return None
