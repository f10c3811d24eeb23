"""The methods `dataclasses` writes are compiled once and kept for the next start: a
class made with them behaves as one made without (its signature, repr, equality, hash,
frozen fields); a second start compiles none of what the first kept; a damaged file is
compiled over; nothing is written where Python writes no byte code."""

from __future__ import annotations
import __future__

import builtins
import dataclasses
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from turnlog.system import compiled_methods
from turnlog.system.compiled_methods import CompiledMethods

CLASS = '''
from dataclasses import dataclass, field

@dataclass(frozen=True, slots=True)
class Priced:
    name: str
    cents: int = 0
    tags: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list, compare=False)
'''


def made(source: str = CLASS) -> type:
    """The class `source` defines, in a module of its own (no future import there)."""
    scope: dict[str, object] = {"__name__": "priced"}
    builtins.exec(compile(source, "priced.py", "exec", dont_inherit=True), scope)
    return scope["Priced"]  # type: ignore[return-value]


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """`dataclasses` compiles with the built-in `exec` again after the test; during it,
    Python writes byte code (whatever the environment running the tests says)."""
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_a_class_made_from_kept_code_behaves_as_one_made_without(tmp_path: Path,
                                                                  restored: None) -> None:
    plain = made()
    kept = tmp_path / "methods.marshal"
    compiling = compiled_methods.install(kept)
    first = made()
    assert compiling.added >= 5 and compiling.keep() is True
    reading = compiled_methods.install(kept)
    again = made()  # every method's code read back from the file
    assert reading.added == 0
    for cls in (first, again):
        assert str(inspect.signature(cls)) == str(inspect.signature(plain))
        assert inspect.signature(cls.__init__) == inspect.signature(plain.__init__)
        one, same, other = cls("tea", 3, ("hot",)), cls("tea", 3, ("hot",), ["x"]), cls("tea")
        assert repr(one) == repr(plain("tea", 3, ("hot",)))
        assert one == same and hash(one) == hash(same) and one != other
        with pytest.raises(dataclasses.FrozenInstanceError):
            one.cents = 4  # type: ignore[attr-defined]
        assert cls.__slots__ == plain.__slots__
        assert [(f.name, f.type, f.default, f.compare) for f in dataclasses.fields(cls)] == [
            (f.name, f.type, f.default, f.compare) for f in dataclasses.fields(plain)]
        for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__"):
            assert getattr(cls, name).__code__.co_code == getattr(plain, name).__code__.co_code


def test_what_a_start_compiled_the_next_one_reads(tmp_path: Path) -> None:
    kept = tmp_path / "cache" / "methods.marshal"
    script = (f"from pathlib import Path\nfrom turnlog.system import compiled_methods\n"
              f"methods = compiled_methods.install(Path({str(kept)!r}))\n"
              f"exec({CLASS!r})\n"
              "assert Priced('tea', 3) == Priced('tea', 3)\n"
              "print(methods.added, len(methods), methods.keep())\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, check=True, timeout=60).stdout.split() for _ in range(2)]
    compiled, known, written = runs[0]
    assert int(compiled) >= 5 and int(known) == int(compiled) and written == "True"
    assert kept.exists()
    assert runs[1] == ["0", known, "False"]  # the second start compiled nothing, wrote nothing


def test_a_damaged_file_is_compiled_over_and_replaced(tmp_path: Path, restored: None) -> None:
    kept = tmp_path / "methods.marshal"
    kept.write_bytes(b"\x00not marshal at all")
    methods = compiled_methods.install(kept)
    assert len(methods) == 0
    assert made()("tea").cents == 0
    assert methods.added > 0 and methods.keep() is True
    assert len(CompiledMethods(kept)) == len(methods) > 0


def test_a_class_changed_since_the_file_was_kept_is_compiled_from_its_new_source(
        tmp_path: Path, restored: None) -> None:
    """A file kept by an older build (a field since renamed) is never trusted for it."""
    kept = tmp_path / "methods.marshal"
    compiling = compiled_methods.install(kept)
    made()
    assert compiling.keep() is True
    reading = compiled_methods.install(kept)
    changed = made(CLASS.replace("cents", "pence"))
    assert reading.added > 0  # the methods whose text changed
    one = changed("tea", pence=3)
    assert one.pence == 3 and repr(one) == "Priced(name='tea', pence=3, tags=(), notes=[])"
    with pytest.raises(TypeError):
        changed("tea", cents=3)


def test_nothing_is_written_where_python_writes_no_byte_code(
        tmp_path: Path, restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "methods.marshal"
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    methods = compiled_methods.install(kept)
    made()
    assert methods.added > 0
    assert methods.keep() is False and not kept.exists()


def test_a_build_keeps_them_where_python_writes_no_byte_code_when_told_so(
        tmp_path: Path, restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundle writes no byte code; its build starts it once with the variable set, so
    what that start compiled is kept in the bundle for every later start."""
    kept = tmp_path / "methods.marshal"
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setenv(compiled_methods.KEEP_ENV, "1")
    methods = compiled_methods.install(kept)
    made()
    assert methods.added > 0 and methods.keep() is True
    monkeypatch.setenv(compiled_methods.KEEP_ENV, "0")  # only "1" says so
    reading = compiled_methods.install(kept)
    made()
    assert reading.added == 0 and len(reading) == len(methods)
    reading.run("x = 1")
    assert reading.added == 1 and reading.keep() is False
    assert len(CompiledMethods(kept)) == len(methods)


def test_the_methods_are_kept_beside_the_package_byte_code(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    path = compiled_methods.kept_path()
    assert path is not None and path.is_relative_to(tmp_path / "prefix")
    assert sys.implementation.cache_tag in path.name


def test_a_place_that_cannot_be_written_keeps_nothing_and_raises_nothing(
        tmp_path: Path, restored: None) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    methods = compiled_methods.install(blocker / "cache" / "methods.marshal")
    made()
    assert methods.added > 0
    assert methods.keep() is False
    assert blocker.read_text() == "not a folder"


def test_the_kept_file_is_readable_as_the_package_source_is_whatever_the_umask(
        tmp_path: Path, restored: None) -> None:
    kept = tmp_path / "methods.marshal"
    methods = compiled_methods.install(kept)
    made()
    previous = os.umask(0o077)  # as a private umask would leave it
    try:
        assert methods.keep() is True
    finally:
        os.umask(previous)
    source_mode = os.stat(compiled_methods.__file__).st_mode & 0o666
    assert kept.stat().st_mode & 0o777 == source_mode


MODULE = b"from typing import Any\n\ndef shout(word: Any) -> str:\n    return f'{word}!'\n"


def test_a_module_compiled_once_is_read_back_with_the_methods_and_kept_apart(
        tmp_path: Path, restored: None) -> None:
    """A module's code sits in the same file as the methods, under a key no method's text
    can equal, and is handed out as `compile` makes it from the same source, file name,
    mode and future flags (a different flag is different code)."""
    kept = tmp_path / "methods.marshal"
    annotations = __future__.annotations.compiler_flag
    compiling = compiled_methods.install(kept)
    made()
    code = compiling.compiled(MODULE, "shouting.py", "exec", annotations)
    assert compiling.compiled(MODULE, "shouting.py", "exec", annotations) is code
    assert compiling.keep() is True
    reading = compiled_methods.install(kept)
    made()
    again = reading.compiled(MODULE, "shouting.py", "exec", annotations)
    assert reading.added == 0 and len(reading) == len(compiling)
    fresh = compile(MODULE, "shouting.py", "exec", annotations, dont_inherit=True)
    assert again == fresh and again.co_filename == "shouting.py"
    assert again.co_flags == fresh.co_flags
    scope: dict[str, object] = {}
    builtins.exec(again, scope)
    assert scope["shout"]("hi") == "hi!"  # type: ignore[operator]
    assert scope["shout"].__annotations__ == {"word": "Any", "return": "str"}  # type: ignore[attr-defined]
    plain = reading.compiled(MODULE, "shouting.py", "exec", 0)  # without the future import
    assert reading.added == 1 and plain.co_flags != again.co_flags
    assert reading.compiled(MODULE, "other.py", "exec", annotations).co_filename == "other.py"
    assert reading.added == 2
