"""Sync in the window: when the data directory has sync set up, it syncs shortly after the
first screen is up, some seconds after the last committed change, and every few minutes;
never two at once, always on the sync lane's worker (with a store connection of its own:
`service.sync_runner`). The status bar's sync button says how it went in plain words and
syncs now when clicked (View → Sync now, F5).

A sync that brought records in is announced with `synced`; the shell refreshes the
conversation list and the open conversation from it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QStatusBar, QToolButton

from ..infra.languages import arg, plural
from ..infra.tasks import TaskRunner

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...service.sync_runner import SyncDone
    from ...store import TurnlogStore

translate = QCoreApplication.translate  # translate("Sync", …): lupdate reads it


@dataclass(frozen=True, slots=True)
class SyncTimes:
    """When the window syncs by itself, in milliseconds."""

    first: int = 3_000  # after the first screen is up
    after_change: int = 10_000  # after the last committed change (each change restarts it)
    every: int = 300_000  # while the window is open
    words: int = 20_000  # how often "Synced N min ago" is said again


def failure_words(kind: str, detail: str) -> str:
    """A failed sync in plain words (see `service.sync_runner` for the kinds)."""
    if kind == "wrong_passphrase":
        return translate("Sync", "Sync: wrong passphrase — run `turnlog-cli sync passphrase`")
    if kind == "passphrase_changed":
        return translate("Sync", "Sync: another machine changed the passphrase — run "
                         "`turnlog-cli sync passphrase`")
    if kind == "folder_missing":
        return arg(translate("Sync", "Sync folder not found: %1"), detail)
    if kind == "keyring":
        return translate("Sync", "Sync: the keyring could not be opened")
    if kind == "busy":
        return translate("Sync", "Sync: another sync is running")
    if kind == "not_set_up":
        return translate("Sync", "Sync is not set up — run `turnlog-cli sync setup`")
    return arg(translate("Sync", "Sync failed: %1"), detail)


def since_words(seconds: float) -> str:
    """"Synced just now", "Synced 2 min ago", "Synced 3 h ago"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return translate("Sync", "Synced just now")
    if minutes < 60:
        return plural(translate("Sync", "Synced %n min ago", None, minutes), minutes)
    hours = minutes // 60
    return plural(translate("Sync", "Synced %n h ago", None, hours), hours)


class SyncControl(QObject):
    """Schedules and runs the window's syncs and says in `button` how the last one went.

    `open_id()` names the conversation open in the window (a sync says whether it is still
    there afterwards); `bar()` is the window's status bar, made when first asked for: the
    button joins it only once a sync found sync set up (no empty strip otherwise)."""

    synced = Signal(object)  # SyncDone of a sync that brought something in
    said = Signal(str)  # the button's words, each time they change

    def __init__(self, store: TurnlogStore, runner: TaskRunner, open_id: Callable[[], int | None],
                 bar: Callable[[], QStatusBar], times: SyncTimes | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.runner, self.open_id = store, runner, open_id
        self.times = times or SyncTimes()
        self.running = False
        self.set_up: bool | None = None  # unknown until the first sync answered
        self.last_done_at: float | None = None  # time.monotonic() of the last sync done
        self.failure: str = ""
        self.bar = bar
        self.button: QToolButton | None = None
        self.action = QAction(translate("Sync", "Sync now"), self)
        self.action.setObjectName("syncNowAction")
        self.action.setShortcut(QKeySequence("F5"))
        self.action.triggered.connect(self._asked)
        self._by_person = False  # the running sync was asked for (View → Sync now)
        self._again = False
        self._soon = self._timer(self.times.after_change, single=True)
        self._every = self._timer(self.times.every, single=False)
        self._words = self._timer(self.times.words, single=False, slot=self._say)

    def _timer(self, interval: int, *, single: bool, slot: Callable[[], None] | None = None
               ) -> QTimer:
        timer = QTimer(self)
        timer.setInterval(interval)
        timer.setSingleShot(single)
        timer.timeout.connect(slot or self.sync_now)
        return timer

    def retime(self, times: SyncTimes) -> None:
        """Sync at other times from now on."""
        self.times = times
        self._soon.setInterval(times.after_change)
        self._every.setInterval(times.every)
        self._words.setInterval(times.words)

    def start(self) -> None:
        """The first screen is up: the first sync soon, then every few minutes."""
        if self._every.isActive():
            return
        self._every.start()
        self._words.start()
        QTimer.singleShot(self.times.first, self, self.sync_now)

    def changed(self) -> None:
        """Something was committed here: sync once the changes have settled."""
        if self.set_up is not False:
            self._soon.start()

    def _asked(self) -> None:
        self._by_person = True
        self.sync_now()

    def sync_now(self) -> None:
        """Sync now (again once the running one is over, if one is)."""
        if self.runner.closed:
            return
        if self.running:
            self._again = True
            return
        self._soon.stop()
        self.running = True
        if self.set_up:
            self._show(translate("Sync", "Syncing…"))
        store, open_id = self.store, self.open_id()

        def work(_context: object) -> SyncDone:
            from ...service.sync_runner import sync_data_directory

            return sync_data_directory(store, open_id)

        self.runner.run(TaskRunner.SYNC, "sync", work, on_success=self._done,
                        on_failure=self._failed)

    def _done(self, done: SyncDone) -> None:
        self.set_up, self.failure, self._by_person = True, "", False
        self.last_done_at = time.monotonic()
        self._over()
        if n := len(done.problems):
            self.failure = plural(translate("Sync", "Sync: %n problem(s) — see "
                                            "`turnlog-cli sync status`", None, n), n)
        self._say()
        if done.received or done.open_gone:
            self.synced.emit(done)

    def _failed(self, error: BaseException) -> None:
        from ...service.sync_runner import SyncFailure

        self._over()
        by_person, self._by_person = self._by_person, False
        if not isinstance(error, SyncFailure):
            self.failure = failure_words("failed", str(error))
            self._say()
            raise error  # a bug: the crash report has it
        if error.kind == "not_set_up":
            self.set_up = False
            if self.button is not None:
                self.button.hide()
            if by_person:  # asked for, so answered
                self.bar().showMessage(failure_words(error.kind, ""), 15_000)
            return
        self.set_up = True
        self.failure = failure_words(error.kind, error.detail)
        self._say()
        if error.kind == "busy":
            self._soon.start()  # the other sync (the command line's) ends soon

    def _over(self) -> None:
        self.running = False
        if self._again:
            self._again = False
            QTimer.singleShot(0, self, self.sync_now)

    def _say(self) -> None:
        if not self.set_up or self.running:
            return
        if self.failure:
            self._show(self.failure)
        elif self.last_done_at is not None:
            self._show(since_words(time.monotonic() - self.last_done_at))

    def _show(self, text: str) -> None:
        if self.button is None:
            self.button = _button(self.bar())
            self.button.clicked.connect(self.sync_now)
        self.button.show()
        if text != self.button.text():
            self.button.setText(text)
            self.said.emit(text)


def _button(bar: QStatusBar) -> QToolButton:
    button = QToolButton(bar)
    button.setObjectName("syncStatus")
    button.setAutoRaise(True)
    button.setToolTip(translate("Sync", "Sync now (F5)"))
    button.setAccessibleName(translate("Sync", "Sync"))
    bar.addPermanentWidget(button)
    return button
