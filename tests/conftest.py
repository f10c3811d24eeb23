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
