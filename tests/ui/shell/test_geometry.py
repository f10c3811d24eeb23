"""The window fits its screen: a size remembered on a larger screen never leaves part of
the window off-screen, its frame included (test_ui_frame checks it under a real window
manager)."""

from __future__ import annotations

from PySide6.QtCore import QMargins
from PySide6.QtWidgets import QMainWindow

from turnlog.ui.shell.geometry import DECORATION_RESERVE, fit_to_screen


def test_a_window_larger_than_its_screen_is_cut_and_moved_onto_it(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    area = window.screen().availableGeometry()
    window.resize(area.width() + 800, area.height() + 300)
    window.move(area.left() + 200, area.top() + 100)
    fit_to_screen(window, margins=QMargins())  # no frame round it (as offscreen)
    assert (window.width(), window.height()) == (area.width(), area.height())
    assert area.contains(window.geometry())


def test_a_window_that_fits_is_left_as_it_is(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    area = window.screen().availableGeometry()
    window.resize(area.width() // 2, area.height() // 2)
    window.move(area.left() + 10, area.top() + 10)
    before = window.geometry()
    fit_to_screen(window)
    assert window.geometry() == before


def test_before_it_is_shown_room_is_kept_for_the_window_managers_frame(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    area = window.screen().availableGeometry()
    window.resize(area.width(), area.height())
    fit_to_screen(window)
    frame = DECORATION_RESERVE
    assert window.height() == area.height() - frame.top() - frame.bottom()
    assert window.width() == area.width() - frame.left() - frame.right()
    assert window.y() + frame.top() + window.height() + frame.bottom() <= area.bottom() + 1
