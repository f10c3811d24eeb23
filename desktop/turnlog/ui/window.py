"""The main window: conversations on the left, the whole history in the centre."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from .. import APP_NAME
from ..core.model import Conversation, Turn
from ..store import TurnlogStore
from .marks import MarkLegend
from .sidebar import Sidebar
from .tasks import TaskContext, TaskRunner
from .transcript import TranscriptModel, TranscriptView

log = logging.getLogger(__name__)

NARROW_WIDTH = 760


def window_settings(home: Path) -> QSettings:
    """Window geometry and panel state, kept beside the database (not in the registry),
    so each data directory remembers its own layout."""
    return QSettings(str(home / "window.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """One window over one store. Storage writes and loading run through `runner`."""

    def __init__(self, store: TurnlogStore, runner: TaskRunner, *,
                 settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.runner = runner
        self.settings = settings or window_settings(store.home)
        self.conversation: Conversation | None = None
        self._secrets: set[str] = set()
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
        column.addWidget(self.legend)
        self.transcript = TranscriptModel(self)
        self.view = TranscriptView(self)
        self.view.setModel(self.transcript)
        column.addWidget(self.view, 1)
        self.empty_hint = QLabel(self)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(self.empty_hint)
        self.setCentralWidget(centre)

        self._build_menus()
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
        menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)
        self.view_menu = self.menuBar().addMenu("&View")
        toggle = self.sidebar_dock.toggleViewAction()
        toggle.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self.view_menu.addAction(toggle)
        history = QAction("Go to &history", self)
        history.setShortcut(QKeySequence("Ctrl+H"))
        history.triggered.connect(self.view.setFocus)
        self.view_menu.addAction(history)

    def _focus_search(self) -> None:
        self.sidebar_dock.show()
        self.sidebar.search.setFocus()
        self.sidebar.search.selectAll()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._apply_width(self.width())

    def _side_docks(self) -> list[QDockWidget]:
        return [self.sidebar_dock]

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
        if conversation is None:
            self.title.setText("")
            self._update_empty_hint()
            return
        self.title.setText(conversation.title)
        self.empty_hint.setText("Loading…")
        self.empty_hint.show()
        cid = conversation.id

        def load(context: TaskContext) -> tuple[Turn, ...]:
            return self.store.turns(cid)

        self.runner.run(TaskRunner.STORAGE, "load turns", load,
                        on_success=lambda turns: self._loaded(cid, turns),
                        on_failure=lambda err: self._load_failed(cid, err))

    def _loaded(self, conversation_id: int, turns: Sequence[Turn]) -> None:
        if self.conversation is None or self.conversation.id != conversation_id:
            return  # the user moved on while it loaded
        self.transcript.set_turns(turns)
        self._update_empty_hint()

    def _load_failed(self, conversation_id: int, error: BaseException) -> None:
        if self.conversation is None or self.conversation.id != conversation_id:
            return
        self.empty_hint.setText(f"Could not load this conversation: {error}")
        self.empty_hint.show()

    def _update_empty_hint(self) -> None:
        if self.conversation is None:
            self.empty_hint.setText("Press New (Ctrl+N) to start a conversation.")
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

        def create(context: TaskContext) -> Conversation:
            return self.store.create_conversation(title)

        self.runner.run(TaskRunner.STORAGE, "create conversation", create,
                        on_success=self._created, on_failure=self._storage_failed)

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
        count = len(self.store.turns(conversation.id))
        box = QMessageBox(QMessageBox.Icon.Warning, "Delete conversation",
                          f"Delete “{conversation.title}” and all {count:,} of its turns?",
                          QMessageBox.StandardButton.NoButton, self)
        box.setInformativeText("The text is removed from the database and cannot be "
                               "brought back.")
        delete = box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is delete:
            self.delete_now(conversation)

    def delete_now(self, conversation: Conversation) -> None:
        cid = conversation.id

        def delete(context: TaskContext) -> int:
            self.store.delete_conversation(cid)
            return cid

        self.runner.run(TaskRunner.STORAGE, "delete conversation", delete,
                        on_success=self._deleted, on_failure=self._storage_failed)

    def _deleted(self, conversation_id: int) -> None:
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.conversation = None
            self.transcript.set_turns(())
            self.title.setText("")
        self.refresh_conversations()

    def _storage_failed(self, error: BaseException) -> None:
        if not isinstance(error, Exception) or not hasattr(error, "kind"):
            raise error
        QMessageBox.warning(self, "Could not save", str(error))

    # --------------------------------------------------------------- closing
    def known_secrets(self) -> list[str]:
        """Keys this window has handled, for redacting crash reports."""
        return list(self._secrets)

    def shutdown(self) -> None:
        """Stop background work and close this thread's and the workers' connections."""
        if self.runner is None:
            return
        db = self.store.db
        self.runner.call_on_each_worker(db.close)
        self.runner.shutdown()
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        settings = self.settings
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        super().closeEvent(event)
