"""Ctrl+C at any moment of a `turnlog-cli` command: "interrupted", exit status 130, no
traceback, and the log as it was — from the first milliseconds (Python still importing the
commands) to the middle of the work."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loopback import Behaviour

DELAYS = (0.05, 0.1, 0.2, 0.5, 1.0)  # seconds after the process was started


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env=os.environ.copy())


def interrupted_after(delay: float, *args: str) -> tuple[int, str]:
    """Start `turnlog-cli ARGS`, press Ctrl+C `delay` seconds later: (status, stderr).
    On a loaded machine Python itself may not have started Turnlog's code yet: then it
    is pressed again, as a person would, once it has (no Turnlog frame in the trace)."""
    for _attempt in range(5):
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "turnlog.cli", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=os.environ.copy())
        time.sleep(max(0.0, started + delay - time.monotonic()))
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        if not before_turnlog(err):
            break
    return proc.returncode, err


def before_turnlog(err: str) -> bool:
    """Whether Ctrl+C came before the handler could exist: while the interpreter was
    still starting (importing runpy or its own modules) or importing the handler's own
    module (`os`, `signal`). Anywhere later is the command's to handle."""
    if "KeyboardInterrupt" not in err:
        return False
    frames = [line for line in err.splitlines()
              if line.strip().startswith("File") and "turnlog" in line]
    return not frames or (all("interrupt.py" in line or "cli/__init__.py" in line
                              for line in frames) and "from . import interrupt" in err)


def listing() -> str:
    result = cli("list")
    assert result.returncode == 0, result.stderr
    return result.stdout


def export(conversation: int) -> str:
    result = cli("export", str(conversation))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def long_import(tmp_path_factory) -> Path:
    """A file whose import takes seconds: 100,000 turns."""
    path = tmp_path_factory.mktemp("import") / "long.jsonl"
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"turnlog": 1, "title": "Long"}) + "\n")
        for number in range(100_000):
            out.write(json.dumps({"question": f"q{number}", "answer": "an answer"}) + "\n")
    return path


@pytest.mark.parametrize("delay", DELAYS)
def test_ctrl_c_during_import(delay, long_import):
    before = listing()
    status, err = interrupted_after(delay, "import", str(long_import))
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert status == 130, err
    assert err.strip().splitlines()[-1] == "interrupted"
    assert listing() == before


@pytest.mark.parametrize("delay", DELAYS)
def test_ctrl_c_during_ask(delay, loopback):
    added = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                loopback.base_url, "--model", "loopback-model", input="")
    assert added.returncode == 0, added.stderr
    loopback.script(Behaviour.answer("First answer.", chunks=2))
    assert cli("ask", "--new", "first question").returncode == 0
    before = export(1)
    asked = len(loopback.requests)
    loopback.script(Behaviour.slow("word " * 50, delay_s=0.2, chunks=50))
    status, err = interrupted_after(delay, "ask", "--conversation", "1", "second question")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    if status == 4:
        # `ask` was connecting or sending: Ctrl+C cancels the request, named, and gives
        # the question back (as documented for `ask`).
        assert "failure: cancelled" in err and "second question" in err, err
    else:
        assert status == 130, err
        assert err.strip().splitlines()[-1] == "interrupted"
        assert len(loopback.requests) == asked  # interrupted before anything was sent
    assert export(1) == before
