"""Hostile stdio tool servers (tests/support/hostile_mcp.py) through the real turnlog-cli: each case
ends named, within 30 s, and leaves no server process behind."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hostile_mcp import __file__ as HOSTILE_SCRIPT
from hostile_mcp import wait_gone
from loopback import Behaviour
from peaks import ChildrenPeak

HOSTILE = [sys.executable, str(Path(HOSTILE_SCRIPT).resolve())]
GIB = 1024 ** 3


def cli(*args: str, env: dict[str, str], timeout: float = 60) -> tuple[
        subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                            text=True, timeout=timeout, env=env, start_new_session=True,
                            stdin=subprocess.DEVNULL)
    return result, time.monotonic() - started


@pytest.fixture
def env(turnlog_home, tmp_path):
    out = os.environ.copy()
    out["HOSTILE_PID_FILE"] = str(tmp_path / "server.pid")
    return out


def server_pid(env: dict[str, str]) -> int:
    return int(Path(env["HOSTILE_PID_FILE"]).read_text(encoding="utf-8"))


def add(env: dict[str, str], name: str, *mode: str) -> None:
    added, _ = cli("tools", "add", name, "--", *HOSTILE, env["HOSTILE_PID_FILE"], *mode,
                   env=env)
    assert added.returncode == 0, added.stderr


def add_profile(env: dict[str, str], loopback) -> None:
    result, _ = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                    loopback.base_url, "--model", "loopback-model", env=env)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("mode", [("silent",), ("deep", "5000")], ids=["no-initialize",
                                                                       "deep-schema"])
def test_tools_list_names_an_unavailable_server_and_stops_it(env, mode):
    add(env, "hostile", *mode)
    listed, took = cli("tools", "list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "Traceback" not in listed.stderr and "ToolServerUnavailable" not in listed.stderr
    assert "hostile\tfailed: " in listed.stdout
    reason = "did not answer within 20 s" if mode[0] == "silent" else "nested too deeply"
    assert reason in listed.stdout
    assert took < 30
    assert wait_gone(server_pid(env), 2), "the server outlived turnlog-cli"


@pytest.mark.parametrize("mode", [("silent",), ("deep", "5000")], ids=["no-initialize",
                                                                       "deep-schema"])
def test_ask_names_an_unavailable_server_and_stops_it(env, loopback, mode):
    add_profile(env, loopback)
    add(env, "hostile", *mode)
    cli("tools", "enable", "hostile", env=env)
    loopback.script(Behaviour.answer("Answered without tools."))
    asked, took = cli("ask", "--new", "--tools", "hostile", "--approve-all", "q", env=env)
    assert "Traceback" not in asked.stderr
    assert "note: tool server hostile failed: " in asked.stderr
    assert asked.returncode == 0 and "Answered without tools." in asked.stdout
    assert took < 30
    assert wait_gone(server_pid(env), 2), "the server outlived turnlog-cli"


def test_a_server_flooding_stderr_costs_its_last_64_kib_not_a_file(env):
    """1 GiB on standard error: turnlog-cli runs under a 64 MiB limit on the files it (and
    its children) write, and its memory stays small; the server is still ready."""
    add(env, "flood", "flood", str(GIB))

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024 * 1024, 64 * 1024 * 1024))

    peak = ChildrenPeak()
    started = time.monotonic()
    listed = subprocess.run([sys.executable, "-m", "turnlog.cli", "tools", "list", "--json"],
                            capture_output=True, text=True, timeout=60, env=env,
                            stdin=subprocess.DEVNULL, preexec_fn=small_files)
    assert listed.returncode == 0, listed.stderr
    (server,) = json.loads(listed.stdout)["servers"]
    assert server["state"] == "ready", server
    assert not peak.exceeded(500 * 1024), peak.now()  # turnlog-cli and the server, each
    assert time.monotonic() - started < 30


def test_a_failing_flooding_server_shows_the_end_of_its_stderr(tmp_path):
    from turnlog.toolhost.host import ServerState, ToolHost
    from turnlog.toolhost.launch import StdioLaunch

    script = tmp_path / "dies.py"
    script.write_text("import os\nos.write(2, b'x' * (100 * 1024 * 1024))\n"
                      "os.write(2, b'\\nthe last words\\n')\nraise SystemExit(3)\n",
                      encoding="utf-8")
    host = ToolHost()
    try:
        status = host.ensure_started("dies", StdioLaunch(sys.executable, (str(script),)),
                                     timeout_s=20)
    finally:
        host.close()
    assert status.state is ServerState.FAILED
    assert status.stderr_tail[-1] == "the last words"
    assert sum(len(line) for line in status.stderr_tail) <= 64 * 1024


def test_kill_9_of_ask_after_a_tool_ran_takes_the_server_with_it(env, loopback):
    """The server ignores end of input and SIGTERM: only the parent-death signal and its
    process group end it."""
    add_profile(env, loopback)
    add(env, "deaf", "deaf")
    cli("tools", "enable", "deaf", env=env)
    loopback.script(Behaviour.calls(("echo", json.dumps({"text": "hi"}))),
                    Behaviour.hang())
    process = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "ask", "--new", "--tools",
                                "deaf", "--approve-all", "q"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        loopback.wait_for_requests(2, timeout=30)  # the second request carries the result
        pid = server_pid(env)
        assert not wait_gone(pid, 0.2)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        assert wait_gone(pid, 2), "the tool server outlived a killed turnlog-cli"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
