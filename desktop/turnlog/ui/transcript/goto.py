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

from ...core.numbers import ordinal_in_use
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

    def done(self, result: int) -> None:
        """Closed: the window it came from is active again, the keyboard in the history,
        so the next Ctrl+G (or arrow key) works at once, without a click (with no window
        manager to hand activation back, nothing would have it)."""
        super().done(result)
        self._view.window().activateWindow()
        if result == QDialog.DialogCode.Accepted:
            self._view.setFocus()

    def _held(self, ordinal: int) -> bool:
        """The log still holds turn `ordinal`: one deleted since the history was read
        (elsewhere) is named as deleted, never shown from the snapshot."""
        turns = self._view.transcript().turns
        return not isinstance(turns, LogPages) or turns.still_holds(ordinal)

    def _newest_ordinal(self) -> int:
        turns = self._view.transcript().turns
        if isinstance(turns, LogPages):
            return turns.newest_ordinal if len(turns) else 0
        return turns[-1].ordinal if turns else 0

    def _newest(self) -> int:
        """The newest turn's number (0: no turn)."""
        newest = self._newest_ordinal()
        return self._view.transcript().numbers.number(newest) if newest else 0

    def _range_text(self) -> str:
        newest = self._newest()
        if not newest:
            return translate("GoToTurn", "This conversation has no turns yet")
        return arg(translate("GoToTurn", "1 to %1"), newest)

    def go(self) -> bool:
        """Open the turn typed; False (and the reason shown) when there is none."""
        text = self.number.text().strip()
        number = int(text) if text.isdigit() else 0
        versions = self._view.transcript().versions
        ordinal = ordinal_in_use(versions, number) if number else 0
        if ordinal and self._held(ordinal) and self._view.reveal_ordinal(ordinal) is not None:
            self.accept()
            return True
        newest = self._newest()
        if not newest:
            reason = translate("GoToTurn", "This conversation has no turns yet.")
        elif 1 <= number <= newest:  # numbers never skip but for a privacy delete
            reason = arg(translate("GoToTurn",
                "Turn %1 was deleted: a privacy delete removed it (the turns after it keep "
                "their numbers)."), number)
        else:
            reason = arg(translate("GoToTurn",
                "There is no turn %1: this conversation's turns are numbered 1 to %2."),
                number, newest)
        self.message.setText(reason)
        self.adjustSize()  # the reason shown whole, never cut at the dialog's old height
        self.number.selectAll()
        return False
