"""The composer: the draft, Send / Stop, the live size counter and why Send is off."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

PROMPT = QT_TRANSLATE_NOOP("Composer", "Ask something… (Ctrl+Enter to send)")
ANSWERING = QT_TRANSLATE_NOOP("Composer", "Answering… (Esc or Stop to cancel)")
SEND_TIP = QT_TRANSLATE_NOOP("Composer", "Send the question (Ctrl+Enter)")


translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

def tr(text: str) -> str:
    return QCoreApplication.translate("Composer", text)


class DraftEdit(QPlainTextEdit):
    """The question being typed. Ctrl+Enter submits, Ctrl+Shift+Enter asks it aside (a side
    question), Esc asks to stop."""

    submit = Signal()
    aside = Signal()
    stop = Signal()

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
    draft_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)

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
        self._update_send()
        if busy:
            self.stop_button.setFocus()

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
