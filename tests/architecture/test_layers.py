"""Imports point down only, and no module of `turnlog` takes part in an import cycle.

The layers, top to bottom (DESIGN.md, "Architecture"):

    ui, cli, app                    the faces
    sync                            the wire side of sync: above the store, no Qt
    service/request_body,           the use cases both faces share (the one body builder)
      service/new_version
    service/chat, service/tool_use, the send wiring the use cases build on
      service/connect, service/known_counts,
      config/profiles, config/model_counts, config/model_facts,
      config/tool_servers, formats/file_reading
    store, providers, localmodel,   the parts, side by side
      config/secrets, toolhost, system, formats/pdf_text
    core                            the rules: the standard library only

The package root holds only the start-up (`__init__`, `__main__`, `app`); every other
module sits in a folder named for what it is.

Every import is read from the sources with `ast`: at module level, inside a function,
under `try:` or under `if TYPE_CHECKING:`, and every one of them counts, for the layer
rules and for cycles alike. A type-only import of a higher layer is still a dependency on
it; and two modules that import each other only behind a function body or
`if TYPE_CHECKING:` still cannot be read, tested or changed apart: the import is merely
hidden from the interpreter, not removed. The way out of a cycle is a `Protocol` in the
lower module, or what both need moved into a third module both import. Each message says
where an import sits, so a hidden one is easy to find.

The checks take the package directory as an argument, so the last tests can plant a
violation in a copy of the package and see it reported.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent

# Modules allowed to import Qt: the window and the start-up that creates it.
QT_ALLOWED = ("turnlog.ui", "turnlog.app", "turnlog.__main__")
QT_PACKAGES = {"PySide6", "shiboken6"}
# The use cases both faces share (the one body builder): the top of `service/`.
USE_CASES = ("turnlog.service.request_body", "turnlog.service.new_version")
# The send wiring the use cases build on: connecting and sending (`service/connect`,
# `service/chat`, tools),
# the configuration and the file formats a send reads.
SEND_WIRING = ("turnlog.service.chat", "turnlog.service.connect", "turnlog.service.known_counts",
               "turnlog.service.tool_use", "turnlog.config.profiles",
               "turnlog.config.model_counts", "turnlog.config.model_facts",
               "turnlog.config.tool_servers", "turnlog.formats.file_reading")
# The wire side of sync: it uses the store's feed and the keyring, and serves the faces.
SYNC = ("turnlog.sync",)
ABOVE_SYNC = ("turnlog.ui", "turnlog.cli", "turnlog.app", "turnlog.service")
# Parts and the layers above them that they must never import.
ABOVE_THE_PARTS = ("turnlog.ui", "turnlog.cli", "turnlog.app", "turnlog.service", *SEND_WIRING,
                   *SYNC)
PARTS = ("turnlog.store", "turnlog.providers", "turnlog.localmodel", "turnlog.config.secrets",
         "turnlog.toolhost", "turnlog.system", "turnlog.formats.pdf_text")
PROVIDERS_MUST_NOT = ("turnlog.store", "turnlog.config.secrets", "turnlog.localmodel")
# The wiring both faces share, and the command line, never reach into the window.
WIRING = ("turnlog.service", "turnlog.config", "turnlog.formats", "turnlog.system",
          "turnlog.cli")
# Below the use cases: the send wiring, the parts and core never import them.
BELOW_THE_SERVICE = (*SEND_WIRING, "turnlog.core", *PARTS)
# The package root holds only the start-up; everything else is in a folder named for it.
ROOT_MODULES = ("__init__.py", "__main__.py", "app.py")
THE_WINDOW = ("turnlog.ui", "turnlog.app")
# The window's rooms (folders of ui/), bottom up: each imports only the rooms before it.
ROOMS = ("infra", "transcript", "request", "dialogs", "conversation", "faults", "panels",
         "shell")


@dataclass(frozen=True, slots=True)
class Import:
    """One imported module name as written in `importer`'s source, made absolute."""

    importer: str
    target: str
    path: str  # as turnlog/store/log.py
    line: int
    place: str  # "module", "function" or "TYPE_CHECKING"

    def where(self) -> str:
        place = "" if self.place == "module" else f" (in a {self.place} block)"
        if self.place == "function":
            place = " (inside a function)"
        return f"{self.path}:{self.line}: {self.importer} imports {self.target}{place}"


def module_name(path: Path, package_dir: Path) -> str:
    parts = ["turnlog", *path.relative_to(package_dir).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_in(nodes: Iterable[ast.AST], place: str) -> Iterator[tuple[ast.stmt, str]]:
    """Every import statement in or below `nodes`, with where it sits."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, place
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _imports_in(ast.iter_child_nodes(node), "function")
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports_in(node.body, "TYPE_CHECKING")
            yield from _imports_in(node.orelse, place)
        else:
            yield from _imports_in(ast.iter_child_nodes(node), place)


def scan(package_dir: Path) -> tuple[set[str], list[Import]]:
    """All modules of the package and every import they make."""
    paths = sorted(package_dir.rglob("*.py"))
    modules = {module_name(path, package_dir) for path in paths}
    found: list[Import] = []
    for path in paths:
        importer = module_name(path, package_dir)
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, place in _imports_in(tree.body, "module"):
            for target in _targets(node, importer, is_package, modules):
                where = path.relative_to(package_dir.parent).as_posix()
                found.append(Import(importer, target, where, node.lineno, place))
    return modules, found


def _targets(node: ast.stmt, importer: str, is_package: bool, modules: set[str]) -> list[str]:
    """The modules an import statement loads. `from m import n` loads m.n when that is a
    module of the package, else m itself (n is then a name defined in m)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        parts = importer.split(".")
        keep = len(parts) - node.level + (1 if is_package else 0)
        base = ".".join(parts[:keep])
        module = f"{base}.{node.module}" if node.module else base
    else:
        module = node.module or ""
    targets = [f"{module}.{alias.name}" for alias in node.names
               if f"{module}.{alias.name}" in modules]
    if len(targets) < len(node.names):
        targets.insert(0, module)
    return targets


def within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


# ----------------------------------------------------------------------- the rules
def core_violations(imports: list[Import]) -> list[str]:
    stdlib = sys.stdlib_module_names
    return [
        f"{i.where()} — core may import only core and the standard library"
        for i in imports
        if within(i.importer, ["turnlog.core"])
        and not within(i.target, ["turnlog.core"])
        and i.target.split(".")[0] not in stdlib
    ]


def upward_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — store, providers, localmodel and secrets never import "
        "ui, cli, app, chat or profiles"
        for i in imports
        if within(i.importer, PARTS) and within(i.target, ABOVE_THE_PARTS)
    ]


def sync_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — sync sits below the service layer and the faces: it never imports them"
        for i in imports
        if within(i.importer, SYNC) and within(i.target, ABOVE_SYNC)
    ]


def provider_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — providers never import store, secrets or localmodel"
        for i in imports
        if within(i.importer, ["turnlog.providers"]) and within(i.target, PROVIDERS_MUST_NOT)
    ]


def wiring_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — chat, profiles and cli never import ui or app"
        for i in imports
        if within(i.importer, WIRING) and within(i.target, THE_WINDOW)
    ]


def service_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — the service layer sits above chat, the parts and core: they never "
        "import it"
        for i in imports
        if within(i.importer, BELOW_THE_SERVICE) and within(i.target, USE_CASES)
    ]


def root_violations(package_dir: Path) -> list[str]:
    return [
        f"turnlog/{path.name} — the package root holds only the start-up "
        f"({', '.join(ROOT_MODULES)}); put it in the folder named for what it is"
        for path in sorted(package_dir.glob("*.py")) if path.name not in ROOT_MODULES
    ]


def qt_violations(imports: list[Import]) -> list[str]:
    return [
        f"{i.where()} — nothing below ui imports Qt"
        for i in imports
        if not within(i.importer, QT_ALLOWED) and i.target.split(".")[0] in QT_PACKAGES
    ]


def room_of(name: str) -> str | None:
    """The room of a module of the window (turnlog.ui.request.inspector: "request")."""
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["turnlog", "ui"] else None


def room_violations(imports: list[Import]) -> list[str]:
    messages = []
    for i in imports:
        importer, target = room_of(i.importer), room_of(i.target)
        if importer is None or target is None or importer == target:
            continue
        if importer not in ROOMS or target not in ROOMS:
            unknown = importer if importer not in ROOMS else target
            messages.append(f"{i.where()} — ui/{unknown}/ is not one of the rooms {ROOMS}")
        elif ROOMS.index(target) > ROOMS.index(importer):
            messages.append(f"{i.where()} — the {importer} room imports {target}, a room "
                            "above it")
    return messages


def room_folders(package_dir: Path) -> list[str]:
    return sorted(path.name for path in (package_dir / "ui").iterdir()
                  if path.is_dir() and (path / "__init__.py").exists())


def module_graph(modules: set[str], imports: list[Import]
                 ) -> dict[str, dict[str, list[Import]]]:
    """Edges between modules of the package, each with every import that makes it."""
    graph: dict[str, dict[str, list[Import]]] = {name: {} for name in modules}
    for i in imports:
        if i.target in modules and i.target != i.importer:
            graph[i.importer].setdefault(i.target, []).append(i)
    return graph


def cycles(graph: dict[str, dict[str, list[Import]]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def cycle_violations(modules: set[str], imports: list[Import]) -> list[str]:
    graph = module_graph(modules, imports)
    messages = []
    for component in cycles(graph):
        members = set(component)
        edges = [i.where() for name in component for target, made_by in
                 sorted(graph[name].items()) if target in members for i in made_by]
        messages.append("import cycle among " + ", ".join(component) + ":\n    "
                        + "\n    ".join(edges))
    return messages


def _fail_if(messages: list[str]) -> None:
    assert not messages, "\n".join(messages)


@pytest.fixture(scope="module")
def package() -> tuple[set[str], list[Import]]:
    return scan(PACKAGE_DIR)


def test_the_scan_sees_the_whole_package(package):
    modules, imports = package
    assert {"turnlog.core.send", "turnlog.store.log", "turnlog.providers.client",
            "turnlog.ui.shell.window", "turnlog.service.chat", "turnlog.cli"} <= modules
    # Imports inside functions and under TYPE_CHECKING are seen too.
    assert {i.place for i in imports} == {"module", "function", "TYPE_CHECKING"}


def test_core_imports_only_core_and_the_standard_library(package):
    _fail_if(core_violations(package[1]))


def test_parts_never_import_the_layers_above_them(package):
    _fail_if(upward_violations(package[1]))


def test_sync_imports_neither_the_service_layer_nor_the_faces(package):
    modules, imports = package
    assert {"turnlog.sync.engine", "turnlog.sync.state"} <= modules
    _fail_if(sync_violations(imports))


def test_providers_import_neither_store_nor_secrets_nor_localmodel(package):
    _fail_if(provider_violations(package[1]))


def test_the_shared_wiring_and_the_command_line_never_import_the_window(package):
    _fail_if(wiring_violations(package[1]))


def test_nothing_below_the_service_layer_imports_it(package):
    modules, imports = package
    assert {"turnlog.service.request_body", "turnlog.service.new_version"} <= modules
    _fail_if(service_violations(imports))


def test_nothing_below_ui_imports_qt(package):
    _fail_if(qt_violations(package[1]))


def test_the_package_root_holds_only_the_start_up():
    _fail_if(root_violations(PACKAGE_DIR))


def test_a_module_left_loose_at_the_root_is_named(copy):
    assert root_violations(copy) == []
    (copy / "helpers.py").write_text('"""Odds and ends."""\n', encoding="utf-8")
    assert root_violations(copy) == [
        "turnlog/helpers.py — the package root holds only the start-up (__init__.py, "
        "__main__.py, app.py); put it in the folder named for what it is"]


def test_no_import_cycle_anywhere_in_the_package(package):
    _fail_if(cycle_violations(*package))


def test_the_window_is_in_rooms_and_each_imports_only_the_rooms_below_it(package):
    modules, imports = package
    assert room_folders(PACKAGE_DIR) == sorted(ROOMS)
    assert {"turnlog.ui.shell.window", "turnlog.ui.transcript.model",
            "turnlog.ui.panels.side.questions"} <= modules
    # At most a handful of modules directly in ui/ (today none but its docstring).
    assert len([name for name in modules if name.startswith("turnlog.ui.")
                and name.count(".") == 2 and name.split(".")[2] not in ROOMS]) <= 5
    _fail_if(room_violations(imports))


def test_the_rooms_export_nothing():
    """A package's __init__ that re-exports its modules makes every importer of one module
    load them all, and soon a cycle: each is its docstring alone."""
    for init in sorted((PACKAGE_DIR / "ui").rglob("__init__.py")):
        body = ast.parse(init.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) \
            and isinstance(body[0].value, ast.Constant), init


def test_importing_providers_loads_neither_keyring_nor_the_local_model():
    script = ("import json, sys, turnlog.providers\n"
              "print(json.dumps(sorted(sys.modules)))\n"
              "from turnlog.providers import ChatCompletionsProvider\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, timeout=60)
    named, used = (set(json.loads(line)) for line in result.stdout.splitlines())
    # The package loads a name's module when the name is first read: naming a preset
    # or counting tokens does not load the HTTP client.
    assert "turnlog.providers.client" not in named
    assert "turnlog.providers.client" in used  # httpx itself waits for the first request
    assert sorted(name for name in used if within(
        name, ["keyring", "turnlog.config.secrets", "turnlog.localmodel", "turnlog.store"])) == []


# ------------------------------------------------------- the rules catch what they ban
@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def plant(copy: Path, relative: str, code: str) -> None:
    path = copy / relative
    path.write_text(path.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    "relative, code, check, expected",
    [
        ("core/budget.py", "import httpx", core_violations,
         "turnlog.core.budget imports httpx — core may import only core"),
        ("core/body.py", "def f():\n    from ..store import log", core_violations,
         "turnlog.core.body imports turnlog.store.log (inside a function)"),
        ("store/models.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
         "    from ..ui.shell.window import MainWindow", upward_violations,
         "turnlog.store.models imports turnlog.ui.shell.window (in a TYPE_CHECKING block)"),
        ("store/log.py", "from ..sync import engine", upward_violations,
         "turnlog.store.log imports turnlog.sync.engine"),
        ("sync/engine.py", "from ..service import chat", sync_violations,
         "turnlog.sync.engine imports turnlog.service.chat — sync sits below"),
        ("sync/state.py", "from PySide6.QtCore import QObject", qt_violations,
         "turnlog.sync.state imports PySide6.QtCore — nothing below ui imports Qt"),
        ("config/secrets.py", "from . import profiles", upward_violations,
         "turnlog.config.secrets imports turnlog.config.profiles"),
        ("providers/sse.py", "from turnlog.config import secrets", provider_violations,
         "turnlog.providers.sse imports turnlog.config.secrets"),
        ("providers/presets.py", "from ..localmodel.model_file import BUILTIN",
         provider_violations, "turnlog.providers.presets imports turnlog.localmodel.model_file"),
        ("cli/log_commands.py", "def f():\n    from ..ui.shell.window import MainWindow",
         wiring_violations, "turnlog.cli.log_commands imports turnlog.ui.shell.window (inside a "
         "function)"),
        ("service/chat.py", "def f():\n    from . import request_body", service_violations,
         "turnlog.service.chat imports turnlog.service.request_body (inside a function) — the "
         "service layer sits above"),
        ("service/request_body.py", "from ..ui.shell.window import MainWindow",
         wiring_violations, "turnlog.service.request_body imports turnlog.ui.shell.window"),
        ("service/chat.py", "from PySide6.QtCore import QObject", qt_violations,
         "turnlog.service.chat imports PySide6.QtCore — nothing below ui imports Qt"),
        ("ui/infra/tasks.py", "def f():\n    from ..shell.window import MainWindow",
         room_violations, "turnlog.ui.infra.tasks imports turnlog.ui.shell.window (inside a "
         "function) — the infra room imports shell, a room above it"),
        ("ui/request/live_preview.py", "from ..conversation.composer import Composer",
         room_violations, "turnlog.ui.request.live_preview imports "
         "turnlog.ui.conversation.composer — the request room imports conversation"),
    ],
)
def test_a_planted_violation_is_named(copy, relative, code, check, expected):
    assert check(scan(copy)[1]) == []
    line = len((copy / relative).read_text(encoding="utf-8").splitlines()) + 2
    plant(copy, relative, code)
    if "TYPE_CHECKING" in code:
        line += 2
    elif code.startswith("def"):
        line += 1
    messages = check(scan(copy)[1])
    where = f"turnlog/{relative}:{line}: "
    assert any(m.startswith(where + expected) for m in messages), messages


def test_a_planted_cycle_is_named_with_both_imports(copy):
    plant(copy, "core/model.py", "from . import budget")
    plant(copy, "core/budget.py", "from .model import Turn as _Turn")
    messages = cycle_violations(*scan(copy))
    cycle = [m for m in messages if "turnlog.core.budget" in m and "turnlog.core.model" in m]
    assert len(cycle) == 1, messages
    assert "turnlog.core.model imports turnlog.core.budget" in cycle[0]
    assert "turnlog.core.budget imports turnlog.core.model" in cycle[0]


def test_a_cycle_hidden_in_a_function_or_type_checking_block_is_named_too(copy):
    plant(copy, "core/redaction.py",
          "def _later():\n    from . import builtin_model\n    return builtin_model")
    plant(copy, "core/builtin_model.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
          "    from .redaction import redact as _redact")
    messages = cycle_violations(*scan(copy))
    cycle = [m for m in messages if "turnlog.core.redaction" in m]
    assert len(cycle) == 1, messages
    assert ("turnlog.core.redaction imports turnlog.core.builtin_model (inside a function)"
            in cycle[0])
    assert ("turnlog.core.builtin_model imports turnlog.core.redaction "
            "(in a TYPE_CHECKING block)" in cycle[0])
