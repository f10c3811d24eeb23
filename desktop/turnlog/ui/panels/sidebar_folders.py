"""The sidebar's folder list: every conversation, those in no folder, then each folder
by name with how many it holds. A row is a filter of the conversation list below it, and
a place to drop conversations dragged from it (into a folder, or out of any)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ...core.model import Folder
from ..infra.languages import arg

ModelIndex = QModelIndex | QPersistentModelIndex
FolderRole = Qt.ItemDataRole.UserRole + 2
CONVERSATIONS_MIME = "application/x-turnlog-conversations"
"""What a drag from the conversation list carries: their ids, as ASCII, comma-separated."""

# The first two rows' words (the folders' rows are their names).
ROW_NAMES = (QT_TRANSLATE_NOOP("Sidebar", "All conversations"),
             QT_TRANSLATE_NOOP("Sidebar", "Not in a folder"))
ROW_TIPS = (QT_TRANSLATE_NOOP("Sidebar", "Every conversation, starred ones first"),
            QT_TRANSLATE_NOOP("Sidebar", "Drop conversations here to take them out of "
                              "their folder"))
FOLDER_TIP = QT_TRANSLATE_NOOP("Sidebar", "Drop conversations here to move them into this "
                               "folder")

ALL = -1
"""The first row: every conversation (not a place to drop into)."""
NO_FOLDER = 0
"""The second row: the conversations in no folder (a drop there takes them out)."""


def conversations_mime(ids: Sequence[int]) -> QMimeData:
    data = QMimeData()
    data.setData(CONVERSATIONS_MIME, QByteArray(",".join(str(i) for i in ids).encode()))
    return data


def ids_of(data: QMimeData) -> list[int]:
    """The conversation ids a drag carries ([] for anything else: a file, text)."""
    if not data.hasFormat(CONVERSATIONS_MIME):
        return []
    text = bytes(data.data(CONVERSATIONS_MIME).data()).decode("ascii", "replace")
    return [int(part) for part in text.split(",") if part.isdigit()]


class FolderListModel(QAbstractListModel):
    """The rows: `ALL`, `NO_FOLDER`, then the folders; `FolderRole` is the row's folder id
    (`ALL`, `NO_FOLDER` or a folder's). A drop is told by `dropped`."""

    dropped = Signal(object, object)  # conversation ids, the folder id (None: out of any)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._folders: list[Folder] = []

    def set_folders(self, folders: Sequence[Folder]) -> None:
        self.beginResetModel()
        self._folders = list(folders)
        self.endResetModel()

    @property
    def folders(self) -> tuple[Folder, ...]:
        return tuple(self._folders)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else 2 + len(self._folders)

    def folder_id(self, row: int) -> int:
        if row == 0:
            return ALL
        if row == 1:
            return NO_FOLDER
        return self._folders[row - 2].id

    def folder(self, row: int) -> Folder | None:
        return self._folders[row - 2] if 2 <= row < 2 + len(self._folders) else None

    def row_of(self, folder_id: int) -> int | None:
        if folder_id in (ALL, NO_FOLDER):
            return 0 if folder_id == ALL else 1
        for row, folder in enumerate(self._folders, start=2):
            if folder.id == folder_id:
                return row
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        row = index.row()
        folder = self.folder(row)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if folder is None:
                return QCoreApplication.translate("Sidebar", ROW_NAMES[row])
            return arg(QCoreApplication.translate("Sidebar", "%1 (%2)"), folder.name,
                       folder.conversations)
        if role == Qt.ItemDataRole.ToolTipRole:
            return QCoreApplication.translate("Sidebar", ROW_TIPS[row] if folder is None
                                              else FOLDER_TIP)
        if role == FolderRole:
            return self.folder_id(row)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.row() >= 1:
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        return flags

    def mimeTypes(self) -> list[str]:  # noqa: N802 - Qt override
        return [CONVERSATIONS_MIME]

    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802 - Qt override
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int,  # noqa: N802
                        column: int, parent: ModelIndex) -> bool:
        return parent.isValid() and parent.row() >= 1 and bool(ids_of(data))

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int,  # noqa: N802
                     column: int, parent: ModelIndex) -> bool:
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        target = self.folder_id(parent.row())
        self.dropped.emit(ids_of(data), None if target == NO_FOLDER else target)
        return False  # nothing to remove from the list it came from


class FolderList(QListView):
    """The folder rows: one chosen at a time, conversations dropped onto a row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("folderList")
        self.setAccessibleName(QCoreApplication.translate("Sidebar", "Folders"))
        self.folders = FolderListModel(self)
        self.setModel(self.folders)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setCurrentIndex(self.folders.index(0))

    def chosen(self) -> int:
        """The chosen row's folder id (`ALL`, `NO_FOLDER` or a folder's)."""
        index = self.currentIndex()
        return self.folders.folder_id(index.row()) if index.isValid() else ALL

    def set_folders(self, folders: Sequence[Folder]) -> bool:
        """Show `folders`, the chosen row kept; returns False when the chosen folder is
        gone (then every conversation is chosen)."""
        chosen = self.chosen()
        blocker = self.selectionModel().blockSignals(True)
        self.folders.set_folders(folders)
        row = self.folders.row_of(chosen)
        self.setCurrentIndex(self.folders.index(0 if row is None else row))
        self.selectionModel().blockSignals(blocker)
        return row is not None
