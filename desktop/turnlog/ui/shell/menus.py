"""The main window's menu bar, laid out as GNOME and KDE applications lay theirs out —
File, Edit, View, Conversation, Help — each action with its shortcut.

File: New conversation, Import…, Export…, Export all…, Delete all history…, Quit.
Edit: Copy, Select all, Find…, Preferences… (providers and keys).
View: the docks and where to go, Usage…, then Theme (light, dark, the system's). A menu another
part adds beside Theme (View → Language) goes through `ViewMenu.add_appearance`.
Conversation: Regenerate, Edit and resend…, Fork from here, Settings for this
conversation…, Rename…, Delete….
Help: Keyboard shortcuts (read from these actions themselves), About.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QActionEvent,
    QActionGroup,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMenu,
    QMenuBar,
    QStatusBar,
    QWidget,
)

from ... import APP_NAME
from ...core.model import Conversation
from ...store import TurnlogStore
from ..conversation.actions import HistoryActions
from ..conversation.banner import FailureBanner
from ..conversation.centre import CentrePanel
from ..conversation.versions import VersionControls
from ..dialogs.import_export import ImportExport
from ..dialogs.privacy import Confirmation, Decision
from ..infra.languages import (
    add_language_menu,
    arg,
    effective,
    language_name,
    request_restart,
    shown_language,
)
from ..infra.tasks import TaskRunner
from ..infra.theme import Theme, ThemeSwitch
from ..panels.sidebar import Sidebar
from ..transcript.goto import GoToTurnDialog
from ..transcript.view import TranscriptView
from .geometry import DockFolding
from .keyboard import KeyboardMenus

if TYPE_CHECKING:  # the dialogs are loaded when first opened
    from pathlib import Path

    from ..conversation.from_assistant import AssistantStarter
    from ..dialogs.about import AboutDialog
    from ..dialogs.settings import SettingsDialog
    from ..dialogs.shortcuts import ShortcutsDialog
    from ..dialogs.usage import UsageDialog

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class MenuHost(Protocol):
    """What the menus act on (the main window)."""

    sidebar: Sidebar
    sidebar_dock: QDockWidget
    inspector_dock: QDockWidget
    side_dock: QDockWidget
    centre: CentrePanel
    transfer: ImportExport
    settings: QSettings
    history: HistoryActions
    versions: VersionControls
    banner: FailureBanner
    view: TranscriptView
    conversation: Conversation | None
    folding: DockFolding
    store: TurnlogStore
    runner: TaskRunner

    confirm: Callable[[Confirmation], Decision]

    @property
    def running(self) -> bool: ...

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt's name
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def new_conversation(self) -> None: ...
    @property
    def from_assistant(self) -> AssistantStarter: ...
    def focus_search(self) -> None: ...
    def open_settings(self) -> SettingsDialog | None: ...
    def close(self) -> bool: ...
    def show_about(self) -> object: ...
    def export_conversation(self) -> object: ...
    def delete_all_history(self) -> None: ...


class ViewMenu(QMenu):
    """View: the docks first, then the appearance section (Theme, and what
    `add_appearance` puts beside it, such as View → Language). An action added to the
    menu later with `addAction` (the Memory and Search docks) joins the docks, above the
    appearance section."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self._appearance: list[QAction] = []
        self._adding = False

    def start_appearance(self) -> None:
        """From here on, what is added is the appearance section (the menu's end)."""
        self._appearance.append(self.addSeparator())

    def add_appearance(self, menu: QMenu) -> QAction:
        """Put `menu` (View → Language, say) in the appearance section, after Theme."""
        self._adding = True
        try:
            action = self.addMenu(menu)
        finally:
            self._adding = False
        self._appearance.append(action)
        return action

    def actionEvent(self, event: QActionEvent) -> None:  # noqa: N802 - Qt override
        super().actionEvent(event)
        action = event.action()
        if (event.type() == QEvent.Type.ActionAdded and event.before() is None
                and self._appearance and not self._adding
                and action not in self._appearance):
            self.removeAction(action)
            self.insertAction(self._appearance[0], action)


@dataclass(frozen=True, slots=True)
class Menus:
    """The actions the window enables, disables or triggers itself."""

    new: QAction
    settings: QAction  # Edit → Preferences…: providers and keys
    export: QAction
    delete_all: QAction
    about: QAction
    view: ViewMenu
    conversation_settings: QAction
    delete_conversation: QAction
    theme: ThemeSwitch
    themes: dict[Theme, QAction]


def _action(parent: QWidget, menu: QMenu, text: str, slot: Callable[[], object],
            shortcut: QKeySequence | None = None, tip: str = "") -> QAction:
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(shortcut)
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def _file_menu(window: MenuHost, parent: QWidget) -> tuple[QAction, QAction, QAction]:
    menu = window.menuBar().addMenu(translate("Menus", "&File"))
    new = _action(parent, menu, translate("Menus", "&New conversation"), window.new_conversation,
                  QKeySequence(QKeySequence.StandardKey.New),
                  translate("Menus", "Start a conversation; its first question names it"))
    _from_assistant(window, parent, menu)
    menu.addSeparator()
    _action(
        parent,
        menu,
        translate("Menus", "&Import…"),
        window.transfer.import_file,
        QKeySequence("Ctrl+O"),
        translate(
            "Menus",
            "Import Turnlog JSON lines, an Export all folder or zip, or a ChatGPT data "
            "export (.zip or conversations.json)",
        ),
    )
    export = _action(parent, menu, translate("Menus", "&Export…"), window.export_conversation,
                     QKeySequence("Ctrl+E"),
                     translate("Menus", "Save the open conversation as Markdown or JSON lines"))
    _action(
        parent,
        menu,
        translate("Menus", "Export a&ll…"),
        window.transfer.export_all,
        None,
        translate(
            "Menus",
            "Save every conversation into one folder or zip: JSON lines and Markdown for each",
        ),
    )
    menu.addSeparator()
    delete_all = _action(
        parent,
        menu,
        translate("Menus", "&Delete all history…"),
        window.delete_all_history,
        None,
        translate("Menus", "Delete every conversation with its summaries and request records"),
    )
    menu.addSeparator()
    quit_keys = QKeySequence(QKeySequence.StandardKey.Quit)  # empty where no desktop says
    _action(parent, menu, translate("Menus", "&Quit"), window.close,
            quit_keys if not quit_keys.isEmpty() else QKeySequence("Ctrl+Q"))
    return new, export, delete_all


def _from_assistant(window: MenuHost, parent: QWidget, menu: QMenu) -> QAction:
    """File → New from assistant… (Ctrl+Shift+N): the assistants in a menu to choose
    from, at the pointer."""
    return _action(parent, menu, translate("Menus", "New from &assistant…"),
                   lambda: window.from_assistant.popup(), QKeySequence("Ctrl+Shift+N"),
                   translate("Menus", "Start a conversation with a copy of an assistant's "
                             "setup (Settings → Assistants)"))


def copy_focused(window: MenuHost) -> None:
    """Edit → Copy: what the focused widget has selected; in the history, the turn."""
    focus = QApplication.focusWidget()
    if focus is window.view:
        window.view.copy_current("turn")
    elif isinstance(focus, QLabel):
        if focus.hasSelectedText():
            QGuiApplication.clipboard().setText(focus.selectedText())
    elif callable(getattr(focus, "copy", None)):
        focus.copy()  # type: ignore[union-attr]


def select_all_focused(window: MenuHost) -> None:
    """Edit → Select all: in the focused text field, or the whole focused turn."""
    focus = QApplication.focusWidget()
    if focus is window.view:  # the history selects text within its turn on Ctrl+A itself
        window.view.keyPressEvent(QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A,
                                            Qt.KeyboardModifier.ControlModifier, "a"))
    elif callable(getattr(focus, "selectAll", None)):
        focus.selectAll()  # type: ignore[union-attr]


def _edit_menu(window: MenuHost, parent: QWidget) -> QAction:
    menu = window.menuBar().addMenu(translate("Menus", "&Edit"))
    copy = QKeySequence(QKeySequence.StandardKey.Copy)
    # The history's own Copy turn (Ctrl+C) is this action now: one shortcut, no overload.
    for action in window.view.actions():
        if action.shortcut() == copy:
            action.setShortcut(QKeySequence())
    _action(parent, menu, translate("Menus", "&Copy"), lambda: copy_focused(window), copy,
            translate("Menus", "Copy the selected text, or the selected turn of the history"))
    _action(parent, menu, translate("Menus", "Select &all"), lambda: select_all_focused(window),
            QKeySequence(QKeySequence.StandardKey.SelectAll))
    menu.addSeparator()
    _action(
        parent,
        menu,
        translate("Menus", "&Find…"),
        window.focus_search,
        QKeySequence(QKeySequence.StandardKey.Find),
        translate("Menus", "Find a conversation by its title"),
    )
    menu.addSeparator()
    return _action(parent, menu, translate("Menus", "&Preferences…"), window.open_settings,
                   QKeySequence("Ctrl+,"),
                   translate("Menus", "The provider: its address, model, key and limits"))


def _view_menu(window: MenuHost, parent: QWidget) -> tuple[ViewMenu, ThemeSwitch,
                                                              dict[Theme, QAction]]:
    view = ViewMenu(translate("Menus", "&View"), parent)
    window.menuBar().addMenu(view)
    toggle = window.sidebar_dock.toggleViewAction()
    toggle.setShortcut(QKeySequence("Ctrl+Shift+C"))
    view.addAction(toggle)
    inspector = window.inspector_dock.toggleViewAction()
    inspector.setShortcut(QKeySequence("Ctrl+I"))
    # Shown again by Ctrl+I, the inspector is the tab in front (not the side questions).
    inspector.triggered.connect(lambda shown: shown and window.inspector_dock.raise_())
    view.addAction(inspector)
    view.addAction(window.side_dock.toggleViewAction())
    view.addSeparator()
    _action(
        parent,
        view,
        translate("Menus", "Go to &question"),
        lambda: _go_to(window, window.centre.composer.edit),
        QKeySequence("Ctrl+L"),
    )
    _action(parent, view, translate("Menus", "Go to &history"),
            lambda: _go_to(window, window.centre.view), QKeySequence("Ctrl+H"))
    _action(parent, view, translate("Menus", "Go to &turn…"),
            lambda: _go_to_turn(window, parent), QKeySequence("Ctrl+G"),
            translate("Menus", "Show a turn of this conversation by its number"))
    _action(parent, view, translate("Menus", "&Usage…"), lambda: show_usage(window, parent),
            QKeySequence("Ctrl+Shift+U"),
            translate("Menus", "Tokens and cost per day and month, per profile and model"))
    view.start_appearance()
    switch = ThemeSwitch(window.settings, parent, on_change=lambda _theme: _retint(window))
    themes = QMenu(translate("Menus", "&Theme"), view)
    themes.setObjectName("themeMenu")
    group = QActionGroup(themes)
    actions: dict[Theme, QAction] = {}
    for theme, text in (
        (Theme.LIGHT, translate("Menus", "&Light")),
        (Theme.DARK, translate("Menus", "&Dark")),
        (Theme.SYSTEM, translate("Menus", "Follow the &system")),
    ):
        action = QAction(text, group)
        action.setCheckable(True)
        action.setChecked(theme is switch.theme)
        action.triggered.connect(lambda _checked=False, chosen=theme: switch.choose(chosen))
        themes.addAction(action)
        actions[theme] = action
    view.add_appearance(themes)
    add_language_menu(view, window.settings, parent,  # View → Language, beside Theme
                      on_chosen=lambda value: _offer_restart(window, value))
    switch.apply()
    return view, switch, actions


def _go_to(window: MenuHost, target: QWidget) -> None:
    """Focus `target` in the conversation; a narrow window's panel page gives way to it."""
    window.folding.back_to_conversation()
    target.setFocus()


def _go_to_turn(window: MenuHost, parent: QWidget) -> GoToTurnDialog | None:
    """Ask for a turn's number and show that turn (nothing without a conversation)."""
    if window.conversation is None:
        return None
    window.folding.back_to_conversation()
    dialog = GoToTurnDialog(window.view, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def _retint(window: MenuHost) -> None:
    if window.banner.isVisible():
        window.banner.retint()
    window.view.viewport().update()


def _on_turn(window: MenuHost, act: Callable[[], None]) -> None:
    """Run `act` on the history's current turn, or on the newest when none is chosen."""
    view = window.view
    if not view.currentIndex().isValid() and view.model().rowCount() > 0:
        view.setCurrentIndex(view.model().index(view.model().rowCount() - 1, 0))
    act()


def _conversation_settings(window: MenuHost) -> None:
    dialog = window.open_settings()
    if dialog is not None:
        dialog.show_conversation_page()
        dialog.system_prompt.setFocus()


def _delete_open(window: MenuHost) -> None:
    if window.conversation is not None:
        window.history.delete_conversation(window.conversation)


def _rename_open(window: MenuHost) -> None:
    if window.conversation is not None:
        window.history.rename_conversation(window.conversation)


def _conversation_menu(window: MenuHost, parent: QWidget,
                       preferences: QAction) -> tuple[QAction, QAction]:
    menu = window.menuBar().addMenu(translate("Menus", "&Conversation"))
    versions = window.versions
    regenerate = versions.regenerate_action  # Ctrl+R, the same action as in the history
    menu.addAction(regenerate)
    edit = _action(
        parent,
        menu,
        translate("Menus", "&Edit and resend…"),
        lambda: _on_turn(window, versions.edit_current),
        None,
        translate(
            "Menus",
            "Put the newest turn's question back in the box below; sending makes a new "
            "version of it",
        ),
    )
    fork = _action(parent, menu, translate("Menus", "&Fork from here"),
                   lambda: _on_turn(window, versions.fork_current), None,
                   translate("Menus", "A new conversation with the turns before this one"))
    menu.addSeparator()
    settings = _action(parent, menu, translate("Menus", "Settings for this &conversation…"),
                       lambda: _conversation_settings(window), None,
                       translate("Menus", "Its system prompt, limits and compaction (its "
                                 "model is chosen in the header)"))
    update_from = _action(parent, menu, translate("Menus", "&Update from assistant"),
                          lambda: window.from_assistant.update_open(window.conversation),
                          None, translate("Menus", "Give it the current setup of the "
                                          "assistant it started from; its turns stay"))
    rename = _action(parent, menu, translate("Menus", "&Rename…"), lambda: _rename_open(window))
    menu.addSeparator()
    delete = _action(
        parent,
        menu,
        translate("Menus", "&Delete…"),
        lambda: _delete_open(window),
        None,
        translate("Menus", "Delete this conversation with everything derived from it"),
    )

    def update() -> None:
        open_, idle = window.conversation is not None, not window.running
        has_turns = open_ and window.view.model().rowCount() > 0
        for action in (edit, fork):
            action.setEnabled(has_turns and idle)
        for action in (rename, delete):
            action.setEnabled(open_ and idle)
        settings.setEnabled(open_ and idle and preferences.isEnabled())
        update_from.setEnabled(open_ and idle and window.from_assistant.came_from(
            window.conversation))

    menu.aboutToShow.connect(update)
    return settings, delete


def _offer_restart(window: MenuHost, value: str) -> None:
    """A language other than the one on show: offer to start again in it now (else it
    applies at the next start, as the menu says)."""
    if effective(value) == shown_language():
        return
    decision = window.confirm(Confirmation(
        translate("Menus", "Restart Turnlog"),
        arg(translate("Menus", "Restart Turnlog now to show it in %1?"), language_name(value)),
        translate("Menus", "Your conversations stay as they are; a request still running is "
                  "stopped. Otherwise the language changes when Turnlog starts again."),
        translate("Menus", "Restart now")))
    if decision.accepted:
        request_restart()
        window.close()


def _show_shortcuts(window: MenuHost, parent: QWidget) -> ShortcutsDialog:
    from ..dialogs.shortcuts import ShortcutsDialog  # loaded when first opened

    dialog = ShortcutsDialog(window.menuBar(), parent, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def build_menus(window: MenuHost, parent: QWidget) -> Menus:
    """Fill `window`'s menu bar; `parent` (the window) owns the actions. The saved theme
    is applied here."""
    new, export, delete_all = _file_menu(window, parent)
    settings = _edit_menu(window, parent)
    view, switch, themes = _view_menu(window, parent)
    conversation_settings, delete = _conversation_menu(window, parent, settings)
    KeyboardMenus(window.view, window.sidebar.list)  # Shift+F10, the Menu key
    help_menu = window.menuBar().addMenu(translate("Menus", "&Help"))
    _action(parent, help_menu, translate("Menus", "&Keyboard shortcuts"),
            lambda: _show_shortcuts(window, parent), QKeySequence("Ctrl+/"),
            translate("Menus", "Every shortcut of the window, with a filter"))
    about = _action(parent, help_menu, translate("Menus", "&About %1").replace("%1", APP_NAME),
                    window.show_about)
    return Menus(new, settings, export, delete_all, about, view, conversation_settings,
                 delete, switch, themes)


def show_usage(window: MenuHost, parent: QWidget) -> UsageDialog:
    """View → Usage…: the daily totals, beside the window."""
    from ..dialogs.usage import UsageDialog  # loaded when first opened

    dialog = UsageDialog(window.store, window.runner, lambda c: window.confirm(c), parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def show_about(window: QWidget, home: Path) -> AboutDialog:
    """Help → About: the app, and the built-in model with its license (`home`: the data
    directory, where its files are)."""
    from ..dialogs.about import AboutDialog  # loaded when first opened

    dialog = AboutDialog(window, home=home)
    dialog.open()
    return dialog
