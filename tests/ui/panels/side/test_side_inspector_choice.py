"""The side inspector's *Preview* and *Last request*: after a side answer *Last request*
is pressed and shows the body that went; typing the next side question previews it with
*Preview* pressed; each button brings its request back, and a click on the pressed one
leaves it pressed."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from loopback import Behaviour
from side_window import open_window, wait_side
from uihelpers import numbered

pytest_plugins = ["uiwindow"]


def pressed(inspector) -> tuple[bool, bool, bool]:  # noqa: ANN001
    """(Preview pressed, Last request pressed, Last request clickable)."""
    return (inspector.preview_button.isChecked(), inspector.last_button.isChecked(),
            inspector.last_button.isEnabled())


def test_preview_and_last_request_switch_the_side_inspector(qtbot, make_window, store,
                                                             loopback):
    window, _cid = open_window(qtbot, make_window, store, numbered(2))
    panel = window.side.panel
    inspector = panel.inspector
    assert pressed(inspector) == (True, False, False)  # nothing asked aside yet
    loopback.script(Behaviour.answer("Friday."))
    panel.edit.setPlainText("When?")
    qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
    wait_side(qtbot, window)
    sent = loopback.requests[-1].body
    assert inspector.heading.text().startswith("Last side question: answered")
    assert pressed(inspector) == (False, True, True)

    panel.edit.setPlainText("And where?")  # the next side question, typed: its preview
    qtbot.waitUntil(lambda: inspector.heading.text().startswith("Side question preview"),
                    timeout=3000)
    assert pressed(inspector) == (True, False, True)
    assert json.loads(inspector.state.projection.body)["messages"][-1]["content"] == \
        "And where?"

    qtbot.mouseClick(inspector.last_button, Qt.MouseButton.LeftButton)
    assert inspector.heading.text().startswith("Last side question: answered")
    assert inspector.state.projection.body == sent
    assert pressed(inspector) == (False, True, True)
    qtbot.mouseClick(inspector.last_button, Qt.MouseButton.LeftButton)  # pressed again
    assert pressed(inspector) == (False, True, True)

    qtbot.mouseClick(inspector.preview_button, Qt.MouseButton.LeftButton)
    assert inspector.heading.text().startswith("Side question preview")
    assert pressed(inspector) == (True, False, True)
    qtbot.mouseClick(inspector.preview_button, Qt.MouseButton.LeftButton)
    assert pressed(inspector) == (True, False, True)
    assert not window.side.session.running and len(loopback.requests) == 1  # nothing sent
