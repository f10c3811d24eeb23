"""The conversation list: newest first, searchable by title and text, with new / rename /
delete."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation
from ..infra.languages import arg, date_time
from ..infra.titles import conversation_title

ModelIndex = QModelIndex | QPersistentModelIndex
ConversationRole = Qt.ItemDataRole.UserRole + 1


class ConversationListModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[Conversation] = []

    def set_conversations(self, conversations: Sequence[Conversation]) -> None:
        self.beginResetModel()
        self._items = list(conversations)
        self.endResetModel()

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        conversation = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return conversation_title(conversation)
        if role == Qt.ItemDataRole.ToolTipRole:
            when = date_time(conversation.updated_at) if conversation.updated_at else ""
            return arg(QCoreApplication.translate(
                "Sidebar", "%1\nlast active %2"), conversation_title(conversation), when)
        if role == ConversationRole:
            return conversation
        return None

    @property
    def items(self) -> Sequence[Conversation]:
        return tuple(self._items)

    def row_of(self, conversation_id: int) -> int | None:
        for row, conversation in enumerate(self._items):
            if conversation.id == conversation_id:
                return row
        return None

    def conversation(self, row: int) -> Conversation | None:
        return self._items[row] if 0 <= row < len(self._items) else None


class TitleDelegate(QStyledItemDelegate):
    """Rows as wide as the list, never wider: a long title ends in an ellipsis instead of
    widening the list into a sideways scrollbar."""

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)
        return QSize(min(hint.width(), self._view.viewport().width()), hint.height())


class Sidebar(QWidget):
    """Emits what the user asked for; the window does the storage work."""

    selected = Signal(object)  # Conversation | None
    new_requested = Signal()
    rename_requested = Signal(object)  # Conversation
    delete_requested = Signal(object)  # Conversation
    search_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)

        top = QHBoxLayout()
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(QCoreApplication.translate(
            "Sidebar", "Search titles and text"))
        self.search.setAccessibleName(QCoreApplication.translate(
            "Sidebar", "Search conversation titles and text"))
        self.search.setToolTip(QCoreApplication.translate(
            "Sidebar", "Keeps the conversations whose title or turns match "
            "(Ctrl+Shift+F lists the matching turns)"))
        self.search.setClearButtonEnabled(True)
        top.addWidget(self.search, 1)
        self.new_button = self._button(
            QCoreApplication.translate("Sidebar", "New"),
            QCoreApplication.translate("Sidebar", "New conversation (Ctrl+N)"),
            self.new_requested.emit)
        top.addWidget(self.new_button)
        layout.addLayout(top)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(150)
        self._search_timer.timeout.connect(lambda: self.search_changed.emit(self.search.text()))
        self.search.textChanged.connect(lambda _text: self._search_timer.start())

        self.model = ConversationListModel(self)
        self.list = QListView(self)
        self.list.setObjectName("conversationList")
        self.list.setAccessibleName(QCoreApplication.translate(
            "Sidebar", "Conversations, newest first"))
        self.list.setModel(self.model)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setUniformItemSizes(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setItemDelegate(TitleDelegate(self.list))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)  # rows follow the list's width
        self.list.selectionModel().currentChanged.connect(self._current_changed)
        layout.addWidget(self.list, 1)

        self.empty = QLabel(QCoreApplication.translate(
            "Sidebar", "No conversations yet. Press New to start one."), self)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)

        row = QHBoxLayout()
        self.rename_button = self._button(QCoreApplication.translate(
            "Sidebar", "Rename"), QCoreApplication.translate("Sidebar", "Rename the selected "
            "conversation (F2)"),
                                          self._rename)
        self.delete_button = self._button(QCoreApplication.translate(
            "Sidebar", "Delete…"), QCoreApplication.translate(
            "Sidebar", "Delete the selected conversation and all its turns (Delete)"), self._delete)
        row.addWidget(self.rename_button)
        row.addWidget(self.delete_button)
        row.addStretch(1)
        layout.addLayout(row)

        rename = QAction(QCoreApplication.translate("Sidebar", "Rename"), self.list)
        rename.setShortcut(QKeySequence(Qt.Key.Key_F2))
        rename.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        rename.triggered.connect(self._rename)
        delete = QAction(QCoreApplication.translate("Sidebar", "Delete…"), self.list)
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self._delete)
        self.list.addActions([rename, delete])
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._update_buttons()

    def _button(self, text: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(re.split(r" ?[(（]", tip)[0])
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.clicked.connect(slot)
        return button

    def set_conversations(self, conversations: Sequence[Conversation],
                          select_id: int | None, searching: bool = False) -> None:
        """Show `conversations` and keep (or move) the selection to `select_id`;
        `searching`: the conversations whose text matches the search are still to come."""
        blocker = self.list.selectionModel().blockSignals(True)
        self.model.set_conversations(conversations)
        row = self.model.row_of(select_id) if select_id is not None else None
        if row is not None:
            self.list.setCurrentIndex(self.model.index(row))
        self.list.selectionModel().blockSignals(blocker)
        self.empty.setVisible(not conversations)
        if not conversations and self.search.text() and searching:
            self.empty.setText(QCoreApplication.translate("Sidebar", "Searching the text…"))
        elif not conversations and self.search.text():
            self.empty.setText(QCoreApplication.translate(
                "Sidebar", "No conversation matches the search."))
        else:
            self.empty.setText(QCoreApplication.translate(
                "Sidebar", "No conversations yet. Press New to start one."))
        self._update_buttons()

    def touch(self, conversation: Conversation) -> None:
        """`conversation` was just active: show it as it is now, first in the list (newest
        first), the selection kept. Not listed (hidden by the search): nothing changes."""
        items = self.model.items
        if self.model.row_of(conversation.id) is None:
            return
        current = self.current()
        rest = [c for c in items if c.id != conversation.id]
        self.set_conversations([conversation, *rest],
                               current.id if current is not None else None)

    def current(self) -> Conversation | None:
        index = self.list.currentIndex()
        return self.model.conversation(index.row()) if index.isValid() else None

    def select(self, conversation_id: int) -> bool:
        row = self.model.row_of(conversation_id)
        if row is None:
            return False
        self.list.setCurrentIndex(self.model.index(row))
        return True

    def _current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        self._update_buttons()
        self.selected.emit(self.model.conversation(current.row()) if current.isValid() else None)

    def _update_buttons(self) -> None:
        has = self.current() is not None
        self.rename_button.setEnabled(has)
        self.delete_button.setEnabled(has)

    def _rename(self) -> None:
        conversation = self.current()
        if conversation is not None:
            self.rename_requested.emit(conversation)

    def _delete(self) -> None:
        conversation = self.current()
        if conversation is not None:
            self.delete_requested.emit(conversation)
