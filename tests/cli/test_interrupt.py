"""Ctrl+C at any moment of a `turnlog-cli` command: "interrupted", exit status 130, no
traceback, and the log as it was — from the first milliseconds (Python still importing the
commands) to the middle of the work."""

from __future__ import annotations

import json
import os
import re
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
    for attempt in range(8):
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "turnlog.cli", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=os.environ.copy())
        # Each press again comes a little later, as a person's would.
        time.sleep(max(0.0, started + delay * (attempt + 1) - time.monotonic()))
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        if not before_turnlog(proc.returncode, err):
            break
    return proc.returncode, err


def before_turnlog(status: int, err: str) -> bool:
    """Whether Ctrl+C came before the handler could exist: before the interpreter had
    its own handler (the process ends by the signal, silently), while it was still
    starting (importing runpy or its own modules) or importing the handler's own module
    (`os`, `signal`). Anywhere later is the command's to handle."""
    if status == -signal.SIGINT and not err.strip():
        return True
    if "KeyboardInterrupt" not in err:
        return False
    frames = [line for line in err.splitlines()
              if line.strip().startswith("File") and "turnlog" in line]
    return all(_before_handler(line) for line in frames)


def _before_handler(frame: str) -> bool:
    """A traceback's frame in the handler's module, or in the package's first lines, up
    to and including the one that imports it."""
    if "cli/interrupt.py" in frame:
        return True
    found = re.search(r'cli/__init__\.py", line (\d+)', frame)
    return found is not None and int(found.group(1)) <= HANDLER_LINE


HANDLER_LINE = next(number for number, line in enumerate(
    (Path(__file__).resolve().parents[2] / "desktop/turnlog/cli/__init__.py")
    .read_text(encoding="utf-8").splitlines(), start=1) if line == "from . import interrupt")


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


def test_ctrl_c_in_code_run_from_a_string_still_exits_130(tmp_path):
    """A `KeyboardInterrupt` raised inside code Python runs from a string (as the dataclass
    makers do while a command loads its modules) is handled like any other: run as
    `python -m`, the process exits with 130, not by the signal."""
    (tmp_path / "interrupted_inside.py").write_text(
        "import turnlog.cli as cli\n"
        "cli._run = lambda argv: exec('raise KeyboardInterrupt')\n"
        "raise SystemExit(cli.main([]))\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "interrupted_inside"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (130, "interrupted\n")
