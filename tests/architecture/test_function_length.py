"""No function in `turnlog` is longer than 80 lines, so each one can be read in one go.

Measured with `ast`: from the `def` line to the last line of the body (decorators not
counted, the docstring and comments inside counted), for every function and method,
nested ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
MAX_LINES = 80


def function_lengths(package_dir: Path) -> list[tuple[int, str]]:
    """(lines, "path:line qualified.name") for every function below `package_dir`."""
    found: list[tuple[int, str]] = []
    for path in sorted(package_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found.extend(_lengths(tree, path.relative_to(package_dir.parent).as_posix(), ""))
    return found


def _lengths(node: ast.AST, where: str, prefix: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for child in ast.iter_child_nodes(node):
        name = prefix
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}."
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            assert child.end_lineno is not None
            lines = child.end_lineno - child.lineno + 1
            found.append((lines, f"{where}:{child.lineno} {name[:-1]}"))
        found.extend(_lengths(child, where, name))
    return found


def test_the_measure_counts_from_def_to_the_last_line(tmp_path: Path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text(
        "@decorator\ndef short():\n    return 1\n\n\nclass C:\n    def method(self):\n"
        + "        x = 1\n" * 80 + "        return x\n",
        encoding="utf-8",
    )
    assert sorted(function_lengths(package)) == [(2, "pkg/m.py:2 short"),
                                                 (82, "pkg/m.py:7 C.method")]


def test_no_function_is_longer_than_80_lines():
    lengths = function_lengths(PACKAGE_DIR)
    assert len(lengths) > 500  # the whole package was read
    offenders = sorted((item for item in lengths if item[0] > MAX_LINES), reverse=True)
    assert not offenders, f"functions longer than {MAX_LINES} lines:\n" + "\n".join(
        f"  {lines:4} lines  {name}" for lines, name in offenders
    )


def test_a_send_reads_as_short_named_steps():
    steps = {name.split(" ")[1]: lines for lines, name in function_lengths(PACKAGE_DIR)
             if name.startswith("turnlog/core/send.py:") and " Sender." in name}
    assert {"Sender.send", "Sender._prepare", "Sender._compact", "Sender._plan",
            "Sender._attempt", "Sender._recover_once", "Sender._commit"} <= set(steps)
    assert {name: lines for name, lines in steps.items() if lines > 50} == {}
