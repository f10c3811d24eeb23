"""The panels stacked beside the inspector (Side questions, Memory, Compaction history, and
Search once opened) show their whole names on their tabs in a small window: the bar
scrolls where they do not all fit, no name is cut to "Ins…"; a click on the Side questions
tab puts the typing in its question field, whether or not it was the tab in front."""

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


def side_tab(window) -> tuple[QTabBar, int]:
    (bar,) = [b for b in window.findChildren(QTabBar) if b.isVisible()
              and "Side questions" in [b.tabText(i) for i in range(b.count())]]
    return bar, [bar.tabText(i) for i in range(bar.count())].index("Side questions")


def click_side_tab(qtbot, window) -> None:
    bar, index = side_tab(window)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())


def shown_in_use(qtbot, make_window, store):
    seed(store, "chat", [("Hi", "Hello")])
    window = make_window()
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    return window


def test_choosing_the_side_questions_tab_puts_the_typing_there(qtbot, make_window, store):
    """A click on the Side questions tab: what is typed next is a side question, not text
    for the composer that would go into the conversation with Ctrl+Enter."""
    window = shown_in_use(qtbot, make_window, store)
    window.composer.edit.setFocus()
    click_side_tab(qtbot, window)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.side.panel.edit, timeout=3000)
    qtbot.keyClicks(QApplication.focusWidget(), "Which one matters most?")
    assert window.side.panel.edit.toPlainText() == "Which one matters most?"
    assert window.composer.text() == ""


def test_a_click_on_the_side_questions_tab_already_in_front_puts_the_typing_there(
        qtbot, make_window, store):
    """The tab in front, the typing back in the composer: a person clicks the tab to ask
    aside, and what they type next is a side question."""
    window = shown_in_use(qtbot, make_window, store)
    click_side_tab(qtbot, window)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.side.panel.edit, timeout=3000)
    window.composer.edit.setFocus()
    qtbot.waitUntil(window.composer.edit.hasFocus, timeout=3000)
    bar, index = side_tab(window)
    assert bar.currentIndex() == index  # still the tab in front

    click_side_tab(qtbot, window)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.side.panel.edit, timeout=3000)
    qtbot.keyClicks(QApplication.focusWidget(), "And the other one?")
    assert window.side.panel.edit.toPlainText() == "And the other one?"
    assert window.composer.text() == ""
