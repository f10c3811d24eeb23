"""Run turnlog-cli as a user that file modes apply to.

root ignores file modes (a `chmod 444` database stays writable for it), so when the tests
run as root the CLI runs as `nobody` through `setpriv`, with an interpreter and a data
directory that user can reach. As any other user the CLI simply runs as that user.
Tests that need this skip with the reason when it is not possible.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import turnlog

NOBODY = 65534
DESKTOP = Path(turnlog.__file__).resolve().parents[1]


def _python_path() -> str:
    paths = [str(DESKTOP), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    return os.pathsep.join(dict.fromkeys(paths))


def _as_nobody(argv: list[str]) -> list[str]:
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv]


@functools.cache
def interpreter() -> tuple[list[str], str]:
    """(command prefix, why not) — the prefix runs a Python that imports turnlog with
    file modes enforced; empty with the reason when there is none."""
    if os.geteuid() != 0:
        return [sys.executable], ""
    if shutil.which("setpriv") is None:
        return [], "running as root without setpriv: file modes cannot be enforced"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, shutil.which(version), f"/usr/bin/{version}"):
        if not candidate or not os.path.exists(candidate):
            continue
        probe = subprocess.run(
            _as_nobody(["env", f"PYTHONPATH={_python_path()}", candidate, "-c",
                        "import turnlog.cli, peewee, httpx"]),
            capture_output=True, timeout=60)
        if probe.returncode == 0:
            return _as_nobody(["env", f"PYTHONPATH={_python_path()}", candidate]), ""
    return [], f"no {version} that user {NOBODY} can run imports turnlog"


def need_unprivileged() -> list[str]:
    prefix, why = interpreter()
    if not prefix:
        pytest.skip(why)
    return prefix


def cli(home: Path, *args: str, input: str | None = None, timeout: float = 60,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """turnlog-cli as the unprivileged user, with `home` as its data directory."""
    prefix = need_unprivileged()
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    full_env.update(TURNLOG_HOME=str(home), HOME=str(home.parent), **(env or {}))
    return subprocess.run([*prefix, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=timeout, env=full_env)


def give_away(path: Path) -> None:
    """Hand `path` (recursively) to the unprivileged user when running as root."""
    if os.geteuid() != 0:
        return
    for root, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            os.chown(os.path.join(root, name), NOBODY, NOBODY, follow_symlinks=False)
    os.chown(path, NOBODY, NOBODY)


@pytest.fixture
def shared_home(monkeypatch) -> Iterator[Path]:
    """A data directory the unprivileged user can reach (pytest's own tmp is root's only);
    also this test's TURNLOG_HOME."""
    need_unprivileged()
    base = Path(tempfile.mkdtemp(prefix="turnlog-unpriv-"))
    os.chmod(base, 0o755)
    home = base / "home"
    home.mkdir()
    monkeypatch.setenv("TURNLOG_HOME", str(home))
    yield home
    for root, dirs, _ in os.walk(base):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o700)
    shutil.rmtree(base, ignore_errors=True)
