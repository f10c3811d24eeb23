"""Versions in the window: regenerate, edit and resend, use this version, fork from here.

`VersionControls` holds the actions (Ctrl+R, the history's context menu, the words in a
row's header: ◀ version n of m ▶, *Use this version*, *Regenerate*) and runs each through
the send session and named storage operations like any other change. Nothing is edited
in place: a new version is a new turn committed with its supersede record, *Use this
version* appends a record, a fork is a new conversation holding copies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel

from ...core.attachments import Attachment
from ...core.model import Conversation, Turn
from ...core.outcome import Committed
from ...core.versions import ForkOrigin
from ..dialogs.privacy import Confirmation, Decision
from ..infra.changes import Changes, OpenChange
from ..infra.languages import arg, number
from ..infra.open_log import OpenLog
from ..infra.operation_results import Found
from ..infra.operations import (
    Loaded,
    fork,
    fork_with_version,
    load_conversation,
    read_versions,
    use_version,
)
from ..request.send_session import SendResult
from ..transcript.model import Role
from .centre import CentrePanel
from .parts import HistoryParts, SendParts

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


def origin_text(origin: ForkOrigin) -> str:
    """Where a fork came from, in the interface language."""
    if origin.continued_on is not None and origin.source_id is None:
        text = translate("VersionControls", "continued on %1, from a deleted conversation, turn %2")
        return arg(text, origin.continued_on, origin.number)
    if origin.continued_on is not None:
        return arg(translate("VersionControls", "continued on %1, from “%2”, turn %3"),
                   origin.continued_on, origin.source_title, origin.number)
    if origin.source_id is None:
        return arg(translate("VersionControls", "forked from a deleted conversation, turn %1"),
                   origin.number)
    return arg(translate("VersionControls", "forked from “%1”, turn %2"), origin.source_title,
               origin.number)


@dataclass(frozen=True, slots=True)
class VersionParts:
    """What the controls work with: the open log (its state says which turn is edited),
    the send a version is asked with, the history on show, the column the edit note and a
    fork's origin sit in, and how they ask and say."""

    log: OpenLog
    sending: SendParts
    history: HistoryParts
    centre: CentrePanel
    confirm: Callable[[Confirmation], Decision]
    status: Callable[[str], None]  # a line in the status bar


# A fork copying more turns than this asks first.
QUIET_FORK = 10


def fork_question(shown: int, copies: int) -> Confirmation:
    """Before a fork that copies `copies` turns (more than a handful)."""
    return Confirmation(
        translate("VersionControls", "Fork from here"),
        arg(translate("VersionControls",
                      "Fork from turn %1? The new conversation starts with copies of %2 turns."),
            shown, copies),
        translate("VersionControls",
                  "This conversation stays as it is. To make a new version of the newest "
                  "turn instead, use Edit and resend or Regenerate."),
        translate("VersionControls", "Fork"))


class VersionControls(QObject):
    """Regenerate, edit and resend, use this version and fork, with the parts handed in."""

    def __init__(self, parts: VersionParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self._saved_draft: tuple[str, int] = ("", 0)
        self._saved_files: tuple[Attachment, ...] = ()  # the draft's, while a turn is edited
        self._read_for: object = None  # the log the versions shown were read for
        self.origin = QLabel(parts.centre)
        self.origin.setObjectName("forkOrigin")
        self.origin.setTextFormat(Qt.TextFormat.PlainText)
        self.origin.hide()
        self.edit_note = QLabel(parts.centre)
        self.edit_note.setObjectName("editNote")
        self.edit_note.setWordWrap(True)
        self.edit_note.hide()
        layout = parts.centre.layout()
        layout.insertWidget(1, self.origin)  # type: ignore[attr-defined]
        layout.insertWidget(layout.indexOf(parts.sending.composer), self.edit_note)  # type: ignore[attr-defined]
        view = parts.history.view
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
        parts.history.transcript.modelReset.connect(self._log_changed)
        parts.history.transcript.rowsInserted.connect(self._log_changed)
        for changed in (parts.history.transcript.modelReset, parts.history.transcript.rowsInserted,
                        parts.history.transcript.rowsRemoved):
            changed.connect(self._update_actions)
        self._update_actions()
        parts.sending.session.finished.connect(self._sent)
        parts.sending.composer.stop_requested.connect(self.cancel_edit)
        parts.log.changes.changed.connect(self._history_changed)

    def _action(self, text: str, slot: object, shortcut: str | None = None) -> QAction:
        action = QAction(text, self.parts.history.view)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        self.parts.history.view.insertAction(self.parts.history.view.delete_action, action)
        return action

    @property
    def editing(self) -> tuple[int, str] | None:
        """(conversation, turn) being edited and resent: the open conversation's state says."""
        return self.parts.log.state.editing

    def _update_actions(self, *_: object) -> None:
        """Regenerate and edit and resend act on the newest turn: with none, they cannot
        apply and are disabled."""
        parts = self.parts
        has_turn = parts.log.conversation() is not None and bool(parts.history.transcript.turns)
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
        model = self.parts.history.transcript
        newest = model.numbers.number(model.turns[-1].ordinal)
        asked_after = int(index.data(Role.NUMBER))
        self.regenerate_action.setEnabled(False)
        self.regenerate_action.setToolTip(arg(translate("VersionControls",
            "Regenerate makes a new answer to the newest turn (turn %1) only: later turns "
            "were asked after turn %2. To go on from turn %2, use Fork from here."),
            newest, asked_after))
        self.edit_action.setEnabled(False)
        self.edit_action.setToolTip(arg(translate("VersionControls",
            "Edit and resend makes a new version of the newest turn (turn %1) only: later "
            "turns were asked after turn %2. To ask it differently, use Fork from here."),
            newest, asked_after))

    def _say(self, text: str) -> None:
        self.parts.status(text)

    # ---------------------------------------------------------------- reading
    def _log_changed(self, *_: object) -> None:
        """The log on show changed (opened, reloaded, a turn saved): read its versions."""
        parts, turns = self.parts, self.parts.history.transcript.turns
        conversation = parts.log.conversation()
        if self.editing and (conversation is None or conversation.id != self.editing[0]):
            self._leave_edit()
        if conversation is None or turns is self._read_for or parts.log.runner.closed:
            return
        self._read_for = turns
        cid = conversation.id

        def found(result: Found) -> None:
            if parts.log.conversation() is None or parts.log.conversation().id != cid \
                    or parts.history.transcript.turns is not turns:
                return
            versions, members, origin = result
            parts.history.transcript.set_versions(versions, members)
            # The numbers are known now: the inspector names the turns on show by them.
            parts.sending.preview.show(parts.sending.preview.shown)
            self.origin.setText(origin_text(origin) if origin else "")
            self.origin.setVisible(origin is not None)

        read_versions(parts.log.store, cid).run(parts.log.runner, on_success=found,
                                           on_failure=self._failed)

    def reload(self, conversation_id: int, *, current_newest: bool = False) -> None:
        """Show the active line as the store has it now (after a new or chosen version);
        with `current_newest` the newest turn becomes the current row, on screen."""
        log, history = self.parts.log, self.parts.history
        if log.runner.closed:
            return

        def loaded(done: Loaded) -> None:
            if log.conversation() is None or log.conversation().id != done.conversation_id:
                return
            log.changes.ask(OpenChange.summary_read(done.conversation_id, done.summary), self)
            shown = history.transcript
            shown.set_turns(done.turns)
            if current_newest and shown.loaded_count:
                history.view.setCurrentIndex(shown.index(shown.loaded_count - 1))
                history.view.scroll_to_newest()
            self.parts.sending.preview.refresh()

        load_conversation(log.store, conversation_id).run(
            log.runner, on_success=loaded, on_failure=self._failed)

    def _failed(self, error: BaseException) -> None:
        self.parts.sending.banner.show_text(
            translate("VersionControls", "Could not change the versions"), str(error))

    # ---------------------------------------------------------- header words
    def _clicked(self, name: str, row: int) -> None:
        if name in ("older", "newer"):
            self.parts.history.transcript.step_version(row, -1 if name == "older" else 1)
        elif name in ("use", "fork-version"):
            self.use_row(row)
        elif name == "regenerate":
            self.regenerate()

    def _name_use_action(self, index: QModelIndex) -> None:
        """*Use this version* is offered on an older version on show; on one of a turn that
        later turns followed it forks (only the newest turn's versions switch in place):
        the menu says so."""
        followed = index.isValid() and bool(index.data(Role.FOLLOWED))
        turn = self.parts.history.transcript.shown_turn(index.row()) if index.isValid() else None
        self.use_action.setVisible(  # only an older version on show can be chosen
            turn is not None and self.parts.history.transcript.versions.is_superseded(turn.id))
        self.use_action.setText(
            QCoreApplication.translate("VersionControls", "Fork from here with this version")
            if followed else QCoreApplication.translate("VersionControls", "Use this version"))

    def _current_row(self) -> int | None:
        index: QModelIndex = self.parts.history.view.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        return index.row()

    def _busy(self) -> bool:
        if self.parts.sending.session.running:
            self._say(translate("VersionControls",
                                "Wait for the running request (or stop it) first."))
            return True
        return self.parts.sending.composer.held

    # -------------------------------------------------------------- regenerate
    def regenerate(self) -> None:
        """Ask the newest turn's question again (Ctrl+R, the row's Regenerate)."""
        parts = self.parts
        turns, conversation = parts.history.transcript.turns, parts.log.conversation()
        if conversation is None or not turns:
            self._say(translate("VersionControls", "There is no answer to regenerate yet."))
            return
        if not self._busy():
            last = turns[-1]
            self._start(conversation, last.question, last.id)

    def _start(self, conversation: Conversation, question: str, replaces: str) -> None:
        """Send `question` as a new version of turn `replaces`; the composer keeps what it
        holds (given back as it is if the send fails)."""
        sending, history = self.parts.sending, self.parts.history
        preview, composer = sending.preview, sending.composer
        request = preview.parts(conversation)
        if request.endpoint is None or request.budget is None:
            sending.banner.show_text(*(request.problem
                                       or (translate("VersionControls", "Cannot send"), "")))
            return
        preview.cancel_warm()
        draft = (composer.text(), composer.cursor_position())
        sending.banner.dismiss()
        replaced = next((t for t in history.transcript.turns[-1:] if t.id == replaces), None)
        files = composer.attachments if self.editing else (
            replaced.attachments if replaced is not None else ())  # asked with its files
        history.transcript.start_pending(question, files)
        history.view.scroll_to_newest()
        preview.show_running(request.endpoint)
        sending.session.start(conversation, question, draft, request.endpoint, preview.costs,
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
        parts = self.parts
        turns, conversation = parts.history.transcript.turns, parts.log.conversation()
        if conversation is None or not turns or self._busy():
            return
        last = turns[-1]
        composer = parts.sending.composer
        if self.editing is None:
            self._saved_draft = (composer.text(), composer.cursor_position())
            self._saved_files = composer.attachments
        parts.log.changes.ask(OpenChange.edit(conversation.id, last.id), self)
        composer.restore(last.question, len(last.question))
        composer.set_attachments(last.attachments)  # its files, to keep or remove
        self.edit_note.setText(arg(translate("VersionControls",
            "Editing turn %1: Send makes a new version of it (the old one is kept). Esc leaves "
            "everything as it was."), parts.history.transcript.number_of(last)))
        self.edit_note.show()
        parts.sending.preview.refresh()

    def cancel_edit(self) -> None:
        """Esc while editing (and nothing runs): the draft from before, nothing changed."""
        if self.editing is None or self.parts.sending.session.running:
            return
        self._leave_edit()
        self.parts.sending.composer.restore(*self._saved_draft)
        self.parts.sending.composer.set_attachments(self._saved_files)
        self.parts.sending.preview.refresh()

    def _leave_edit(self) -> None:
        self.parts.log.changes.ask(OpenChange.leave_edit(), self)
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
        parts = self.parts
        turn = parts.history.transcript.shown_turn(row)
        if turn is None or parts.log.conversation() is None or self._busy():
            return
        if not parts.history.transcript.versions.is_superseded(turn.id):
            self._say(QCoreApplication.translate(
                "VersionControls", "Turn {0} is already the version in use.").format(
                    number(parts.history.transcript.number_of(turn))))
            return
        if parts.history.transcript.index(row).data(Role.FOLLOWED):
            if self._may_fork(row, turn):
                self.fork_version(turn)
            return
        cid = parts.log.conversation().id
        use_version(parts.log.store, turn.id).run(
            parts.log.runner, on_success=lambda _cid: self._used(cid, turn),
            on_failure=self._failed)

    def _used(self, conversation_id: int, turn: Turn) -> None:
        self._say(arg(translate("VersionControls", "Turn %1 is the version in use now."),
                      self.parts.history.transcript.number_of(turn)))
        self.parts.sending.preview.forget_last()
        self.reload(conversation_id, current_newest=True)

    def _may_fork(self, row: int, turn: Turn) -> bool:
        """A fork copying more than a handful of turns asks first, naming the count."""
        copies = self.parts.history.transcript.turns_before(row)
        return copies <= QUIET_FORK or self.parts.confirm(
            fork_question(self.parts.history.transcript.number_of(turn), copies)).accepted

    def fork_version(self, turn: Turn) -> None:
        """Go on from `turn`, an older version of a turn that later turns followed: a new
        conversation with copies of the turns before it and of this version, the next
        turn's question as its draft; it opens at once."""
        conversation = self.parts.log.conversation()
        if conversation is None:
            return
        fork_with_version(self.parts.log.store, conversation.id, turn.id).announce(
            self.parts.log.runner, self.parts.log.changes, self, on_failure=self._failed)

    def fork_current(self) -> None:
        row = self._current_row()
        if row is not None:
            self.fork_row(row)

    def fork_row(self, row: int) -> None:
        """A new conversation with copies of the turns before this one, its question as
        the draft; it opens at once."""
        parts = self.parts
        turn = parts.history.transcript.shown_turn(row)
        if turn is None or parts.log.conversation() is None or not self._may_fork(row, turn):
            return
        fork(parts.log.store, parts.log.conversation().id, turn.ordinal).announce(
            parts.log.runner, parts.log.changes, self, on_failure=self._failed)

    def _history_changed(self, changes: Changes, origin: object) -> None:
        """A delete took a version away: the row may show another version now."""
        if origin is self:  # a fork: it opens as a new conversation
            return
        versions = self.parts.history.transcript.versions
        if changes.turns_deleted and self.parts.log.conversation() is not None \
                and changes.turns_of == self.parts.log.conversation().id \
                and any(len(versions.group(t)) > 1 for t in changes.turns_deleted):
            self.reload(changes.turns_of)
