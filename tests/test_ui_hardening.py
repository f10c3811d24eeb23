"""The window under damage and hostile text: storage faults inline, drafts that survive a
quit, titles whose control characters show instead of acting."""

from __future__ import annotations

from turnlog.ui.window import MainWindow
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

HOSTILE = "invoice\u202egpj.exe\u2066x\u2069 \x1b]0;pwned\x07"


def test_bidi_and_control_characters_in_titles_show_visibly(qtbot, store, make_window):
    seed(store, HOSTILE, numbered(1))
    window: MainWindow = make_window()
    model = window.sidebar.model
    listed = model.data(model.index(0))
    assert listed == "invoice\\u202egpj.exe\\u2066x\\u2069 \\x1b]0;pwned\\x07"
    qtbot.waitUntil(lambda: window.conversation is not None)
    assert window.title.text() == listed
    for text in (listed, window.title.text(), model.data(model.index(0), 3)):
        assert not set(text) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\x1b\x07")
