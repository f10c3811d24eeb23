"""The panels the window keeps in docks beside the inspector (Memory, Side questions):
built here, each handed the parts it works with, and the window's menus told of them."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QStatusBar

from ...core.model import Conversation
from ...store import TurnlogStore
from ..conversation.actions import HistoryActions
from ..conversation.composer import Composer
from ..infra.changes import ChangeHub
from ..infra.docks import add_dock
from ..infra.tasks import TaskRunner
from ..panels.memory.dock import MemoryDock, MemoryParts
from ..panels.memory.panel import MemoryPanel
from ..panels.side.panel import SidePanel
from ..panels.side.questions import SideParts, SideQuestions
from ..request.connection import Connector
from ..request.inspector import Inspector
from ..request.live_preview import LivePreview
from ..request.send_session import SendSession
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .geometry import DockFolding


class DockHost(Protocol):
    """What the docks are built from (the main window, which imports this module)."""

    store: TurnlogStore
    runner: TaskRunner
    connector: Connector
    conversation: Conversation | None
    session: SendSession
    composer: Composer
    transcript: TranscriptModel
    view: TranscriptView
    preview: LivePreview
    changes: ChangeHub
    history: HistoryActions
    inspector: Inspector
    inspector_dock: QDockWidget
    folding: DockFolding

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

    def _storage_failed(self, error: BaseException) -> None: ...


def _beside_inspector(window: QMainWindow, host: DockHost, dock: QDockWidget) -> None:
    window.tabifyDockWidget(host.inspector_dock, dock)  # a tab beside the inspector
    host.folding.also_fold(dock)  # a narrow window folds it away with the inspector
    host.inspector_dock.raise_()  # the request inspector stays in front until asked aside


def attach_side_questions(window: QMainWindow,
                          host: DockHost) -> tuple[SideQuestions, QDockWidget]:
    """The "Side questions" dock on the right of `window`, and what runs them."""
    panel = SidePanel(window)
    dock = add_dock(window, QCoreApplication.translate("SidePanel", "Side questions"),
                    "sideDock", panel, Qt.DockWidgetArea.RightDockWidgetArea)
    _beside_inspector(window, host, dock)
    side = SideQuestions(panel, SideParts(
        host.store, host.runner, host.connector, lambda: host.conversation,
        lambda: host.session.running, host.composer, host.transcript, host.preview,
        host.changes, lambda text: host.statusBar().showMessage(text)), window)
    host.history.closing.connect(side.closing)
    host.composer.aside_requested.connect(dock.raise_)
    return side, dock


def attach_memory(window: QMainWindow, host: DockHost,
                  view_menu: QMenu) -> tuple[MemoryDock, QDockWidget]:
    """The Memory dock (a tab beside the inspector; View → Memory), wired; the transcript's
    menu gains Pin from this turn…"""
    panel = MemoryPanel(window)
    dock = add_dock(window, QCoreApplication.translate("MemoryPanel", "Memory"), "memoryDock",
                    panel, Qt.DockWidgetArea.RightDockWidgetArea)
    _beside_inspector(window, host, dock)
    memory = MemoryDock(panel, dock, MemoryParts(
        host.store, host.runner, lambda: host.conversation, host.preview, host.changes,
        host.transcript, host.view, host._storage_failed,
        lambda text: host.statusBar().showMessage(text)), window)
    host.inspector.pin_requested.connect(memory.pin_text)
    go = QAction(QCoreApplication.translate("MemoryPanel", "&Memory"), window)
    go.setShortcut("Ctrl+Shift+M")
    go.triggered.connect(memory.go_to)
    view_menu.addAction(go)
    action = QAction(QCoreApplication.translate("MemoryPanel", "Pin from this turn…"), host.view)
    action.setShortcut("Ctrl+Shift+P")
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    action.triggered.connect(memory.pin_from_current_turn)
    host.view.addAction(action)
    memory.pin_action = action
    return memory, dock
