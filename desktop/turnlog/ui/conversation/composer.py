"""The composer: the draft and its attachments, Send / Stop, the live size counter and
why Send is off. Files come by the paperclip, by a drop (onto the draft or anywhere on
the window, `attachments.WindowDrops`) or by a paste (an image from the clipboard, files
copied in a file manager); `attachments.FileReader` reads them off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QBuffer,
    QByteArray,
    QCoreApplication,
    QEvent,
    QIODevice,
    QMimeData,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QImage,
    QKeyEvent,
    QKeySequence,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.attachments import Attachment, Question
from .attachment_tray import AttachmentTray

PROMPT = QT_TRANSLATE_NOOP("Composer", "Ask something… (Ctrl+Enter to send)")
ANSWERING = QT_TRANSLATE_NOOP("Composer", "Answering… (Esc or Stop to cancel)")
SEND_TIP = QT_TRANSLATE_NOOP("Composer", "Send the question (Ctrl+Enter)")


translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

def tr(text: str) -> str:
    return QCoreApplication.translate("Composer", text)


def offered_files(mime: QMimeData) -> list[str]:
    """The local files a drop or a paste offers (a file manager's copied files)."""
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()] \
        if mime.hasUrls() else []


def png_of(image: QImage) -> bytes:
    """A pasted image as PNG bytes (what a file of it would hold)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


class DraftEdit(QPlainTextEdit):
    """The question being typed. Ctrl+Enter submits, Ctrl+Shift+Enter asks it aside (a side
    question), Esc asks to stop. A pasted or dropped image or file is offered to attach
    (`files_offered`, `image_offered`) instead of becoming text."""

    submit = Signal()
    aside = Signal()
    stop = Signal()
    files_offered = Signal(list)  # local paths
    image_offered = Signal(bytes)  # a pasted image, as PNG

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # noqa: N802 - Qt override
        return source.hasImage() or bool(offered_files(source)) or \
            super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt override
        files = offered_files(source)
        if files:
            self.files_offered.emit(files)
        elif source.hasImage():
            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.image_offered.emit(png_of(image))
        else:
            super().insertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if offered_files(event.mimeData()):
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt override
        if offered_files(event.mimeData()):
            event.acceptProposedAction()
            return
        super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        files = offered_files(event.mimeData())
        if files:
            event.acceptProposedAction()
            self.files_offered.emit(files)
            return
        super().dropEvent(event)

    def event(self, event: QEvent) -> bool:
        # Ctrl+Enter is the draft's own (at once, not as Send's shortcut, which would
        # click the button a moment later).
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            (self.aside if shift else self.submit).emit()
            return
        if key == Qt.Key.Key_Escape:
            self.stop.emit()
            return
        super().keyPressEvent(event)


class Composer(QWidget):
    """Holds the draft. While a request runs the draft is kept read-only and empty;
    after a failure `restore` puts back exactly what was sent, cursor included."""

    send_requested = Signal()
    aside_requested = Signal()  # Ctrl+Shift+Enter: ask the draft as a side question
    stop_requested = Signal()
    draft_changed = Signal()  # the text or the attachments changed
    attachments_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._files: list[Attachment] = []
        self.images = True  # whether the model in use takes images (the chips' counts)
        # Asks for files to attach (a plain attribute: tests answer it without a dialog).
        self.choose_files: Callable[[], list[str]] = self._choose_files
        self.tray = AttachmentTray(self)
        self.tray.remove_requested.connect(self.remove_attachment)
        layout.addWidget(self.tray)

        self.edit = DraftEdit(self)
        self.edit.setObjectName("draft")
        self.edit.setAccessibleName(translate("Composer", "Question"))
        self.edit.setAccessibleDescription(
            translate("Composer", "Ctrl+Enter sends, Esc stops a running request")
        )
        self.edit.setPlaceholderText(tr(PROMPT))
        self.edit.setTabChangesFocus(True)
        self.edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        line = self.edit.fontMetrics().lineSpacing()
        self.edit.setMinimumHeight(line * 2 + 14)
        self.edit.setMaximumHeight(line * 5 + 14)
        self.edit.submit.connect(self.send_requested)
        self.edit.aside.connect(self.aside_requested)
        self.edit.stop.connect(self.stop_requested)
        self.edit.textChanged.connect(self.draft_changed)
        self.edit.textChanged.connect(self._update_send)
        layout.addWidget(self.edit)

        row = QHBoxLayout()
        row.setSpacing(6)
        self.attach_button = QToolButton(self)
        self.attach_button.setText("📎")
        self.attach_button.setObjectName("attachButton")
        self.attach_button.setToolTip(translate(
            "Composer", "Attach text files, PDFs or images (or drop or paste them here)"))
        self.attach_button.setAccessibleName(translate("Composer", "Attach files"))
        self.attach_button.clicked.connect(lambda: self.offer_files(self.choose_files()))
        row.addWidget(self.attach_button)
        self.counter = QLabel(self)
        self.counter.setObjectName("sizeCounter")
        self.counter.setAccessibleName(translate("Composer", "Request size"))
        self.counter.setWordWrap(True)
        self.counter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row.addWidget(self.counter, 1)
        self.stop_button = QPushButton(translate("Composer", "Stop"), self)
        self.stop_button.setToolTip(translate("Composer", "Stop the running request (Esc)"))
        self.stop_button.setAccessibleName(translate("Composer", "Stop"))
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.setEnabled(False)
        row.addWidget(self.stop_button)
        self.send_button = QPushButton(translate("Composer", "Send"), self)
        self.send_button.setObjectName("sendButton")
        self.send_button.setToolTip(tr(SEND_TIP))
        self.send_button.setAccessibleName(translate("Composer", "Send"))
        self.send_button.setShortcut(QKeySequence("Ctrl+Return"))
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send_requested)
        row.addWidget(self.send_button)
        layout.addLayout(row)

        self.reason = QLabel(self)
        self.reason.setObjectName("sendBlocked")
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.setAccessibleName(translate("Composer", "Why Send is unavailable"))
        self.reason.hide()
        layout.addWidget(self.reason)

        self._busy = False
        self._blocked = ""
        self._held = ""  # a block that outlasts the preview's (a damaged database)
        self._update_send()

    # ------------------------------------------------------------------ draft
    def text(self) -> str:
        return self.edit.toPlainText()

    @property
    def files_offered(self) -> Signal:
        return self.edit.files_offered

    @property
    def image_offered(self) -> Signal:
        return self.edit.image_offered

    def offer_files(self, paths: list[str]) -> None:
        """Files chosen, dropped or pasted: read them to attach (`FileReader` listens)."""
        if paths:
            self.edit.files_offered.emit(paths)

    def _choose_files(self) -> list[str]:
        paths, _filter = QFileDialog.getOpenFileNames(
            self, translate("Composer", "Attach files"), "",
            translate("Composer", "Text, PDFs and images (*);;All files (*)"))
        return paths

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return tuple(self._files)

    def question(self) -> Question:
        """The draft as it would be asked: its text and its files."""
        return Question(self.text(), tuple(self._files))

    def add_attachment(self, attachment: Attachment) -> None:
        self._files.append(attachment)
        self._files_changed()

    def remove_attachment(self, index: int) -> None:
        if 0 <= index < len(self._files) and not self._busy:
            del self._files[index]
            self._files_changed()

    def set_attachments(self, files: tuple[Attachment, ...]) -> None:
        if list(files) != self._files:
            self._files = list(files)
            self._files_changed()

    def files_sent(self, files: tuple[Attachment, ...]) -> None:
        """A question with `files` was saved: they leave the draft if they are its files (a
        regenerated turn's are not)."""
        if files and tuple(self._files) == tuple(files):
            self.set_attachments(())

    def show_attach_problem(self, text: str) -> None:
        self.tray.show_problem(text)

    def _files_changed(self) -> None:
        self.tray.show_problem("")
        self.refresh_chips()
        self.attachments_changed.emit()
        self.draft_changed.emit()
        self._update_send()

    def take_images(self, images: bool) -> None:
        """Whether the model in use takes images: the chips count what it is sent."""
        if images != self.images:
            self.images = images
            self.refresh_chips()

    def refresh_chips(self) -> None:
        """The chips again (the draft's text changes what a file adds to the message)."""
        self.tray.show_files(self.question(), images=self.images)
        for chip in self.tray.chips:
            chip.remove.setEnabled(not self._busy)

    def cursor_position(self) -> int:
        return self.edit.textCursor().position()

    def announce_draft(self) -> None:
        """Tell the draft's listeners (the preview, the draft keeper) to look at it again."""
        self.draft_changed.emit()

    def set_draft(self, text: str, cursor: int | None = None) -> None:
        self.edit.setPlainText(text)
        position = len(text) if cursor is None else cursor
        text_cursor = self.edit.textCursor()
        text_cursor.setPosition(max(0, min(position, len(self.edit.toPlainText()))))
        self.edit.setTextCursor(text_cursor)

    def take(self) -> tuple[str, int]:
        """The draft and its cursor, leaving the composer empty."""
        taken = (self.text(), self.cursor_position())
        self.edit.clear()
        return taken

    def restore(self, text: str, cursor: int) -> None:
        """Give back exactly `text` with the cursor at `cursor`, and focus the draft."""
        self.set_draft(text, cursor)
        self.edit.moveCursor(QTextCursor.MoveOperation.NoMove)
        self.edit.setFocus()

    # ------------------------------------------------------------------ state
    @property
    def busy(self) -> bool:
        return self._busy

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.edit.setReadOnly(busy)
        self.edit.setPlaceholderText(tr(ANSWERING) if busy else tr(PROMPT))
        # Qt repaints an empty draft only when the placeholder appears or disappears, not
        # when its words change: without this the old words stay on screen.
        self.edit.viewport().update()
        self.stop_button.setEnabled(busy)
        self.attach_button.setEnabled(not busy)
        for chip in self.tray.chips:
            chip.remove.setEnabled(not busy)
        self._update_send()
        # The focus stays where it was: a space or Return typed on after Ctrl+Enter must not
        # press Stop (Esc stops from anywhere, as the words in the box say).

    def set_counter(self, text: str, tooltip: str = "") -> None:
        self.counter.setText(text)
        self.counter.setToolTip(tooltip or text)

    def set_blocked(self, reason: str) -> None:
        """Disable Send and say why ("" enables it)."""
        self._blocked = reason
        self._update_send()

    @property
    def blocked_reason(self) -> str:
        return self._held or self._blocked

    def hold(self, reason: str) -> None:
        """Keep Send off for `reason` whatever the preview says ("" lets it go)."""
        self._held = reason
        self._update_send()

    @property
    def held(self) -> bool:
        return bool(self._held)

    def _update_send(self) -> None:
        reason = self.blocked_reason
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        # Send is on whenever there is a question to send (with no conversation open, it
        # starts one) and nothing keeps it off.
        self.send_button.setEnabled(not self._busy and not reason and bool(self.text().strip()))
        self.send_button.setToolTip(
            reason
            or (translate("Composer", "A request is running") if self._busy else tr(SEND_TIP))
        )
