"""The panels stacked beside the inspector (Side questions, Memory, Compaction history, and
Search once opened) show their whole names on their tabs in a small window: the bar
scrolls where they do not all fit, no name is cut to "Ins…"."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QTabBar

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
