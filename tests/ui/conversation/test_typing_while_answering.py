"""Keys pressed while an answer is on its way do not stop it: a person who goes on typing
(a space, a word, Return) after Ctrl+Enter still gets the answer, in the main window and in
the side panel; Esc still stops, as the composer says."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from loopback import Behaviour
from side_window import open_window as open_side_window
from side_window import wait_side
from turnlog.ui.transcript.model import Role
from uihelpers import numbered
from window_sending import open_window, wait_done

pytest_plugins = ["uiwindow"]


def type_on(qtbot, keys: str) -> None:
    """Keys as a person types them, wherever the focus is."""
    for key in (Qt.Key.Key_Space, Qt.Key.Key_A, Qt.Key.Key_Space, Qt.Key.Key_Return):
        qtbot.keyClick(QApplication.focusWidget(), key)
    qtbot.keyClicks(QApplication.focusWidget(), keys)


def test_typing_after_send_keeps_the_answer_coming(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.slow("It came whole.", delay_s=0.15, chunks=4))
    window.composer.set_draft("Will it come?")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.running
    type_on(qtbot, " and more ")
    assert window.running  # no key of those stopped it
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 3, timeout=5000)
    assert window.transcript.index(2).data(Role.ANSWER) == "It came whole."
    assert not window.banner.isVisible()


def test_esc_still_stops_the_answer(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.slow("Never whole.", delay_s=0.3, chunks=6))
    window.composer.set_draft("Stop me")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.running
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    wait_done(qtbot, window)
    assert window.transcript.rowCount() == 2 and window.composer.text() == "Stop me"


def test_typing_after_ask_aside_keeps_the_side_answer_coming(qtbot, make_window, store,
                                                              loopback):
    window, _cid = open_side_window(qtbot, make_window, store, numbered(2))
    panel = window.side.panel
    loopback.script(Behaviour.slow("Aside, whole.", delay_s=0.15, chunks=4))
    panel.edit.setPlainText("When?")
    panel.edit.setFocus()
    qtbot.keyClick(panel.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.side.session.running
    type_on(qtbot, " and more ")
    assert window.side.session.running
    wait_side(qtbot, window)
    assert panel.list.count() == 1 and "Aside, whole." in panel.answer.toPlainText()
