"""The menu key (or Shift+F10) on the transcript opens the menu of the current row, fitted
to it as a right click's is: no reasoning or files entries for a turn without them, no
*Use this version* on the version in use, Regenerate off on an older turn."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
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


def test_the_keyboard_reaches_a_disabled_entry_and_reads_why(qtbot, make_window, store):
    """On an older turn's menu opened with the menu key, the arrow keys stop on the
    disabled Regenerate and Edit and resend too, each showing its reason beside the menu
    (not over it); Enter on one does nothing; an entry with nothing to say hides it."""
    seed(store, "chat", numbered(3))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3)
    view = window.view
    view.setFocus()
    view.setCurrentIndex(window.transcript.index(0))
    seen: dict[str, object] = {}

    def walk() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, walk)
            return
        try:
            for _ in range(2 * len(menu.actions())):
                QTest.keyClick(menu, Qt.Key.Key_Down)
                active = menu.activeAction()
                name = active.text() if active is not None else ""
                reason = getattr(menu, "reason", None)
                if name in ("Regenerate answer", "Edit and resend…") and name not in seen:
                    seen[name] = (active.isEnabled(), reason.isVisible(), reason.text(),
                                  reason.geometry().intersects(menu.geometry()))
                if name == "Fork from here":
                    seen["after"] = reason is not None and reason.isVisible()
                    break
            QTest.keyClick(menu, Qt.Key.Key_Up)  # back on Edit and resend
            QTest.keyClick(menu, Qt.Key.Key_Return)  # a disabled entry: nothing
            seen["still open"] = QApplication.activePopupWidget() is menu
        finally:
            menu.close()
            seen["done"] = True

    QTimer.singleShot(50, walk)
    point = view.visualRect(window.transcript.index(0)).center()
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, point,
                                                   view.mapToGlobal(point)))
    qtbot.waitUntil(lambda: "done" in seen, timeout=3000)
    for name, says in (("Regenerate answer", "Fork from here"),
                       ("Edit and resend…", "Fork from here")):
        enabled, shown, text, over = seen[name]
        assert (enabled, shown, over) == (False, True, False), name
        assert says in text and "turn 3" in text and "turn 1" in text, text
    assert seen["after"] is False  # Fork from here has nothing more to say
    assert seen["still open"] is True
