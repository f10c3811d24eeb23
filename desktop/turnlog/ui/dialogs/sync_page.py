"""Settings → Sync: set sync up in the window, and watch and manage it once it is.

Before: the set-up form (`sync_setup_form`). After: the overview (`sync_overview`) of what
`turnlog-cli sync status` shows, read with `service.sync_status`. The set-up, forgetting a
machine, changing the passphrase and stopping run on the sync lane (one at a time, never
beside a sync), with a busy line meanwhile; what stops them is said inline in plain words.
The window's syncs (`SyncRuns`, the status bar's control) are asked to sync now, and each
one that ends has the page read the status again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from PySide6.QtCore import QCoreApplication, Qt, SignalInstance
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from ..infra import sync_operations
from ..infra.languages import arg, plural
from ..infra.sync_words import page_failure_words
from ..infra.tasks import TaskRunner
from .fitting import alive
from .privacy import Confirmation, Decision
from .sync_overview import SyncOverview
from .sync_passphrase import PassphraseDialog
from .sync_setup_form import SetupAsked, SetupForm

if TYPE_CHECKING:
    from ...service.sync_setup import SetupDone
    from ...service.sync_status import MachineSeen, SyncStatus
    from ...store import TurnlogStore

translate = QCoreApplication.translate  # translate("SyncPage", …): lupdate reads it
T = TypeVar("T")


class SyncRuns(Protocol):
    """The window's syncs, as the page uses them."""

    said: SignalInstance  # the status bar's words, each time they change
    over: SignalInstance  # a sync ended

    def ask_now(self) -> None: ...  # a sync the person asked for

    def sync_now(self) -> None: ...  # a sync of the window's own (says nothing if none)

    def text(self) -> str: ...


class SyncPage(QWidget):
    """The Sync tab of Settings."""

    def __init__(self, store: TurnlogStore, runner: TaskRunner,
                 confirm: Callable[[Confirmation], Decision], sync: SyncRuns | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncPage")
        self.store, self.runner, self.confirm, self.sync = store, runner, confirm, sync
        self.alive = alive(self)
        self.status: SyncStatus | None = None
        self.working = False
        column = QVBoxLayout(self)
        intro = QLabel(translate(
            "SyncPage", "Your history on every machine you use, end-to-end encrypted: the "
            "storage sees neither titles nor text."), self)
        intro.setWordWrap(True)
        column.addWidget(intro)
        # One of three, the others hidden (taking no room): reading, the form, the overview.
        self.reading = QLabel(translate("SyncPage", "Reading the sync state…"), self)
        self.form = SetupForm(self)
        self.overview = SyncOverview(self)
        for shown in (self.reading, self.form, self.overview):
            column.addWidget(shown)
        self._show(self.reading)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)  # no end known: it moves while the work runs
        self.busy.setTextVisible(False)
        self.busy.setMaximumHeight(self.fontMetrics().height() // 2 + 4)
        self.busy.hide()
        column.addWidget(self.busy)
        self.message = QLabel(self)
        self.message.setObjectName("syncMessage")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        column.addWidget(self.message)
        column.addStretch(1)
        self.form.wanted.connect(self._set_up)
        self.form.refused.connect(lambda text: self._say(text, problem=True))
        self.overview.sync_now_asked.connect(self._sync_now)
        self.overview.passphrase_asked.connect(self._ask_passphrase)
        self.overview.forget_asked.connect(self._forget)
        self.overview.stop_asked.connect(self._stop)
        if sync is not None:
            sync.said.connect(self.overview.show_state)
            sync.over.connect(self.refresh)
            self.overview.show_state(sync.text())
        else:
            self.overview.sync_now.hide()
            self.overview.show_state("")
        self.refresh()

    # -- reading -----------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the sync state again (on the storage worker) and show it."""
        if self.runner.closed:
            return
        sync_operations.sync_status(self.store).run(
            self.runner, on_success=self._read, on_failure=self._read_failed)

    def _read(self, status: SyncStatus | None) -> None:
        if not self.alive or self.working:
            return
        self.status = status
        if status is not None:
            self.overview.show_status(status)
        self._show(self.form if status is None else self.overview)

    def _show(self, shown: QWidget) -> None:
        for part in (self.reading, self.form, self.overview):
            part.setVisible(part is shown)

    def current(self) -> QWidget:
        """What the page shows now: `reading`, `form` or `overview`."""
        return next(p for p in (self.reading, self.form, self.overview) if not p.isHidden())

    def _read_failed(self, error: BaseException) -> None:
        if self.alive:
            self._say(arg(translate("SyncPage", "The sync state could not be read: %1"),
                          str(error)), problem=True)

    # -- the work ----------------------------------------------------------------------
    def _run(self, name: str, work: Callable[[], T], done: Callable[[T], None],
             busy_words: str) -> None:
        """`work` on the sync lane (failures named by `service.sync_runner`), the page
        busy meanwhile; `done` with its result on the GUI thread."""
        from ...service.sync_runner import named_failures

        home = self.store.home

        def body(_context: object) -> T:
            with named_failures(home):
                return work()

        self._busy(True, busy_words)
        self.runner.run(TaskRunner.SYNC, name, body,
                        on_success=lambda result: self._finished(done, result),
                        on_failure=self._failed)

    def _busy(self, busy: bool, words: str = "") -> None:
        self.working = busy
        self.busy.setVisible(busy)
        self.form.set_busy(busy)
        self.overview.setEnabled(not busy)
        if busy:
            self._say(words)

    def _finished(self, done: Callable[[T], None], result: T) -> None:
        if not self.alive:
            return
        self._busy(False)
        done(result)
        self.refresh()

    def _failed(self, error: BaseException) -> None:
        from ...service.sync_runner import SyncFailure

        if not self.alive:
            return
        self._busy(False)
        if not isinstance(error, SyncFailure):
            raise error  # a bug: the crash report has it
        self._say(page_failure_words(error.kind, error.detail), problem=True)
        self.refresh()

    def _say(self, text: str, *, problem: bool = False) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        self.message.setStyleSheet("color: #b42318;" if problem else "")

    # -- set up ------------------------------------------------------------------------
    def _set_up(self, asked: SetupAsked) -> None:
        from ...service.sync_setup import set_up

        home = self.store.home
        self._run("sync setup", lambda: set_up(home, asked.config, asked.secret,
                                               asked.passphrase, asked.machine),
                  self._set_up_done, translate("SyncPage", "Setting up: making the key from "
                                               "the passphrase takes a few seconds…"))

    def _set_up_done(self, result: SetupDone) -> None:
        self.form.clear_secrets()
        joined = result.joined
        how = (plural(translate("SyncPage", "it joined the sync storage of %n machine(s)",
                                None, joined), joined) if joined
               else translate("SyncPage", "it started a new sync storage"))
        self._say(arg(translate("SyncPage", "Sync is set up: this machine is %1; %2. Keep "
                                "the passphrase safe: it cannot be recovered."),
                      result.machine_name, how))
        if self.sync is not None:
            self.sync.ask_now()  # send this history, receive the others'

    # -- managing ----------------------------------------------------------------------
    def _sync_now(self) -> None:
        if self.sync is not None:
            self.sync.ask_now()

    def _ask_passphrase(self) -> None:
        dialog = PassphraseDialog(self)
        dialog.chosen.connect(self._change_passphrase)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _change_passphrase(self, passphrase: bytes) -> None:
        from ...service.sync_machines import change_passphrase

        home = self.store.home
        self._run("sync passphrase", lambda: change_passphrase(home, passphrase),
                  self._passphrase_done, translate("SyncPage", "Changing the passphrase…"))

    def _passphrase_done(self, outcome: str) -> None:
        self._say(translate("SyncPage", "This machine took the passphrase another machine "
                            "changed it to.") if outcome == "joined" else
                  translate("SyncPage", "Passphrase changed: the other machines ask for it at "
                            "their next sync. It cannot be recovered if lost."))
        if self.sync is not None:
            self.sync.ask_now()  # this machine's objects sealed with the new key

    def _forget(self, machine: MachineSeen) -> None:
        from ...service.sync_machines import forget_machine

        decision = self.confirm(Confirmation(
            translate("SyncPage", "Forget this machine"),
            arg(translate("SyncPage", "Forget %1 for good?"), machine.name),
            translate("SyncPage", "Only for a machine that will never return. Its history is "
                      "kept in this machine's objects, and its own objects are removed from "
                      "the storage. To sync it again later, set sync up on it anew."),
            translate("SyncPage", "Forget")))
        if not decision.accepted:
            return
        store, name = self.store, machine.name
        self._run("sync forget", lambda: forget_machine(store, machine.id),
                  lambda kept: self._forgot(name, kept),
                  arg(translate("SyncPage", "Forgetting %1…"), name))

    def _forgot(self, name: str, kept: int) -> None:
        self._say(arg(plural(translate("SyncPage", "Forgot %1: %n change(s) of its history "
                                       "are kept in this machine's objects.", None, kept),
                             kept), name))

    def _stop(self) -> None:
        from ...service.sync_setup import forget_setup

        decision = self.confirm(Confirmation(
            translate("SyncPage", "Stop syncing"),
            translate("SyncPage", "Stop syncing this history?"),
            translate("SyncPage", "The history stays here and in the sync storage; the other "
                      "machines go on syncing. The sync key and the storage's password are "
                      "removed from this machine's keyring."),
            translate("SyncPage", "Stop syncing")))
        if not decision.accepted:
            return
        home = self.store.home
        self._run("sync stop", lambda: forget_setup(home), self._stopped,
                  translate("SyncPage", "Stopping…"))

    def _stopped(self, _was: bool) -> None:
        self._say(translate("SyncPage", "Sync is stopped for this history."))
        if self.sync is not None:
            self.sync.sync_now()  # finds none set up: the status bar says nothing more
