"""Sync in the window: when the data directory has sync set up, it syncs shortly after the
first screen is up, some seconds after the last committed change, and every few minutes;
never two at once, always on the sync lane's worker (with a store connection of its own:
`service.sync_runner`). The status bar's sync button says how it went in plain words and
syncs now when clicked (View → Sync now, F5). A failed sync is tried again after 30 s,
1 min, 2 min … (at most 15 min between tries), from 30 s again after one that worked or
one the person asked for.

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

from ..infra.languages import plural
from ..infra.sync_words import NEEDS_SETTINGS, failure_words, retry_words, since_words
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
    retry: int = 30_000  # the first try again after a failed sync; doubled after each
    retry_most: int = 900_000  # ... up to this


class RetryDelays:
    """How long to wait before trying a failed sync again: `first`, then twice as long
    after each failure (30 s, 1 min, 2 min …) up to `most`; from `first` again after a
    sync that worked, or one the person asked for."""

    def __init__(self, first: int, most: int) -> None:
        self.first, self.most = first, most
        self.next = first

    def take(self) -> int:
        delay, self.next = self.next, min(self.next * 2, self.most)
        return delay

    def reset(self) -> None:
        self.next = self.first


class SyncControl(QObject):
    """Schedules and runs the window's syncs and says in `button` how the last one went.

    `open_id()` names the conversation open in the window (a sync says whether it is still
    there afterwards); `bar()` is the window's status bar, made when first asked for: the
    button joins it only once a sync found sync set up (no empty strip otherwise). A failed
    sync is tried again after `RetryDelays` (the regular syncs wait meanwhile); one that
    needs the person (a refused password, the passphrase) sends them to Settings → Sync,
    asked for with `settings_wanted` when they click the button."""

    synced = Signal(object)  # SyncDone of a sync that brought something in
    said = Signal(str)  # the button's words, each time they change
    over = Signal()  # a sync ended, whichever way
    settings_wanted = Signal()  # the button was clicked while Settings → Sync is needed

    def __init__(self, store: TurnlogStore, runner: TaskRunner, open_id: Callable[[], int | None],
                 bar: Callable[[], QStatusBar], times: SyncTimes | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.runner, self.open_id = store, runner, open_id
        self.times = times or SyncTimes()
        self.delays = RetryDelays(self.times.retry, self.times.retry_most)
        self.running = False
        self.set_up: bool | None = None  # unknown until the first sync answered
        self.last_done_at: float | None = None  # time.monotonic() of the last sync done
        self.failure: tuple[str, str] | None = None  # (kind, detail) of the last failure
        self.problems = 0  # what the last sync that worked could not apply
        self.bar = bar
        self.button: QToolButton | None = None
        self.action = QAction(translate("Sync", "Sync now"), self)
        self.action.setObjectName("syncNowAction")
        self.action.setShortcut(QKeySequence("F5"))
        self.action.triggered.connect(self.ask_now)
        self._by_person = False  # the running sync was asked for (View → Sync now)
        self._again = False
        self._soon = self._timer(self.times.after_change, single=True)
        self._every = self._timer(self.times.every, single=False)
        self._retry = self._timer(self.times.retry, single=True)
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
        self.delays = RetryDelays(times.retry, times.retry_most)
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
        """Something was committed here: sync once the changes have settled (not while a
        failed sync waits to be tried again)."""
        if self.set_up is not False and not self._retry.isActive():
            self._soon.start()

    def ask_now(self) -> None:
        """The person asked for a sync (View → Sync now, the button, Settings → Sync): now,
        and the waits between tries again from the shortest."""
        self._by_person = True
        self.delays.reset()
        self._retry.stop()
        self.sync_now()

    def text(self) -> str:
        """What the status bar's button says now ("" before sync is known set up)."""
        return self.button.text() if self.button is not None and self.set_up else ""

    def retry_in(self) -> int | None:
        """Milliseconds until a failed sync is tried again; None when none waits."""
        return self._retry.remainingTime() if self._retry.isActive() else None

    def sync_now(self) -> None:
        """Sync now (again once the running one is over, if one is)."""
        if self.runner.closed:
            return
        if self.running:
            self._again = True
            return
        self._soon.stop()
        self._retry.stop()
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
        self.set_up, self.failure, self._by_person = True, None, False
        self.problems = len(done.problems)
        self.last_done_at = time.monotonic()
        self.delays.reset()
        if not self._every.isActive():
            self._every.start()
        self._over()
        self._say()
        self.over.emit()
        if done.received or done.open_gone:
            self.synced.emit(done)

    def _failed(self, error: BaseException) -> None:
        from ...service.sync_runner import SyncFailure

        self._over()
        by_person, self._by_person = self._by_person, False
        if not isinstance(error, SyncFailure):
            self.failure = ("failed", str(error))
            self._say()
            self.over.emit()
            raise error  # a bug: the crash report has it
        if error.kind == "not_set_up":
            self.set_up, self.failure = False, None
            if self.button is not None:
                self.button.hide()
            if by_person:  # asked for, so answered
                self.bar().showMessage(failure_words(error.kind, ""), 15_000)
            self.over.emit()
            return
        self.set_up = True
        self.failure = (error.kind, error.detail)
        if error.kind == "busy":
            self._soon.start()  # the other sync (the command line's) ends soon
        else:
            self._every.stop()  # tried again after a wait that grows, not every few minutes
            self._retry.start(self.delays.take())
        self._say()
        self.over.emit()

    def _over(self) -> None:
        self.running = False
        if self._again:
            self._again = False
            QTimer.singleShot(0, self, self.sync_now)

    def _say(self) -> None:
        if not self.set_up or self.running:
            return
        if self.failure is not None:
            kind, detail = self.failure
            words = failure_words(kind, detail)
            wait = self.retry_in()
            if kind not in NEEDS_SETTINGS and wait is not None:
                words = retry_words(words, wait / 1000)
            self._show(words)
        elif self.problems:
            count = self.problems
            self._show(plural(translate("Sync", "Sync: %n problem(s) — see Settings → Sync",
                                        None, count), count))
        elif self.last_done_at is not None:
            self._show(since_words(time.monotonic() - self.last_done_at))

    def _clicked(self) -> None:
        if self.failure is not None and self.failure[0] in NEEDS_SETTINGS:
            self.settings_wanted.emit()
        else:
            self.ask_now()

    def _show(self, text: str) -> None:
        if self.button is None:
            self.button = _button(self.bar())
            self.button.clicked.connect(self._clicked)
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
