"""PySide's support modules, compiled from the source in shiboken's binary at every start,
are compiled once and kept: a start that reads them gets the code a fresh compile makes
and PySide works as before; a damaged file is compiled over; nothing is written where
Python writes no byte code; every other `compile` while PySide loads is the standard one.

The starts run in child processes of their own (a test process has loaded PySide)."""

from __future__ import annotations
import __future__

import ast
import builtins
import marshal
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from pyside_answers import wrong_call
from turnlog.system.compiled_methods import CompiledMethods
from turnlog.ui.infra import support_code

START = ("from turnlog import app\n"
         "from pyside_answers import wrong_call\n"
         "print(app.KEPT_CODE.path)\n"
         "print(app.KEPT_CODE.added)\n"
         "print(app.KEPT_CODE.keep())\n"
         "print(wrong_call())\n")


def start(prefix: Path, **env: str) -> tuple[Path, int, bool, str]:
    """`turnlog.app` loaded in a process of its own, which then keeps what it compiled:
    where it keeps it, how much it compiled, whether it wrote it, and what PySide's
    support modules say of a call with a wrong argument."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    environment["PYTHONPATH"] = str(Path(__file__).parents[2] / "support")  # pyside_answers
    ran = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True,
                         env={**environment, "PYTHONPYCACHEPREFIX": str(prefix), **env},
                         check=True, timeout=120)
    path, added, written, signature = ran.stdout.splitlines()
    return Path(path), int(added), written == "True", signature


def embedded() -> dict[str, bytes]:
    """The source of each module embedded in shiboken, by its file name."""
    zipped = sys.modules["shibokensupport"].__spec__.loader.zfile
    return {name: zipped.read(name) for name in zipped.namelist() if name.endswith(".py")}


class Compiled(Exception):
    """Stops PySide's importer once it has compiled a module (it is not run again)."""


def passed_on(name: str) -> int:
    """The future flags `compile` is given for `name`: none for shiboken's own compile of
    the bootstrap, those of the importer's code for the modules it compiles."""
    if name == support_code.BOOTSTRAP_FILE:
        return 0
    importer = sys.modules[support_code.BOOTSTRAP].EmbeddableZipImporter.exec_module
    return importer.__code__.co_flags & support_code.FUTURE_FLAGS


def fresh(name: str, source: bytes) -> types.CodeType:
    """The code shiboken compiles `name` to, with the standard `compile`: the bootstrap
    by shiboken itself, inheriting nothing; every other by the bootstrap's importer."""
    if name == support_code.BOOTSTRAP_FILE:
        return compile(source, name, "exec", dont_inherit=True)
    importer = sys.modules["shibokensupport"].__spec__.loader
    name = name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    module = types.ModuleType(name)
    module.__spec__ = importer.find_spec(name, None)

    def caught(code: Any, *_: Any) -> None:
        raise Compiled(code)

    plain_exec = builtins.exec
    builtins.exec = caught
    try:
        importer.exec_module(module)
    except Compiled as done:
        return done.args[0]
    finally:
        builtins.exec = plain_exec
    raise AssertionError(f"{name} was not compiled")


def same_code(one: types.CodeType, other: types.CodeType) -> bool:
    """Equal byte code, names, flags and file name, nested code compared the same way."""
    if (one.co_code, one.co_names, one.co_flags, one.co_filename, len(one.co_consts)) != (
            other.co_code, other.co_names, other.co_flags, other.co_filename,
            len(other.co_consts)):
        return False
    for mine, theirs in zip(one.co_consts, other.co_consts, strict=True):
        if isinstance(mine, types.CodeType):
            if not isinstance(theirs, types.CodeType) or not same_code(mine, theirs):
                return False
        elif type(mine) is not type(theirs) or mine != theirs:
            return False
    return True


def test_a_start_reads_the_code_an_earlier_one_compiled_for_every_embedded_module(
        tmp_path: Path) -> None:
    sources = embedded()
    assert len(sources) >= 12 and support_code.BOOTSTRAP_FILE in sources
    path, added, written, signature = start(tmp_path / "prefix")
    assert path.is_relative_to(tmp_path / "prefix") and written
    assert added == len(sources)  # each compiled while PySide loaded, none later
    again, added_again, written_again, signature_again = start(tmp_path / "prefix")
    assert (again, added_again, written_again) == (path, 0, False)  # read, none compiled
    assert signature_again == signature == wrong_call()
    reading = CompiledMethods(path)
    for name, source in sources.items():
        kept = reading.compiled(source, name, "exec", passed_on(name))
        assert same_code(kept, fresh(name, source)), name
    assert reading.added == 0  # each was found under the flags `compile` was given
    # the importer's `from __future__ import annotations`, passed on as `compile` does
    assert passed_on("shibokensupport/signature/mapping.py") == (
        __future__.annotations.compiler_flag)


def test_a_damaged_kept_file_is_compiled_over_and_replaced(tmp_path: Path) -> None:
    path, _, _, _ = start(tmp_path / "prefix")
    path.write_bytes(b"\xe3not marshal" * 100)
    again, added, written, signature = start(tmp_path / "prefix")
    assert again == path and added == len(embedded()) and written
    assert signature == wrong_call()
    assert isinstance(marshal.loads(path.read_bytes()), dict)
    assert start(tmp_path / "prefix")[1:3] == (0, False)


def test_nothing_is_kept_where_python_writes_no_byte_code(tmp_path: Path) -> None:
    path, added, written, signature = start(tmp_path / "prefix", PYTHONDONTWRITEBYTECODE="1")
    assert added == len(embedded()) and not written and not path.exists()
    assert signature == wrong_call()


CALLERS = '''
from __future__ import annotations

def outer():
    def call(compile, *args, **options):  # nested: its code has CO_NESTED, never passed on
        return compile(*args, **options)
    return call

nested = outer()

def call(compile, *args, **options):
    return compile(*args, **options)
'''

CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((b"x: int = 1\n", "mine.py", "exec"), {}),
    (("def f(a: int) -> None: pass\n", "mine.py", "exec"), {}),
    (("1 + 2",), {"filename": "<expr>", "mode": "eval"}),
    ((b"x: int = 1\n", "mine.py", "exec"), {"dont_inherit": True}),
    ((b"x: int = 1\n", "mine.py", "exec", ast.PyCF_ONLY_AST), {}),
    ((b"y = 2\n", "mine.py", "exec"), {"optimize": 2}),
    ((b"print(1)\n", "signature_bootstrap_not.py", "single"), {}),
]


def callers(name: str, future: bool) -> list[Any]:
    """Two functions that call the `compile` given them (one nested), in a module named
    `name`, with or without `from __future__ import annotations`."""
    text = CALLERS if future else CALLERS.replace("from __future__ import annotations\n", "")
    scope: dict[str, Any] = {"__name__": name}
    builtins.exec(compile(text, f"{name}.py", "exec", dont_inherit=True), scope)
    return [scope["call"], scope["nested"]]


def made_alike(one: Any, other: Any) -> bool:
    if isinstance(one, ast.AST):
        return ast.dump(one) == ast.dump(other)
    return same_code(one, other)


@pytest.mark.parametrize("future", [True, False])
def test_every_other_caller_gets_what_the_standard_compile_gives_and_nothing_is_kept(
        tmp_path: Path, future: bool) -> None:
    methods = CompiledMethods(tmp_path / "kept.marshal")
    answering = support_code.answering(builtins.compile, methods)
    for call in callers("someone_else", future):
        for args, options in CALLS:
            assert made_alike(call(answering, *args, **options),
                              call(builtins.compile, *args, **options)), (args, options)
        with pytest.raises(ValueError, match="flags"):
            call(answering, "x = 1", "mine.py", "exec", 1 << 30)
        with pytest.raises(SyntaxError):
            call(answering, b"x = (", "broken.py", "exec")
    assert len(methods) == 0 and methods.keep() is False


@pytest.mark.parametrize("future", [True, False])
def test_the_bootstrap_importer_gets_the_standard_code_once(
        tmp_path: Path, future: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # whatever runs the tests says
    methods = CompiledMethods(tmp_path / "kept.marshal")
    answering = support_code.answering(builtins.compile, methods)
    source = b"from typing import Any\ndef f(a: Any) -> None: pass\n"
    for call in callers(support_code.BOOTSTRAP, future):
        made = call(answering, source, "shibokensupport/some.py", "exec")
        assert same_code(made, call(builtins.compile, source, "shibokensupport/some.py",
                                    "exec"))
        assert call(answering, source, "shibokensupport/some.py", "exec") is made
    assert methods.added == 1  # the same flags from both callers: one entry
    assert methods.keep() is True
    reading = CompiledMethods(tmp_path / "kept.marshal")
    for call in callers(support_code.BOOTSTRAP, future):
        again = call(support_code.answering(builtins.compile, reading), source,
                     "shibokensupport/some.py", "exec")
        assert same_code(again, made)
    assert reading.added == 0


def test_compile_is_the_standard_one_again_after_loading_even_when_it_failed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    methods = CompiledMethods(tmp_path / "kept.marshal")
    plain = builtins.compile
    with support_code.kept(methods) as answering:
        assert answering is False and builtins.compile is plain  # PySide is loaded here
    monkeypatch.setattr(support_code, "LOADED", "a support nobody loaded")
    with pytest.raises(ImportError), support_code.kept(methods) as answering:
        assert answering is True and builtins.compile.plain is plain  # type: ignore[attr-defined]
        import a_module_nobody_has  # noqa: F401
    assert builtins.compile is plain


def test_an_importer_that_loads_without_compile_is_left_alone(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """A PySide that loads its support from byte code asks nothing, and nothing is kept."""
    monkeypatch.setattr(support_code, "LOADED", "a support nobody loaded")
    methods = CompiledMethods(tmp_path / "kept.marshal")
    code = marshal.dumps(compile("VALUE = 6 * 7\n", "support.py", "exec"))
    importer: dict[str, Any] = {"__name__": support_code.BOOTSTRAP, "code": code}
    with support_code.kept(methods):
        builtins.exec("import marshal\nscope = {}\nexec(marshal.loads(code), scope)\n",
                      importer)
    assert importer["scope"]["VALUE"] == 42
    assert len(methods) == 0 and methods.keep() is False
