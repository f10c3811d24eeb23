"""Selecting text inside the transcript's turns with the mouse and the keyboard, and
copying exactly the selection (Chinese and emoji included), while other rows stream."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from loopback import Behaviour
from selection_drags import drag, point_of, utf16
from turnlog.ui.shell.window import MainWindow
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]

ANSWER = "Plain words first, 然后是中文句子 with emoji 🙂🚀 and more text after."
SECOND = "A second paragraph 第二段 ends here."
PAIRS = [("Question one 问题？", f"{ANSWER}\n\n{SECOND}"), ("Question two", "Short answer.")]


def highlighted_pixels(window: MainWindow) -> int:
    view = window.view
    image = view.viewport().grab().toImage()
    color = QColor(view.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight))
    found = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            if image.pixelColor(x, y) == color:
                found += 1
    return found


def copy(qtbot, window: MainWindow) -> str:
    QGuiApplication.clipboard().setText("before")
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    return QGuiApplication.clipboard().text()


def test_dragging_over_part_of_an_answer_copies_exactly_that_part(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, PAIRS)
    window.view.scrollTo(window.transcript.index(0))
    first, last = ANSWER.index("中文"), ANSWER.index("🚀") + 1
    highlighted_before = highlighted_pixels(window)
    drag(qtbot, window, point_of(window, 0, 1, utf16(ANSWER, first)),
         point_of(window, 0, 1, utf16(ANSWER, last)))
    assert window.view.currentIndex().row() == 0
    assert window.view.selected_text() == ANSWER[first:last] == "中文句子 with emoji 🙂🚀"
    assert highlighted_pixels(window) > highlighted_before + 50  # painted as selected
    assert copy(qtbot, window) == "中文句子 with emoji 🙂🚀"
    # Backwards, from the second paragraph into the first: both parts, a line apart.
    start = ANSWER.index("more")
    drag(qtbot, window, point_of(window, 0, 1, utf16(f"{ANSWER}\n{SECOND}",
                                                       len(ANSWER) + 1 + 8)),
         point_of(window, 0, 1, utf16(ANSWER, start)))
    assert copy(qtbot, window) == f"{ANSWER[start:]}\n{SECOND[:8]}"
    # A click without a drag leaves nothing selected: Ctrl+C copies the turn as before.
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=point_of(window, 0, 1, 3))
    assert window.view.selected_text() == ""
    assert copy(qtbot, window) == f"Question one 问题？\n\n{ANSWER}\n\n{SECOND}"


def test_a_drag_from_the_question_into_the_answer(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, PAIRS)
    window.view.scrollTo(window.transcript.index(0))
    drag(qtbot, window, point_of(window, 0, 0, utf16("Question one 问题？", 9)),
         point_of(window, 0, 1, utf16(ANSWER, 5)))
    assert copy(qtbot, window) == "one 问题？\n\nPlain"


def test_double_click_selects_a_word_and_a_third_click_its_paragraph(qtbot, make_window,
                                                                     store):
    window, _cid = open_window(qtbot, make_window, store, PAIRS)
    view = window.view
    view.scrollTo(window.transcript.index(0))
    inside = point_of(window, 0, 1, utf16(ANSWER, ANSWER.index("emoji") + 2))
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=inside)
    assert view.selected_text() == "emoji"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=inside)
    assert view.selected_text() == ANSWER
    assert copy(qtbot, window) == ANSWER


def test_shift_arrows_extend_the_selection_in_the_focused_turn(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, PAIRS)
    view = window.view
    view.scrollTo(window.transcript.index(0))
    at = ANSWER.index("🙂")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=point_of(window, 0, 1, utf16(ANSWER, at - 2)))
    assert view.selected_text() == ""
    shift = Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(view, Qt.Key.Key_Right, shift)
    assert view.selected_text() == "i"
    for _ in range(3):  # an emoji is one step, though two UTF-16 units
        qtbot.keyClick(view, Qt.Key.Key_Right, shift)
    assert view.selected_text() == "i 🙂🚀"
    qtbot.keyClick(view, Qt.Key.Key_Left, shift)
    assert copy(qtbot, window) == "i 🙂"
    assert view.currentIndex().row() == 0  # Shift+arrows select; they do not move rows
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.selected_text() == ""
    # With no caret in the turn, Shift+Right starts at its question's first character.
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.currentIndex().row() == 1
    qtbot.keyClick(view, Qt.Key.Key_Right, shift)
    qtbot.keyClick(view, Qt.Key.Key_Right, shift)
    assert copy(qtbot, window) == "Qu"
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert copy(qtbot, window) == "Question two\n\nShort answer."


def test_the_selection_survives_an_answer_streaming_into_another_row(qtbot, make_window,
                                                                    store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    view = window.view
    loopback.script(Behaviour.slow("Streaming 流式 answer 🌊 " * 20, delay_s=0.05, chunks=20))
    type_draft(window, "Third question?", 3)
    window.composer.send_button.click()
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and window.transcript.pending.answer != "", timeout=5000)
    view.scrollTo(window.transcript.index(0))
    first, last = ANSWER.index("first"), ANSWER.index("句子") + 2
    drag(qtbot, window, point_of(window, 0, 1, utf16(ANSWER, first)),
         point_of(window, 0, 1, utf16(ANSWER, last)))
    selected = view.selected_text()
    assert selected == "first, 然后是中文句子"
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: len(store.turns(cid)) == 3, timeout=5000)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 3, timeout=5000)
    view.viewport().repaint()
    assert view.selected_text() == selected
    view.setFocus()
    assert copy(qtbot, window) == selected
