"""Attaching files to the draft: reading them off the GUI thread (`FileReader`), and drops
anywhere on the window (`WindowDrops`). What cannot be attached is said under the chips,
with the file's name and the reason; nothing else changes. A turn's files open or save
from the history (`FileActions`)."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QUrl
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QFileDialog, QWidget

from ...core.attachments import Attachment, AttachmentRefused
from ..infra import operations
from ..infra.languages import arg
from ..infra.tasks import TaskRunner
from ..transcript.files import SAVE
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

        operations.read_files_to_attach(items, attached).run(
            self.runner, on_success=self._landed, on_failure=_bug)

    def _landed(self, found: tuple[list[Attachment], list[AttachmentRefused]]) -> None:
        read, refused = found
        for attachment in read:
            self.composer.add_attachment(attachment)
        self.composer.show_attach_problem("\n".join(refusal_text(err) for err in refused))


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


class FileActions(QObject):
    """Open or save a file attached to a turn (the history's menu): its original bytes,
    read from the database on the storage worker. An opened file is a copy in a private
    temporary folder, removed when the window closes."""

    def __init__(self, originals: OriginalSource, runner: TaskRunner, view: QWidget,
                 problem: Callable[[str, str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.originals, self.runner, self.problem = originals, runner, problem
        self._folder: Path | None = None
        # Plain attributes, so tests answer them without a dialog or a desktop.
        self.choose_save: Callable[[str], str] = lambda name: QFileDialog.getSaveFileName(
            view, translate("Attaching", "Save attached file"), name)[0]
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl
        view.file_requested.connect(self.requested)  # type: ignore[attr-defined]

    def requested(self, attachment: Attachment, what: str) -> None:
        if what == SAVE:
            target = self.choose_save(attachment.name)
            if target:
                self._run(attachment, Path(target), opened=False)
            return
        folder = self._folder = self._folder or Path(tempfile.mkdtemp(prefix="turnlog-open-"))
        self._run(attachment, folder / safe_name(attachment.name), opened=True)

    def _run(self, attachment: Attachment, target: Path, *, opened: bool) -> None:
        if self.runner.closed:
            return
        def landed(result: Path | str) -> None:
            if isinstance(result, str):
                self.problem(translate("Attaching", "The file could not be opened or saved"),
                             result)
            elif opened:
                self.open_url(QUrl.fromLocalFile(str(result)))

        operations.write_attached_file(self.originals.original, attachment,
                                       target).run(self.runner, on_success=landed,
                                                   on_failure=_bug)

    def cleanup(self) -> None:
        """Remove the copies opened from this window."""
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


class OriginalSource(Protocol):
    """Where an attached file's original bytes are read (the store's `attachments` part)."""

    def original(self, digest: str) -> bytes: ...


def safe_name(name: str) -> str:
    """A file name that stays inside the folder it is written to."""
    cleaned = re.sub(r'[\x00-\x1f/\\:*?"<>|]+', "-", name).strip(" .") or "attachment"
    return cleaned[:120]
