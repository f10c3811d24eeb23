"""Pin from this turn…: words of one turn selected to become a pinned fact."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ...infra.languages import arg


class PinFromTurn(QDialog):
    """A turn's text to select from: the selection (or the edited line) becomes a pin
    whose source is that turn."""

    def __init__(self, turn_id: str, shown: int, text: str, parent: QWidget, *,
                 chosen: tuple[int, int] | None = None) -> None:
        super().__init__(parent)
        self.turn_id = turn_id
        self.setWindowTitle(
            arg(QCoreApplication.translate("MemoryPanel", "Pin from turn %1"), shown)
        )
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(QCoreApplication.translate("MemoryPanel", "Select the words to pin:"), self)
        )
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setPlainText(text)
        self.text.setAccessibleName(
            arg(QCoreApplication.translate("MemoryPanel", "Turn %1"), shown)
        )
        layout.addWidget(self.text, 1)
        self.buttons = QDialogButtonBox(self)
        self.pin = self.buttons.addButton(
            QCoreApplication.translate("MemoryPanel", "Pin"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.pin.setEnabled(False)
        self.text.selectionChanged.connect(
            lambda: self.pin.setEnabled(bool(self.selected().strip())))
        if chosen is not None:  # the words selected in the transcript: Pin takes them
            self._choose(text, *chosen)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def _choose(self, text: str, start: int, end: int) -> None:
        """Select `text[start:end]` (Qt counts UTF-16 units, Python characters)."""
        cursor = self.text.textCursor()
        cursor.setPosition(_units(text[:start]))
        cursor.setPosition(_units(text[:end]), QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()

    def selected(self) -> str:
        # Qt gives a paragraph break as U+2029: a pin keeps ordinary newlines.
        return self.text.textCursor().selectedText().replace("\u2029", "\n")


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
