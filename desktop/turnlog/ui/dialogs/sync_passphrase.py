"""Change passphrase… on Settings → Sync: the new passphrase typed twice (or the one another
machine changed it to), the reminder that a lost one cannot be recovered, what does not
match said inline; `chosen` with the passphrase's bytes when it is accepted."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

translate = QCoreApplication.translate  # translate("SyncPage", …): lupdate reads it


class PassphraseDialog(QDialog):
    """Asks for a passphrase twice; `chosen(bytes)` once both match."""

    chosen = Signal(bytes)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncPassphraseDialog")
        self.setWindowTitle(translate("SyncPage", "Change passphrase"))
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        note = QLabel(translate(
            "SyncPage", "Type a new passphrase, or the one another machine changed it to. "
            "This machine's objects are sealed again with it at the next sync, and the other "
            "machines ask for it. A lost passphrase cannot be recovered."), self)
        note.setWordWrap(True)
        form.addRow(note)
        self.passphrase = QLineEdit(self)
        self.again = QLineEdit(self)
        for edit, name in ((self.passphrase, translate("SyncPage", "New passphrase")),
                           (self.again, translate("SyncPage", "New passphrase again"))):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setAccessibleName(name)
        form.addRow(translate("SyncPage", "&Passphrase:"), self.passphrase)
        form.addRow(translate("SyncPage", "A&gain:"), self.again)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.hide()
        form.addRow(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(
            translate("SyncPage", "Change passphrase"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def accept(self) -> None:
        text = self.passphrase.text()
        if not text.strip() or text != self.again.text():
            self.problem.setText(translate("SyncPage", "Type a passphrase.") if not text.strip()
                                 else translate("SyncPage", "The two passphrases differ."))
            self.problem.show()
            return
        self.passphrase.clear()
        self.again.clear()
        super().accept()
        self.chosen.emit(text.encode("utf-8"))
