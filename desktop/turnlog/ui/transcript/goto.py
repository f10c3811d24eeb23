"""*Go to turn…* (Ctrl+G): a turn of the open conversation by its number, shown at the
top of the history; a number that is not there says why, in the dialog."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from ...store.pages import LogPages
from ..infra.languages import arg
from .view import TranscriptView

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class GoToTurnDialog(QDialog):
    """Asks for a turn's number and opens it in `view`; stays open to say why when the
    conversation has no such turn."""

    def __init__(self, view: TranscriptView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self.setWindowTitle(translate("GoToTurn", "Go to turn"))
        self.number = QLineEdit(self)
        self.number.setValidator(QIntValidator(1, 2_000_000_000, self))
        self.number.setPlaceholderText(self._range_text())
        self.number.textEdited.connect(lambda _text: self.message.clear())
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.go)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(translate("GoToTurn", "Turn &number:"), self.number)
        form.addRow(self.message)
        form.addRow(buttons)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 48)

    def _newest(self) -> int:
        turns = self._view.transcript().turns
        if isinstance(turns, LogPages):
            return turns.newest_ordinal if len(turns) else 0
        return turns[-1].ordinal if turns else 0

    def _range_text(self) -> str:
        newest = self._newest()
        if not newest:
            return translate("GoToTurn", "This conversation has no turns yet")
        return arg(translate("GoToTurn", "1 to %1"), f"{newest:,}")

    def go(self) -> bool:
        """Open the turn typed; False (and the reason shown) when there is none."""
        text = self.number.text().strip()
        ordinal = int(text) if text.isdigit() else 0
        if ordinal and self._view.reveal_ordinal(ordinal) is not None:
            self._view.setFocus()
            self.accept()
            return True
        newest = self._newest()
        if not newest:
            reason = translate("GoToTurn", "This conversation has no turns yet.")
        elif 1 <= ordinal <= newest:
            reason = arg(translate("GoToTurn",
                "Turn %1 is not in this conversation any more: it was deleted, or a newer "
                "version replaced it."), f"{ordinal:,}")
        else:
            reason = arg(translate("GoToTurn",
                "There is no turn %1: this conversation's turns are numbered 1 to %2."),
                text or "0", f"{newest:,}")
        self.message.setText(reason)
        self.adjustSize()  # the reason shown whole, never cut at the dialog's old height
        self.number.selectAll()
        return False
