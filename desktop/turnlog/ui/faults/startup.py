"""Start-up in the window: the progress of an upgrade that indexes existing conversations
for search, and, when the data cannot be opened, a dialog that names the fault in plain
words with its hint, and offers Quit, Open the folder and, for a damaged database, Export
what can be read (row by row; the rows that cannot be read are skipped and counted)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ... import APP_NAME
from ...config.paths import DB_NAME
from ...core.failures import StoreError
from ...store.salvage import Salvaged, salvage_all
from ..dialogs.privacy import choose_export
from ..infra import failure_text
from ..infra.export_file import ExportTarget, write_export
from ..infra.folders import open_folder
from ..infra.languages import arg, plural

TITLES = {
    "storage_read_only": QT_TRANSLATE_NOOP("Startup", "Turnlog cannot write to its data"),
    "storage_full": QT_TRANSLATE_NOOP("Startup", "The disk holding Turnlog's data is full"),
    "storage_damaged": QT_TRANSLATE_NOOP("Startup", "Turnlog's database is damaged"),
    "storage_locked": QT_TRANSLATE_NOOP("Startup", "Turnlog's database is in use"),
    "storage_in_use": QT_TRANSLATE_NOOP("Startup", "Turnlog is already open"),
    "storage_too_new": QT_TRANSLATE_NOOP("Startup", "The database is from a newer Turnlog"),
    "storage_cannot_open": QT_TRANSLATE_NOOP("Startup", "Turnlog cannot open its data"),
    "storage_io": QT_TRANSLATE_NOOP("Startup", "The disk reported an error"),
}
HINTS = {
    "storage_in_use": QT_TRANSLATE_NOOP(
        "Startup",
        "Switch to the Turnlog window that is already open, or close it and start Turnlog again.",
    ),
    "storage_too_new": QT_TRANSLATE_NOOP(
        "Startup",
        "Install the newer Turnlog that wrote it, or start this one with another data folder "
        "(TURNLOG_HOME).",
    ),
}


class UpgradeProgress:
    """Shows how an upgrade's fill of the search index gets on, once it has taken longer
    than `after_s` (a small log is done before anything shows). Called on the GUI thread
    between batches by `TurnlogStore.open(home, progress=...)`; it lets the dialog paint."""

    def __init__(self, after_s: float = 0.5) -> None:
        self.after_s = after_s
        self.started = time.monotonic()
        self.dialog: QProgressDialog | None = None
        self.shown_total = 0  # the total the dialog was shown for (0: it never showed)

    def __call__(self, done: int, total: int) -> None:
        if self.dialog is None:
            if done >= total or time.monotonic() - self.started < self.after_s:
                return
            self.dialog = QProgressDialog(
                QCoreApplication.translate(
                    "Startup",
                    "Turnlog is indexing your conversations for search. This happens once.",
                ),
                "",
                0,
                total,
            )
            self.dialog.setObjectName("upgradeProgress")
            self.dialog.setWindowTitle(
                arg(QCoreApplication.translate("Startup", "Updating %1"), APP_NAME)
            )
            self.dialog.setCancelButton(None)  # one transaction: all of it or nothing
            self.dialog.setMinimumDuration(0)
            self.dialog.setAutoClose(False)
            self.dialog.setAutoReset(False)
            self.shown_total = total
            self.dialog.show()
        self.dialog.setLabelText(arg(QCoreApplication.translate("Startup", "Turnlog is indexing "
            "your conversations for search (%1 of %2 turns). This happens once."), done, total))
        self.dialog.setValue(done)
        QApplication.processEvents()
        if done >= total:
            self.dialog.hide()  # not close(): that would cancel, and reset what it shows
            self.dialog.deleteLater()


def fault_words(error: StoreError, default: str = ""
                ) -> tuple[str, str, str]:
    """(title, message, hint) for a storage fault: the hint apart from the message
    (`default`: the title of a fault without a named code)."""
    code = getattr(error, "code", "")
    hint = getattr(error, "hint", "") or HINTS.get(code, "")
    message = str(error)
    if hint and message.endswith(hint):
        message = message[: -len(hint)].rstrip()
    shown_hint = (
        failure_text.hint(hint)
        if code not in HINTS
        else QCoreApplication.translate("Startup", hint)
    )
    title = TITLES.get(code)
    return (
        QCoreApplication.translate("Startup", title)
        if title
        else default or QCoreApplication.translate("Startup", "Turnlog cannot open its data"),
        message,
        shown_hint,
    )


def salvage_text(salvaged: Salvaged) -> str:
    """`Salvaged.describe` in the interface language."""
    if salvaged.unreadable:
        return arg(QCoreApplication.translate("Startup", "Nothing could be read: %1"),
                   salvaged.unreadable)
    turns, conversations = salvaged.turns, salvaged.conversations
    skipped = len(salvaged.skipped)
    exported = arg(QCoreApplication.translate("Startup", "Exported %1 of %2;"),
                   plural(QCoreApplication.translate("Startup", "%n turn(s)", None, turns), turns),
                   plural(QCoreApplication.translate(
                       "Startup", "%n conversation(s)", None, conversations), conversations))
    rows = (QCoreApplication.translate("Startup", "1 row could not be read and was skipped.")
            if skipped == 1 else
            arg(QCoreApplication.translate("Startup", "%1 rows could not be read and were "
                                           "skipped."), skipped))
    return f"{exported} {rows}"


def export_salvage(salvaged: Salvaged, target: ExportTarget | None) -> str:
    """Write what could be read to `target`; the words that say what happened."""
    if target is None:
        return ""
    if salvaged.unreadable:
        return salvage_text(salvaged)
    try:
        write_export(target.path, salvaged.text)
    except OSError as err:
        return arg(
            QCoreApplication.translate("Startup", "Could not write %1: %2."),
            target.path,
            err.strerror or err,
        )
    return arg(
        QCoreApplication.translate("Startup", "%1 Saved to %2."),
        salvage_text(salvaged),
        target.path,
    )


class StartupDialog(QDialog):
    """Shown instead of the window when the data cannot be opened. `choose_export` asks
    where to save (a plain attribute, so it can be answered without a file dialog)."""

    def __init__(self, error: StoreError, home: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error, self.home = error, home
        self.choose_export: Callable[[], ExportTarget | None] = \
            lambda: choose_export(self, "turnlog readable")
        title, message, hint = fault_words(error)
        self.setWindowTitle(arg(QCoreApplication.translate("Startup", "%1 cannot start"), APP_NAME))
        self.setObjectName("startupFault")
        layout = QVBoxLayout(self)
        self.title = self._label(title, "startupTitle", bold=True)
        self.message = self._label(message, "startupMessage")
        self.hint = self._label(hint, "startupHint")
        self.outcome = self._label("", "startupOutcome")
        for label in (self.title, self.message, self.hint, self.outcome):
            layout.addWidget(label)
        self.hint.setVisible(bool(hint))
        self.outcome.hide()
        buttons = QHBoxLayout()
        self.export_button = QPushButton(QCoreApplication.translate("Startup", "Export what can "
            "be read…"), self)
        self.export_button.clicked.connect(self.export_readable)
        self.export_button.setVisible(getattr(error, "code", "") == "storage_damaged")
        self.folder_button = QPushButton(
            QCoreApplication.translate("Startup", "Open the folder"), self
        )
        self.folder_button.clicked.connect(lambda: open_folder(self.home))
        self.quit_button = QPushButton(QCoreApplication.translate("Startup", "Quit"), self)
        self.quit_button.setDefault(True)
        self.quit_button.clicked.connect(self.reject)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(self.folder_button)
        buttons.addWidget(self.quit_button)
        layout.addLayout(buttons)

    def _label(self, text: str, name: str, *, bold: bool = False) -> QLabel:
        label = QLabel(text, self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if bold:
            font = label.font()
            font.setBold(True)
            label.setFont(font)
        return label

    def export_readable(self) -> str:
        """Export what can be read of the database to a file the person picks; the words
        saying how many turns were exported and how many rows were skipped."""
        target = self.choose_export()
        if target is None:
            return ""
        words = export_salvage(salvage_all(self.home / DB_NAME, target.fmt), target)
        self.outcome.setText(words)
        self.outcome.show()
        return words


def show_startup_fault(error: StoreError, home: Path) -> int:
    """The start-up dialog, modal; the exit status (1: Turnlog did not start)."""
    dialog = StartupDialog(error, home)
    dialog.exec()
    return 1
