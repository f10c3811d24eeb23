"""Every file a person names is read through `turnlog.system.user_files`, the one reader that
opens without blocking, accepts regular files only and reads to a limit.

The check reads the sources with `ast` and reports each way of reading a file by path
(`Path.read_bytes()`/`read_text()`, `open()`, `io.open`/`os.open`, `X.open("r…")`,
`zipfile.ZipFile(path)`, `Image.open(path)`, `load_verify_locations(cafile=…)`) outside
the reader and the few modules below, which read only Turnlog's own files. The last
test plants a violation in a copy of the package and sees it reported."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
READER = "system/user_files.py"
# Modules that read (or open for writing) only files Turnlog itself made or ships, each
# with why it is not a file a person names.
OWN_FILES = {
    "app.py": "appends to Turnlog's own log",
    "system/children.py": "/proc entries of its own children and the child records it writes",
    "cli/tools_commands.py": "asks on /dev/tty, the controlling terminal",
    "localmodel/build.py": "the llama library inside the installed package, /proc/cpuinfo",
    "localmodel/server.py": "the built-in server's own log, which Turnlog writes",
    "resources/__init__.py": "icons shipped inside the package",
    "ui/infra/languages.py": "translations shipped inside the package",
    "service/transfer.py": "writes a new export (mode 'x')",
    "formats/assistant_file.py": "writes a new assistants file (mode 'x')",
    "store/drafts.py": "the store's own draft files, under the store's rules",
    "system/compiled_methods.py": "the compiled methods it keeps beside the package's byte code",
    "store/files.py": "the store's own files, opened with O_NOFOLLOW",
    "store/privacy.py": "syncs the data directory itself after an erase",
    "store/upgrade.py": "the database and its backup, under the store's rules",
    "sync/folder.py": "writes its own new sync objects (O_EXCL) and syncs their folder; "
                      "reads the storage through the reader",
    "sync/state.py": "its own lock file in the data directory",
    "ui/infra/module_scan.py": "the source files of modules the program imports",
}


def _reading(node: ast.Call) -> str | None:
    """How `node` reads a file by its path, or None."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else ""
    owner = func.value.id if isinstance(func, ast.Attribute) and \
        isinstance(func.value, ast.Name) else ""
    first = node.args[0] if node.args else None
    if name in ("read_bytes", "read_text") and isinstance(func, ast.Attribute) \
            and not node.args:
        return f".{name}()"
    if isinstance(func, ast.Name) and name == "open":
        return "open()"
    if name == "open" and owner in ("os", "io"):
        return f"{owner}.open()"
    if name == "open" and owner == "Image" and not (
            isinstance(first, ast.Call) and ast.unparse(first.func).endswith("BytesIO")):
        return "Image.open(path)"
    mode = first.value if isinstance(first, ast.Constant) else None
    if name == "open" and (isinstance(mode, str) and mode.startswith("r")
                           or any(k.arg == "encoding" for k in node.keywords)):
        return ".open(mode 'r')"
    if name == "ZipFile" and first is not None and not (
            isinstance(first, ast.Attribute) and first.attr == "handle"
            or isinstance(first, ast.Name) and first.id == "raw"):
        return "zipfile.ZipFile(path)"
    if any(k.arg == "cafile" for k in node.keywords):
        return "cafile="
    return None


def file_reads(package_dir: Path) -> list[str]:
    """Each read of a file by path outside the reader and `OWN_FILES`."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(package_dir).as_posix()
        if relative == READER or relative in OWN_FILES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            how = _reading(node) if isinstance(node, ast.Call) else None
            if how is not None:
                found.append(f"{relative}:{node.lineno}: {how}: {ast.unparse(node)[:80]}")
    return found


def test_named_files_are_read_only_through_the_reader():
    assert file_reads(PACKAGE_DIR) == []


def test_the_exceptions_still_exist():
    """An exception for a module that is gone, or no longer reads a file, is dropped."""
    for relative in OWN_FILES:
        assert (PACKAGE_DIR / relative).is_file(), relative


def test_a_planted_read_is_reported(tmp_path):
    copy = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    planted = copy / "config/profiles.py"
    planted.write_text(planted.read_text(encoding="utf-8") + (
        "\n\ndef sneak(path):\n    return path.read_text(encoding='utf-8')\n"
        "\n\ndef sneak_more(path):\n    with open(path, 'rb') as handle:\n"
        "        return handle.read()\n"
        "\n\ndef sneak_zip(path):\n    import zipfile\n    return zipfile.ZipFile(path)\n"),
        encoding="utf-8")
    (copy / "cli" / "attached.py").write_text(
        "from PIL import Image\n\n\ndef peek(path):\n    return Image.open(path)\n",
        encoding="utf-8")
    found = file_reads(copy)
    assert sorted(line.split(": ")[1] for line in found) == [
        ".read_text()", "Image.open(path)", "open()", "zipfile.ZipFile(path)"]
    assert sum(line.startswith("cli/attached.py:5:") for line in found) == 1
    assert sum(line.startswith("config/profiles.py:") for line in found) == 3
