"""The sidebar's context menus and keys: on the conversation list (star, move to a folder
or out of it, rename, delete — for every conversation chosen), and on the folder list
(new, rename, delete a folder). Each is an action on its list, so Shift+F10 and the Menu
key open the same menu the mouse does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QCoreApplication, Qt, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QListView, QMenu

from ...core.model import Conversation, Folder
from ..infra.languages import plural
from .sidebar_folders import FolderList

translate = QCoreApplication.translate  # translate("Sidebar", …): lupdate reads the context


class ChosenConversations(Protocol):
    """What the conversation list's menu acts on: the conversations chosen, and the
    folders they can move to."""

    @property
    def folders(self) -> tuple[Folder, ...]: ...

    def chosen(self) -> Sequence[Conversation]: ...

    def star_chosen(self) -> None: ...

    def move_chosen(self, folder_id: int | None) -> None: ...

    def rename_chosen(self) -> None: ...

    def delete_chosen(self) -> None: ...


class ChosenFolder(Protocol):
    """What the folder list's menu acts on: the folder chosen, and where it asks."""

    @property
    def new_folder_requested(self) -> SignalInstance: ...

    @property
    def rename_folder_requested(self) -> SignalInstance: ...

    @property
    def delete_folder_requested(self) -> SignalInstance: ...

    def chosen_folder(self) -> Folder | None: ...

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt's name


def _action(view: QListView, text: str, keys: QKeySequence | None, slot: object,
            context: Qt.ShortcutContext = Qt.ShortcutContext.WidgetShortcut) -> QAction:
    action = QAction(text, view)
    if keys is not None:
        action.setShortcut(keys)
        action.setShortcutContext(context)
    action.triggered.connect(slot)
    view.addAction(action)
    return action


class ConversationMenu:
    """The conversation list's actions, for the conversations chosen."""

    def __init__(self, view: QListView, sidebar: ChosenConversations) -> None:
        self.sidebar = sidebar
        self.star = _action(view, translate("Sidebar", "Star"), QKeySequence("Ctrl+D"),
                            sidebar.star_chosen)
        self.move = QAction(translate("Sidebar", "Move to folder"), view)
        self.folders = QMenu(view)
        self.folders.aboutToShow.connect(self._fill_folders)
        self.move.setMenu(self.folders)
        view.addAction(self.move)
        self.out = _action(view, translate("Sidebar", "Take out of its folder"), None,
                           lambda: sidebar.move_chosen(None))
        self.rename = _action(view, translate("Sidebar", "Rename"), QKeySequence(Qt.Key.Key_F2),
                              sidebar.rename_chosen, Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete = _action(view, translate("Sidebar", "Delete…"),
                              QKeySequence(QKeySequence.StandardKey.Delete), sidebar.delete_chosen)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    def update(self) -> None:
        """Name what each action does to the conversations chosen now."""
        chosen = self.sidebar.chosen()
        n = len(chosen)
        starred = bool(chosen) and all(c.starred for c in chosen)
        if n > 1:
            self.star.setText(plural(
                translate("Sidebar", "Unstar %n conversation(s)", None, n) if starred
                else translate("Sidebar", "Star %n conversation(s)", None, n), n))
            self.delete.setText(plural(translate("Sidebar", "Delete %n conversation(s)…", None,
                                                 n), n))
        else:
            self.star.setText(translate("Sidebar", "Unstar") if starred
                              else translate("Sidebar", "Star"))
            self.delete.setText(translate("Sidebar", "Delete…"))
        for action in (self.star, self.move, self.delete):
            action.setEnabled(bool(chosen))
        self.out.setEnabled(any(c.folder_id is not None for c in chosen))
        self.rename.setEnabled(len(chosen) == 1)
        self.move.setEnabled(bool(chosen) and bool(self.sidebar.folders))

    def _fill_folders(self) -> None:
        self.folders.clear()
        chosen = self.sidebar.chosen()
        for folder in self.sidebar.folders:
            action = self.folders.addAction(folder.name.replace("&", "&&"))
            action.setEnabled(any(c.folder_id != folder.id for c in chosen))
            action.triggered.connect(lambda _=False, f=folder.id: self.sidebar.move_chosen(f))


class FolderMenu:
    """The folder list's actions: a new folder anywhere in the sidebar; rename and
    delete the chosen one."""

    def __init__(self, view: FolderList, sidebar: ChosenFolder) -> None:
        self.sidebar = sidebar
        self.new = _action(view, translate("Sidebar", "New folder…"), QKeySequence("Ctrl+Alt+N"),
                           sidebar.new_folder_requested.emit,
                           Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sidebar.addAction(self.new)  # Ctrl+Alt+N from anywhere in the sidebar
        self.rename = _action(view, translate("Sidebar", "Rename folder…"),
                              QKeySequence(Qt.Key.Key_F2), self._rename)
        self.delete = _action(view, translate("Sidebar", "Delete folder…"),
                              QKeySequence(QKeySequence.StandardKey.Delete), self._delete)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        view.selectionModel().currentChanged.connect(lambda *_: self.update())
        view.folders.modelReset.connect(self.update)
        self.update()

    def update(self) -> None:
        chosen = self.sidebar.chosen_folder() is not None
        self.rename.setEnabled(chosen)
        self.delete.setEnabled(chosen)

    def _rename(self) -> None:
        folder = self.sidebar.chosen_folder()
        if folder is not None:
            self.sidebar.rename_folder_requested.emit(folder)

    def _delete(self) -> None:
        folder = self.sidebar.chosen_folder()
        if folder is not None:
            self.sidebar.delete_folder_requested.emit(folder)
