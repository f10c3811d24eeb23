"""Run turnlog-cli as a user that file modes apply to.

root ignores file modes (a `chmod 444` database stays writable for it), so when the tests
run as root the CLI runs as `nobody` through `setpriv`, with an interpreter and a data
directory that user can reach. When the checkout (or its virtual environment) sits in a
folder `nobody` cannot enter — CI's fresh clone under a 0700 temporary folder — what the
CLI imports is copied once to a world-readable temporary folder and run from there. As
any other user the CLI simply runs as that user. Tests that need this skip with the
reason when it is not possible.
"""

from __future__ import annotations

import atexit
import functools
import json
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


def _site_dirs() -> list[str]:
    return list(dict.fromkeys([sysconfig.get_paths()["purelib"],
                               sysconfig.get_paths()["platlib"]]))


def _python_path() -> str:
    return os.pathsep.join(dict.fromkeys([str(DESKTOP), *_site_dirs()]))


# Run as root in a child: import what turnlog-cli may import (every module but the
# window's, the key store with its backends, an HTTP client), then name the top-level
# packages of the site folders that were loaded, with those of every distribution they
# need (what they import lazily).
_CLOSURE = """
import json, pkgutil, re, sys
from importlib import metadata
import turnlog
for info in pkgutil.walk_packages(turnlog.__path__, "turnlog."):
    if not info.name.startswith(("turnlog.ui", "turnlog.app")) and not \\
            info.name.endswith("__main__"):
        __import__(info.name)
import httpx, keyring
keyring.get_keyring()
httpx.Client().close()
sites = sys.argv[1:]
names = set()
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None) or ""
    for site in sites:
        if path.startswith(site + "/"):
            names.add(path[len(site) + 1:].split("/")[0])
owners = metadata.packages_distributions()
todo = [d for n in names for d in owners.get(n.removesuffix(".py"), [])]
# and what turnlog itself requires (imported on first use, so not loaded above), but Qt
todo += [re.split(r"[ ;<>=!~\\[(]", r, maxsplit=1)[0] for r in metadata.requires("turnlog")
         or [] if "extra ==" not in r and not r.startswith("PySide6")]
seen = set()
while todo:
    wanted = todo.pop()
    if wanted.lower() in seen:
        continue
    seen.add(wanted.lower())
    try:
        dist = metadata.distribution(wanted)
    except metadata.PackageNotFoundError:
        continue
    todo += [re.split(r"[ ;<>=!~\\[(]", r, maxsplit=1)[0] for r in dist.requires or []
             if "extra ==" not in r]
    names |= {str(f).split("/")[0] for f in dist.files or ()
              if not str(f).startswith("..")}
print(json.dumps(sorted(names)))
"""


@functools.cache
def _copied_runtime() -> str:
    """A PYTHONPATH the unprivileged user can read: turnlog and the site packages the CLI
    imports (with every distribution's metadata, for entry points), copied to a
    world-readable temporary folder that is removed at exit."""
    sites = _site_dirs()
    found = subprocess.run([sys.executable, "-c", _CLOSURE, *sites], capture_output=True,
                           text=True, timeout=120, env={**os.environ,
                                                       "PYTHONPATH": _python_path()})
    if found.returncode != 0:
        return ""
    names = set(json.loads(found.stdout))
    base = Path(tempfile.mkdtemp(prefix="turnlog-runtime-"))
    atexit.register(shutil.rmtree, base, True)
    shutil.copytree(DESKTOP / "turnlog", base / "desktop" / "turnlog", symlinks=True)
    for site in sites:
        for entry in Path(site).iterdir():
            if entry.name in names or entry.name.endswith(".dist-info"):
                target = base / "site" / entry.name
                if entry.is_dir():
                    shutil.copytree(entry, target, symlinks=True, dirs_exist_ok=True)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(entry, target)
    for root, dirs, files in os.walk(base):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    os.chmod(base, 0o755)
    return os.pathsep.join([str(base / "desktop"), str(base / "site")])


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
    candidates = [c for c in (sys.executable, shutil.which(version), f"/usr/bin/{version}")
                  if c and os.path.exists(c)]
    direct = None if os.environ.get("TURNLOG_TEST_COPY_RUNTIME") else _python_path()
    for python_path in (direct, "copy"):
        if python_path == "copy":
            python_path = _copied_runtime()
        if not python_path:
            continue
        for candidate in candidates:
            argv = _as_nobody(["env", f"PYTHONPATH={python_path}", candidate])
            probe = subprocess.run([*argv, "-c", "import turnlog.cli, peewee, httpx"],
                                   capture_output=True, timeout=60)
            if probe.returncode == 0:
                return argv, ""
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
