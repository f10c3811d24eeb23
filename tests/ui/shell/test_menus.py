"""The menu bar follows the GNOME/KDE layout (File, Edit, View, Conversation, Help), and
every shortcut, pressed as a key, still triggers its action."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

from turnlog.core.model import Conversation
from turnlog.ui.transcript.goto import GoToTurnDialog
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def entries(menu: QMenu) -> list[str]:
    return ["—" if a.isSeparator() else a.text().replace("&", "") for a in menu.actions()]


def menus(window) -> dict[str, QMenu]:
    return {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}


def test_the_menus_are_laid_out_as_on_the_desktop(make_window):
    window = make_window()
    bar = menus(window)
    assert list(bar) == ["File", "Edit", "View", "Conversation", "Help"]
    assert entries(bar["File"]) == [
        "New conversation", "New from assistant…", "—", "Import…", "Export…", "Export all…", "—",
        "Delete all history…", "—", "Quit"]
    assert entries(bar["Edit"]) == ["Copy", "Select all", "—", "Find…", "—", "Preferences…"]
    assert entries(bar["View"]) == [
        "Conversations", "Inspector", "Side questions", "—", "Go to question",
        "Go to history", "Go to turn…", "Usage…", "Memory", "Compaction history",
        "Search all text…", "Next match", "Previous match", "Sync now", "—", "Theme",
        "Language"]
    theme = bar["View"].actions()[-2].menu()
    assert entries(theme) == ["Light", "Dark", "Follow the system"]
    assert entries(bar["Conversation"]) == [
        "Regenerate answer", "Edit and resend…", "Fork from here", "—",
        "Settings for this conversation…", "Update from assistant", "Rename…", "—",
        "Delete…"]
    assert entries(bar["Help"]) == ["Keyboard shortcuts", "About Turnlog"]
    # Nothing of the conversation under File, nothing of the provider under Conversation.
    assert not any("Settings" in e for e in entries(bar["File"]))
    assert "Quit" not in entries(bar["Conversation"])


def test_a_later_menu_joins_the_theme_and_a_later_dock_joins_the_docks(make_window):
    window = make_window()
    later = QMenu("&Later", window)
    window.view_menu.add_appearance(later)
    window.view_menu.addAction("Late dock")
    assert entries(window.view_menu)[-5:] == ["Late dock", "—", "Theme", "Language", "Later"]


SHORTCUTS = {
    ("File", "New conversation"): "Ctrl+N",
    ("File", "New from assistant…"): "Ctrl+Shift+N",
    ("File", "Import…"): "Ctrl+O",
    ("File", "Export…"): "Ctrl+E",
    ("File", "Quit"): "Ctrl+Q",
    ("Edit", "Copy"): "Ctrl+C",
    ("Edit", "Select all"): "Ctrl+A",
    ("Edit", "Find…"): "Ctrl+F",
    ("Edit", "Preferences…"): "Ctrl+,",
    ("View", "Conversations"): "Ctrl+Shift+C",
    ("View", "Inspector"): "Ctrl+I",
    ("View", "Go to question"): "Ctrl+L",
    ("View", "Go to history"): "Ctrl+H",
    ("View", "Go to turn…"): "Ctrl+G",
    ("View", "Usage…"): "Ctrl+Shift+U",
    ("View", "Memory"): "Ctrl+Shift+M",
    ("View", "Search all text…"): "Ctrl+Shift+F",
    ("Conversation", "Regenerate answer"): "Ctrl+R",
}


def press(qtbot, widget, shortcut: str) -> None:
    combination = QKeySequence(shortcut)[0]
    qtbot.keyClick(widget, combination.key(), combination.keyboardModifiers())


def test_every_shortcut_triggers_its_action(qtbot, make_window, store):
    one = seed(store, "one", [("Q one", "A one")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    window.transfer.choose_import = lambda: None
    window.choose_export = lambda title: None
    closer = QTimer(window)  # New conversation asks for a title: close what asks
    closer.timeout.connect(lambda: QApplication.activeModalWidget()
                           and QApplication.activeModalWidget().reject())
    # New from assistant shows the assistants in a menu: close it as a person would (Esc)
    closer.timeout.connect(lambda: QApplication.activePopupWidget()
                           and QApplication.activePopupWidget().close())
    closer.start(30)
    bar = menus(window)
    quit_action = None
    skipped: list[tuple[str, str]] = []
    for (menu, text), shortcut in SHORTCUTS.items():
        (action,) = [a for a in bar[menu].actions() if a.text().replace("&", "") == text]
        assert action.shortcut().toString() == shortcut, (menu, text)
        if text == "Quit":
            quit_action = action
            continue
        if text == "Regenerate answer":  # New conversation opened an empty one:
            assert window.sidebar.select(one.id)  # back to the one with an answer
            qtbot.waitUntil(lambda a=action: len(window.transcript.turns) == 1
                            and a.isEnabled(), timeout=5000)
        if not action.isEnabled():  # Preferences: this window has no provider set-up
            skipped.append((menu, text))  # (test_ui_welcome presses it with one)
            continue
        fired: list[bool] = []
        action.triggered.connect(lambda _checked=False, f=fired: f.append(True))
        window.activateWindow()  # back from a dialog the last one opened
        qtbot.waitUntil(lambda: window.isActiveWindow()
                        and QApplication.activePopupWidget() is None, timeout=3000)
        window.view.setFocus()
        press(qtbot, window.view, shortcut)
        assert fired == [True], (menu, text)
        if text == "Go to turn…":  # its dialog is closed before the next key
            for dialog in window.findChildren(GoToTurnDialog):
                dialog.reject()
    assert quit_action is not None and skipped == [("Edit", "Preferences…")]
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.view.setFocus()
    press(qtbot, window.view, "Ctrl+Q")
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)


def test_copy_and_select_all_act_on_what_has_the_focus(qtbot, make_window, store):
    seed(store, "one", [("The question", "The answer")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    clipboard = QGuiApplication.clipboard()
    window.view.setFocus()
    window.view.setCurrentIndex(window.transcript.index(0))
    press(qtbot, window.view, "Ctrl+C")  # the history's Copy turn, as before
    assert clipboard.text() == "The question\n\nThe answer"
    window.composer.set_draft("draft words")
    window.composer.edit.setFocus()
    press(qtbot, window.composer.edit, "Ctrl+A")
    press(qtbot, window.composer.edit, "Ctrl+C")
    assert clipboard.text() == "draft words"
    clipboard.clear()
    (copy,) = [a for a in menus(window)["Edit"].actions() if a.text() == "&Copy"]
    copy.trigger()  # from the menu: the focused draft's selection
    assert clipboard.text() == "draft words"


def test_conversation_menu_acts_on_the_open_conversation(qtbot, make_window, store):
    seed(store, "to delete", [("Q", "A")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    asked: list[str] = []

    def refuse(confirmation):
        asked.append(confirmation.title)
        from turnlog.ui.dialogs.privacy import Decision
        return Decision(False, False)

    window.confirm = refuse
    menu = menus(window)["Conversation"]
    menu.aboutToShow.emit()
    by_text = {a.text().replace("&", ""): a for a in menu.actions()}
    assert [t for t, a in by_text.items() if not a.isEnabled()] == [
        "Settings for this conversation…",  # no provider set-up in this window
        "Update from assistant"]  # it did not start from an assistant
    by_text["Delete…"].trigger()
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    assert "to delete" in asked[0] or "conversation" in asked[0].lower()
    by_text["Edit and resend…"].trigger()  # no turn chosen: the newest
    assert window.composer.text() == "Q"
    assert isinstance(window.conversation, Conversation)

    window.history.delete_now(window.conversation)
    qtbot.waitUntil(lambda: window.conversation is None, timeout=5000)
    menu.aboutToShow.emit()
    assert not by_text["Delete…"].isEnabled()
    assert not by_text["Fork from here"].isEnabled()
    assert not by_text["Settings for this conversation…"].isEnabled()


def test_the_menus_speak_through_the_translator(qtbot, make_window):
    from PySide6.QtCore import QCoreApplication, QTranslator

    class Upper(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return source.upper() if context == "Menus" else ""

    translator = Upper()
    QCoreApplication.installTranslator(translator)
    try:
        window = make_window()
        assert list(menus(window)) == ["FILE", "EDIT", "VIEW", "CONVERSATION", "HELP"]
    finally:
        QCoreApplication.removeTranslator(translator)


def test_no_window_shortcut_is_claimed_twice(qtbot, make_window):
    """Shortcuts stay unique across the window: none is claimed twice (Qt would then run
    neither)."""
    window = make_window()
    seen: dict[str, str] = {}
    for action in window.findChildren(type(window.new_action)):
        key = action.shortcut().toString()
        context = action.shortcutContext()
        if not key or context != Qt.ShortcutContext.WindowShortcut:
            continue
        assert key not in seen, (key, seen.get(key), action.text())
        seen[key] = action.text()


def test_memory_and_compaction_history_are_ticked_while_their_panel_is_shown(qtbot,
                                                                            make_window):
    """View → Memory and View → Compaction history are toggles like the other panels: a tick
    while the panel is shown, none once it is closed (by the menu or by its own ×), and
    choosing the ticked entry closes the panel."""
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    view = menus(window)["View"]
    for name, dock in (("Memory", window.memory_dock),
                       ("Compaction history", window.compaction_history.dock)):
        (action,) = [a for a in view.actions() if a.text().replace("&", "") == name]
        assert action.isCheckable(), name
        dock.hide()
        assert not action.isChecked(), name
        action.trigger()
        qtbot.waitUntil(dock.isVisible, timeout=2000)
        assert action.isChecked(), name
        assert not dock.visibleRegion().isEmpty(), f"{name}: shown behind another tab"
        dock.close()  # the dock's own × button
        qtbot.waitUntil(lambda dock=dock: not dock.isVisible(), timeout=2000)
        assert not action.isChecked(), name
        action.trigger()
        qtbot.waitUntil(dock.isVisible, timeout=2000)
        action.trigger()  # the ticked entry closes it
        qtbot.waitUntil(lambda dock=dock: not dock.isVisible(), timeout=2000)
        assert not action.isChecked(), name
