"""The inspector's rows for attachments: each file as a part of the body it is sent in
(what it adds in bytes and tokens), with a thumbnail for an image."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QIcon, QImage, QPixmap

from ...core.attachments import Attachment, AttachmentKind, Question
from ...core.projection import attachment_costs
from ..infra.languages import arg

THUMBNAIL_PX = 48

def kind_text(attachment: Attachment) -> str:
    if attachment.kind is AttachmentKind.IMAGE:
        return QCoreApplication.translate("Inspector", "image")
    if attachment.kind is AttachmentKind.PDF:
        return QCoreApplication.translate("Inspector", "PDF")
    return QCoreApplication.translate("Inspector", "text")


def file_rows(question: Question, images: bool = True
              ) -> list[tuple[str, int, int, Attachment | None]]:
    """One row per file of the question: "  ↳ chart.png (image, 64×32)", its bytes and
    tokens in the message (they are part of the row above, not added to it)."""
    rows: list[tuple[str, int, int, Attachment | None]] = []
    if not question.attachments:  # most turns: nothing to measure (no token count made)
        return rows
    for cost in attachment_costs(question, images=images):
        attachment = cost.attachment
        kind = kind_text(attachment)
        if attachment.kind is AttachmentKind.IMAGE:
            kind = arg(QCoreApplication.translate("Inspector", "%1, %2×%3"), kind,
                       attachment.width, attachment.height)
        name = arg(QCoreApplication.translate("Inspector", "  ↳ %1 (%2)"), attachment.name,
                   kind)
        rows.append((name, cost.bytes, cost.tokens, attachment))
    return rows


class Thumbnails:
    """Small icons of the images shown, made once per file (by its digest)."""

    def __init__(self) -> None:
        self._made: dict[str, QIcon] = {}

    def icon(self, attachment: Attachment) -> QIcon:
        if attachment.kind is not AttachmentKind.IMAGE:
            return QIcon()
        icon = self._made.get(attachment.digest)
        if icon is None:
            image = QImage.fromData(attachment.sent)
            if image.isNull():
                icon = QIcon()
            else:
                icon = QIcon(QPixmap.fromImage(image.scaled(
                    THUMBNAIL_PX, THUMBNAIL_PX, Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation)))
            self._made[attachment.digest] = icon
        return icon
