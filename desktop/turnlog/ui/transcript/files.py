"""A turn's attached files in the history: a line each under its question ("📎 chart.png ·
image, 640×480 · 82.1 KB"), and the menu that opens or saves one."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu, QWidget

from ...core.attachments import Attachment, AttachmentKind, added_on
from ..infra.languages import arg, byte_size
from .model import ModelIndex, Role

translate = QCoreApplication.translate  # translate("TranscriptFiles", …): lupdate reads it

OPEN = "open"
SAVE = "save"


def file_line(attachment: Attachment) -> str:
    if attachment.kind is AttachmentKind.IMAGE:
        kind = arg(translate("TranscriptFiles", "image, %1×%2"), attachment.width,
                   attachment.height)
    elif attachment.kind is AttachmentKind.PDF:
        kind = translate("TranscriptFiles", "PDF")
    else:
        kind = translate("TranscriptFiles", "text")
    if attachment.encoding:
        kind = arg(translate("TranscriptFiles", "%1, %2"), kind, attachment.encoding)
    line = arg(translate("TranscriptFiles", "📎 %1 · %2 · %3"), attachment.name, kind,
               byte_size(attachment.size))
    if attachment.added_at:  # not asked with the question: a later import brought it
        line += arg(translate("TranscriptFiles", " · added by import on %1"),
                    added_on(attachment))
    return line


def files_of(index: ModelIndex) -> tuple[Attachment, ...]:
    files = index.data(Role.ATTACHMENTS) if index.isValid() else None
    return files if isinstance(files, tuple) else ()


def question_shown(index: ModelIndex) -> str:
    """The question as its row shows it: its text, then a line for each attached file."""
    question = str(index.data(Role.QUESTION) or "")
    files = files_of(index)
    if not files:
        return question
    return "\n".join([question, "", *(file_line(a) for a in files)])


def fill_files_menu(menu: QMenu, files: tuple[Attachment, ...],
                    chosen: Callable[[Attachment, str], None], parent: QWidget) -> None:
    """`menu` with Open and Save as… for each of `files`."""
    menu.clear()
    for attachment in files:
        sub = menu.addMenu(attachment.name) if len(files) > 1 else menu
        sub.addAction(arg(translate("TranscriptFiles", "Open %1"), attachment.name),
                      lambda a=attachment: chosen(a, OPEN))
        sub.addAction(arg(translate("TranscriptFiles", "Save %1 as…"), attachment.name),
                      lambda a=attachment: chosen(a, SAVE))
