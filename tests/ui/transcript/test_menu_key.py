"""The menu key (or Shift+F10) on the transcript opens the menu of the current row, fitted
to it as a right click's is: no reasoning or files entries for a turn without them, no
*Use this version* on the version in use, Regenerate off on an older turn."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from turnlog.ui.shell.window import MainWindow
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]


def menu_key(qtbot, window: MainWindow, row: int) -> dict[str, tuple[bool, bool]]:
    """The menu key pressed with `row` current: each entry's (shown, enabled), read while
    the menu is on screen (Qt sends the key's event to the view, not its viewport)."""
    view = window.view
    view.setFocus()
    view.setCurrentIndex(window.transcript.index(row))
    seen: dict[str, tuple[bool, bool]] = {}

    def read() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, read)
            return
        for action in menu.actions():
            if action.text():
                seen[action.text()] = (action.isVisible(), action.isEnabled())
        menu.close()

    QTimer.singleShot(50, read)
    point = view.visualRect(window.transcript.index(row)).center()
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, point,
                                                   view.mapToGlobal(point)))
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    return seen


def test_the_menu_key_fits_the_menu_to_the_current_row(qtbot, make_window, store):
    seed(store, "chat", numbered(3))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3)
    newest = menu_key(qtbot, window, 2)
    for hidden in ("Show or hide reasoning", "Copy reasoning", "Attached files",
                   "Use this version", "Copy code block"):
        assert not newest[hidden][0], hidden
    assert newest["Regenerate answer"] == (True, True)
    older = menu_key(qtbot, window, 0)
    assert older["Regenerate answer"] == (True, False)  # the newest turn's, said why
    assert older["Fork from here"] == (True, True)
    assert window.versions.regenerate_action.isEnabled()  # closed: Ctrl+R as it was
