"""The main window's menu bar: File, Conversation, View and Help, with their shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QWidget

from .. import APP_NAME
from .centre import CentrePanel
from .import_export import ImportExport
from .languages import add_language_menu


class MenuHost(Protocol):
    """What the menus act on (the main window)."""

    sidebar_dock: QDockWidget
    inspector_dock: QDockWidget
    centre: CentrePanel
    transfer: ImportExport
    settings: QSettings

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt's name
    def new_conversation(self) -> None: ...
    def focus_search(self) -> None: ...
    def open_settings(self) -> object: ...
    def close(self) -> bool: ...
    def show_about(self) -> object: ...
    def export_conversation(self) -> object: ...
    def delete_all_history(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Menus:
    """The actions the window enables, disables or triggers itself."""

    new: QAction
    settings: QAction
    export: QAction
    delete_all: QAction
    about: QAction
    view: QMenu


def _action(parent: QWidget, menu: QMenu, text: str, slot: Callable[[], object],
            shortcut: QKeySequence | None = None) -> QAction:
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(shortcut)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def build_menus(window: MenuHost, parent: QWidget) -> Menus:
    """Fill `window`'s menu bar; `parent` (the window) owns the actions."""
    bar = window.menuBar()
    standard = QKeySequence.StandardKey
    file_menu = bar.addMenu("&File")
    imports = _action(parent, file_menu, "&Import…", window.transfer.import_file,
                      QKeySequence("Ctrl+O"))
    imports.setStatusTip("Import Turnlog JSON lines, an Export all folder or zip, or a "
                         "ChatGPT data export (.zip or conversations.json)")
    export = _action(parent, file_menu, "&Export conversation…", window.export_conversation,
                     QKeySequence("Ctrl+E"))
    export.setStatusTip("Save the open conversation as Markdown or JSON lines")
    export_all = _action(parent, file_menu, "Export a&ll…", window.transfer.export_all)
    export_all.setStatusTip("Save every conversation into one folder or zip: JSON lines "
                            "and Markdown for each")
    file_menu.addSeparator()
    delete_all = _action(parent, file_menu, "Delete &all history…", window.delete_all_history)
    delete_all.setStatusTip("Delete every conversation with its summaries and request "
                            "records")

    menu = bar.addMenu("&Conversation")
    new = _action(parent, menu, "&New", window.new_conversation, QKeySequence(standard.New))
    _action(parent, menu, "&Search conversations", window.focus_search,
            QKeySequence(standard.Find))
    settings = _action(parent, menu, "Se&ttings…", window.open_settings,
                       QKeySequence("Ctrl+,"))
    menu.addSeparator()
    _action(parent, menu, "&Quit", window.close, QKeySequence(standard.Quit))

    view = bar.addMenu("&View")
    toggle = window.sidebar_dock.toggleViewAction()
    toggle.setShortcut(QKeySequence("Ctrl+Shift+C"))
    view.addAction(toggle)
    _action(parent, view, "Go to &question", window.centre.composer.edit.setFocus,
            QKeySequence("Ctrl+L"))
    inspector = window.inspector_dock.toggleViewAction()
    inspector.setShortcut(QKeySequence("Ctrl+I"))
    view.addAction(inspector)
    _action(parent, view, "Go to &history", window.centre.view.setFocus, QKeySequence("Ctrl+H"))
    add_language_menu(view, window.settings, parent)

    help_menu = bar.addMenu("&Help")
    about = _action(parent, help_menu, f"&About {APP_NAME}", window.show_about)
    return Menus(new, settings, export, delete_all, about, view)
