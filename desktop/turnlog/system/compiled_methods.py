"""The methods `dataclasses` writes, and the modules PySide compiles from source at every
start, compiled once and kept, as Python keeps a module's byte code.

For every dataclass, `dataclasses` writes the source of `__init__`, `__repr__`, `__eq__`,
`__hash__` and, for a frozen one, `__setattr__` and `__delattr__`, and compiles each with
`exec`: about half a millisecond per class, and the window's first screen defines some
150 of them. `CompiledMethods` hands `dataclasses` the code compiled from the same source
text at an earlier start instead, and keeps what it compiled now for the next one. The
code is the code `exec` would compile (same text, file name "<string>", no inherited
future flags), so every class behaves as it always did.

PySide's signature support is a dozen modules whose source is embedded in its binary and
compiled with `compile` at every start, no byte code kept (`ui.infra.support_code`):
`compiled` hands out their code the same way, by the source bytes, file name, mode,
future flags and optimization level it is compiled with (a key no method's text equals).

The kept code lives where Python keeps this package's byte code (`__pycache__`, or under
`sys.pycache_prefix`), under the interpreter's cache tag, written by the same rules:
nothing where byte code is not written (`sys.dont_write_bytecode`), nothing when the
folder cannot be written. A file that cannot be read is compiled over and replaced.

A frozen program (the installed bundle) writes no byte code, and is installed where its
user cannot write: its build starts it once with `$TURNLOG_KEEP_COMPILED_METHODS` set to
1, which keeps what that start compiled even so, inside the bundle, where every later
start reads it (`packaging/keep_methods.py`).
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
import threading
from pathlib import Path
from types import CodeType

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from collections.abc import Set
    from typing import Any, TypeVar

    Key = TypeVar("Key")
    Value = TypeVar("Value")

# Kept entries beyond this are dropped, keeping those this run used (`bounded`): a source
# text an older Turnlog wrote (a field renamed) is not kept for ever.
MOST_KEPT = 4_000
# Set to "1": kept even where Python writes no byte code (the bundle's build).
KEEP_ENV = "TURNLOG_KEEP_COMPILED_METHODS"
# The standard `compile`, as this module was imported: `compiled` is asked from inside a
# `compile` that stands in for it (`ui.infra.support_code`)
_compile = builtins.compile

# A module's code by what `compile` makes it from: source, file name, mode, flags (future
# features) and optimization level
ModuleKey = tuple[bytes, str, str, int, int]


def kept_path(name: str = "dataclass_methods") -> Path | None:
    """Where the compiled methods (or what else is kept under `name`) are kept (None:
    nowhere Python would keep byte code)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    beside = importlib.util.cache_from_source(__file__)  # honours sys.pycache_prefix
    return Path(beside).with_name(f"{name}.{tag}.marshal")


class CompiledMethods:
    """The code of dataclass methods by their source text, and of modules by what they
    are compiled from: read from `path` (if any), added to as more is compiled, written
    back by `keep`. Thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._code: dict[str | ModuleKey, CodeType] = _read(path)
        self._used: set[str | ModuleKey] = set()
        self._added = 0

    def __len__(self) -> int:
        return len(self._code)

    @property
    def added(self) -> int:
        """How many were compiled in this run (not yet kept)."""
        return self._added

    def run(self, source: Any, scope: Any = None, names: Any = None) -> None:
        """`exec(source, scope, names)`, with a source text's code compiled at most once."""
        if not isinstance(source, str):
            builtins.exec(source, scope, names)
            return
        with self._lock:
            code = self._code.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self._code[source] = code
                self._added += 1
            self._used.add(source)
        builtins.exec(code, scope, names)

    def compiled(self, source: bytes, filename: str, mode: str, flags: int) -> CodeType:
        """`compile(source, filename, mode, flags, dont_inherit=True)`, compiled at most
        once across starts (`flags`: the future features it is compiled with)."""
        key = (source, filename, mode, flags, sys.flags.optimize)
        with self._lock:
            code = self._code.get(key)
            if code is None:
                code = _compile(source, filename, mode, flags, True)
                self._code[key] = code
                self._added += 1
            self._used.add(key)
        return code

    def keep(self) -> bool:
        """Write what was compiled in this run with what was read (True: written). Nothing
        to write, no place to write it, or a folder that cannot be written: False."""
        if self.path is None or not keeps():
            return False
        with self._lock:
            if not self._added:
                return False
            data = marshal.dumps(bounded(self._code, self._used))
            self._added = 0
        return keep_file(self.path, data)


def bounded(kept: dict[Key, Value], used: Set[Key]) -> dict[Key, Value]:
    """What to keep of `kept`: all of it, or past `MOST_KEPT` entries only those `used` in
    this run, so that entries no start asks for any more (an older Turnlog's, a file gone)
    do not pile up while a start that uses fewer forgets nothing below the bound."""
    if len(kept) <= MOST_KEPT:
        return kept
    return {key: kept[key] for key in used if key in kept}


def keeps() -> bool:
    """Whether what a start compiled or learned is kept for the next: where Python writes
    byte code, or in the bundle's build (`KEEP_ENV`)."""
    return not sys.dont_write_bytecode or os.environ.get(KEEP_ENV) == "1"


def keep_file(path: Path, data: bytes) -> bool:
    """`data` as the file at `path`, replaced whole (True), or nothing written where the
    folder cannot be written (False)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(temporary, data)
        temporary.replace(path)  # a reader sees the old file or the new one
    except OSError:
        with contextlib.suppress(OSError):  # a parent that is a file, a folder gone
            temporary.unlink(missing_ok=True)
        return False
    return True


def _write(path: Path, data: bytes) -> None:
    """`data` into a new file readable as this package's source is, whatever the umask
    (as Python writes byte code: another user of a shared install reads it too)."""
    try:
        mode = os.stat(__file__).st_mode & 0o666
    except OSError:
        mode = 0o644
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    os.chmod(path, mode)  # the umask narrowed what os.open gave


def read_kept(path: Path | None) -> dict[object, object]:
    """The dictionary kept at `path`; empty where there is none, or the file cannot be read
    or holds something else (it is written over at the next `keep_file`)."""
    if path is None:
        return {}
    try:
        found = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def _read(path: Path | None) -> dict[str | ModuleKey, CodeType]:
    return {key: code for key, code in read_kept(path).items()
            if (isinstance(key, str) or _module_key(key)) and isinstance(code, CodeType)}


def _module_key(key: object) -> bool:
    return (isinstance(key, tuple) and len(key) == len(_MODULE_KEY_TYPES)
            and all(isinstance(part, kind)
                    for part, kind in zip(key, _MODULE_KEY_TYPES, strict=True)))


_MODULE_KEY_TYPES = (bytes, str, str, int, int)  # `ModuleKey`


def install(kept: Path | CompiledMethods | None = None) -> CompiledMethods:
    """From now on, `dataclasses` compiles each method's source text once across starts
    (the kept code at `kept`, by default `kept_path()`, or that already read as `kept`).
    Call it before the modules that define dataclasses are imported; `keep` the result
    once they are."""
    if isinstance(kept, CompiledMethods):
        methods = kept
    else:
        methods = CompiledMethods(kept_path() if kept is None else kept)
    dataclasses.exec = methods.run  # type: ignore[attr-defined] # what it compiles with
    return methods
