"""Fuzzing what a tool server may answer: the `result` of `tools/list` and of `tools/call`,
of any shape, from a real stdio server (tests/support/hostile_mcp.py `replay`) through the real
tool host. Every reply either works or ends in a named failure (the server failed with a
reason, the call unavailable or timed out): never another exception, never a hang, never
unbounded memory, and never a server process left behind.

The examples per test are fixed for CI (`TURNLOG_FUZZ_EXAMPLES`, as
tests/journeys/hostile_input/test_fuzz.py;
a server is started for each, so these run a third of that);
`tests/bench/fuzz.py` runs them for a given time.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path

import mcp  # noqa: F401 - loaded here, not first in the host's thread while hypothesis imports
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_inputs import ANY_JSON, HOSTILE_TEXT
from hostile_mcp import __file__ as HOSTILE_SCRIPT
from hostile_mcp import wait_gone
from turnlog.toolhost.host import (
    ServerState,
    ToolCallTimedOut,
    ToolHost,
    ToolOutput,
    ToolServerUnavailable,
)
from turnlog.toolhost.launch import StdioLaunch

EXAMPLES = max(5, int(os.environ.get("TURNLOG_FUZZ_EXAMPLES", "60")) // 3)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
MEMORY_BOUND = 64 << 20  # what one example may take in the test process
TIME_BOUND_S = 30.0

SCHEMA = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from(["object", "string", "array", "x"])}),
    lambda inner: st.fixed_dictionaries({"type": st.just("object"),
                                         "properties": st.dictionaries(HOSTILE_TEXT, inner,
                                                                       max_size=3)}),
    max_leaves=10) | ANY_JSON | st.integers(1, 150).map(
    lambda depth: json.loads('{"type": "object", "properties": {"a": ' * depth + "{}"
                             + "}}" * depth))
TOOL = st.fixed_dictionaries(
    {"name": HOSTILE_TEXT | ANY_JSON},
    optional={"description": HOSTILE_TEXT | ANY_JSON, "inputSchema": SCHEMA,
              "title": HOSTILE_TEXT, "annotations": ANY_JSON, "outputSchema": SCHEMA})
LISTING = st.fixed_dictionaries(
    {"tools": st.lists(TOOL, max_size=4) | ANY_JSON},
    optional={"nextCursor": st.none() | HOSTILE_TEXT | ANY_JSON}) | ANY_JSON
BLOCK = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": HOSTILE_TEXT | ANY_JSON}),
    st.fixed_dictionaries({"type": st.sampled_from(["image", "audio"]),
                           "data": st.sampled_from(["", "aGVsbG8=", "!!", "a" * 1000]),
                           "mimeType": HOSTILE_TEXT}),
    st.fixed_dictionaries({"type": st.just("resource"), "resource": st.fixed_dictionaries(
        {"uri": HOSTILE_TEXT}, optional={"text": HOSTILE_TEXT, "blob": HOSTILE_TEXT,
                                         "mimeType": HOSTILE_TEXT})}),
    st.fixed_dictionaries({"type": st.just("resource_link"), "uri": HOSTILE_TEXT,
                           "name": HOSTILE_TEXT}),
    ANY_JSON)
CALL = st.fixed_dictionaries(
    {"content": st.lists(BLOCK, max_size=4) | ANY_JSON},
    optional={"isError": st.booleans() | ANY_JSON, "structuredContent": ANY_JSON}) | ANY_JSON

_ids = itertools.count()


@pytest.fixture(scope="module")
def host():
    tool_host = ToolHost()
    yield tool_host
    tool_host.close()


def replay(tmp_path: Path, listing: object, call: object) -> tuple[StdioLaunch, Path]:
    number = next(_ids)
    script = tmp_path / f"replies-{number}.json"
    script.write_text(json.dumps({"list": listing, "call": call}), encoding="utf-8")
    pid_file = tmp_path / f"server-{number}.pid"
    return StdioLaunch(sys.executable, (str(Path(HOSTILE_SCRIPT).resolve()), str(pid_file),
                                        "replay", str(script))), pid_file


@FUZZ
@given(listing=LISTING, call=CALL)
def test_any_listing_and_call_result_works_or_is_named(host, tmp_path, listing, call):
    launch, pid_file = replay(tmp_path, listing, call)
    server = f"fuzz-{pid_file.stem}"
    started = time.monotonic()
    tracemalloc.start()
    try:
        status = host.ensure_started(server, launch, timeout_s=10)
        if status.state is ServerState.READY:
            name = status.tools[0].name if status.tools else "anything"
            assert all(isinstance(tool.input_schema, dict) for tool in status.tools)
            try:
                output = host.call(server, name, {"text": "hi"}, timeout_s=10)
                assert isinstance(output, ToolOutput) and isinstance(output.text, str)
            except (ToolServerUnavailable, ToolCallTimedOut) as named:
                assert str(named)
        else:
            assert status.state is ServerState.FAILED and status.reason, status
        host.stop(server)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < MEMORY_BOUND
    assert time.monotonic() - started < TIME_BOUND_S
    if pid_file.exists():
        assert wait_gone(int(pid_file.read_text(encoding="utf-8")), 2)
