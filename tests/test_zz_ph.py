from PySide6.QtCore import Qt, QPoint
from PySide6.QtGui import QGuiApplication
from loopback import Behaviour
from uihelpers import numbered, seed
pytest_plugins = ["uiwindow"]

def shot(window):
    edit = window.composer.edit.viewport()
    top = edit.mapTo(window, QPoint(0, 0))
    img = QGuiApplication.primaryScreen().grabWindow(window.winId()).toImage()
    return img.copy(top.x(), top.y(), edit.width(), edit.height())

def test_ph(qtbot, make_window, store, loopback):
    seed(store, "chat", numbered(2))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    qtbot.wait(100)
    idle = shot(window)
    window.composer.set_draft("hi"); window.refresh_preview()
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    qtbot.wait(100)
    busy = shot(window)
    qtbot.waitUntil(lambda: not window.running, timeout=10000)
    qtbot.wait(300)
    after = shot(window)
    print(idle == busy, idle == after, busy == after)
    idle.save("/tmp/idle.png"); busy.save("/tmp/busy.png"); after.save("/tmp/after.png")
