"""The window's rooms stay readable: no module of ui/ grows past `MAX_MODULE_LINES` lines.

A module that grows past it is split along a seam (a class or a concern that stands on its
own, named for what it is), not cut by moving functions at random. The checks take the
package directory as an argument, so the last tests can plant a violation in a copy of the
package and see it named.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
MAX_MODULE_LINES = 600


def long_modules(package_dir: Path) -> list[str]:
    """Every module under ui/ longer than the limit, as turnlog/ui/…: its line count."""
    found = []
    for path in sorted((package_dir / "ui").rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            where = path.relative_to(package_dir.parent).as_posix()
            found.append(f"{where}: {lines} lines — a module of the window has at most "
                         f"{MAX_MODULE_LINES}; split it along a seam")
    return found


def test_no_module_of_the_window_is_longer_than_the_limit():
    assert len(list((PACKAGE_DIR / "ui").rglob("*.py"))) > 50  # the scan sees the window
    found = long_modules(PACKAGE_DIR)
    assert not found, "\n".join(found)


# ------------------------------------------------------- the rules catch what they ban
@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_a_planted_long_module_is_named_with_its_path(copy):
    assert long_modules(copy) == []
    (copy / "ui" / "panels" / "planted.py").write_text(
        '"""Planted."""\n' + "x = 1\n" * (MAX_MODULE_LINES - 1), encoding="utf-8")
    assert long_modules(copy) == []  # exactly at the limit is allowed
    (copy / "ui" / "panels" / "planted.py").write_text(
        '"""Planted."""\n' + "x = 1\n" * MAX_MODULE_LINES, encoding="utf-8")
    assert long_modules(copy) == [
        "turnlog/ui/panels/planted.py: 601 lines — a module of the window has at most 600; "
        "split it along a seam"]


def test_a_module_grown_past_the_limit_is_named(copy):
    grown = copy / "ui" / "transcript" / "model.py"
    text = grown.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    grown.write_text(text + "# grown\n" * (MAX_MODULE_LINES + 1 - lines), encoding="utf-8")
    assert [m.split(":")[0] for m in long_modules(copy)] == ["turnlog/ui/transcript/model.py"]
