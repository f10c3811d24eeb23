"""Start-up with a shared data directory and file modes to apply."""

from __future__ import annotations

import faulthandler
import importlib.readers  # noqa: F401 - imported while the interpreter's files may be read
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import turnlog.app
import turnlog.ui.infra.folders

NOBODY = 65534


@pytest.fixture(autouse=True)
def _restore_process(monkeypatch):
    """`main` sets the umask, the except hook and file logging for the process."""
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    umask = os.umask(0o022)
    os.umask(umask)
    before = list(logging.getLogger().handlers)
    yield
    os.umask(umask)
    for handler in logging.getLogger().handlers:
        if handler not in before:
            logging.getLogger().removeHandler(handler)
            handler.close()
    faulthandler.enable(file=sys.__stderr__, all_threads=True)
    while turnlog.app.FAULT_STREAMS:
        turnlog.app.FAULT_STREAMS.pop().close()


@contextmanager
def modes_apply() -> Iterator[None]:
    """Root ignores file modes: run the block as `nobody` (this process's effective ids,
    restored after). As any other user the modes apply already."""
    if os.geteuid() != 0:
        yield
        return
    turnlog.app.application(["turnlog"])  # what it imports and reads, while it may
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def shared_home(monkeypatch) -> Iterator[Path]:
    """A data directory that `nobody` can reach (the test's own tmp_path is root's)."""
    base = Path(tempfile.mkdtemp(prefix="turnlog-startup-"))
    os.chmod(base, 0o755)
    home = base / "home"
    home.mkdir()
    monkeypatch.setenv("TURNLOG_HOME", str(home))
    yield home
    shutil.rmtree(base, ignore_errors=True)
