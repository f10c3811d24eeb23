"""The window's rooms stay readable, and its storage work goes through one room.

- No module of ui/ grows past `MAX_MODULE_LINES` lines. A module that grows past it is
  split along a seam (a class or a concern that stands on its own, named for what it is),
  not cut by moving functions at random.
- Only the operations room (`ui/infra/operations.py`) puts work on the storage lane
  (`TaskRunner.STORAGE`) and announces changes on the change bus (`ChangeHub.publish`);
  only it and the settings', assistants', folders', compaction history's and usage's
  operations (`ui/infra/settings_operations.py`, `ui/infra/assistant_operations.py`,
  `ui/infra/folder_operations.py`, `ui/infra/summary_operations.py`,
  `ui/infra/usage_operations.py`, the scoped deletes' `ui/infra/sync_operations.py`) build
  a `StorageOp`. Every other part of the window calls
  a named operation, so what the window does to its storage can be read in one place, and
  every change reaches the bus with its origin.

Each check reads the sources with `ast` (a name in a comment or a string does not count)
and takes the package directory as an argument, so the last tests can plant a violation in
a copy of the package and see it named.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
MAX_MODULE_LINES = 600
OPERATIONS_ROOM = "turnlog/ui/infra/operations.py"
BUILDS_OPERATIONS = (OPERATIONS_ROOM, "turnlog/ui/infra/settings_operations.py",
                     "turnlog/ui/infra/assistant_operations.py",
                     "turnlog/ui/infra/folder_operations.py",
                     "turnlog/ui/infra/summary_operations.py",
                     "turnlog/ui/infra/preview_operations.py",
                     "turnlog/ui/infra/usage_operations.py",
                     "turnlog/ui/infra/sync_operations.py")


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


def storage_violations(package_dir: Path) -> list[str]:
    """Every use of the storage lane, the bus's publish and a `StorageOp` built, outside the
    modules allowed them, as turnlog/ui/…:line."""
    found: list[tuple[str, int, str]] = []
    for path in sorted((package_dir / "ui").rglob("*.py")):
        where = path.relative_to(package_dir.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            what = None
            if isinstance(node, ast.Attribute) and node.attr == "STORAGE" \
                    and isinstance(node.value, ast.Name) and node.value.id == "TaskRunner":
                what = "puts work on the storage lane (TaskRunner.STORAGE)", OPERATIONS_ROOM
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "publish":
                what = "announces on the change bus (publish)", OPERATIONS_ROOM
            elif isinstance(node, ast.Call) and _called(node) in ("StorageOp", "LongStorageOp"):
                what = f"builds a {_called(node)}", BUILDS_OPERATIONS
            if what is not None and where not in what[1]:
                found.append((where, node.lineno, f"{where}:{node.lineno}: {what[0]} — only "
                              "the operations room does; call a named operation of "
                              "ui/infra/operations.py"))
    return [message for _where, _line, message in sorted(found)]


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else ""


def test_no_module_of_the_window_is_longer_than_the_limit():
    assert len(list((PACKAGE_DIR / "ui").rglob("*.py"))) > 50  # the scan sees the window
    found = long_modules(PACKAGE_DIR)
    assert not found, "\n".join(found)


def test_storage_work_and_announcements_go_through_the_operations_room():
    operations = (PACKAGE_DIR / "ui" / "infra" / "operations.py").read_text(encoding="utf-8")
    assert "TaskRunner.STORAGE" in operations and ".publish(" in operations
    found = storage_violations(PACKAGE_DIR)
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


@pytest.mark.parametrize(
    "relative, code, expected",
    [
        ("ui/panels/search.py",
         "def _planted(runner):\n    runner.run(TaskRunner.STORAGE, 'x', lambda c: 1)",
         "puts work on the storage lane (TaskRunner.STORAGE)"),
        ("ui/conversation/drafts.py",
         "def _planted(window, changes):\n    window.changes.publish(changes, window)",
         "announces on the change bus (publish)"),
        ("ui/dialogs/settings.py",
         "def _planted(store):\n    return StorageOp('read', lambda: store.turns)",
         "builds a StorageOp"),
        ("ui/infra/settings_operations.py",
         "def _planted(hub, changes):\n    hub.publish(changes, None)",
         "announces on the change bus (publish)"),
    ],
)
def test_a_planted_storage_call_outside_the_room_is_named(copy, relative, code, expected):
    assert storage_violations(copy) == []
    path = copy / relative
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n" + code + "\n", encoding="utf-8")
    line = len(text.splitlines()) + 3
    assert storage_violations(copy) == [
        f"turnlog/{relative}:{line}: {expected} — only the operations room does; call a "
        "named operation of ui/infra/operations.py"]
