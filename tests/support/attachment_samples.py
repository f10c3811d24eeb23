"""Attachments to project: a small image and a text file."""

from __future__ import annotations

import hashlib

from turnlog.core.attachments import (
    Attachment,
    AttachmentKind,
)


def text_file(name: str, text: str) -> Attachment:
    data = text.encode("utf-8")
    return Attachment(name, AttachmentKind.TEXT, "text/plain", len(data),
                      hashlib.sha256(data).hexdigest(), data)


def image(name: str, size: int, width: int = 64, height: int = 32) -> Attachment:
    data = bytes((i * 7) % 256 for i in range(size))
    return Attachment(name, AttachmentKind.IMAGE, "image/png", size,
                      hashlib.sha256(data).hexdigest(), data, "image/png", width, height)
