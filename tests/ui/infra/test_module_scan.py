"""PySide's look at each module imported after it gives every module the answer it got
before, from the file's bytes, and keeps no module's text in memory."""

from __future__ import annotations

import importlib
import linecache
import marshal
import os
import sys
from pathlib import Path

import pytest
from PySide6 import QtCore  # noqa: F401 - PySide's import hook and its module check

from turnlog.system import compiled_methods
from turnlog.ui.infra import module_scan


def pyside_check():
    return sys.modules["shibokensupport.feature"]._mod_uses_pyside


def test_every_loaded_module_gets_the_answer_pyside_gave():
    for name in ("turnlog.core.model", "turnlog.ui.infra.docks", "turnlog.store.database"):
        importlib.import_module(name)
    assert module_scan.quicken()
    quick = pyside_check()
    slow = quick.slow
    modules = [m for m in list(sys.modules.values()) if m is not None]
    assert len(modules) > 300
    answers = {m.__name__: quick(m) for m in modules}
    assert answers == {m.__name__: slow(m) for m in modules}
    # both kinds are among them: the window's modules name PySide6, the store's do not
    assert answers["turnlog.core.model"] is False
    assert answers["turnlog.ui.infra.docks"] is True
    assert answers["turnlog.store.database"] is False


def test_it_is_installed_once():
    module_scan.quicken()
    first = pyside_check()
    assert module_scan.quicken()
    assert pyside_check() is first
    assert not getattr(first.slow, "_turnlog_quick", False)


def test_a_module_imported_after_it_is_read_from_its_file(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    module_scan.quicken()
    (tmp_path / "uses_qt_here.py").write_text(
        "# 中文 comment\nfrom PySide6.QtCore import QPoint\nWHERE = QPoint(1, 2)\n",
        encoding="utf-8")
    (tmp_path / "plain_here.py").write_text("VALUE = 'PySide' + '6'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    feature = sys.modules["shibokensupport.feature"]
    for name, expected in (("uses_qt_here", 0), ("plain_here", -1)):
        module = __import__(name)  # as an import statement does: through PySide's hook
        assert feature.pyside_feature_dict[name] == expected
        assert module.__file__ not in linecache.cache  # its text is not kept
        del sys.modules[name]


def test_a_module_without_a_source_file_is_left_to_pyside(tmp_path: Path):
    module_scan.quicken()
    quick = pyside_check()
    assert quick(sys) is False  # built in
    gone = type(sys)("gone_module")
    gone.__file__ = str(tmp_path / "gone_module.py")  # removed since: PySide's answer
    assert quick(gone) is quick.slow(gone) is False


def test_a_pyside_that_asks_otherwise_is_left_alone(monkeypatch: pytest.MonkeyPatch):
    feature = sys.modules["shibokensupport.feature"]
    monkeypatch.delattr(feature, "_mod_uses_pyside")
    assert module_scan.quicken() is False
    assert not hasattr(feature, "_mod_uses_pyside")


@pytest.fixture
def writes_byte_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """As an installed Turnlog runs: Python writes byte code, so answers are kept."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _same_stamp(path: Path, text: str) -> None:
    """`text` (of the same length) written over `path`, its modification time put back."""
    before = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


def test_answers_kept_by_one_start_are_read_by_the_next_until_the_file_changes(
        tmp_path: Path, writes_byte_code: None):
    source = tmp_path / "uses_qt_kept.py"
    source.write_text("from PySide6.QtCore import QPoint  # 中文\n", encoding="utf-8")
    kept = tmp_path / "cache" / "pyside_uses.marshal"
    first = module_scan.KeptAnswers(kept)
    assert first.uses_pyside(str(source)) is True
    assert first.keep() and kept.is_file()
    assert not first.keep()  # nothing new to write

    # The next start answers from what was kept: the file is not read again while its
    # size and modification time are those kept (as Python's byte code is trusted)
    _same_stamp(source, "from PyQt666.QtCore import QPoint  # 中文\n")
    assert module_scan.KeptAnswers(kept).uses_pyside(str(source)) is True

    # A file that changed is read again, and what is kept then is its new answer
    source.write_text("VALUE = 1\n", encoding="utf-8")
    again = module_scan.KeptAnswers(kept)
    assert again.uses_pyside(str(source)) is False
    assert again.keep()
    assert module_scan.KeptAnswers(kept).uses_pyside(str(source)) is False


def test_a_damaged_or_foreign_kept_file_is_read_as_nothing_kept(tmp_path: Path,
                                                              writes_byte_code: None):
    source = tmp_path / "plain_kept.py"
    source.write_text("VALUE = 'PySide' + '6'\n", encoding="utf-8")
    kept = tmp_path / "pyside_uses.marshal"
    for damaged in (b"\x00not marshal", marshal.dumps([1, 2]),
                    marshal.dumps({str(source): (1, 2)}),
                    marshal.dumps({str(source): ("a", 2, True)})):
        kept.write_bytes(damaged)
        answers = module_scan.KeptAnswers(kept)
        assert answers.uses_pyside(str(source)) is False
        assert answers.keep()  # written over with what was read now
        assert module_scan.KeptAnswers(kept).uses_pyside(str(source)) is False


def test_nothing_is_kept_where_python_writes_no_byte_code(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch):
    source = tmp_path / "kept_nowhere.py"
    source.write_text("import PySide6\n", encoding="utf-8")
    kept = tmp_path / "pyside_uses.marshal"
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.delenv("TURNLOG_KEEP_COMPILED_METHODS", raising=False)
    answers = module_scan.KeptAnswers(kept)
    assert answers.uses_pyside(str(source)) is True
    assert not answers.keep() and not kept.exists()


def test_with_kept_answers_every_loaded_module_gets_the_answer_pyside_gave(
        tmp_path: Path, writes_byte_code: None):
    module_scan.quicken()
    slow = pyside_check().slow
    kept = tmp_path / "pyside_uses.marshal"
    modules = [m for m in list(sys.modules.values())
               if m is not None and str(getattr(m, "__file__", "")).endswith(".py")]
    learning = module_scan.quick_answer(slow, module_scan.KeptAnswers(kept))
    assert {m.__name__: learning(m) for m in modules} == {m.__name__: slow(m) for m in modules}
    assert learning.answers.keep()
    reading = module_scan.quick_answer(slow, module_scan.KeptAnswers(kept))
    assert {m.__name__: reading(m) for m in modules} == {m.__name__: slow(m) for m in modules}


def test_answers_for_files_gone_are_dropped_once_the_kept_file_passes_its_bound(
        tmp_path: Path, writes_byte_code: None):
    # Each upgrade or virtual environment leaves the paths of another installation behind
    kept = tmp_path / "pyside_uses.marshal"
    gone = {str(tmp_path / "gone" / f"module_{n}.py"): (1, 2, False)
            for n in range(compiled_methods.MOST_KEPT + 50)}
    asked = tmp_path / "asked_again.py"
    asked.write_text("VALUE = 1\n", encoding="utf-8")
    unchanged = tmp_path / "unchanged.py"
    unchanged.write_text("import PySide6\n", encoding="utf-8")
    first = module_scan.KeptAnswers(kept)
    assert first.uses_pyside(str(unchanged)) is True
    assert first.keep()
    kept.write_bytes(marshal.dumps({**marshal.loads(kept.read_bytes()), **gone}))

    answers = module_scan.KeptAnswers(kept)
    assert answers.uses_pyside(str(unchanged)) is True  # answered from what was kept
    assert answers.uses_pyside(str(asked)) is False  # read now
    assert answers.keep()
    assert marshal.loads(kept.read_bytes()) == {
        str(unchanged): (*_stamp(unchanged), True), str(asked): (*_stamp(asked), False)}


def test_answers_under_the_bound_are_kept_though_not_asked_in_this_run(
        tmp_path: Path, writes_byte_code: None):
    # A start that imports fewer modules (turnlog-cli) does not forget the window's
    kept = tmp_path / "pyside_uses.marshal"
    window_only = tmp_path / "window_only.py"
    window_only.write_text("import PySide6\n", encoding="utf-8")
    cli = tmp_path / "cli.py"
    cli.write_text("VALUE = 1\n", encoding="utf-8")
    window = module_scan.KeptAnswers(kept)
    window.uses_pyside(str(window_only))
    assert window.keep()
    later = module_scan.KeptAnswers(kept)
    later.uses_pyside(str(cli))
    assert later.keep()
    assert set(marshal.loads(kept.read_bytes())) == {str(window_only), str(cli)}


def _stamp(path: Path) -> tuple[int, int]:
    found = path.stat()
    return found.st_mtime_ns, found.st_size
