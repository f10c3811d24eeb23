"""`turnlog-cli ask` against servers that answer in hostile ways: JSON nested past any
parser's depth, a key echoed outside the text, an event that never ends, text that is not
Unicode. Each ends as a named failure with the question given back, or a safe answer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from loopback import Behaviour


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env={**os.environ, **(env or {})})


def add_profile(loopback, *extra: str, input: str = "") -> None:
    result = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                 loopback.base_url, "--model", "loopback-model", *extra, input=input)
    assert result.returncode == 0, result.stderr


def assert_failed(result: subprocess.CompletedProcess[str], name: str, question: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 4, result.stderr[-2000:]
    assert f"failure: {name}" in result.stderr
    assert question in result.stderr, "the question must be given back"


DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_IN_REPLY = b'{"choices": [{"index": 0, "message": ' + b'{"x": ' * 100_000 + b"1" + \
    b"}" * 100_000 + b"}]}"


def test_json_nested_too_deeply_is_a_malformed_reply(loopback, turnlog_home):
    add_profile(loopback)
    replies = [(DEEP, "application/json"), (DEEP_IN_REPLY, "application/json"),
               (b"data: " + DEEP + b"\n\n", "text/event-stream"),
               (b"data: " + DEEP_IN_REPLY + b"\n\n", "text/event-stream")]
    loopback.script(*[Behaviour.raw(200, body, content_type=kind) for body, kind in replies])
    for number in range(len(replies)):
        question = f"How deep does it go? ({number})"
        assert_failed(cli("ask", "--new", question), "malformed", question)
    assert not (turnlog_home / "turnlog.sqlite3").exists() or cli("list").stdout == \
        "no conversations yet\n"


KEY = "sk-test-ECHOKEY-" + "7" * 24


@pytest.mark.keyring
def test_a_key_echoed_as_the_model_name_is_neither_stored_nor_printed(
        loopback, secret_service, turnlog_home):
    add_profile(loopback, "--key-stdin", input=KEY + "\n")
    loopback.script(Behaviour.answer("An answer.", model=f"served-as-{KEY}"),
                    Behaviour.answer("Again.", model=KEY, stream=False))
    first = cli("ask", "--new", "Who are you?")
    second = cli("ask", "--conversation", "1", "And now?")
    for result in (first, second):
        assert result.returncode == 0, result.stderr
        assert KEY not in result.stdout + result.stderr
    outputs = [cli(*command) for command in (["export", "1"], ["show", "1"], ["list"],
                                             ["export", "1", "--format", "markdown"])]
    assert all(out.returncode == 0 and KEY not in out.stdout for out in outputs)
    assert "served-as-[redacted]" in outputs[0].stdout
    for path in turnlog_home.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


@pytest.mark.parametrize(("gzip", "chunks", "name"), [
    (False, False, "malformed"), (True, False, "malformed"), (True, True, "response_too_large"),
], ids=["plain", "gzip", "gzip-chunks"])
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_an_event_that_never_ends_stops_at_the_size_limit(loopback, gzip, chunks, name):
    """`data:` lines with no blank line (64 MiB, or 256 MiB gzipped to 256 KiB): one event,
    read only up to the limit a reply may have, with a bounded memory. Lines that are
    chunks each count as one (as some servers send them), up to the answer's limit."""
    add_profile(loopback)
    size = (256 if gzip else 64) * 1024 * 1024
    loopback.script(Behaviour.endless_event(size, gzip=gzip, chunks=chunks))
    question = "Will this ever end?"
    result = subprocess.run([sys.executable, "-c", MEASURED, "ask", "--new", question],
                            capture_output=True, text=True, timeout=60)
    peak_mib = int(result.stderr.rsplit("peak_kib=", 1)[1]) // 1024
    assert peak_mib <= 100, f"the CLI peaked at {peak_mib} MiB"
    assert_failed(result, name, question)


# The CLI's own main, telling at its end how much memory it held at most (VmHWM: since
# exec, unlike ru_maxrss, which keeps the high-water mark of the forking test process).
MEASURED = """import re, sys
from pathlib import Path
from turnlog.cli import main
code = main(sys.argv[1:])
hwm = re.search(r"VmHWM:\\s*(\\d+)", Path("/proc/self/status").read_text()).group(1)
print(f"peak_kib={hwm}", file=sys.stderr)
sys.exit(code)
"""


# --- lone surrogates ---------------------------------------------------------------------

LONE = '{"choices": [{"index": 0, "delta": {"content": "half \\ud800 a pair"}}]}'
STOP = '{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}'


@pytest.mark.parametrize("terminal", ["0", "1"], ids=["pipe", "terminal"])
def test_a_lone_surrogate_in_a_streamed_answer_is_shown_replaced(loopback, terminal):
    add_profile(loopback)
    events = f"data: {LONE}\n\ndata: {STOP}\n\ndata: [DONE]\n\n"
    loopback.script(Behaviour.raw(200, events.encode(), content_type="text/event-stream"))
    result = cli("ask", "--new", "Half a pair?", env={"TURNLOG_TERMINAL": terminal})
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr
    assert result.stdout == "half \ufffd a pair\n"
    assert "half \ufffd a pair" in cli("show", "1").stdout
