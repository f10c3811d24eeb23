from PySide6.QtCore import Qt, QPoint
from test_ui_selection import PAIRS, ANSWER, point_of, drag, utf16
from test_ui_send import open_window
pytest_plugins = ["uiwindow"]
CODE = "Here:\n\n```python\nprint('hi 你好')\n```\n\nDone."
def test_look(qtbot, make_window, store):
    window, _ = open_window(qtbot, make_window, store, PAIRS + [("code?", CODE)])
    window.view.scrollTo(window.transcript.index(0))
    drag(qtbot, window, point_of(window, 0, 1, utf16(ANSWER, 6)), point_of(window, 0, 1, utf16(ANSWER, 40)))
    idx = window.transcript.index(2)
    r = window.view.visualRect(idx)
    code = next(QPoint(r.left()+60, y) for y in range(r.top(), r.bottom()) if window.view.delegate.code_index_at(idx, QPoint(r.left()+60, y)) is not None)
    qtbot.mouseMove(window.view.viewport(), code)
    window.grab().save("/tmp/sel_look.png")
