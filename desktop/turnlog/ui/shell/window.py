"""The main window: conversations on the left, the whole history in the centre, the
request inspector on the right.

The window lays out and wires. A send is a `SendSession`, the preview of the draft a
`LivePreview`, what a person changes `HistoryActions`, each storage change a named operation
from `operations` that says what it changed (`_changed` refreshes the views from that).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow, QWidget

from ... import APP_NAME
from ...core.model import Conversation
from ...core.outcome import Committed
from ...store import TurnlogStore
from ..conversation.actions import HistoryActions
from ..conversation.attaching import FileActions, FileReader, WindowDrops
from ..conversation.centre import FIRST_RUN_HINT, START_HINT, CentrePanel
from ..conversation.drafts import DraftKeeper
from ..conversation.first_minute import unsaved
from ..conversation.header_picker import HeaderPicker
from ..dialogs.import_export import ImportExport
from ..dialogs.privacy import ask, choose_export
from ..faults.storage_faults import StorageFaults
from ..infra.changes import ChangeHub, Changes, OpenChange
from ..infra.docks import add_dock
from ..infra.export_file import ExportTarget
from ..infra.languages import arg
from ..infra.operations import Loaded, load_conversation
from ..infra.tasks import TaskRunner
from ..infra.titles import conversation_title
from ..infra.window_settings import window_settings
from ..panels.sidebar import Sidebar
from ..panels.sidebar_filter import ConversationFilter
from ..request.connection import Connector, release_unused_local_model
from ..request.inspector import Inspector
from ..request.live_preview import LivePreview, Shown
from ..request.past_request import PastRequests
from ..request.profile_watch import ProfileWatch
from ..request.provider_setup import ProviderSetup
from ..request.send_session import SendResult, SendSession
from . import features
from .geometry import DockFolding, restore_geometry, save_geometry
from .keyboard import escape_stops
from .lazy_docks import LazyPanels
from .menus import build_menus, show_about
from .open_conversation import OpenConversation
from .wiring import wire

if TYPE_CHECKING:  # the dialogs are loaded when first opened
    from ..dialogs.about import AboutDialog
    from ..dialogs.settings import SettingsDialog

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # translate("MainWindow", …): lupdate reads the context


class MainWindow(LazyPanels, QMainWindow):
    """One window over one store. Storage work runs through `runner` as named operations.

    `confirm` and `choose_export` ask the person (a message box, a save dialog); both are
    plain attributes so they can be answered without a modal dialog."""

    stage_entered = Signal(str)  # the stage line's words, each time a send enters a stage

    def __init__(self, store: TurnlogStore, runner: TaskRunner, connector: Connector, *,
                 setup: ProviderSetup | None = None, settings: QSettings | None = None,
                 parent: QWidget | None = None, first_screen: bool = False) -> None:
        super().__init__(parent)
        self.setup, self.store, self.runner, self.connector = setup, store, runner, connector
        self.settings = settings or window_settings(store.home)
        self.changes = ChangeHub(self)  # every storage operation's Changes, with its origin
        self.open_state = OpenConversation(self.changes, self)  # hears the bus first
        self._said_about: int | None = None  # the conversation the status bar speaks of
        self.confirm = lambda confirmation: ask(self, confirmation)
        self.choose_export = lambda title: choose_export(self, title)
        self.setWindowTitle(APP_NAME)
        self.setObjectName("mainWindow")
        self.setMinimumSize(420, 480)

        self.sidebar = Sidebar(self)
        self.sidebar_filter = ConversationFilter(store, runner, self)  # text: on the worker
        self.sidebar_dock = add_dock(self, translate("MainWindow", "Conversations"), "sidebarDock",
                                     self.sidebar, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.centre = centre = CentrePanel(self)
        self.setCentralWidget(centre)
        self.title, self.legend, self.view = centre.title, centre.legend, centre.view
        self.transcript, self.empty_hint = centre.transcript, centre.empty_hint
        self.stage_widget, self.stage_line = centre.stage_widget, centre.stage_line
        self.banner, self.composer = centre.banner, centre.composer
        self.banner.log_folder = store.home / "logs"  # "Open the log folder" after a crash
        self.file_reader = FileReader(runner, self.composer, self)  # read off the GUI thread
        self.drops = WindowDrops(self, self.composer, self.file_reader)  # onto the window
        self.inspector = Inspector(self)
        self.inspector_dock = add_dock(self, translate("MainWindow", "Inspector"), "inspectorDock",
                                       self.inspector, Qt.DockWidgetArea.RightDockWidgetArea)
        self.folding = DockFolding(self, [self.sidebar_dock, self.inspector_dock])
        self.preview = LivePreview(  # none open: the question typed, as the first request
            lambda: self.conversation or unsaved(self.history, self.composer.text()),
            connector, runner, self.composer, self.transcript, self.legend, self.inspector,
            self.open_state, self)
        self.session = SendSession(store, connector, runner, self, edit_mode=self.open_state)
        self.history = HistoryActions(store, runner, self.session, setup,
                                      lambda: self.conversation, lambda c: self.confirm(c),
                                      lambda title: self.choose_export(title), self.changes, self)
        self.folder_actions = features.folder_actions(self, self)  # folders, stars, several
        self.drafts = DraftKeeper(store.home, runner, self.composer, lambda: self.conversation,
                                  lambda: self.running, self, files=store.attachments)
        self.file_actions = FileActions(store.attachments, runner, self.view,
                                        self.banner.show_text, self)
        self.faults = StorageFaults(store, runner, self.banner, self.composer,
                                    lambda title: self.choose_export(title), self)
        self.transfer = ImportExport(store, runner, self, self.changes, self._storage_failed)
        self.past_requests = PastRequests(store, runner, self.view, lambda: self.conversation,
                                          self.banner.show_text, self._storage_failed, self)
        wire(self)
        escape_stops(self, self.session.running_changed, self.stop)  # Esc anywhere in it
        self.first_send = features.first_send_undo(self, self)  # it leaves nothing if it fails
        self.versions = features.version_controls(self, self)  # regenerate, edit, use, fork
        self.partial_answers = features.partial_answers(self, self)  # Keep or Continue
        self.picker = HeaderPicker(centre.header, connector, runner, store, setup, self.changes,
                                   self._storage_failed, self.session,
                                   lambda: self.conversation, self)
        self._side = features.attach_side_questions(self, self)  # built when first shown
        self.titles = features.conversation_titles(self, self)  # named after the first question
        self.spend = features.conversation_spend(self, self)  # header and turns' hover
        self.first_minute = features.first_minute(self, self)  # the welcome's buttons
        menus = build_menus(self, self)
        self.new_action, self.settings_action = menus.new, menus.settings
        self.export_action, self.delete_all_action = menus.export, menus.delete_all
        self.about_action, self.view_menu = menus.about, menus.view
        self.memory, self.memory_dock = features.attach_memory(self, self, self.view_menu)
        self.tools, self.tool_card = features.attach_tools(self, self)  # each call approved
        self.from_assistant = features.from_assistant(self, self)  # Ctrl+Shift+N
        self.compaction_history = features.attach_compaction_history(self, self, self.view_menu)
        self._search = features.attach_search(self, self, self.view_menu)  # Ctrl+Shift+F
        self.settings_action.setEnabled(setup is not None)
        self.profile_watch = None if setup is None else ProfileWatch(  # turnlog-cli's changes
            setup, self.changes, lambda text: self.statusBar().showMessage(text), self)
        self.refresh_conversations()
        restore_geometry(self, self.settings)
        self.composer.edit.setFocus()  # a newcomer's first typing is a question
        self.warm_up, self.sync = features.when_ready(  # and sync; held for a first screen
            self, self, self.view_menu, held=first_screen)
        self.warm_up.after(self.faults.check)  # the whole file: seconds for a large one

    @property
    def conversation(self) -> Conversation | None:
        return self.open_state.conversation  # the open one: `open_state` owns it

    def _ask(self, change: OpenChange) -> None:
        self.changes.ask(change, self)

    # ----------------------------------------------------------------- layout
    def focus_search(self) -> None:
        self.sidebar_dock.show()
        self.sidebar.search.setFocus()
        self.sidebar.search.selectAll()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.folding.apply(self.width())

    def reveal_ordinal(self, ordinal: int) -> bool:
        """Show turn `ordinal` at the top of the history, current (False: no such turn)."""
        self.folding.back_to_conversation()
        return self.view.reveal_ordinal(ordinal) is not None

    def say_about(self, conversation_id: int, text: str) -> None:
        """Say `text` in the status bar about one conversation (gone when another opens)."""
        self._said_about = conversation_id
        self.statusBar().showMessage(text)

    def show_about(self) -> AboutDialog:
        return show_about(self, self.store.home)  # Help → About

    # ---------------------------------------------------------- conversations
    def refresh_conversations(self, select_id: int | None = None) -> None:
        """Reload the list (those whose text matches the search come later, to `_listed`);
        select `select_id`, else keep the open conversation, else the newest. A
        conversation hidden by the search stays open."""
        text, folder = self.sidebar.search.text().strip(), self.sidebar.folder_filter()
        self._listed(self.sidebar_filter.conversations(text, folder), select_id)

    def _listed(self, conversations: Sequence[Conversation], select_id: int | None = None) -> None:
        keep = select_id if select_id is not None else (
            self.conversation.id if self.conversation else None)
        self.sidebar.set_conversations(conversations, keep, self.sidebar_filter.pending)
        current = self.sidebar.current()
        if current is None and self.conversation is None and conversations:
            self.sidebar.set_conversations(conversations, conversations[0].id)
            current = self.sidebar.current()
        if current is not None and (self.conversation is None
                                    or current.id != self.conversation.id):
            self._select(current)
        self._update_empty_hint()

    def _select(self, conversation: Conversation | None) -> None:
        if conversation is not None and self.conversation is not None \
                and conversation.id == self.conversation.id:
            self._ask(OpenChange.opening(conversation))  # as the list has it now
            return
        self._show_conversation(conversation)
        if conversation is None:
            self.refresh_preview()
            return
        self.empty_hint.setText(translate("MainWindow", "Loading…"))
        self.empty_hint.show()
        self._load(conversation.id)

    def _show_conversation(self, conversation: Conversation | None) -> None:
        """Open `conversation` (None: close the open one); nothing of the last one stays."""
        self._ask(OpenChange.opening(conversation))
        said_about, self._said_about = self._said_about, None
        if said_about is not None and (conversation is None or conversation.id != said_about):
            self.statusBar().clearMessage()
        self.drafts.opened(conversation)
        self.picker.show_for(conversation)
        self.preview.reset()
        self.transcript.set_turns(())
        self.title.setText(conversation_title(conversation) if conversation else "")
        self.faults.dismiss()  # a damaged database stays named
        self._update_empty_hint()

    def _close_conversation(self) -> None:
        """Let go of everything shown from the open conversation (it is being deleted)."""
        self._show_conversation(None)
        self.preview.show(Shown("preview", None))  # the inspector too: no body of it stays

    def _load(self, conversation_id: int) -> None:
        load_conversation(self.store, conversation_id).run(
            self.runner, on_success=self._loaded,
            on_failure=lambda error: self._load_failed(conversation_id, error))

    def _loaded(self, loaded: Loaded) -> None:
        if self.conversation is None or self.conversation.id != loaded.conversation_id:
            return  # the user moved on while it loaded
        self._ask(OpenChange.summary_read(loaded.conversation_id, loaded.summary))
        self.transcript.set_turns(loaded.turns)
        self._update_empty_hint()
        self.warm_up.after(self.refresh_preview)  # at a start: once the turns are painted
        if self.first_send.ready(loaded.conversation_id):
            self.send()

    def _load_failed(self, conversation_id: int, error: BaseException) -> None:
        if self.conversation is None or self.conversation.id != conversation_id:
            return
        self.empty_hint.setText(arg(translate("MainWindow", "Could not load this conversation: %1"),
                                    error))
        self.empty_hint.show()

    def _update_empty_hint(self) -> None:
        if self.setup is not None and self.setup.active() is None and not self.setup.removed:
            self.centre.show_hint(FIRST_RUN_HINT, welcome=self.conversation is None)
        elif self.conversation is None:
            self.centre.show_hint(START_HINT, welcome=True)
        elif not self.transcript.turns and self.transcript.pending is None:
            self.centre.show_hint(translate("MainWindow", "No turns yet. Type a question below "
                                            "and press Ctrl+Enter."))
        else:
            self.centre.show_hint("")

    def new_conversation(self) -> None:
        self.history.new_conversation()

    def rename_conversation(self, conversation: Conversation) -> None:
        self.history.rename_conversation(conversation)

    def _changed(self, changes: Changes, _origin: object = None) -> None:
        """Refresh the views that show what a storage operation changed."""
        self.drafts.forget(changes)
        if changes.message():
            self.statusBar().showMessage(changes.message())
        if changes.turns_deleted:
            self.preview.forget_turns(changes.turns_deleted)
        open_id = self.conversation.id if self.conversation else None
        changed = changes.conversation
        if changes.closes(open_id):
            self._close_conversation()
        elif changed is not None and changed.id == open_id:  # `open_state` adopted it
            self.title.setText(conversation_title(changed))
            if changes.settings:
                self.preview.forget_last()
        if changes.turns_deleted and changes.turns_of == open_id:
            for turn_id in changes.turns_deleted:
                self.transcript.remove_turn(turn_id)
            self.preview.forget_last()  # the last request's body carried the turn
        if changes.appended is not None and changed is not None and not changes.listing:
            self.sidebar.touch(changed)  # active just now: first in the list
        if changes.provider:
            release_unused_local_model(self.connector, self.runner)
        if changes.created:
            self.sidebar.search.clear()
            self.composer.edit.setFocus()  # what is typed next is the new chat's question
        if changes.listing:
            self.refresh_conversations(
                select_id=changed.id if changes.created and changed else None)
        self._update_empty_hint()
        self.refresh_preview()

    # ------------------------------------------------------- privacy and export
    def delete_conversation(self, conversation: Conversation) -> None:
        self.history.delete_conversation(conversation)

    def delete_all_history(self) -> None:
        self.history.delete_all_history()

    def export_conversation(self) -> ExportTarget | None:
        return self.history.export_conversation()

    def _delete_failed(self, error: BaseException) -> None:
        """The delete did not happen: show the conversations as they still are."""
        self.refresh_conversations()
        self.refresh_preview()
        self._storage_failed(error)

    def _storage_failed(self, error: BaseException) -> None:
        self.faults.show(error)  # inline; not a storage fault: raised for the crash report

    def open_settings(self) -> SettingsDialog | None:
        return self.history.open_settings(self.sync)

    # ------------------------------------------------------- preview and marks
    @property
    def shown(self) -> Shown:
        return self.preview.shown

    @property
    def what_if_bytes(self) -> int | None:
        return self.preview.what_if_bytes

    def set_what_if(self, max_bytes: int | None) -> None:
        """Preview the draft under another byte limit; nothing is sent or saved."""
        self.preview.set_what_if(max_bytes)

    def refresh_preview(self) -> None:
        """Project the draft (nothing is sent): see `LivePreview.refresh`."""
        self.preview.refresh()

    # ------------------------------------------------------------------ sending
    @property
    def running(self) -> bool:
        return self.session.running

    def send(self) -> None:
        """Hand the draft to the send session (Send, Ctrl+Enter, Try again)."""
        conversation = self.conversation
        if self.running or self.composer.held:  # held: a damaged database takes no write
            return
        if conversation is None:
            if not self.composer.blocked_reason:  # none to send to, too large: it says so
                self.first_send.start(self.composer.text())
            return
        parts = self.preview.parts(conversation)
        if parts.endpoint is None or parts.budget is None:
            self.banner.show_text(*(parts.problem or (translate("MainWindow", "Cannot send"), "")))
            return
        self.preview.cancel_warm()  # the send counts what it needs itself
        text, draft = self.composer.text(), self.composer.take()
        self.banner.dismiss()
        self.transcript.start_pending(text, files := self.composer.attachments)
        self._update_empty_hint()  # no "No turns yet" above the question being answered
        self.view.scroll_to_newest()
        self.preview.show_running(parts.endpoint)
        self.session.start(conversation, text, draft, parts.endpoint,
                           parts.costs or self.preview.costs, attachments=files,
                           painted_by=self.view.viewport())

    def stop(self) -> None:
        """Cancel the running request (Esc / Stop); the failure path gives the draft back."""
        self.session.stop()

    def _running_changed(self, running: bool) -> None:
        self.stage_widget.setVisible(running)
        self.composer.set_busy(running)
        self.sidebar.setEnabled(not running)
        self.settings_action.setEnabled(not running and self.setup is not None)

    def _sent(self, result: SendResult) -> None:
        outcome = result.outcome
        here = self.conversation is not None and self.conversation.id == result.conversation_id
        if here and result.summary_read:  # a send may make a summary: it read the newest
            self._ask(OpenChange.summary_read(result.conversation_id, result.summary))
        if isinstance(outcome, Committed):
            self._committed(result.conversation_id, outcome)
            self.composer.files_sent(result.attachments)  # in the log with their turn now
            self.composer.edit.setFocus()
        else:
            streamed = self.transcript.drop_pending()
            self.composer.restore(*result.draft)
            self.banner.show_failure(outcome.failure, outcome.partial or streamed)
        self._update_empty_hint()
        self.preview.show_outcome(outcome, result.endpoint, result.duration_s)
        self.preview.refresh_in_background(painted_by=self.view.viewport())

    def _committed(self, conversation_id: int, outcome: Committed) -> None:
        """The answer was saved: its row joins the history, the conversation goes first."""
        conversation = self.conversation
        if conversation is None or conversation.id != conversation_id:
            self.transcript.drop_pending()
            return
        self.transcript.commit_pending(self.transcript.with_turn(outcome.turn))
        self.sidebar.touch(replace(conversation, updated_at=outcome.turn.created_at))

    def _send_crashed(self, draft: tuple[str, int]) -> None:
        """A bug in the send path: never lose the draft (the session reports the bug)."""
        partial = self.transcript.drop_pending()
        self._update_empty_hint()
        self.composer.restore(*draft)
        self.banner.show_text(translate("MainWindow", "Turnlog hit a bug while sending"),
                              translate("MainWindow", "Nothing was saved and your question is "
                                        "back in the box below. The bug report has the "
                                        "details."), partial)
        self.refresh_preview()

    def _send_discarded(self) -> None:
        """The send's conversation was deleted: no pending row, banner, draft or marks."""
        self.transcript.drop_pending()
        self._update_empty_hint()
        self.refresh_preview()

    # --------------------------------------------------------------- closing
    def shutdown(self) -> None:
        """Stop background work and close this thread's and the workers' connections."""
        self.session.cancel()
        if self._side.built:
            self.side.session.cancel()
        self.drafts.flush()  # what was typed in the last half second too
        self.history.drop_if_unused(not self.composer.text().strip()
                                    and not self.composer.attachments)
        self.file_actions.cleanup()  # the copies of attached files opened from here
        if not self.runner.closed:
            self.runner.call_on_each_worker(self.store.db.close)
            self.runner.shutdown()
        # After the workers: a local model start in progress has seen the cancel.
        self.connector.close()
        self.tools.close()  # the tool servers' child processes end with the window

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        save_geometry(self, self.settings, self.folding.saved_state())
        super().closeEvent(event)
