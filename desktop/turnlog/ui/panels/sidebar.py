"""The conversation list: starred ones first, then newest first, searchable by title and
text, shown by folder (the folder list above it), with new / rename / delete / star / move
for one conversation or several chosen (Shift/Ctrl click), and drag into a folder."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QEvent,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation, Folder
from ...store.rows import ConversationRows
from ..infra.languages import arg, date_time
from ..infra.titles import conversation_title
from ..infra.viewports import own_viewport
from .sidebar_folders import ALL, CONVERSATIONS_MIME, FolderList, conversations_mime
from .sidebar_menus import ConversationMenu, FolderMenu

ModelIndex = QModelIndex | QPersistentModelIndex
ConversationRole = Qt.ItemDataRole.UserRole + 1
LAYOUT_BATCH = 200  # rows the list lays out at a time (a few screens of them)


class ConversationListModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: Sequence[Conversation] = ()
        self._ids: list[int] = []
        # Qt asks for the row count once per row while it lays out the list (thousands
        # of calls into Python): answered from a plain int.
        self._count = 0

    def set_conversations(self, conversations: Sequence[Conversation]) -> None:
        """Show `conversations`; rows the store read (`ConversationRows`) are made into
        conversations only as they are shown."""
        self.beginResetModel()
        if isinstance(conversations, ConversationRows):
            self._items, self._ids = conversations, conversations.ids
        else:
            self._items = list(conversations)
            self._ids = [c.id for c in self._items]
        self._count = len(self._ids)
        self.endResetModel()

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else self._count

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        conversation = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            title = conversation_title(conversation)
            return f"★ {title}" if conversation.starred else title
        if role == Qt.ItemDataRole.AccessibleTextRole:
            title = conversation_title(conversation)
            return arg(QCoreApplication.translate("Sidebar", "%1, starred"), title) \
                if conversation.starred else title
        if role == Qt.ItemDataRole.ToolTipRole:
            when = date_time(conversation.updated_at) if conversation.updated_at else ""
            return arg(QCoreApplication.translate(
                "Sidebar", "%1\nlast active %2"), conversation_title(conversation), when)
        if role == ConversationRole:
            return conversation
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsDragEnabled if index.isValid() else flags

    def mimeTypes(self) -> list[str]:  # noqa: N802 - Qt override
        return [CONVERSATIONS_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:  # noqa: N802
        rows = sorted({index.row() for index in indexes if index.isValid()})
        return conversations_mime([self._items[row].id for row in rows])

    def supportedDragActions(self) -> Qt.DropAction:  # noqa: N802 - Qt override
        return Qt.DropAction.CopyAction

    @property
    def items(self) -> Sequence[Conversation]:
        return tuple(self._items)

    def row_of(self, conversation_id: int) -> int | None:
        try:
            return self._ids.index(conversation_id)
        except ValueError:
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
    """Emits what the user asked for; the window and the folder actions do the storage
    work."""

    selected = Signal(object)  # Conversation | None
    new_requested = Signal()
    rename_requested = Signal(object)  # Conversation
    delete_requested = Signal(object)  # Conversation
    delete_several_requested = Signal(object)  # list[Conversation], two or more
    search_changed = Signal(str)
    search_left = Signal()  # Esc on an empty search field, or Enter in it: back to typing
    folder_chosen = Signal(object)  # the folder list's row: ALL, NO_FOLDER or a folder id
    move_requested = Signal(object, object)  # conversation ids, folder id (None: out)
    star_requested = Signal(object, bool)  # conversation ids, starred or not
    new_folder_requested = Signal()
    rename_folder_requested = Signal(object)  # Folder
    delete_folder_requested = Signal(object)  # Folder

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addLayout(self._top_row())
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(150)
        self._search_timer.timeout.connect(lambda: self.search_changed.emit(self.search.text()))
        self.search.textChanged.connect(lambda _text: self._search_timer.start())

        self.folder_list = FolderList(self)
        self.folder_list.selectionModel().currentChanged.connect(
            lambda _now, _before: self.folder_chosen.emit(self.folder_list.chosen()))
        self.folder_list.folders.dropped.connect(self.move_requested.emit)
        self.model = ConversationListModel(self)
        self.list = self._conversation_list()
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setChildrenCollapsible(False)
        split.addWidget(self.folder_list)
        split.addWidget(self.list)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 4)
        layout.addWidget(split, 1)

        self.empty = QLabel(QCoreApplication.translate(
            "Sidebar", "No conversations yet. Press New to start one."), self)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        layout.addLayout(self._button_row())
        self.menu = ConversationMenu(self.list, self)
        self.folder_menu = FolderMenu(self.folder_list, self)
        self._update_buttons()

    def _top_row(self) -> QHBoxLayout:
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
        self.search.installEventFilter(self)
        top.addWidget(self.search, 1)
        self.new_button = self._button(
            QCoreApplication.translate("Sidebar", "New"),
            QCoreApplication.translate("Sidebar", "New conversation (Ctrl+N)"),
            self.new_requested.emit)
        top.addWidget(self.new_button)
        return top

    def _conversation_list(self) -> QListView:
        view = QListView(self)
        own_viewport(view)
        view.setObjectName("conversationList")
        view.setAccessibleName(QCoreApplication.translate(
            "Sidebar", "Conversations, newest first"))
        view.setModel(self.model)
        # Shift/Ctrl click chooses several, to move, star or delete at once.
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setDragEnabled(True)
        view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        view.setDefaultDropAction(Qt.DropAction.CopyAction)
        view.setUniformItemSizes(True)
        # Thousands of rows (an import's) are laid out a batch at a time between events:
        # the first rows are painted at once, the rest follow without holding the window.
        view.setLayoutMode(QListView.LayoutMode.Batched)
        view.setBatchSize(LAYOUT_BATCH)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        view.setItemDelegate(TitleDelegate(view))
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setResizeMode(QListView.ResizeMode.Adjust)  # rows follow the list's width
        view.selectionModel().currentChanged.connect(self._current_changed)
        view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        return view

    def _button_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.rename_button = self._button(QCoreApplication.translate(
            "Sidebar", "Rename"), QCoreApplication.translate("Sidebar", "Rename the selected "
            "conversation (F2)"), self.rename_chosen)
        self.delete_button = self._button(QCoreApplication.translate(
            "Sidebar", "Delete…"), QCoreApplication.translate(
            "Sidebar", "Delete the selected conversations and all their turns (Delete)"),
            self.delete_chosen)
        self.folder_button = self._button(
            QCoreApplication.translate("Sidebar", "New folder"),
            QCoreApplication.translate("Sidebar", "Make a folder to drag conversations into "
                                       "(Ctrl+Alt+N)"), self.new_folder_requested.emit)
        row.addWidget(self.rename_button)
        row.addWidget(self.delete_button)
        row.addStretch(1)
        row.addWidget(self.folder_button)
        return row

    def _button(self, text: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(re.split(r" ?[(（]", tip)[0])
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.clicked.connect(slot)
        return button

    # ----------------------------------------------------------------- folders
    def folder_filter(self) -> int | None:
        """The conversations the list shows: None every one, 0 those in no folder, else
        a folder's id."""
        chosen = self.folder_list.chosen()
        return None if chosen == ALL else chosen

    def set_folders(self, folders: Sequence[Folder]) -> None:
        """Show `folders`; a chosen folder that is gone chooses every conversation (told
        by `folder_chosen`)."""
        if not self.folder_list.set_folders(folders):
            self.folder_chosen.emit(ALL)

    def show_every_conversation(self) -> None:
        """Choose "All conversations" (a new conversation is in no folder: it must be
        listed), without telling `folder_chosen`: the list is refreshed by the caller."""
        blocker = self.folder_list.selectionModel().blockSignals(True)
        self.folder_list.setCurrentIndex(self.folder_list.folders.index(0))
        self.folder_list.selectionModel().blockSignals(blocker)

    @property
    def folders(self) -> tuple[Folder, ...]:
        return self.folder_list.folders.folders

    def chosen_folder(self) -> Folder | None:
        return self.folder_list.folders.folder(self.folder_list.currentIndex().row())

    # ----------------------------------------------------------- conversations
    def set_conversations(self, conversations: Sequence[Conversation],
                          select_id: int | None, searching: bool = False) -> None:
        """Show `conversations` and keep (or move) the selection to `select_id`;
        `searching`: the conversations whose text matches the search are still to come."""
        blocker = self.list.selectionModel().blockSignals(True)
        self.model.set_conversations(conversations)
        row = self.model.row_of(select_id) if select_id is not None else None
        if row is not None and row >= LAYOUT_BATCH:
            # Beyond the first batch: laid out whole now, so it can be scrolled to.
            self.list.setLayoutMode(QListView.LayoutMode.SinglePass)
            self.list.setCurrentIndex(self.model.index(row))
            self.list.scrollTo(self.model.index(row))
            self.list.setLayoutMode(QListView.LayoutMode.Batched)
        elif row is not None:
            self.list.setCurrentIndex(self.model.index(row))
        self.list.selectionModel().blockSignals(blocker)
        self.empty.setVisible(not conversations)
        self.empty.setText(self._empty_text(bool(conversations), searching))
        self._update_buttons()

    def _empty_text(self, listed: bool, searching: bool) -> str:
        if not listed and self.search.text() and searching:
            return QCoreApplication.translate("Sidebar", "Searching the text…")
        if not listed and self.search.text():
            return QCoreApplication.translate("Sidebar", "No conversation matches the search.")
        if not listed and self.folder_filter() is not None:
            return QCoreApplication.translate(
                "Sidebar", "No conversation here. Drag conversations onto a folder to move "
                "them.")
        return QCoreApplication.translate("Sidebar", "No conversations yet. Press New to "
                                          "start one.")

    def touch(self, conversation: Conversation) -> None:
        """`conversation` was just active: show it as it is now, first in the list after
        the starred ones (first of all if starred), the selection kept. Not listed
        (hidden by the search or the folder): nothing changes."""
        items = self.model.items
        if self.model.row_of(conversation.id) is None:
            return
        current = self.current()
        rest = [c for c in items if c.id != conversation.id]
        at = 0 if conversation.starred else sum(1 for c in rest if c.starred)
        self.set_conversations([*rest[:at], conversation, *rest[at:]],
                               current.id if current is not None else None)

    def current(self) -> Conversation | None:
        index = self.list.currentIndex()
        return self.model.conversation(index.row()) if index.isValid() else None

    def chosen(self) -> list[Conversation]:
        """The conversations chosen (Shift/Ctrl click), in list order; none chosen: the
        current one."""
        rows = sorted(index.row() for index in self.list.selectionModel().selectedRows())
        found = [c for c in (self.model.conversation(r) for r in rows) if c is not None]
        current = self.current()
        return found or ([current] if current is not None else [])

    def select(self, conversation_id: int) -> bool:
        row = self.model.row_of(conversation_id)
        if row is None:
            return False
        self.list.setCurrentIndex(self.model.index(row))
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """The search field's keys: Esc clears it (and, empty, leaves it); Down goes to
        the list; Enter opens the first conversation listed (unless one listed is open)
        and leaves the field."""
        if watched is self.search and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) and not event.modifiers():
            key = event.key()
            if key == Qt.Key.Key_Escape:
                if self.search.text():
                    self.search.clear()
                else:
                    self.search_left.emit()
                return True
            if key == Qt.Key.Key_Down and self.model.rowCount():
                if not self.list.currentIndex().isValid():
                    self.list.setCurrentIndex(self.model.index(0))
                self.list.setFocus()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._search_timer.isActive():  # what is typed: listed now, not later
                    self._search_timer.stop()
                    self.search_changed.emit(self.search.text())
                if self.model.rowCount() and not self.list.currentIndex().isValid():
                    self.list.setCurrentIndex(self.model.index(0))
                self.search_left.emit()
                return True
        return super().eventFilter(watched, event)

    def _current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        self._update_buttons()
        self.selected.emit(self.model.conversation(current.row()) if current.isValid() else None)

    def _update_buttons(self) -> None:
        chosen = len(self.chosen())
        self.rename_button.setEnabled(chosen == 1)
        self.delete_button.setEnabled(chosen > 0)
        self.menu.update()  # its actions name what they do to the ones chosen now

    def rename_chosen(self) -> None:
        chosen = self.chosen()
        if len(chosen) == 1:
            self.rename_requested.emit(chosen[0])

    def delete_chosen(self) -> None:
        chosen = self.chosen()
        if len(chosen) == 1:
            self.delete_requested.emit(chosen[0])
        elif chosen:
            self.delete_several_requested.emit(chosen)

    def star_chosen(self) -> None:
        """Star the chosen conversations; all starred already: take their star away."""
        chosen = self.chosen()
        if chosen:
            self.star_requested.emit([c.id for c in chosen],
                                     not all(c.starred for c in chosen))

    def move_chosen(self, folder_id: int | None) -> None:
        chosen = self.chosen()
        if chosen:
            self.move_requested.emit([c.id for c in chosen], folder_id)
