"""Test files do not import each other: what tests share lives in support modules.

A test file imported by another one is run twice over and cannot move without breaking its
importers; a helper in it is hard to find. Read with `ast` over every file under tests/
(the benches too); the last test plants an import and sees it named.
"""

from __future__ import annotations

import ast
from pathlib import Path

from places import TESTS


def imports_of_tests(tests: Path) -> list[str]:
    """'path:line: …' for every import of a test module under `tests`."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                if name.split(".")[-1].startswith("test_"):
                    found.append(f"{path.relative_to(tests).as_posix()}:{node.lineno}: "
                                 f"imports {name} — move what it shares to a support module")
    return found



def test_no_test_file_imports_another():
    assert imports_of_tests(TESTS) == []


def test_a_planted_import_of_a_test_module_is_named(tmp_path):
    (tmp_path / "test_a.py").write_text("def helper():\n    pass\n", encoding="utf-8")
    (tmp_path / "test_b.py").write_text('"""b"""\n\nfrom test_a import helper\n',
                                        encoding="utf-8")
    assert imports_of_tests(tmp_path) == [
        "test_b.py:3: imports test_a — move what it shares to a support module"]
