"""Shared test set-up: headless Qt, a private data directory per test."""

from __future__ import annotations

import os

# Before any Qt import: tests run headless unless a test asks for a real X server.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_QUICK_BACKEND", "software")

import pytest

# Fixture modules living beside the tests (each adds its own line).
pytest_plugins: list[str] = [
    "loopback",
    "keyrings",
    "unprivileged",
]


@pytest.fixture(autouse=True)
def turnlog_home(tmp_path, monkeypatch):
    """Every test gets its own data directory; nothing touches the user's real one."""
    home = tmp_path / "turnlog-home"
    home.mkdir()
    monkeypatch.setenv("TURNLOG_HOME", str(home))
    return home


@pytest.fixture(autouse=True, scope="session")
def collect_on_the_main_thread():
    """As in the app (system/collector.py): garbage in cycles is collected on the thread
    that owns the widgets only, never on a worker that happens to allocate (a page reader,
    the typesetter's thread), where it would destroy Qt objects of the GUI thread."""
    import gc

    from turnlog.system import collector

    collector.take_over()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def collect_between_tests(collect_on_the_main_thread):
    """What each test left in cycles, collected on the main thread when it is due."""
    yield
    from turnlog.system import collector

    collector.collect_due()
