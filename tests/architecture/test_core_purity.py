"""`turnlog.core` stays Qt-free and I/O-free: no PySide6, peewee, httpx or keyring.

Checked twice: by importing every core module in a fresh interpreter and
looking at `sys.modules`, and by reading the sources, so an import hidden
behind a function body or an `if TYPE_CHECKING:` is caught too.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import turnlog.core

CORE_DIR = Path(turnlog.core.__file__).parent
CORE_MODULES = sorted(
    f"turnlog.core.{path.stem}" for path in CORE_DIR.glob("*.py") if path.stem != "__init__"
)

# Third-party packages core must not touch, and the sibling packages that depend on core.
FORBIDDEN_TOP_LEVEL = {"PySide6", "shiboken6", "peewee", "playhouse", "httpx", "keyring"}
FORBIDDEN_SIBLINGS = {
    "turnlog.store",
    "turnlog.providers",
    "turnlog.ui",
    "turnlog.config.secrets",
    "turnlog.app",
    "turnlog.cli",
}


def forbidden_imports(source: str, package: str = "turnlog.core") -> list[str]:
    """Absolute names of forbidden modules imported anywhere in `source`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        for name in names:
            top = name.split(".")[0]
            sibling = any(name == s or name.startswith(s + ".") for s in FORBIDDEN_SIBLINGS)
            if top in FORBIDDEN_TOP_LEVEL or sibling:
                found.append(name)
    return found


def test_core_modules_exist():
    # Guards the two checks below against passing on an empty list.
    assert {"turnlog.core.body", "turnlog.core.projection", "turnlog.core.send"} <= set(
        CORE_MODULES
    )


def test_importing_core_loads_no_gui_database_network_or_keyring_package():
    script = (
        "import importlib, json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(result.stdout))
    assert set(CORE_MODULES) <= loaded
    offending = sorted(
        name
        for name in loaded
        if name.split(".")[0] in FORBIDDEN_TOP_LEVEL
        or any(name == s or name.startswith(s + ".") for s in FORBIDDEN_SIBLINGS)
    )
    assert offending == []


@pytest.mark.parametrize("path", sorted(CORE_DIR.glob("*.py")), ids=lambda p: p.name)
def test_core_source_imports_nothing_forbidden(path: Path):
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import PySide6.QtCore", ["PySide6.QtCore"]),
        ("from httpx import Client", ["httpx", "httpx.Client"]),
        ("def f():\n    import keyring\n", ["keyring"]),
        ("if TYPE_CHECKING:\n    from peewee import Model\n", ["peewee", "peewee.Model"]),
        ("from ..store import db", ["turnlog.store", "turnlog.store.db"]),
        ("from .. import ui", ["turnlog.ui"]),
        ("from .body import build_body\nimport json", []),
    ],
)
def test_source_scan_catches_forbidden_imports(source: str, expected: list[str]):
    assert forbidden_imports(source) == expected
