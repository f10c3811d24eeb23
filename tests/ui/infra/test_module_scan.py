"""PySide's look at each module imported after it gives every module the answer it got
before, from the file's bytes, and keeps no module's text in memory."""

from __future__ import annotations

import importlib
import linecache
import sys
from pathlib import Path

import pytest
from PySide6 import QtCore  # noqa: F401 - PySide's import hook and its module check

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
