"""The window stays a place that lays out and wires: its module stays short, and no
function in the UI package grows past what one reader takes in at once."""

from __future__ import annotations

import ast
from pathlib import Path

import turnlog.ui

UI = Path(turnlog.ui.__file__).parent
MAX_WINDOW_LINES = 450
MAX_FUNCTION_LINES = 80


def function_lengths(root: Path) -> list[tuple[int, str]]:
    """(lines from `def` to the last line of the body, where) for every function."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                found.append((length, f"{path.name}:{node.lineno} {node.name}"))
    return found


def test_the_window_module_stays_short():
    lines = len((UI / "window.py").read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_WINDOW_LINES


def test_no_ui_function_is_longer_than_80_lines():
    lengths = function_lengths(UI)
    assert len(lengths) > 100  # the walk found the package's functions
    assert [f for f in lengths if f[0] > MAX_FUNCTION_LINES] == []
