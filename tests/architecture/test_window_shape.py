"""The window stays a place that lays out and wires: its module stays short (a send, the
preview, history changes and menus live in modules of their own). Function lengths in
the whole package are checked by test_function_length."""

from __future__ import annotations

from pathlib import Path

import turnlog.ui

MAX_WINDOW_LINES = 450


def test_the_window_module_stays_short():
    window = Path(turnlog.ui.__file__).parent / "shell" / "window.py"
    lines = len(window.read_text(encoding="utf-8").splitlines())
    assert 100 < lines <= MAX_WINDOW_LINES  # the file read is the window, and short
