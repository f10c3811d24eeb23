"""A list given a viewport made in Python looks and answers as with the one Qt makes,
and asking for it makes none of the widget classes the window never uses."""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import QPoint, QStringListModel, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QListView, QWidget

from turnlog.ui.infra.viewports import own_viewport

ROWS = ["first conversation", "第二个对话", "a third, longer title that goes on"]


def shown_list(qtbot, own: bool) -> QListView:
    view = QListView()
    if own:
        own_viewport(view)
    view.setModel(QStringListModel(ROWS, view))
    view.resize(240, 120)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def described(view: QListView) -> dict[str, object]:
    port = view.viewport()
    return {"name": port.objectName(), "role": port.backgroundRole(),
            "fills": port.autoFillBackground(), "geometry": port.geometry(),
            "focus proxy": port.focusProxy() is view, "parent": port.parentWidget() is view,
            "attributes": [a for a in Qt.WidgetAttribute if port.testAttribute(a)]}


def test_the_list_looks_and_answers_as_with_qts_own_viewport(qtbot):
    theirs, ours = shown_list(qtbot, own=False), shown_list(qtbot, own=True)
    assert type(ours.viewport()) is QWidget
    assert described(ours) == described(theirs)
    for view in (theirs, ours):
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20,
                         view.visualRect(view.model().index(1, 0)).center().y()))
    assert ours.currentIndex().row() == theirs.currentIndex().row() == 1
    assert ours.grab().toImage() == theirs.grab().toImage()


MADE = """
import enum, sys
made = []
slow = enum.EnumType.__dict__["_create_"]
def counted(cls, name, *args, **kwargs):
    made.append(name)
    return slow(cls, name, *args, **kwargs)
enum.EnumType._create_ = counted
from PySide6.QtWidgets import QApplication, QListView
from turnlog.ui.infra.viewports import own_viewport
app = QApplication([])
view = QListView()
if sys.argv[1] == "own":
    own_viewport(view)
view.viewport().width()
print(" ".join(made))
"""


def enum_classes_made(how: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", MADE, how], capture_output=True, text=True,
                          check=True, env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    return set(done.stdout.split())


def test_asking_for_the_viewport_makes_no_wizard_or_dialog_classes():
    unused = {"WizardOption", "ColorDialogOption", "FontDialogOption", "ViewportAnchor"}
    assert unused <= enum_classes_made("qts")  # Qt's own viewport: PySide makes them all
    assert not unused & enum_classes_made("own")
