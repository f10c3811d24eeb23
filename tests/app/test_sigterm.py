"""Ended by SIGTERM (a logout does that), the app closes as if its window were closed: the
window's size and panels are remembered, and it exits cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtCore import QSettings


def test_sigterm_saves_the_window_and_exits_cleanly(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, TURNLOG_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-m", "turnlog"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while not (home / "turnlog.sqlite3").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3)  # the window is up and idle
        assert child.poll() is None, child.stdout.read().decode() if child.stdout else ""
        child.send_signal(signal.SIGTERM)
        output, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, output.decode()
    settings = QSettings(str(home / "window.ini"), QSettings.Format.IniFormat)
    assert settings.value("window/geometry") is not None
    assert settings.value("window/state") is not None
