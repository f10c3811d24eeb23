"""The panels stacked beside the inspector (Side questions, Memory, Compaction history, and
Search once opened) show their whole names on their tabs in a small window: the bar
scrolls where they do not all fit, no name is cut to "Ins…"; choosing the
Side questions tab puts the typing in its question field."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QTabBar

from uihelpers import seed

pytest_plugins = ["uiwindow"]


def cut_names(window) -> list[str]:
    cut = []
    for bar in window.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for index in range(bar.count()):
            # narrower than the tab's own size: its name drawn cut, with "…"
            if bar.tabRect(index).width() < bar.tabSizeHint(index).width():
                cut.append(bar.tabText(index))
    return cut


def test_tab_names_are_whole_in_a_1024_by_600_window(qtbot, make_window):
    window = make_window()
    window.resize(1024, 600)
    window.show()
    qtbot.waitExposed(window)
    (search,) = [action for action in window.findChildren(QAction)
                 if action.text().replace("&", "") == "Search all text…"]
    search.trigger()  # a fifth tab beside the inspector
    bars = lambda: [b for b in window.findChildren(QTabBar) if b.isVisible()]  # noqa: E731
    qtbot.waitUntil(lambda: any(bar.count() >= 5 for bar in bars()), timeout=5000)
    assert cut_names(window) == []


def test_choosing_the_side_questions_tab_puts_the_typing_there(qtbot, make_window, store):
    """A click on the Side questions tab: what is typed next is a side question, not text
    for the composer that would go into the conversation with Ctrl+Enter."""
    seed(store, "chat", [("Hi", "Hello")])
    window = make_window()
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.composer.edit.setFocus()
    (bar,) = [b for b in window.findChildren(QTabBar) if b.isVisible()
              and "Side questions" in [b.tabText(i) for i in range(b.count())]]
    index = [bar.tabText(i) for i in range(bar.count())].index("Side questions")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.side.panel.edit, timeout=3000)
    qtbot.keyClicks(QApplication.focusWidget(), "Which one matters most?")
    assert window.side.panel.edit.toPlainText() == "Which one matters most?"
    assert window.composer.text() == ""
