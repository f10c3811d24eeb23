"""Attaching files to the draft: reading them off the GUI thread (`FileReader`), and drops
anywhere on the window (`WindowDrops`). What cannot be attached is said under the chips,
with the file's name and the reason; nothing else changes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QWidget

from ...core.attachments import Attachment, AttachmentRefused
from ...file_reading import read_bytes, read_file
from ..infra.languages import arg
from ..infra.tasks import TaskContext, TaskRunner
from .composer import Composer, offered_files, png_of

translate = QCoreApplication.translate  # translate("Attaching", …): lupdate reads it


class FileReader(QObject):
    """Reads what the composer is offered, one batch at a time, in order, on the storage
    worker (a 20 MB PDF takes a while), and attaches what could be read."""

    def __init__(self, runner: TaskRunner, composer: Composer,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner, self.composer = runner, composer
        self.pasted = 0  # pasted images so far, to name them apart
        composer.files_offered.connect(self.read_paths)
        composer.image_offered.connect(self.read_pasted)

    def read_paths(self, paths: list[str]) -> None:
        self._read([(Path(p).name, Path(p), None) for p in paths])

    def read_pasted(self, png: bytes) -> None:
        self.pasted += 1
        name = arg(translate("Attaching", "pasted image %1.png"), self.pasted)
        self._read([(name, None, png)])

    def _read(self, items: list[tuple[str, Path | None, bytes | None]]) -> None:
        if self.runner.closed or self.composer.busy:
            return
        attached = self.composer.attachments

        def work(_context: TaskContext) -> tuple[list[Attachment], list[str]]:
            read: list[Attachment] = []
            refused: list[str] = []
            for name, path, data in items:
                try:
                    made = read_file(path, attached=[*attached, *read]) if path is not None \
                        else read_bytes(name, data or b"", attached=[*attached, *read])
                except AttachmentRefused as err:
                    refused.append(refusal_text(err))
                    continue
                read.append(made)
            return read, refused

        self.runner.run(TaskRunner.STORAGE, "read files to attach", work,
                        on_success=self._landed, on_failure=_bug)

    def _landed(self, found: tuple[list[Attachment], list[str]]) -> None:
        read, refused = found
        for attachment in read:
            self.composer.add_attachment(attachment)
        self.composer.show_attach_problem("\n".join(refused))


def refusal_text(err: AttachmentRefused) -> str:
    return arg(translate("Attaching", "%1 cannot be attached: %2."), err.name, err.reason)


class WindowDrops(QObject):
    """Files or an image dropped anywhere on `window` go to the composer's draft."""

    def __init__(self, window: QWidget, composer: Composer, reader: FileReader) -> None:
        super().__init__(window)
        self.composer, self.reader = composer, reader
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(
                event, QDragEnterEvent | QDropEvent):
            mime = event.mimeData()
            if not self.composer.busy and (offered_files(mime) or mime.hasImage()):
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            self.dropped(event)
            return True
        return super().eventFilter(watched, event)

    def dropped(self, event: QDropEvent) -> None:
        mime = event.mimeData()
        files = offered_files(mime)
        if files:
            event.acceptProposedAction()
            self.reader.read_paths(files)
        elif mime.hasImage() and isinstance(mime.imageData(), QImage):
            event.acceptProposedAction()
            self.reader.read_pasted(png_of(mime.imageData()))


def _bug(error: BaseException) -> None:
    raise error  # not the environment (a refusal is an answer): for the crash report
