"""Settings → Sync once sync is set up: this machine and its storage (never a secret), the
last sync and how it went, the other machines and when each last synced, the deletes made
here that some machines have not read yet (counts and dates, never a title or a text), and
the buttons: Sync now, Change passphrase…, Forget this machine…, Stop syncing…

It only shows a `SyncStatus` and says what was asked with its signals; the page runs the
work."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...service.sync_status import MachineSeen, SyncStatus
from ...sync.storage import StorageConfig
from ..infra.languages import arg, date_time
from ..infra.sync_words import pending_delete_words

translate = QCoreApplication.translate  # translate("SyncPage", …): lupdate reads it
MACHINE = Qt.ItemDataRole.UserRole  # a machine row's MachineSeen


def storage_words(config: StorageConfig) -> str:
    """The storage in words, without a secret (a user name in a URL is left out too)."""
    if config.kind == "folder":
        return arg(translate("SyncPage", "Folder: %1"), config.address)
    parts = urlsplit(config.address)
    host = (parts.hostname or config.address) + (f":{parts.port}" if parts.port else "")
    if config.kind == "webdav":
        return arg(translate("SyncPage", "WebDAV: %1"), host + parts.path.rstrip("/"))
    place = "/".join(p for p in (config.bucket, config.prefix.strip("/")) if p)
    return arg(translate("SyncPage", "S3: %1 on %2"), place, host)


def _when(stamp: str) -> str:
    try:
        return date_time(datetime.fromisoformat(stamp))
    except ValueError:
        return stamp


def machine_words(machine: MachineSeen) -> str:
    if machine.forgotten:
        return arg(translate("SyncPage", "%1 — forgotten"), machine.name)
    if not machine.last_object:
        return arg(translate("SyncPage", "%1 — has not synced yet"), machine.name)
    return arg(translate("SyncPage", "%1 — last synced %2"), machine.name,
               _when(machine.last_object))


def _label(parent: QWidget, name: str, *, heading: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # names and paths are shown, never run
    if heading:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


def _fit_rows(view: QListWidget, most: int = 6) -> None:
    """As tall as its rows (at most `most`, then it scrolls): a short list leaves no empty
    box on the page."""
    rows = max(1, min(view.count(), most))
    row = max(view.sizeHintForRow(0), view.fontMetrics().height() + 2)
    view.setFixedHeight(rows * row + 2 * view.frameWidth() + 4)


def _note(view: QListWidget, text: str) -> None:
    """A row that says the list is empty, and why (it cannot be chosen)."""
    item = QListWidgetItem(text, view)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled)


class SyncOverview(QWidget):
    """Shows a `SyncStatus`; its buttons ask for what the page does."""

    sync_now_asked = Signal()
    passphrase_asked = Signal()
    forget_asked = Signal(object)  # the MachineSeen chosen in the list
    stop_asked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncOverview")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.machine_line = _label(self, "syncThisMachine")
        self.storage_line = _label(self, "syncStorage")
        self.storage_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.last_line = _label(self, "syncLast")
        self.state_line = _label(self, "syncState")
        top = QHBoxLayout()
        words = QVBoxLayout()
        for label in (self.machine_line, self.storage_line, self.last_line, self.state_line):
            words.addWidget(label)
        top.addLayout(words, 1)
        self.sync_now = self._button(translate("SyncPage", "Sync &now"), self.sync_now_asked.emit)
        top.addWidget(self.sync_now, 0, Qt.AlignmentFlag.AlignTop)
        column.addLayout(top)
        column.addWidget(_label(self, "syncMachinesHeading", heading=True))
        self.machines = QListWidget(self)
        self.machines.setObjectName("syncMachines")
        self.machines.setAccessibleName(translate("SyncPage", "Other machines"))
        column.addWidget(self.machines)
        column.addWidget(_label(self, "syncPendingHeading", heading=True))
        self.pending = QListWidget(self)
        self.pending.setObjectName("syncPendingDeletes")
        self.pending.setAccessibleName(translate("SyncPage", "Deletes not read everywhere yet"))
        self.pending.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        column.addWidget(self.pending)
        self.notes = _label(self, "syncNotes")
        column.addWidget(self.notes)
        column.addLayout(self._actions())
        self._headings()
        self.machines.currentItemChanged.connect(lambda *_: self._enable())
        self._enable()

    def _headings(self) -> None:
        self.findChild(QLabel, "syncMachinesHeading").setText(
            translate("SyncPage", "Other machines"))
        self.findChild(QLabel, "syncPendingHeading").setText(
            translate("SyncPage", "Deletes the other machines have not read yet"))

    def _actions(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.passphrase = self._button(translate("SyncPage", "Change &passphrase…"),
                                       self.passphrase_asked.emit)
        self.forget = self._button(translate("SyncPage", "&Forget this machine…"),
                                   self._forget)
        self.forget.setToolTip(translate("SyncPage", "A machine chosen above that will never "
                                         "return: its history is kept in this machine's "
                                         "objects, its own are removed from the storage"))
        self.stop = self._button(translate("SyncPage", "S&top syncing…"), self.stop_asked.emit)
        for button in (self.passphrase, self.forget, self.stop):
            row.addWidget(button)
        row.addStretch(1)
        return row

    def _button(self, text: str, slot: object) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(slot)
        return button

    def chosen(self) -> MachineSeen | None:
        item = self.machines.currentItem()
        return None if item is None else item.data(MACHINE)

    def _enable(self) -> None:
        chosen = self.chosen()
        self.forget.setEnabled(chosen is not None and not chosen.forgotten)

    def _forget(self) -> None:
        chosen = self.chosen()
        if chosen is not None and not chosen.forgotten:
            self.forget_asked.emit(chosen)

    def show_status(self, status: SyncStatus) -> None:
        """Everything `status` says, in words."""
        self.machine_line.setText(arg(translate("SyncPage", "This machine: %1"),
                                      status.machine_name))
        self.storage_line.setText(storage_words(status.storage))
        self.last_line.setText(arg(translate("SyncPage", "Last sync: %1"),
                                   _when(status.last_sync)) if status.last_sync
                               else translate("SyncPage", "Last sync: not yet"))
        kept = self.chosen()
        self.machines.clear()
        for machine in status.machines:
            item = QListWidgetItem(machine_words(machine), self.machines)
            item.setData(MACHINE, machine)
            if kept is not None and kept.id == machine.id:
                self.machines.setCurrentItem(item)
        if not status.machines:
            _note(self.machines, translate("SyncPage", "None yet: set sync up on another "
                                           "machine with the same storage and passphrase."))
        self.pending.clear()
        for item in status.pending_deletes:
            self.pending.addItem(pending_delete_words(item.conversations, item.turns,
                                                      item.records, item.deleted,
                                                      item.not_synced_since))
        if not status.pending_deletes:
            _note(self.pending, translate("SyncPage", "None: every machine has read every "
                                          "delete made here."))
        _fit_rows(self.machines)
        _fit_rows(self.pending)
        lines = ([arg(translate("SyncPage", "Waiting: %1"), w) for w in status.waiting]
                 + [arg(translate("SyncPage", "Problem: %1"), p) for p in status.problems])
        self.notes.setText("\n".join(lines))
        self.notes.setVisible(bool(lines))
        self._enable()

    def show_state(self, words: str) -> None:
        """How the window's syncs go now (the status bar's words)."""
        self.state_line.setText(words)
        self.state_line.setVisible(bool(words))
