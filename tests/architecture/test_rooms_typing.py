"""Each feature of the window is handed what it needs; none is handed the window.

Read from the sources with `ast` (DESIGN.md: "a room gets what it needs handed in, never
the whole window"):

- no parameter, attribute or alias anywhere in ui/ is annotated `Any` when its name says
  it is the window or a host of features (`window`, `host`, `…Window`, `…Host`), and no
  module names `Any` under another name (`MainWindow = Any`): such a name hides which
  parts a feature uses;
- outside ui/shell/, which builds the window, no function assigns an attribute of an
  object it was handed (`window.conversation = …`) or of another object's attribute
  (`host.preview.summary = …`, `self.preview.memory = …`): an object's fields are changed
  by its own methods. Allowed: `self.x = …`, an attribute of an object made in the same
  function, and the option objects Qt hands a paint or style method to fill in
  (`QStyleOption…`).

The checks take the package directory, so the last tests plant a violation in a copy of
the package and see it named with its path and line.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
# Rooms whose functions are checked for assignments through other objects: every room
# below the shell.
ASSIGNMENT_ROOMS = ("infra", "request", "dialogs", "conversation", "faults", "panels",
                    "transcript")
QT_FILLED = ("QStyleOption",)  # a parameter of these types is Qt's to be filled in
# A library's module-wide settings that it offers no other way to change: the maths
# typesetter (in a process of its own) draws plain paths only (transcript/typesetting.py);
# the enum classes PySide makes are made the standard library's quicker way
# (infra/enum_classes.py).
LIBRARY_SETTINGS = ("ziamath.config.svg2", "enum.EnumType._create_")


def _sources(package_dir: Path, rooms: tuple[str, ...] | None = None) -> Iterator[
        tuple[str, ast.Module]]:
    ui = package_dir / "ui"
    for path in sorted(ui.rglob("*.py")):
        room = path.relative_to(ui).parts[0]
        if rooms is None or room in rooms:
            where = path.relative_to(package_dir.parent).as_posix()
            yield where, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_any(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    return (isinstance(annotation, ast.Name) and annotation.id == "Any") or (
        isinstance(annotation, ast.Attribute) and annotation.attr == "Any")


def _names_a_window(name: str) -> bool:
    return name in ("window", "host") or name.endswith(("Window", "Host", "_window", "_host"))


def any_window_violations(package_dir: Path) -> list[str]:
    """'path:line: …' for every window or host typed `Any`, and every alias of `Any`."""
    found: list[str] = []
    for where, tree in _sources(package_dir):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args
                for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                            arguments.vararg, arguments.kwarg):
                    if arg is not None and _names_a_window(arg.arg) and _is_any(arg.annotation):
                        found.append(f"{where}:{arg.lineno}: parameter `{arg.arg}` of "
                                     f"{node.name}() is typed Any — name the parts it uses")
            elif isinstance(node, ast.AnnAssign):
                target = node.target
                name = target.id if isinstance(target, ast.Name) else (
                    target.attr if isinstance(target, ast.Attribute) else "")
                if _names_a_window(name) and _is_any(node.annotation):
                    found.append(f"{where}:{node.lineno}: `{ast.unparse(target)}` is typed Any "
                                 "— name the parts it uses")
                elif _is_any(node.value):
                    found.append(f"{where}:{node.lineno}: `{ast.unparse(target)}` is an alias "
                                 "of Any")
            elif isinstance(node, ast.Assign) and _is_any(node.value):
                names = ", ".join(ast.unparse(t) for t in node.targets)
                found.append(f"{where}:{node.lineno}: `{names}` is an alias of Any")
    return found


def _root(target: ast.Attribute) -> tuple[ast.expr, int]:
    """The expression an attribute target hangs from, and how many steps below it."""
    depth, value = 1, target.value
    while isinstance(value, ast.Attribute | ast.Subscript):
        depth, value = depth + 1, value.value
    return value, depth


def _qt_filled(annotation: ast.expr | None) -> bool:
    return annotation is not None and ast.unparse(annotation).strip("'\"").startswith(QT_FILLED)


def _function_violations(where: str, function: ast.FunctionDef | ast.AsyncFunctionDef
                         | ast.Lambda) -> Iterator[str]:
    arguments = function.args
    handed = {a.arg: a.annotation for a in (*arguments.posonlyargs, *arguments.args,
                                             *arguments.kwonlyargs)}
    made = {n.id for n in ast.walk(function)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - set(handed)
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in (t for top in targets for t in ast.walk(top)):
            if not isinstance(target, ast.Attribute) or not isinstance(target.ctx, ast.Store):
                continue
            root, depth = _root(target)
            name = root.id if isinstance(root, ast.Name) else None
            if name in handed and _qt_filled(handed[name]):
                continue  # Qt hands the option in to be filled
            if ast.unparse(target) in LIBRARY_SETTINGS and name not in {*handed, *made}:
                continue  # named above: the library has no other way
            if depth == 1 and (name in ("self", "cls") or name in made
                               or (name is not None and name not in handed)):
                continue  # its own field, a local's, or a module's setting
            if name in handed or depth > 1:
                yield (f"{where}:{target.lineno}: `{ast.unparse(target)} = …` assigns "
                       f"through {'a handed-in object' if depth == 1 else 'another object'}"
                       " — ask its owner to change it")


def assignment_violations(package_dir: Path,
                          rooms: tuple[str, ...] = ASSIGNMENT_ROOMS) -> list[str]:
    """'path:line: …' for every attribute assigned through another object in `rooms`."""
    found: set[str] = set()
    for where, tree in _sources(package_dir, rooms):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                found.update(_function_violations(where, node))
    return sorted(found)


def test_no_window_or_host_is_typed_any():
    assert any_window_violations(PACKAGE_DIR) == []


def test_no_room_below_the_shell_assigns_through_another_object():
    assert assignment_violations(PACKAGE_DIR) == []


def test_every_room_below_the_shell_is_checked_or_named():
    rooms = {p.name for p in (PACKAGE_DIR / "ui").iterdir() if (p / "__init__.py").exists()}
    assert rooms == {*ASSIGNMENT_ROOMS, "shell"}


# ---------------------------------------------------------------- planted violations
@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def plant(copy: Path, relative: str, code: str) -> int:
    """Append `code` to a module of the copy; the line its last line lands on."""
    path = copy / relative
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n\n" + code + "\n", encoding="utf-8")
    return len(text.splitlines()) + 3 + code.count("\n")


@pytest.mark.parametrize("relative, code, expected", [
    ("ui/panels/memory/dock.py", "def attach(window: Any) -> None:\n    pass",
     "parameter `window` of attach() is typed Any"),
    ("ui/shell/wiring.py", "def wire_more(main_window: 'Any') -> None:\n    pass",
     "parameter `main_window` of wire_more() is typed Any"),
    ("ui/conversation/titles.py", "class Titled:\n    host: Any",
     "`host` is typed Any"),
    ("ui/panels/side/questions.py", "if True:\n    MainWindow = Any",
     "`MainWindow` is an alias of Any"),
])
def test_a_planted_any_window_is_named(copy, relative, code, expected):
    assert any_window_violations(copy) == []
    line = plant(copy, relative, code)
    if code.startswith("def"):
        line -= code.count("\n")  # a parameter is named on the `def` line
    assert f"turnlog/{relative}:{line}: {expected}" in "\n".join(
        any_window_violations(copy)), any_window_violations(copy)


@pytest.mark.parametrize("relative, code, expected", [
    ("ui/panels/memory/dock.py", "def adopt(window, conversation):\n"
     "    window.conversation = conversation",
     "`window.conversation = …` assigns through a handed-in object"),
    ("ui/conversation/versions.py", "def loaded(host, done):\n"
     "    host.preview.summary = done.summary",
     "`host.preview.summary = …` assigns through another object"),
    ("ui/request/live_preview.py", "class Keeper:\n    def keep(self, memory):\n"
     "        self.preview.memory = memory",
     "`self.preview.memory = …` assigns through another object"),
    ("ui/dialogs/about.py", "def note(dialog):\n    dialog.parts['x'].text = 'y'",
     "`dialog.parts['x'].text = …` assigns through another object"),
    ("ui/transcript/view.py", "def hover(delegate, hovered):\n"
     "    delegate.hovered_code = hovered",
     "`delegate.hovered_code = …` assigns through a handed-in object"),
    ("ui/transcript/typesetting.py", "def plain(ziamath):\n    ziamath.config.svg2 = False",
     "`ziamath.config.svg2 = …` assigns through another object"),
    ("ui/transcript/typesetting.py", "def others():\n    import ziamath\n"
     "    ziamath.config.decimal_separator = ','",
     "`ziamath.config.decimal_separator = …` assigns through another object"),
])
def test_a_planted_assignment_through_another_object_is_named(copy, relative, code, expected):
    assert assignment_violations(copy) == []
    line = plant(copy, relative, code)
    assert f"turnlog/{relative}:{line}: {expected}" in "\n".join(
        assignment_violations(copy)), assignment_violations(copy)


def test_what_stays_allowed_is_not_named(copy):
    plant(copy, "ui/panels/search_hits.py",
          "def allowed(self, option: QStyleOptionViewItem, value):\n"
          "    self.value = value\n"
          "    made = object.__new__(type('Made', (), {}))\n"
          "    made.value = value\n"
          "    option.text = ''\n"
          "    sys.excepthook = value")
    assert assignment_violations(copy) == []
