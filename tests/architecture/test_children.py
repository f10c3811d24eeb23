"""One way to run a child process (`turnlog.system.children`): the rule that nothing else starts
one, and what every child gets from it — it outlives the thread that asked for it but not
Turnlog, its group goes with it, a killed Turnlog's children are reaped on the next start
(only when pid, start time and command line match), its error output is bounded."""

from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import turnlog
from hostile_mcp import wait_gone
from turnlog.system import children

PACKAGE_DIR = Path(turnlog.__file__).parent
THE_MODULE = "system/children.py"
BANNED_MODULES = {"subprocess", "multiprocessing", "concurrent.futures.process", "pty"}
BANNED_NAMES = {
    ("concurrent.futures", "ProcessPoolExecutor"), ("os", "fork"), ("os", "forkpty"),
    ("os", "posix_spawn"), ("os", "posix_spawnp"), ("os", "system"), ("os", "popen"),
    ("os", "spawnv"), ("os", "spawnvp"), ("os", "spawnl"), ("os", "spawnlp"),
    ("os", "execv"), ("os", "execvp"), ("os", "execve"), ("os", "execl"), ("os", "execlp"),
    ("asyncio", "create_subprocess_exec"), ("asyncio", "create_subprocess_shell"),
    ("anyio", "open_process"), ("anyio", "run_process"), ("QtCore", "QProcess"),
    ("PySide6.QtCore", "QProcess"),
}


def process_starts(package_dir: Path) -> list[str]:
    """Every place outside `children.py` that could start a process, as path:line: what."""
    found: list[str] = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(package_dir).as_posix()
        if relative == THE_MODULE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            what = _start_in(node)
            if what:
                found.append(f"turnlog/{relative}:{node.lineno}: {what}")
    return found


def _start_in(node: ast.AST) -> str:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in BANNED_MODULES or alias.name.startswith("multiprocessing."):
                return f"imports {alias.name}"
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module in BANNED_MODULES or node.module.startswith("multiprocessing"):
            return f"imports from {node.module}"
        for alias in node.names:
            if (node.module, alias.name) in BANNED_NAMES or \
                    (node.module.split(".")[-1], alias.name) in BANNED_NAMES:
                return f"imports {alias.name} from {node.module}"
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            (node.value.id, node.attr) in BANNED_NAMES:
        return f"uses {node.value.id}.{node.attr}"
    if isinstance(node, ast.Attribute) and node.attr in ("QProcess", "ProcessPoolExecutor"):
        return f"uses {node.attr}"
    return ""


def test_no_process_starts_outside_the_children_module():
    assert process_starts(PACKAGE_DIR) == []


@pytest.mark.parametrize("relative, code, expected", [
    ("service/chat.py", "import subprocess", "imports subprocess"),
    ("ui/transcript/maths.py", "from concurrent.futures import ProcessPoolExecutor",
     "imports ProcessPoolExecutor from concurrent.futures"),
    ("toolhost/host.py", "def f():\n    import multiprocessing", "imports multiprocessing"),
    ("localmodel/server.py", "import os\nos.posix_spawn", "uses os.posix_spawn"),
    ("toolhost/stdio.py", "import asyncio\nasyncio.create_subprocess_exec",
     "uses asyncio.create_subprocess_exec"),
])
def test_a_planted_process_start_is_named(tmp_path, relative, code, expected):
    copy = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / relative
    path.write_text(path.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")
    found = process_starts(copy)
    assert len(found) == 1 and found[0].startswith(f"turnlog/{relative}:")
    assert found[0].endswith(expected), found


# ------------------------------------------------------------------- what a child gets
SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def test_a_child_outlives_the_worker_thread_that_asked_for_it():
    started: list[children.Child] = []
    worker = threading.Thread(target=lambda: started.append(children.start(SLEEPER)))
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    (child,) = started
    try:
        time.sleep(0.5)  # a death signal tied to the worker would have fired by now
        assert child.running()
    finally:
        child.stop(0)
    assert wait_gone(child.pid, 2)


def test_stop_ends_a_child_that_ignores_end_of_input_and_sigterm_and_its_own_children():
    script = textwrap.dedent("""
        import signal, subprocess, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        print(grandchild.pid, flush=True)
        sys.stdin.read()
        time.sleep(120)
    """)
    child = children.start([sys.executable, "-c", script], stdin="pipe", stdout="pipe")
    assert child.stdout is not None
    grandchild = int(child.stdout.readline())
    started = time.monotonic()
    child.stop(0.5)
    assert time.monotonic() - started < 3
    assert wait_gone(child.pid, 2) and wait_gone(grandchild, 2)


def test_stderr_is_kept_as_its_last_64_kib():
    script = ("import os\nfor i in range(2000): os.write(2, b'%05d ' % i + b'x' * 1000 + b'\\n')"
              "\nos.write(2, b'the end\\n')")
    child = children.start([sys.executable, "-c", script])
    assert child.wait(30) == 0
    child.stop(0)
    tail = child.stderr_tail()
    assert len(tail) == children.STDERR_TAIL_BYTES and tail.endswith(b"the end\n")
    assert child.stderr_lines(1) == ("the end",)


def test_a_command_that_cannot_start_is_named():
    with pytest.raises(children.ChildStartFailed, match="the command was not found"):
        children.start(["/nonexistent/turnlog-server"])


def test_an_address_space_limit_holds():
    child = children.start([sys.executable, "-c", "b = bytearray(600 * 1024 * 1024)"],
                           limits=children.Limits(address_space=300 * 1024 * 1024))
    assert child.wait(30) != 0
    child.stop(0)
    assert "MemoryError" in "\n".join(child.stderr_lines(5))


ORPHAN_MAKER = textwrap.dedent("""
    import sys
    from turnlog.system import children
    child = children.start([sys.executable, "-c", "import time; time.sleep(120)"])
    print(child.pid, flush=True)
    import time; time.sleep(120)
""")


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    monkeypatch.setenv(children.ENV_RUNTIME, str(tmp_path / "runtime"))
    return tmp_path / "runtime"


def test_a_child_is_gone_within_2_s_of_a_kill_9_of_turnlog_and_its_record_is_cleared(
        runtime):
    env = dict(os.environ, TURNLOG_RUNTIME_DIR=str(runtime))
    maker = subprocess.Popen([sys.executable, "-c", ORPHAN_MAKER], env=env,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert maker.stdout is not None
    with maker.stdout:
        pid = int(maker.stdout.readline())
    record = runtime / "children" / f"{pid}.json"
    entry = json.loads(record.read_text(encoding="utf-8"))
    assert entry["pid"] == pid and entry["argv"][-1] == "import time; time.sleep(120)"
    maker.kill()
    maker.wait()
    assert wait_gone(pid, 2), "the child outlived a killed Turnlog"
    # Its record is left; the next start sees the pid gone and clears it.
    assert children.reap_orphans(runtime / "children") == []
    assert not record.exists()


def survivor(runtime: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """A process recorded as a child of a Turnlog that is gone, with no death signal (as a
    child whose death signal could not be set): what the next start must reap."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                               start_new_session=True)
    time.sleep(0.2)
    gone_owner = subprocess.Popen([sys.executable, "-c", "pass"])
    gone_owner.wait()
    folder = runtime / "children"
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / f"{process.pid}.json"
    record.write_text(json.dumps({
        "pid": process.pid, "started": children._start_time(process.pid),
        "argv": [sys.executable, "-c", "import time; time.sleep(120)"],
        "owner": gone_owner.pid, "owner_started": 1}), encoding="utf-8")
    return process, record


def test_an_orphan_is_killed_only_when_pid_start_time_and_command_line_match(runtime):
    process, record = survivor(runtime)
    try:
        entry = json.loads(record.read_text(encoding="utf-8"))
        # Another process now holds the pid (its start time differs): left alone.
        record.write_text(json.dumps(entry | {"started": entry["started"] - 1}))
        assert children.reap_orphans(runtime / "children") == []
        assert process.poll() is None and not record.exists()
        # The same pid and start time, another command line: left alone.
        record.write_text(json.dumps(entry | {"argv": ["/usr/bin/something-else", "-c", "x"]}))
        assert children.reap_orphans(runtime / "children") == []
        assert process.poll() is None
        # A record whose Turnlog still runs (this test): left alone, record kept.
        record.write_text(json.dumps(entry | {"owner": os.getpid(), "owner_started":
                                              children._start_time(os.getpid())}))
        assert children.reap_orphans(runtime / "children") == []
        assert process.poll() is None and record.exists()
        # All of it matches and its Turnlog is gone: killed.
        record.write_text(json.dumps(entry))
        assert children.reap_orphans(runtime / "children") == [process.pid]
        assert process.wait(5) == -signal.SIGKILL
        assert not record.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

