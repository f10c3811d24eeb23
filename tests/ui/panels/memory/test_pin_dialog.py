"""Pin from this turn… names the turn by its row header's number, grouped as the header
writes it ("Pin from turn 1,317")."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from turnlog.ui.panels.memory.pin_dialog import PinFromTurn


def test_the_dialog_names_the_turn_as_its_header(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    dialog = PinFromTurn("t1", 1317, "We meet on Friday at 10:00.", parent)
    assert dialog.windowTitle() == "Pin from turn 1,317"
    assert dialog.text.accessibleName() == "Turn 1,317"
