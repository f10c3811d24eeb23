"""Versions in the window: regenerate, edit and resend, use this version, fork from here.

`VersionControls` holds the actions (Ctrl+R, the history's context menu, the words in a
row's header: ◀ version n of m ▶, *Use this version*, *Regenerate*) and runs each through
the send session and named storage operations like any other change. Nothing is edited
in place: a new version is a new turn committed with its supersede record, *Use this
version* appends a record, a fork is a new conversation holding copies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QStatusBar

from ...core.attachments import Attachment
from ...core.model import Conversation, Turn
from ...core.send import Committed
from ...core.versions import ForkOrigin, Versions
from ...store import TurnlogStore
from ..dialogs.privacy import Confirmation, Decision
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg, number
from ..infra.operations import Loaded, StorageOp, load_conversation
from ..infra.tasks import TaskRunner
from ..request.edit_mode import EditMode
from ..request.live_preview import LivePreview
from ..request.send_session import SendResult, SendSession
from ..transcript.model import Role, TranscriptModel
from ..transcript.view import TranscriptView
from .actions import HistoryActions
from .banner import FailureBanner
from .centre import CentrePanel
from .composer import Composer

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


def origin_text(origin: ForkOrigin) -> str:
    """Where a fork came from, in the interface language."""
    if origin.source_id is None:
        return arg(translate("VersionControls", "forked from a deleted conversation, turn %1"),
                   str(origin.number))
    return arg(translate("VersionControls", "forked from “%1”, turn %2"), origin.source_title,
               str(origin.number))


class VersionHost(Protocol):
    """What the controls use of the main window."""

    store: TurnlogStore
    runner: TaskRunner
    session: SendSession
    preview: LivePreview
    history: HistoryActions
    changes: ChangeHub
    edit_mode: EditMode
    centre: CentrePanel
    transcript: TranscriptModel
    view: TranscriptView
    composer: Composer
    banner: FailureBanner
    conversation: Conversation | None
    confirm: Callable[[Confirmation], Decision]

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

    def refresh_preview(self) -> None: ...


# A fork copying more turns than this asks first.
QUIET_FORK = 10


def fork_question(ordinal: int, copies: int) -> Confirmation:
    """Before a fork that copies `copies` turns (more than a handful)."""
    return Confirmation(
        translate("VersionControls", "Fork from here"),
        arg(translate("VersionControls",
                      "Fork from turn %1? The new conversation starts with copies of %2 turns."),
            str(ordinal), number(copies)),
        translate("VersionControls",
                  "This conversation stays as it is. To make a new version of the newest "
                  "turn instead, use Edit and resend or Regenerate."),
        translate("VersionControls", "Fork"))


Found = tuple[Versions, dict[str, Turn], ForkOrigin | None]


def read_versions(store: TurnlogStore, conversation_id: int) -> StorageOp[Found]:
    def work() -> Found:
        versions, members = store.turns.version_members(conversation_id)
        return versions, members, store.forks.origin(conversation_id)

    return StorageOp("read versions", work)


def use_version(store: TurnlogStore, turn_id: str) -> StorageOp[int]:
    return StorageOp("use a version", lambda: store.turns.use_version(turn_id))


def fork_with_version(store: TurnlogStore, conversation_id: int, turn_id: str
                      ) -> StorageOp[Changes]:
    def work() -> Changes:
        made, _draft = store.forks.with_version(turn_id, conversation_id=conversation_id)
        return Changes(made, created=True)

    return StorageOp("fork with a version", work)


def fork(store: TurnlogStore, conversation_id: int, ordinal: int) -> StorageOp[Changes]:
    def work() -> Changes:
        made, _draft = store.forks.at(conversation_id, ordinal)  # the draft is saved with it
        return Changes(made, created=True)

    return StorageOp("fork a conversation", work)


class VersionControls(QObject):
    """Regenerate, edit and resend, use this version and fork, for `host` (the window)."""

    def __init__(self, host: VersionHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self._saved_draft: tuple[str, int] = ("", 0)
        self._saved_files: tuple[Attachment, ...] = ()  # the draft's, while a turn is edited
        self._read_for: object = None  # the log the versions shown were read for
        self.origin = QLabel(host.centre)
        self.origin.setObjectName("forkOrigin")
        self.origin.setTextFormat(Qt.TextFormat.PlainText)
        self.origin.hide()
        self.edit_note = QLabel(host.centre)
        self.edit_note.setObjectName("editNote")
        self.edit_note.setWordWrap(True)
        self.edit_note.hide()
        layout = host.centre.layout()
        layout.insertWidget(1, self.origin)  # type: ignore[attr-defined]
        layout.insertWidget(layout.indexOf(host.composer), self.edit_note)  # type: ignore[attr-defined]
        view = host.view
        self.regenerate_action = self._action(translate("VersionControls", "Regenerate answer"),
                                              self.regenerate, "Ctrl+R")
        self.regenerate_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.edit_action = self._action(translate("VersionControls", "Edit and resend…"),
                                        self.edit_current)
        self.use_action = self._action(translate("VersionControls", "Use this version"),
                                       self.use_current)
        self.fork_action = self._action(translate("VersionControls", "Fork from here"),
                                        self.fork_current)
        view.delegate.control_clicked.connect(self._clicked)
        view.menu_opening.connect(self._name_use_action)
        view.menu_opening.connect(self._fit_to_row)
        view.menu_closed.connect(self._update_actions)
        host.transcript.modelReset.connect(self._log_changed)
        host.transcript.rowsInserted.connect(self._log_changed)
        for changed in (host.transcript.modelReset, host.transcript.rowsInserted,
                        host.transcript.rowsRemoved):
            changed.connect(self._update_actions)
        self._update_actions()
        host.session.finished.connect(self._sent)
        host.composer.stop_requested.connect(self.cancel_edit)
        host.changes.changed.connect(self._history_changed)

    def _action(self, text: str, slot: object, shortcut: str | None = None) -> QAction:
        action = QAction(text, self.host.view)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        self.host.view.insertAction(self.host.view.delete_action, action)
        return action

    @property
    def editing(self) -> tuple[int, str] | None:
        """(conversation, turn) being edited and resent: the window's `EditMode` says."""
        return self.host.edit_mode.editing

    def _update_actions(self, *_: object) -> None:
        """Regenerate and edit and resend act on the newest turn: with none, they cannot
        apply and are disabled."""
        has_turn = self.host.conversation is not None and bool(self.host.transcript.turns)
        for action in (self.regenerate_action, self.edit_action):
            action.setEnabled(has_turn)
            action.setToolTip(action.text().replace("&", ""))

    def _fit_to_row(self, index: QModelIndex) -> None:
        """On an older turn's menu, Regenerate and Edit and resend are off, saying why:
        they make a new version of the newest turn only (going on from an older turn is
        the explicit *Fork from here*)."""
        self._update_actions()
        if not index.isValid() or index.data(Role.PENDING) or not index.data(Role.FOLLOWED):
            return
        model = self.host.transcript
        newest = model.numbers.number(model.turns[-1].ordinal)
        number = str(index.data(Role.NUMBER))
        self.regenerate_action.setEnabled(False)
        self.regenerate_action.setToolTip(arg(translate("VersionControls",
            "Regenerate makes a new answer to the newest turn (turn %1) only: later turns "
            "were asked after turn %2. To go on from turn %2, use Fork from here."),
            str(newest), number))
        self.edit_action.setEnabled(False)
        self.edit_action.setToolTip(arg(translate("VersionControls",
            "Edit and resend makes a new version of the newest turn (turn %1) only: later "
            "turns were asked after turn %2. To ask it differently, use Fork from here."),
            str(newest), number))

    def _say(self, text: str) -> None:
        self.host.statusBar().showMessage(text)

    # ---------------------------------------------------------------- reading
    def _log_changed(self, *_: object) -> None:
        """The log on show changed (opened, reloaded, a turn saved): read its versions."""
        host, turns = self.host, self.host.transcript.turns
        conversation = host.conversation
        if self.editing and (conversation is None or conversation.id != self.editing[0]):
            self._leave_edit()
        if conversation is None or turns is self._read_for or host.runner.closed:
            return
        self._read_for = turns
        cid = conversation.id

        def found(result: Found) -> None:
            if host.conversation is None or host.conversation.id != cid \
                    or host.transcript.turns is not turns:
                return
            versions, members, origin = result
            host.transcript.set_versions(versions, members)
            self.origin.setText(origin_text(origin) if origin else "")
            self.origin.setVisible(origin is not None)

        read_versions(host.store, cid).run(host.runner, on_success=found,
                                           on_failure=self._failed)

    def reload(self, conversation_id: int, *, current_newest: bool = False) -> None:
        """Show the active line as the store has it now (after a new or chosen version);
        with `current_newest` the newest turn becomes the current row, on screen."""
        host = self.host
        if host.runner.closed:
            return

        def loaded(done: Loaded) -> None:
            if host.conversation is None or host.conversation.id != done.conversation_id:
                return
            host.preview.summary = done.summary
            host.transcript.set_turns(done.turns)
            if current_newest and host.transcript.loaded_count:
                host.view.setCurrentIndex(host.transcript.index(host.transcript.loaded_count - 1))
                host.view.scroll_to_newest()
            host.refresh_preview()

        load_conversation(host.store, conversation_id).run(
            host.runner, on_success=loaded, on_failure=self._failed)

    def _failed(self, error: BaseException) -> None:
        self.host.banner.show_text(translate("VersionControls", "Could not change the versions"),
                                   str(error))

    # ---------------------------------------------------------- header words
    def _clicked(self, name: str, row: int) -> None:
        if name in ("older", "newer"):
            self.host.transcript.step_version(row, -1 if name == "older" else 1)
        elif name in ("use", "fork-version"):
            self.use_row(row)
        elif name == "regenerate":
            self.regenerate()

    def _name_use_action(self, index: QModelIndex) -> None:
        """*Use this version* is offered on an older version on show; on one of a turn that
        later turns followed it forks (only the newest turn's versions switch in place):
        the menu says so."""
        followed = index.isValid() and bool(index.data(Role.FOLLOWED))
        turn = self.host.transcript.shown_turn(index.row()) if index.isValid() else None
        self.use_action.setVisible(  # only an older version on show can be chosen
            turn is not None and self.host.transcript.versions.is_superseded(turn.id))
        self.use_action.setText(
            QCoreApplication.translate("VersionControls", "Fork from here with this version")
            if followed else QCoreApplication.translate("VersionControls", "Use this version"))

    def _current_row(self) -> int | None:
        index: QModelIndex = self.host.view.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        return index.row()

    def _busy(self) -> bool:
        if self.host.session.running:
            self._say(translate("VersionControls",
                                "Wait for the running request (or stop it) first."))
            return True
        return self.host.composer.held

    # -------------------------------------------------------------- regenerate
    def regenerate(self) -> None:
        """Ask the newest turn's question again (Ctrl+R, the row's Regenerate)."""
        host = self.host
        turns, conversation = host.transcript.turns, host.conversation
        if conversation is None or not turns:
            self._say(translate("VersionControls", "There is no answer to regenerate yet."))
            return
        if not self._busy():
            last = turns[-1]
            self._start(conversation, last.question, last.id)

    def _start(self, conversation: Conversation, question: str, replaces: str) -> None:
        """Send `question` as a new version of turn `replaces`; the composer keeps what it
        holds (given back as it is if the send fails)."""
        host = self.host
        parts = host.preview.parts(conversation)
        if parts.endpoint is None or parts.budget is None:
            host.banner.show_text(*(parts.problem
                                    or (translate("VersionControls", "Cannot send"), "")))
            return
        host.preview.cancel_warm()
        draft = (host.composer.text(), host.composer.cursor_position())
        host.banner.dismiss()
        replaced = next((t for t in host.transcript.turns[-1:] if t.id == replaces), None)
        files = host.composer.attachments if self.editing else (
            replaced.attachments if replaced is not None else ())  # asked with its files
        host.transcript.start_pending(question, files)
        host.view.scroll_to_newest()
        host.preview.show_running(parts.endpoint)
        host.session.start(conversation, question, draft, parts.endpoint, host.preview.costs,
                           replaces=replaces, attachments=files, new_sample=True)

    def _sent(self, result: SendResult) -> None:
        if result.replaces is None:
            return
        if isinstance(result.outcome, Committed):
            if self.editing:
                self._leave_edit()
            self.reload(result.conversation_id)  # the new version takes the old one's row

    # --------------------------------------------------------- edit and resend
    def edit_current(self) -> None:
        """Edit and resend acts on the newest turn of the active line, whatever row has the
        focus: forking is only ever the explicit *Fork from here*."""
        self.edit_last()

    def edit_last(self) -> None:
        """Put the newest question in the composer; sending it makes a new version of the
        turn. Esc leaves the conversation and the draft as they were."""
        host = self.host
        turns, conversation = host.transcript.turns, host.conversation
        if conversation is None or not turns or self._busy():
            return
        last = turns[-1]
        if self.editing is None:
            self._saved_draft = (host.composer.text(), host.composer.cursor_position())
            self._saved_files = host.composer.attachments
        host.edit_mode.start(conversation.id, last.id)
        host.composer.restore(last.question, len(last.question))
        host.composer.set_attachments(last.attachments)  # its files, to keep or remove
        self.edit_note.setText(arg(translate("VersionControls",
            "Editing turn %1: Send makes a new version of it (the old one is kept). Esc leaves "
            "everything as it was."), str(host.transcript.number_of(last))))
        self.edit_note.show()
        host.refresh_preview()

    def cancel_edit(self) -> None:
        """Esc while editing (and nothing runs): the draft from before, nothing changed."""
        if self.editing is None or self.host.session.running:
            return
        self._leave_edit()
        self.host.composer.restore(*self._saved_draft)
        self.host.composer.set_attachments(self._saved_files)
        self.host.refresh_preview()

    def _leave_edit(self) -> None:
        self.host.edit_mode.leave()
        self.edit_note.hide()

    # ------------------------------------------------------------- use, fork
    def use_current(self) -> None:
        row = self._current_row()
        if row is not None:
            self.use_row(row)

    def use_row(self, row: int) -> None:
        """Make the version on show in `row` the one in use (an appended record). Only the
        newest turn's versions can be switched in place: later turns were asked after the
        one in use; on an older turn the version is kept by forking from it instead."""
        host = self.host
        turn = host.transcript.shown_turn(row)
        if turn is None or host.conversation is None or self._busy():
            return
        if not host.transcript.versions.is_superseded(turn.id):
            self._say(QCoreApplication.translate(
                "VersionControls", "Turn {0} is already the version in use.").format(
                    host.transcript.number_of(turn)))
            return
        if host.transcript.index(row).data(Role.FOLLOWED):
            if self._may_fork(row, turn):
                self.fork_version(turn)
            return
        cid = host.conversation.id
        use_version(host.store, turn.id).run(
            host.runner, on_success=lambda _cid: self._used(cid, turn),
            on_failure=self._failed)

    def _used(self, conversation_id: int, turn: Turn) -> None:
        self._say(arg(translate("VersionControls", "Turn %1 is the version in use now."),
                      str(self.host.transcript.number_of(turn))))
        self.host.preview.forget_last()
        self.reload(conversation_id, current_newest=True)

    def _may_fork(self, row: int, turn: Turn) -> bool:
        """A fork copying more than a handful of turns asks first, naming the count."""
        copies = self.host.transcript.turns_before(row)
        return copies <= QUIET_FORK or self.host.confirm(
            fork_question(self.host.transcript.number_of(turn), copies)).accepted

    def fork_version(self, turn: Turn) -> None:
        """Go on from `turn`, an older version of a turn that later turns followed: a new
        conversation with copies of the turns before it and of this version, the next
        turn's question as its draft; it opens at once."""
        conversation = self.host.conversation
        if conversation is None:
            return
        fork_with_version(self.host.store, conversation.id, turn.id).run(
            self.host.runner, on_success=lambda done: self.host.changes.publish(done, self),
            on_failure=self._failed)

    def fork_current(self) -> None:
        row = self._current_row()
        if row is not None:
            self.fork_row(row)

    def fork_row(self, row: int) -> None:
        """A new conversation with copies of the turns before this one, its question as
        the draft; it opens at once."""
        host = self.host
        turn = host.transcript.shown_turn(row)
        if turn is None or host.conversation is None or not self._may_fork(row, turn):
            return
        fork(host.store, host.conversation.id, turn.ordinal).run(
            host.runner, on_success=lambda done: host.changes.publish(done, self),
            on_failure=self._failed)

    def _history_changed(self, changes: Changes, origin: object) -> None:
        """A delete took a version away: the row may show another version now."""
        if origin is self:  # a fork: it opens as a new conversation
            return
        versions = self.host.transcript.versions
        if changes.turns_deleted and self.host.conversation is not None \
                and changes.turns_of == self.host.conversation.id \
                and any(len(versions.group(t)) > 1 for t in changes.turns_deleted):
            self.reload(changes.turns_of)
