"""The Memory panel on a 1024×600 screen: its lists and editors do not spill over the dock's
tabs or the status bar; what does not fit scrolls into view inside the dock."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QScrollArea, QTabBar, QWidget

from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]


def in_window(widget: QWidget, window: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def test_the_memory_panel_stays_inside_its_dock_at_1024_by_600(qtbot, make_window, store):
    seed(store, "chat", numbered(2))
    window = make_window(size=(1024, 600))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    dock = window.memory_dock
    dock.show()
    dock.raise_()
    qtbot.waitUntil(dock.isVisible)
    qtbot.wait(50)
    panel = window.memory.panel
    holder = dock.widget()
    area = in_window(holder, window)
    # Nothing of the dock's content reaches the tabs under it or the status bar.
    tabs = [in_window(bar, window) for bar in window.findChildren(QTabBar) if bar.isVisible()
            and bar.parent() is window]
    assert tabs  # the Memory tab beside the Inspector's
    for bar in tabs:
        assert not area.intersects(bar), (area, bar)
    assert area.bottom() < window.height()
    # The last editor's Remove can be brought into view inside the dock.
    remove = panel.preference_editor.remove
    assert isinstance(holder, QScrollArea)
    holder.ensureWidgetVisible(remove)
    qtbot.wait(20)
    assert area.contains(in_window(remove, window)), (area, in_window(remove, window))


def test_the_memory_panel_needs_no_scrolling_at_1280_by_720(qtbot, make_window, store):
    seed(store, "chat", numbered(2))
    window = make_window(size=(1280, 720))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    dock = window.memory_dock
    dock.show()
    dock.raise_()
    qtbot.waitUntil(dock.isVisible)
    qtbot.wait(50)
    holder = dock.widget()
    assert holder.verticalScrollBar().maximum() == 0  # all of it in view at once
    panel = window.memory.panel
    for listed in (panel.pins, panel.notes, panel.preferences):  # each list has room
        assert listed.height() >= 3 * listed.fontMetrics().lineSpacing()
