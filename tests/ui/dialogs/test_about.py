"""`turnlog --version` and Help → About: the version, Qt and Python versions, the data
directory and the log file, with buttons that open their folders."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest
from PySide6.QtCore import QObject, QUrl, Slot, qVersion
from PySide6.QtGui import QDesktopServices

import places
import turnlog
from turnlog.app import open_window
from turnlog.localmodel import available, installed_build
from turnlog.store import TurnlogStore
from turnlog.ui.dialogs.about import llama_text

DESKTOP = str(places.DESKTOP)


def test_version_prints_versions_and_places_and_creates_nothing(tmp_path):
    home = tmp_path / "not-yet"
    env = dict(os.environ, TURNLOG_HOME=str(home), PYTHONPATH=DESKTOP)
    result = subprocess.run([sys.executable, "-m", "turnlog", "--version"], env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Turnlog {turnlog.__version__}",
        f"Qt: {qVersion()} (PySide6 {__import__('PySide6').__version__})",
        f"Python: {platform.python_version()} (CPython)",
        f"Data directory: {home}",
        f"Log file: {home / 'logs' / 'turnlog.log'}",
        f"llama.cpp: {llama_text(installed_build())}",
    ]
    assert not home.exists()  # asking for the version starts nothing and writes nothing


class OpenedUrls(QObject):
    """Receives the URLs Qt would hand to the desktop's file manager."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened_urls():
    catcher = OpenedUrls()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    yield catcher.urls
    QDesktopServices.unsetUrlHandler("file")


def test_about_shows_versions_data_directory_and_log_and_opens_their_folders(
        qtbot, turnlog_home, opened_urls):
    store = TurnlogStore.open(turnlog_home)
    window = open_window(store, turnlog_home)
    qtbot.addWidget(window)
    try:
        dialog = window.show_about()
        qtbot.addWidget(dialog)
        text = dialog.text.text()
        for part in (f"Turnlog {turnlog.__version__}", f"Qt:&nbsp;</td><td>{qVersion()}",
                     f"Python:&nbsp;</td><td>{platform.python_version()}",
                     str(turnlog_home), str(turnlog_home / "logs" / "turnlog.log")):
            assert part in text, part
        dialog.data_button.click()
        dialog.log_button.click()
        assert [url.toLocalFile() for url in opened_urls] == [
            str(turnlog_home), str(turnlog_home / "logs")]
    finally:
        window.shutdown()
        store.close()


@pytest.mark.realmodel
@pytest.mark.skipif(not available().ok, reason="needs the local extra (turnlog[local])")
def test_smoke_test_asks_the_builtin_model_on_a_temporary_data_directory(tmp_path):
    home = tmp_path / "mine"
    home.mkdir()
    env = dict(os.environ, TURNLOG_HOME=str(home), PYTHONPATH=DESKTOP,
               QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-m", "turnlog", "--smoke-test"], env=env,
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke test: answer committed as turn 1" in result.stdout
    assert "smoke test: maths typeset: " in result.stdout
    assert "smoke test: passed" in result.stdout
    assert list(home.iterdir()) == []  # the data directory the user set is never touched
