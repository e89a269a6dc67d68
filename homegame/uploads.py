"""The first upload handler: a multipart body's files are read up to ``PHH_UPLOAD_MAX_BYTES``
in all, then the rest is skipped unread (kept nowhere), so neither memory nor temporary files
grow with an oversized request; the view then refuses it by its Content-Length."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload


class UploadBound(FileUploadHandler):
    def __init__(self, request=None):
        super().__init__(request)
        self.seen = 0

    def receive_data_chunk(self, raw_data, start):
        self.seen += len(raw_data)
        if self.seen > settings.PHH_UPLOAD_MAX_BYTES:
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        return None
